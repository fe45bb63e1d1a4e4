"""The model table drives the simulated model: lifecycle, limits, /v1/models pages and per-model behaviour."""

from __future__ import annotations

import anthropic
import httpx2
import pytest

from agent_core.cost.pricing import load_pricing
from agent_core.lineup import lineup
from agent_core.model import DEFAULT_MODEL, SimSettings
from agent_core.sim import SimTransport, start_server

WEATHER = {
    "name": "get_weather",
    "description": "Current weather in a city. Use it for any weather question.",
    "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
}
ASK = {"role": "user", "content": "What's the weather in Oslo?"}


@pytest.fixture
def client():
    http = httpx2.Client(transport=SimTransport(SimSettings()))
    return anthropic.Anthropic(api_key="k", base_url="http://sim.invalid", http_client=http, max_retries=0)


@pytest.fixture
def live():
    server, url = start_server(SimSettings())
    yield url
    server.shutdown()


def test_default_model_is_the_current_sonnet_and_every_model_is_priced():
    assert DEFAULT_MODEL == "claude-sonnet-5-5" == lineup().default_model
    assert lineup().find(DEFAULT_MODEL).lifecycle == "active"
    prices = load_pricing()
    for row in lineup().rows:
        assert prices.get(row.id) is not None and row.source.startswith("https://")
        assert prices.get(row.id).context_window == row.context_window


def test_retired_model_is_the_apis_not_found(client):
    assert lineup().find("claude-sonnet-4-5").lifecycle == "retired"
    with pytest.raises(anthropic.NotFoundError) as err:
        client.messages.create(model="claude-sonnet-4-5", max_tokens=50, messages=[ASK])
    assert err.value.body["error"]["type"] == "not_found_error" and "claude-sonnet-4-5" in err.value.message
    with pytest.raises(anthropic.NotFoundError):
        client.messages.create(model="claude-made-up-9", max_tokens=50, messages=[ASK])


def test_max_output_from_the_table(client):
    # pydantic-ai asks for the model's max output; 128K on the 4.6 models must be accepted.
    with client.messages.stream(model="claude-sonnet-4-6", max_tokens=128_000, messages=[ASK]) as stream:
        assert stream.get_final_message().stop_reason == "end_turn"
    with pytest.raises(anthropic.BadRequestError, match="64000"):
        with client.messages.stream(model="claude-haiku-4-5", max_tokens=64_001, messages=[ASK]) as stream:
            stream.get_final_message()


def test_models_list_pages_with_after_and_before(client):
    everything = [m.id for m in client.models.list(limit=100)]
    assert everything == [r.id for r in sorted(lineup().served, key=lambda r: r.released, reverse=True)]
    first = client.models.list(limit=3)
    assert [m.id for m in first.data] == everything[:3] and first.has_more and first.last_id == everything[2]
    second = client.models.list(limit=3, after_id=first.last_id)
    assert [m.id for m in second.data] == everything[3:6]
    back = client.models.list(limit=2, before_id=everything[3])
    assert [m.id for m in back.data] == everything[1:3] and back.first_id == everything[1]
    paged = [m.id for m in client.models.list(limit=4)]  # the SDK's auto-pagination follows after_id
    assert paged == everything
    last = client.models.list(limit=100)
    assert last.has_more is False
    assert client.models.retrieve("claude-sonnet-5-5").created_at.year == 2026


def test_models_list_rejects_bad_limit(client):
    with pytest.raises(anthropic.BadRequestError, match="limit"):
        client.models.list(limit=0)


def test_sonnet_5_5_thinks_by_default_and_turns_text_between_tools_into_thinking(client):
    reply = client.messages.create(model="claude-sonnet-5-5", max_tokens=2000, tools=[WEATHER], messages=[ASK])
    kinds = [b.type for b in reply.content]
    assert reply.stop_reason == "tool_use" and kinds[0] == "thinking" and "text" not in kinds
    assert kinds[-1] == "tool_use"
    legacy = client.messages.create(model="claude-sonnet-4-6", max_tokens=2000, tools=[WEATHER], messages=[ASK])
    assert [b.type for b in legacy.content][0] == "text"  # the older model says what it will do in text


def test_sonnet_5_5_refuses_disabled_thinking_and_points_to_between_tools(client):
    with pytest.raises(anthropic.BadRequestError, match="between_tools"):
        client.messages.create(model="claude-sonnet-5-5", max_tokens=500, messages=[ASK], thinking={"type": "disabled"})
    reply = client.messages.create(
        model="claude-sonnet-5-5", max_tokens=500, tools=[WEATHER], messages=[ASK], thinking={"type": "between_tools"}
    )
    kinds = [b.type for b in reply.content]
    assert kinds[-1] == "tool_use" and "text" not in kinds  # progress notes still come back as thinking


@pytest.mark.parametrize("choice", [{"type": "any"}, {"type": "tool", "name": "get_weather"}])
def test_forced_tool_use_is_a_400_on_the_new_models_and_starts_with_tool_use_elsewhere(client, choice):
    with pytest.raises(anthropic.BadRequestError, match="forced tool use"):
        client.messages.create(
            model="claude-sonnet-5-5", max_tokens=500, tools=[WEATHER], tool_choice=choice, messages=[ASK]
        )
    reply = client.messages.create(
        model="claude-sonnet-4-6", max_tokens=500, tools=[WEATHER], tool_choice=choice, messages=[ASK]
    )
    assert reply.content[0].type == "tool_use"


def test_prefill_rejected_from_4_6_on(client):
    prefill = [ASK, {"role": "assistant", "content": "The weather is"}]
    with pytest.raises(anthropic.BadRequestError, match="prefill"):
        client.messages.create(model="claude-sonnet-4-6", max_tokens=100, messages=prefill)
    assert client.messages.create(model="claude-haiku-4-5", max_tokens=100, messages=prefill).id


def test_sampling_and_manual_budget_refused_on_5x(live):
    raw = anthropic.Anthropic(
        api_key="k", base_url=live, max_retries=0, default_headers={"anthropic-version": "2023-06-01"}
    )
    with pytest.raises(anthropic.BadRequestError, match="non-default"):
        raw.messages.create(model="claude-sonnet-5", max_tokens=100, messages=[ASK], extra_body={"temperature": 0.3})
    assert raw.messages.create(
        model="claude-haiku-4-5", max_tokens=100, messages=[ASK], extra_body={"temperature": 0.3}
    )
    with pytest.raises(anthropic.BadRequestError, match="budget_tokens"):
        raw.messages.create(
            model="claude-sonnet-5",
            max_tokens=3000,
            messages=[ASK],
            thinking={"type": "enabled", "budget_tokens": 1024},
        )


def _history(client, model: str):
    first = client.messages.create(model=model, max_tokens=2000, tools=[WEATHER], messages=[ASK])
    call = next(b for b in first.content if b.type == "tool_use")
    result = {"role": "user", "content": [{"type": "tool_result", "tool_use_id": call.id, "content": "Oslo: 4°C"}]}
    return [ASK, {"role": "assistant", "content": [b.to_dict() for b in first.content]}, result]


def test_thinking_blocks_must_come_back_unchanged_and_not_dropped(client):
    history = _history(client, "claude-sonnet-5-5")
    answer = client.messages.create(model="claude-sonnet-5-5", max_tokens=2000, tools=[WEATHER], messages=history)
    assert answer.stop_reason == "end_turn"
    changed = [history[0], {**history[1], "content": [dict(b) for b in history[1]["content"]]}, history[2]]
    changed[1]["content"][0]["thinking"] += " (edited)"
    with pytest.raises(anthropic.BadRequestError, match="passed back unchanged"):
        client.messages.create(model="claude-sonnet-5-5", max_tokens=2000, tools=[WEATHER], messages=changed)
    dropped = [
        history[0],
        {"role": "assistant", "content": [b for b in history[1]["content"] if b["type"] == "tool_use"]},
        history[2],
    ]
    with pytest.raises(anthropic.BadRequestError, match="must start with a thinking block"):
        client.messages.create(model="claude-sonnet-5-5", max_tokens=2000, tools=[WEATHER], messages=dropped)


def test_thinking_is_tied_to_the_model_on_sonnet_5_5(client):
    history = _history(client, "claude-sonnet-5-5")
    with pytest.raises(anthropic.BadRequestError, match="passed back unchanged"):
        client.messages.create(model="claude-opus-5-5", max_tokens=2000, tools=[WEATHER], messages=history)


def test_strict_top_level_fields_and_empty_content(client):
    with pytest.raises(anthropic.BadRequestError, match="max_token: Extra inputs"):
        client.messages.create(model=DEFAULT_MODEL, max_tokens=10, messages=[ASK], extra_body={"max_token": 5})
    with pytest.raises(anthropic.BadRequestError, match="non-empty content"):
        client.messages.create(model=DEFAULT_MODEL, max_tokens=10, messages=[{"role": "user", "content": ""}])


@pytest.mark.parametrize(
    "headers,status",
    [({"anthropic-version": "2023-06-01"}, 401), ({"x-api-key": "k"}, 400)],
)
def test_version_and_key_headers_required(live, headers, status):
    body = {"model": DEFAULT_MODEL, "max_tokens": 10, "messages": [ASK]}
    response = httpx2.post(f"{live}/v1/messages", json=body, headers=headers)
    assert response.status_code == status
    lenient_server, url = start_server(SimSettings(lenient_headers=True))
    try:
        assert httpx2.post(f"{url}/v1/messages", json=body, headers=headers).status_code == 200
    finally:
        lenient_server.shutdown()
