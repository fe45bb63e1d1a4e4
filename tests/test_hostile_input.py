"""Hostile input never crashes the app or corrupts a saved run: the tool editor, run import, the simulated server's
request validation, a 1 MB task, odd Unicode in the task, and a dangerous tool call that waits for a human.

(The calculator has its own property tests in test_calculator.py; run import's arbitrary-bytes and damaged-field
cases are in test_export.py. These add what those do not cover.)
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from keys import ALLOW, DENY, RESET, RUN_TO_END, TASK
from keys import TOOLS as TOOL_PICKER
from lab_app import LAB_KEY, click, key_starting, lab_of, open_page, texts, widget

from agent_core.files.export import RunImportError, export_json, import_json
from agent_core.model import Run, SimSettings
from agent_core.sim import SimHandler
from agent_core.storage.store import RunStore
from agent_core.tools import ToolRegistry
from lab_ui.playground.controls import tool_from_editor
from lab_ui.words.catalogue import stop_text

# Text with every kind of character, lone surrogates (only expressible in JSON as \ud800 escapes) included.
ANY_TEXT = st.text(alphabet=st.characters(codec=None) | st.characters(categories=["Cs"]), max_size=60)
SCALARS = st.none() | st.booleans() | st.integers() | st.floats() | ANY_TEXT
JSON_VALUES = st.recursive(
    SCALARS, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(ANY_TEXT, inner, max_size=4), max_leaves=20
)
ODD = [
    "\u200f",
    "\u202e",
    "\u202c",
    "\u200d",
    "\u200b",
    "\ufeff",
    "\ud83d",
    "\udc69",
    "\U0001f469\u200d\U0001f467",
    "\u0301",
    "\x00",
    "\u0645\u0631\u062d\u0628\u0627",
    "\u041f\u043e\u0433\u043e\u0434\u0430",
    "\ufffd",
    "\n\r\t",
]
ODD_TEXT = st.lists(st.sampled_from(ODD) | st.text(max_size=5), max_size=12).map("".join)
FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _nested(depth: int) -> str:
    return '{"type": "object", "properties": {"a": ' * depth + "{}" + "}}" * depth


# -- the tool editor ----------------------------------------------------------------------------------------
SCHEMA_TEXTS = st.one_of(
    ANY_TEXT,
    JSON_VALUES.map(json.dumps),
    st.fixed_dictionaries(
        {"type": st.just("object")},
        optional={
            "properties": st.dictionaries(ANY_TEXT, JSON_VALUES, max_size=3),
            "required": st.lists(ANY_TEXT, max_size=3),
            "additionalProperties": JSON_VALUES,
            "pattern": ANY_TEXT,
            "$ref": ANY_TEXT,
        },
    ).map(json.dumps),
    st.integers(0, 600).map(_nested),
    st.integers(1, 100_000).map(lambda n: "[" * n),
    st.sampled_from(
        [
            '{"type": "object", "minimum": NaN}',
            '{"type": "object", "x": 1e999}',
            '{"type": "object", "x": ' + "9" * 5000 + "}",
            '{"type": "object", "\\ud800": 1}',
        ]
    ),
)


@FAST
@given(name=ANY_TEXT, description=ANY_TEXT, schema_text=SCHEMA_TEXTS)
def test_the_tool_editor_raises_only_value_error_and_what_it_accepts_can_be_sent(name, description, schema_text):
    try:
        spec = tool_from_editor(name, description, schema_text, "calculate", False)
    except ValueError as exc:
        assert str(exc), "a refusal says why"
        return
    # Accepted: it goes out as strict UTF-8 JSON, and the program can validate calls against it.
    json.dumps(spec.definition(), allow_nan=False, ensure_ascii=False).encode("utf-8")
    ToolRegistry([spec]).execute(spec.name, {})


@pytest.mark.parametrize(
    "text, words",
    [
        ("[" * 100_000, "nested"),
        (_nested(40), "nested"),
        ('{"type": "object", "minimum": NaN}', "NaN"),
        ('{"type": "object", "x": 1e999}', "too large"),
        ('{"type": "object", "\\ud83d": 1}', "lone surrogate"),
    ],
)
def test_the_tool_editor_explains_its_refusals(text, words):
    with pytest.raises(ValueError, match=words):
        tool_from_editor("tool", "A tool.", text, "calculate", False)


# -- run import: odd Unicode anywhere in a real export -----------------------------------------------------------
def _finished_run() -> Run:
    from agent_core.loop.stepper import run_task
    from lab_ui.controller.session import default_config

    return run_task(default_config())


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> dict:
    return json.loads(export_json(_finished_run()))


FREE_TEXT = {"task", "system", "title", "text", "output", "content", "decision", "message"}


def _spike(value, texts: list[str], counter: list[int]):
    """Append hostile text to every free-text string of an export (names and enums stay valid)."""
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            if key in FREE_TEXT and isinstance(item, str):
                counter[0] += 1
                out[key] = item + texts[counter[0] % len(texts)]
            else:
                out[key] = _spike(item, texts, counter)
        return out
    if isinstance(value, list):
        return [_spike(v, texts, counter) for v in value]
    return value


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(texts=st.lists(ODD_TEXT, min_size=1, max_size=5))
def test_odd_unicode_in_an_imported_run_is_refused_clearly_or_saved_and_loaded_unchanged(exported, texts, tmp_path):
    document = _spike(exported, texts, [0])
    try:
        run = import_json(json.dumps(document))  # ensure_ascii: a lone surrogate travels as a \ud83d escape
    except RunImportError:
        return
    store = RunStore(tmp_path / "odd.db")
    store.save_run(run)
    assert store.load(run.id) == run


# -- the simulated server's request validation --------------------------------------------------------------------
BLOCKS = st.one_of(
    st.fixed_dictionaries({"type": st.just("text"), "text": ANY_TEXT}),
    st.fixed_dictionaries({"type": st.just("tool_use"), "id": ANY_TEXT, "name": ANY_TEXT, "input": JSON_VALUES}),
    st.fixed_dictionaries(
        {
            "type": st.just("tool_result"),
            "tool_use_id": ANY_TEXT,
            "content": ANY_TEXT | JSON_VALUES,
            "is_error": JSON_VALUES,
        }
    ),
    JSON_VALUES,
)
MESSAGES = st.lists(
    st.fixed_dictionaries(
        {
            "role": st.sampled_from(["user", "assistant", "system", ""]) | ANY_TEXT,
            "content": ANY_TEXT | st.lists(BLOCKS, max_size=3) | JSON_VALUES,
        }
    ),
    max_size=4,
)
TOOLS = st.lists(
    st.fixed_dictionaries(
        {
            "name": ANY_TEXT | st.just("get_weather"),
            "description": ANY_TEXT,
            "input_schema": JSON_VALUES | st.just({"type": "object"}),
        }
    ),
    max_size=2,
)
REQUESTS = st.fixed_dictionaries(
    {
        "model": st.just("claude-sonnet-4-6") | ANY_TEXT,
        "max_tokens": st.integers(-5, 300_000) | JSON_VALUES,
        "messages": MESSAGES,
    },
    optional={
        "system": ANY_TEXT | JSON_VALUES,
        "tools": TOOLS | JSON_VALUES,
        "stream": st.booleans() | JSON_VALUES,
        "tool_choice": st.sampled_from([{"type": "auto"}, {"type": "any"}, {"type": "none"}]) | JSON_VALUES,
        "stop_sequences": st.lists(ANY_TEXT, max_size=2) | JSON_VALUES,
        "thinking": JSON_VALUES,
        "metadata": JSON_VALUES,
        "temperature": JSON_VALUES,
    },
)
BODIES = st.one_of(
    st.binary(max_size=300),
    ANY_TEXT.map(lambda t: t.encode("utf-8", "surrogatepass")),
    JSON_VALUES.map(lambda v: json.dumps(v).encode()),
    REQUESTS.map(lambda r: json.dumps(r).encode()),
)
HEADERS = st.dictionaries(
    st.sampled_from(["anthropic-version", "x-stainless-retry-count", "content-type"]), st.text(max_size=20), max_size=3
)


@FAST
@given(path=st.sampled_from(["/v1/messages", "/v1/messages/count_tokens"]), body=BODIES, headers=HEADERS)
def test_the_simulated_server_answers_any_body_with_a_reply_or_a_4xx_envelope(path, body, headers):
    reply = SimHandler(SimSettings()).handle("POST", path, headers, body)
    assert reply.status == 200 or 400 <= reply.status < 500, (reply.status, reply.body[:300])
    if reply.status != 200:
        envelope = json.loads(reply.body)
        assert envelope["type"] == "error" and envelope["request_id"].startswith("req_")
        assert isinstance(envelope["error"]["type"], str) and envelope["error"]["message"]


# -- the Playground under hostile tasks ------------------------------------------------------------------------------
def _run_task_in_playground(task: str, db) -> Run:
    at = open_page()
    at.session_state[LAB_KEY].config.task = task  # as an imported run or a lesson would set it
    at.run()
    click(at, RESET)
    click(at, RUN_TO_END)
    run = lab_of(at).run
    assert run.stop is not None, "the run ended, with a reason"
    shown = texts(at.success) + texts(at.warning) + texts(at.error)
    assert stop_text(run)[:60] in shown, "the reason is on the page"
    assert RunStore(db).load(run.id) == run, "what was saved loads back unchanged"
    return run


def test_a_one_megabyte_task_completes_or_stops_with_a_clear_message(app_env):
    task = "A long pasted report about the quiet river bank and the brown fox that jumps over it. " * 12_000
    task = task[:1_000_000]
    at = open_page()
    widget(at, TASK).set_value(task).run()
    assert not at.exception
    click(at, RESET)
    click(at, RUN_TO_END)
    run = lab_of(at).run
    assert run.messages[0]["content"] == task and run.stop is not None
    assert stop_text(run)[:60] in texts(at.success) + texts(at.warning) + texts(at.error)
    assert RunStore(app_env).load(run.id) == run


@pytest.mark.parametrize(
    "task",
    [
        "\u202eWhat is 2 to the power of 16?\u202c \u200f",
        "\U0001f469\u200d\U0001f469\u200d\U0001f467 weather in Oslo and 2^16 \u200b\ufeff",
        "\u0645\u0627 \u0647\u0648 \u0637\u0642\u0633 \u0623\u0648\u0633\u0644\u0648\u061f Oslo 2^16",
    ],
)
def test_odd_unicode_in_the_task_never_crashes_and_saved_runs_load_back_equal(task, app_env):
    run = _run_task_in_playground(task, app_env)
    assert run.messages[0]["content"] == task


# -- a dangerous tool waits for the human ------------------------------------------------------------------------
def _delete_request(at) -> None:
    lab = lab_of(at)
    tools = widget(at, TOOL_PICKER)
    tools.select("delete_file").run()
    widget(at, TASK).set_value("Please delete notes.txt").run()
    click(at, RESET)
    click(at, RUN_TO_END)
    assert lab.stepper().awaiting_approval, "the loop waits instead of deleting"
    assert "can do harm: allow it?" in texts(at.warning)


@pytest.mark.parametrize("allow", [False, True])
def test_a_dangerous_tool_call_waits_for_allow_or_deny(allow, app_env, scripted_model):
    at = open_page()
    _delete_request(at)
    tool_use_id = lab_of(at).run.turns[0].tools[0].tool_use_id
    click(at, key_starting(at, ALLOW if allow else DENY))
    click(at, RUN_TO_END)
    run = lab_of(at).run
    tool = run.turns[0].tools[0]
    result = run.turns[1].request["messages"][-1]["content"][0]
    assert result["type"] == "tool_result" and result["tool_use_id"] == tool_use_id
    if allow:
        assert tool.approval == "approved" and "is_error" not in result and "denied" not in tool.output
    else:
        assert tool.approval == "denied" and result["is_error"] is True
        assert "denied permission" in result["content"], "the denial goes back in words the model can act on"
    assert run.stop.kind == "end_turn"


def test_a_models_line_breaks_stay_line_breaks_and_its_markup_stays_text():
    """The answer box shows 'Weather in Oslo: …' and '2^16 = 65536' on two lines, as the model wrote them (Markdown
    alone would join them), while a link or an image in the words is still shown as text."""
    from lab_ui.frame.untrusted import model_words_md

    shown = model_words_md("Weather in Oslo: 4°C\n2^16 = 65536\n\n![x](http://evil.invalid/a.png)")
    assert "4°C  \n2^16 = 65536" in shown
    assert "!\\[x]" in shown  # the bracket escaped: no image or link syntax left for Markdown to load
