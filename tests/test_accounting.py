"""Accounting: the price list, turn costs, the component split and the run table, checked against hand arithmetic."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from agent_core.cost import accounting as acc
from agent_core.cost import tokens
from agent_core.lineup import lineup
from agent_core.model import ApiError, Run, RunConfig, Turn, Usage

PRICING = acc.load_pricing()
SONNET = "claude-sonnet-4-6"  # 3 / 15 / 3.75 / 0.30 per million
HAIKU = "claude-haiku-4-5"  # 1 / 5 / 1.25 / 0.10 per million
TOOL = {
    "name": "calculator",
    "description": "Evaluate arithmetic.",
    "input_schema": {"type": "object", "properties": {"expression": {"type": "string"}}},
}
# (input, output, cache_creation, cache_read) per turn: turn 1 writes the cache, turns 2 and 3 read it.
USAGES = [(50, 40, 1000, 0), (120, 60, 0, 1000), (300, 80, 0, 1000)]


def _request(model: str, messages: list[dict]) -> dict:
    system = [{"type": "text", "text": "You are a careful assistant. " * 40, "cache_control": {"type": "ephemeral"}}]
    return {"model": model, "max_tokens": 1024, "system": system, "tools": [TOOL], "messages": messages}


def three_turn_run(model: str = SONNET, provider: str = "anthropic") -> Run:
    """A run built by hand: three answered turns plus one failed call that has no response."""
    run = Run(RunConfig(task="What is 2+2, then times 3?", model=model, provider=provider))
    messages = list(run.messages)
    for i, (inp, out, write, read) in enumerate(USAGES, start=1):
        reply = {
            "role": "assistant",
            "content": [
                {"type": "text", "text": f"Step {i}."},
                {"type": "tool_use", "id": f"toolu_{i}", "name": "calculator", "input": {"expression": "2+2"}},
            ],
        }
        usage = Usage(
            input_tokens=inp, output_tokens=out, cache_creation_input_tokens=write, cache_read_input_tokens=read
        )
        run.turns.append(
            Turn(
                index=i,
                request=_request(model, list(messages)),
                usage=usage,
                stop_reason="tool_use",
                response={**reply, "stop_reason": "tool_use", "usage": {}},
            )
        )
        messages += [
            reply,
            {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": f"toolu_{i}", "content": "4" * (10 * i)}],
            },
        ]
    run.turns.append(Turn(index=4, request=_request(model, messages), error=ApiError("status", status=529)))
    return run


# ---------------------------------------------------------------- the price list


def test_shipped_price_list_matches_the_facts_sheet():
    expected = {
        "claude-opus-4-5": (5, 25, 6.25, 0.50),
        "claude-opus-4-8": (5, 25, 6.25, 0.50),
        "claude-sonnet-4-6": (3, 15, 3.75, 0.30),
        "claude-haiku-4-5": (1, 5, 1.25, 0.10),
        "claude-opus-5-5": (4, 20, 5, 0.20),
        # Cache reads were cut to $0.10 (0.05x input, as Opus 5.5's) on 2026-10-07, as the facts sheet says and
        # price trackers reading the pricing page confirm; the model's overview page still lists the old $0.20.
        "claude-sonnet-5-5": (2, 10, 2.50, 0.10),
        "claude-haiku-5-5": (0.10, 0.50, 0.125, 0.01),
        # Not on the facts sheet: the pricing page (cache hits a quarter of Fable 5's $1, as its model page says).
        "claude-fable-5-1": (10, 50, 12.50, 0.25),
    }
    for model, (inp, out, write, read) in expected.items():
        p = PRICING.get(model)
        assert (p.input, p.output, p.cache_write_5m, p.cache_read) == (inp, out, write, read)
    assert len(PRICING.models) == len(lineup().rows)  # one table: every model of the lineup has its price
    small = {"claude-haiku-4-5", "claude-opus-4-5", "claude-sonnet-4-5"}  # the 200K / 64K models
    for model in PRICING.models:
        p = PRICING.prices[model]
        assert p.cache_write_1h == pytest.approx(2 * p.input)
        assert (p.context_window, p.max_output) == ((200_000, 64_000) if model in small else (1_000_000, 128_000))
        assert p.as_of == "2026-12-01" and p.source.startswith("https://platform.claude.com/docs/")
    assert PRICING.currency == "USD"


def test_dated_model_ids_find_their_price_and_unknown_models_are_flagged():
    assert PRICING.get("claude-opus-4-5-20251101").model == "claude-opus-4-5"
    assert PRICING.get("llama3.2:3b") is None
    local = PRICING.price_for("llama3.2:3b")
    assert not local.known and local.label == acc.NO_PRICE_NOTE
    assert acc.turn_cost("llama3.2:3b", Usage(1000, 1000, 1000, 1000), PRICING) == 0.0


def _write(tmp_path: Path, data: object) -> Path:
    path = tmp_path / "pricing.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data, indent=2), encoding="utf-8")
    return path


def _shipped() -> dict:
    return json.loads(acc.PRICING_PATH.read_text(encoding="utf-8"))


def test_bad_json_is_reported_with_line_and_column(tmp_path):
    path = _write(tmp_path, '{\n  "currency": "USD",\n  "models": {,}\n}')
    with pytest.raises(acc.PricingError, match=r"pricing\.json: not valid JSON at line 3, column 14"):
        acc.load_pricing(path)


@pytest.mark.parametrize(
    "field, value, message",
    [
        (
            "input",
            "abc",
            "pricing.json: model 'claude-haiku-4-5': field 'input' must be a non-negative number, got 'abc'",
        ),
        ("cache_read", -0.1, "field 'cache_read' must be a non-negative number, got -0.1"),
        ("output", True, "field 'output' must be a non-negative number, got True"),
        ("context_window", 0, "field 'context_window' must be a positive whole number of tokens, got 0"),
        ("max_output", 64000.5, "field 'max_output' must be a positive whole number of tokens, got 64000.5"),
        ("as_of", "last week", "field 'as_of' must be a date like 2026-11-30, got 'last week'"),
        ("source", "", "field 'source' must be non-empty text"),
        ("cache_wirte_1h", 2, "unknown field 'cache_wirte_1h'"),
    ],
)
def test_a_bad_field_names_the_file_the_model_and_the_field(tmp_path, field, value, message):
    data = _shipped()
    data["models"]["claude-haiku-4-5"][field] = value
    with pytest.raises(acc.PricingError) as err:
        acc.load_pricing(_write(tmp_path, data))
    assert message in str(err.value)
    assert str(err.value).startswith("pricing.json: model 'claude-haiku-4-5': ")


def test_a_missing_field_is_named(tmp_path):
    data = _shipped()
    del data["models"]["claude-opus-5-5"]["cache_write_5m"]
    with pytest.raises(acc.PricingError, match="model 'claude-opus-5-5': field 'cache_write_5m' is missing"):
        acc.load_pricing(_write(tmp_path, data))


def test_file_level_problems_are_named(tmp_path):
    with pytest.raises(acc.PricingError, match="field 'models' must be a non-empty object"):
        acc.load_pricing(_write(tmp_path, {"currency": "USD", "as_of": "2026-11-30", "models": []}))
    with pytest.raises(acc.PricingError, match="field 'currency' is missing"):
        acc.load_pricing(_write(tmp_path, {"as_of": "2026-11-30", "models": {}}))
    with pytest.raises(acc.PricingError, match="nowhere.json: cannot read the file"):
        acc.load_pricing(tmp_path / "nowhere.json")


def test_an_edited_price_is_used(tmp_path):
    data = _shipped()
    data["models"][SONNET]["output"] = 30
    edited = acc.load_pricing(_write(tmp_path, data))
    assert acc.turn_cost(SONNET, Usage(output_tokens=1_000_000), edited) == pytest.approx(30.0)


# ---------------------------------------------------------------- costs


def test_turn_cost_under_two_models():
    usage = Usage(input_tokens=2000, output_tokens=500, cache_creation_input_tokens=4000, cache_read_input_tokens=10000)
    # Sonnet 4.6: 2000*3 + 500*15 + 4000*3.75 + 10000*0.30 = 6000 + 7500 + 15000 + 3000 = 31500 micro-dollars
    assert acc.turn_cost(SONNET, usage, PRICING) == pytest.approx(0.0315)
    # Haiku 4.5: 2000*1 + 500*5 + 4000*1.25 + 10000*0.10 = 2000 + 2500 + 5000 + 1000 = 10500
    assert acc.turn_cost(HAIKU, usage, PRICING) == pytest.approx(0.0105)
    # 1000 of the 4000 written tokens with the 1-hour TTL at 2x input: 3000*3.75 + 1000*6 = 17250 instead of 15000
    assert acc.turn_cost(SONNET, usage, PRICING, cache_write_1h=1000) == pytest.approx(0.03375)
    assert acc.turn_cost(SONNET, None, PRICING) == 0.0


def test_one_hour_writes_are_read_from_the_raw_usage():
    response = {"usage": {"cache_creation": {"ephemeral_5m_input_tokens": 10, "ephemeral_1h_input_tokens": 70}}}
    assert acc.cache_write_1h_tokens(response) == 70
    assert acc.cache_write_1h_tokens({"usage": {}}) == 0 and acc.cache_write_1h_tokens(None) == 0


def test_estimate_next_cost_by_hand():
    body = {
        "model": SONNET,
        "max_tokens": 1000,
        "system": "s" * 40,
        "messages": [{"role": "user", "content": "u" * 40}],
    }
    # input: system 40/4 = 10; user 4 framing + 40/4 = 14; no tools: 24 tokens
    assert tokens.count_request(body) == 24
    # (24*3 + 1000*15) / 1e6
    assert acc.estimate_next_cost(body, SONNET, 1000, PRICING) == pytest.approx(0.015072)
    cached = {**body, "system": [{"type": "text", "text": "s" * 40, "cache_control": {"type": "ephemeral"}}]}
    # a marked prefix may be written: the input is priced at the 5-minute write rate, (24*3.75 + 15000) / 1e6
    assert acc.estimate_next_cost(cached, SONNET, 1000, PRICING) == pytest.approx(0.01509)
    cached["system"][0]["cache_control"]["ttl"] = "1h"
    assert acc.estimate_next_cost(cached, SONNET, 1000, PRICING) == pytest.approx((24 * 6 + 15000) / 1e6)
    assert acc.estimate_next_cost(body, "my-local-model", 1000, PRICING) == 0.0


@given(st.integers(0, 24), st.integers(0, 24), st.integers(0, 1000))
def test_the_estimate_bounds_any_real_split_of_the_same_input(write, read, output):
    body = {
        "model": SONNET,
        "system": [{"type": "text", "text": "s" * 40, "cache_control": {"type": "ephemeral"}}],
        "messages": [{"role": "user", "content": "u" * 40}],
    }
    write = min(write, 24)
    read = min(read, 24 - write)
    usage = Usage(24 - write - read, output, write, read)
    assert acc.turn_cost(SONNET, usage, PRICING) <= acc.estimate_next_cost(body, SONNET, 1000, PRICING) + 1e-12


# ---------------------------------------------------------------- the component split


def test_components_are_scaled_to_the_reported_total():
    body = {"model": SONNET, "system": "s" * 40, "messages": [{"role": "user", "content": "u" * 40}]}
    # estimate: system 10, user_text 14 (sum 24); the API reported 48, so every part doubles
    parts = acc.turn_components(body, Usage(input_tokens=8, cache_read_input_tokens=40))
    assert parts["system"] == 20 and parts["user_text"] == 28
    assert sum(parts.values()) == 48
    assert acc.components_note("anthropic") == acc.NOTE_SCALED == acc.components_note("compatible")


def test_offline_components_are_the_simulators_own_estimate():
    run = three_turn_run(provider="offline")
    for turn in run.turns:
        estimate = tokens.split_components(turn.request)
        usage = Usage(input_tokens=tokens.count_request(turn.request))  # what the simulator reports
        parts = acc.turn_components(turn.request, usage)
        assert parts == estimate
        assert sum(parts.values()) == usage.whole_input
    assert acc.turn_components(run.turns[0].request, None) == tokens.split_components(run.turns[0].request)
    assert acc.components_note("offline") == acc.NOTE_OFFLINE


# ---------------------------------------------------------------- the run table


def test_run_table_every_number_by_hand():
    df = acc.run_table(three_turn_run(), PRICING)
    assert list(df.columns) == list(acc.TABLE_COLUMNS)
    assert df[acc.COL_TURN].tolist() == [1, 2, 3]  # the failed call has no response and no row
    assert df[acc.COL_INPUT].tolist() == [50, 120, 300]
    assert df[acc.COL_OUTPUT].tolist() == [40, 60, 80]
    assert df[acc.COL_CACHE_WRITE].tolist() == [1000, 0, 0]
    assert df[acc.COL_CACHE_READ].tolist() == [0, 1000, 1000]
    # whole input = input + write + read: 50+1000, 120+1000, 300+1000
    assert df[acc.COL_WHOLE].tolist() == [1050, 1120, 1300]
    assert df[acc.COL_CUM_INPUT].tolist() == [1050, 1050 + 1120, 1050 + 1120 + 1300]
    assert df[acc.COL_CUM_OUTPUT].tolist() == [40, 100, 180]
    # Sonnet 4.6 per turn, micro-dollars:
    # 1: 50*3 + 40*15 + 1000*3.75 = 150 + 600 + 3750 = 4500
    # 2: 120*3 + 60*15 + 1000*0.30 = 360 + 900 + 300 = 1560
    # 3: 300*3 + 80*15 + 1000*0.30 = 900 + 1200 + 300 = 2400
    assert df[acc.COL_COST].tolist() == pytest.approx([0.0045, 0.00156, 0.0024])
    assert df[acc.COL_CUM_COST].tolist() == pytest.approx([0.0045, 0.00606, 0.00846])
    # Sonnet 4.6 has a 1M window (its model page; the old 200K figure was wrong).
    assert df[acc.COL_WINDOW_SHARE].tolist() == pytest.approx([1050 / 1_000_000, 1120 / 1_000_000, 1300 / 1_000_000])
    for _, row in df.iterrows():
        assert sum(row[c] for c in acc.COMPONENT_COLUMNS) == row[acc.COL_WHOLE]
    assert (df["tools"] > 0).all() and (df["tool_prompt"] > 0).all() and df["tool_result"].iloc[0] == 0
    assert df.attrs["price_known"] and df.attrs["context_window"] == 1_000_000


def test_run_table_under_a_second_model():
    df = acc.run_table(three_turn_run(model=HAIKU), PRICING)
    # Haiku 4.5 per turn: 50 + 200 + 1250 = 1500; 120 + 300 + 100 = 520; 300 + 400 + 100 = 800
    assert df[acc.COL_COST].tolist() == pytest.approx([0.0015, 0.00052, 0.0008])
    assert df[acc.COL_CUM_COST].iloc[-1] == pytest.approx(0.00282)


def test_unknown_model_and_simulated_window():
    run = three_turn_run(model="qwen3:8b", provider="offline")
    run.config.sim.context_window = 5000
    df = acc.run_table(run, PRICING)
    assert df[acc.COL_COST].sum() == 0.0 and not df.attrs["price_known"]
    assert df[acc.COL_WINDOW_SHARE].tolist() == pytest.approx([1050 / 5000, 1120 / 5000, 1300 / 5000])
    run.config.sim.context_window = None
    assert acc.run_table(run, PRICING)[acc.COL_WINDOW_SHARE].isna().all()  # no known window, no share


def test_empty_run_gives_an_empty_numeric_table():
    df = acc.run_table(Run(RunConfig(task="hi")), PRICING)
    assert df.empty and list(df.columns) == list(acc.TABLE_COLUMNS)
    assert df[acc.COL_CUM_COST].sum() == 0


def test_csv_round_trip():
    df = acc.run_table(three_turn_run(), PRICING)
    back = pd.read_csv(io.BytesIO(acc.table_csv(df)))
    assert list(back.columns) == list(acc.TABLE_COLUMNS)
    assert back[acc.COL_WHOLE].tolist() == [1050, 1120, 1300]
    assert back[acc.COL_CUM_COST].tolist() == pytest.approx([0.0045, 0.00606, 0.00846])


# ---------------------------------------------------------------- what-ifs


def test_reprice_puts_the_same_tokens_under_every_model():
    df = acc.run_table(three_turn_run(), PRICING)
    table = acc.reprice(df, PRICING).set_index("model")
    assert list(table.index) == PRICING.models
    assert table.loc[SONNET, "total_usd"] == pytest.approx(0.00846)
    assert table.loc[HAIKU, "total_usd"] == pytest.approx(0.00282)
    # Haiku 4.5 by part: input 470*1, output 180*5, writes 1000*1.25, reads 2000*0.10
    assert table.loc[HAIKU, ["input_usd", "output_usd", "cache_write_usd", "cache_read_usd"]].tolist() == pytest.approx(
        [0.00047, 0.0009, 0.00125, 0.0002]
    )
    assert table["fits_window"].all()


def test_cache_saving_counts_the_write_premium():
    df = acc.run_table(three_turn_run(), PRICING)
    saved = acc.cache_saving(df, PRICING.price_for(SONNET))
    # turn 1 writes 1000 at 3.75 instead of 3: -750; turns 2 and 3 read 1000 at 0.30 instead of 3: +2700 each
    assert saved.tolist() == pytest.approx([-0.00075, 0.0027, 0.0027])


def test_projection_grows_quadratically():
    df = acc.run_table(three_turn_run(), PRICING)
    df[acc.COL_WHOLE] = [1000, 1500, 2000]  # constant growth of 500 per turn
    table = acc.projection_table(df, 5)
    assert table[acc.COL_TURN].tolist() == list(range(1, 9))
    assert table[acc.COL_PROJECTED].tolist() == [False] * 3 + [True] * 5
    assert table[acc.COL_WHOLE].tolist() == pytest.approx([1000, 1500, 2000, 2500, 3000, 3500, 4000, 4500])
    cumulative = table[acc.COL_CUM_INPUT].to_numpy()
    second = cumulative[2:] - 2 * cumulative[1:-1] + cumulative[:-2]
    assert second.tolist() == pytest.approx([500] * 6)
    # Turn 3 paid 2400 micro-dollars, 80*15 = 1200 of it for output, so 1200 for its input.
    # Turn 4: 1200 + 500 more tokens at 3 (1500) + the mean output 60 at 15 (900) = 3600; then +1500 a turn.
    assert table[acc.COL_COST].iloc[3:].tolist() == pytest.approx([0.0036, 0.0051, 0.0066, 0.0081, 0.0096])
    cost = table[acc.COL_CUM_COST].to_numpy()[2:]
    assert (cost[2:] - 2 * cost[1:-1] + cost[:-2]).tolist() == pytest.approx([0.0015] * 4)


def test_projection_without_prices_uses_the_last_turns_rate():
    df = acc.run_table(three_turn_run(), PRICING)
    df.attrs.clear()
    table = acc.projection_table(df, 2)
    # context 1050, 1120, 1300 at turns 1..3: least squares slope (1300 - 1050) / 2 = 125 through the
    # mean point (2, 3470/3), so turn 4 is 3470/3 + 2*125 and turn 5 is 3470/3 + 3*125
    ahead = [3470 / 3 + 250, 3470 / 3 + 375]
    assert table[acc.COL_WHOLE].iloc[3:].tolist() == pytest.approx(ahead)
    # the last turn paid 2400 micro-dollars for 1300 tokens of context
    assert table[acc.COL_COST].iloc[3:].tolist() == pytest.approx([w * 0.0024 / 1300 for w in ahead])
    assert acc.projection_table(df, 0)[acc.COL_PROJECTED].sum() == 0
    assert acc.projection_table(df.iloc[0:0], 3).empty


def test_core_modules_do_not_import_streamlit():
    code = "import sys, agent_core.cost.accounting, agent_core.report.charts; sys.exit('streamlit' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], cwd=Path(__file__).parents[1]).returncode == 0


def test_haiku_5_5_bills_a_long_prompt_at_its_second_band_on_every_token():
    # The model's page lists two bands: up to 100,000 prompt tokens $0.10 / $0.50, above it $0.50 / $2.50, output
    # included, with cache reads and writes counted in the prompt's length.
    short = acc.turn_cost("claude-haiku-5-5", Usage(100_000, 1_000, 0, 0), PRICING)
    long = acc.turn_cost("claude-haiku-5-5", Usage(90_000, 1_000, 0, 10_001), PRICING)
    assert short == pytest.approx((100_000 * 0.10 + 1_000 * 0.50) / 1e6)
    assert long == pytest.approx((90_000 * 0.50 + 1_000 * 2.50 + 10_001 * 0.05) / 1e6)
    assert acc.turn_cost("claude-sonnet-5-5", Usage(200_000, 0, 0, 0), PRICING) == pytest.approx(0.4)  # one band
