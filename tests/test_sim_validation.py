"""Requests the real Messages API rejects get the same 400 invalid_request_error from the simulated model."""

from __future__ import annotations

import copy
import json

import anthropic
import httpx2
import pytest

from agent_core.model import SimSettings
from agent_core.sim import SimHandler, SimTransport, start_server
from agent_core.sim.validate import sign_thinking

API = {"x-api-key": "test-key", "anthropic-version": "2023-06-01"}  # the headers the API requires
MODEL = "claude-sonnet-4-6"
TOOL = {"name": "get_weather", "description": "Weather.", "input_schema": {"type": "object", "properties": {}}}
CALL_A = {"type": "tool_use", "id": "toolu_a", "name": "get_weather", "input": {"city": "Oslo"}}
CALL_B = {"type": "tool_use", "id": "toolu_b", "name": "get_weather", "input": {"city": "Rome"}}
RESULT_A = {"type": "tool_result", "tool_use_id": "toolu_a", "content": "4°C"}
RESULT_B = {"type": "tool_result", "tool_use_id": "toolu_b", "content": "19°C"}
ASK = {"role": "user", "content": "Weather in Oslo and Rome?"}
CALLS = {"role": "assistant", "content": [{"type": "text", "text": "Checking."}, CALL_A, CALL_B]}
GOOD = {
    "model": MODEL,
    "max_tokens": 100,
    "tools": [TOOL],
    "messages": [ASK, CALLS, {"role": "user", "content": [RESULT_A, RESULT_B]}],
}


def never_called(body, settings):
    raise AssertionError("an invalid request must not reach the brain")


class _Draft:
    """Stand-in for the brain's Draft."""

    def __init__(self, text: str) -> None:
        self.content, self.stop_reason, self.stop_details, self.reasoning = (
            [{"type": "text", "text": text}],
            "end_turn",
            None,
            "ok",
        )


def ok_brain(body, settings):
    return _Draft("fine")


def variant(**changes) -> dict:
    body = copy.deepcopy(GOOD)
    for key, value in changes.items():
        if value is None:
            body.pop(key, None)
        else:
            body[key] = value
    return body


def with_messages(*messages) -> dict:
    return variant(messages=list(messages))


CASES = {
    "missing model": (variant(model=None), "model: Field required"),
    "missing max_tokens": (variant(max_tokens=None), "max_tokens: Field required"),
    "max_tokens zero": (variant(max_tokens=0), "max_tokens: Input should be greater than or equal to 1"),
    "max_tokens above model cap": (variant(max_tokens=10**6), "maximum allowed number of output tokens"),
    "messages missing": (variant(messages=None), "messages: Field required"),
    "messages empty": (variant(messages=[]), "at least one message is required"),
    "messages not a list": (variant(messages={"role": "user"}), "messages: Input should be a valid list"),
    "first message assistant": (
        with_messages({"role": "assistant", "content": "Hi"}, ASK),
        'first message must use the "user" role',
    ),
    "tool role in messages": (
        with_messages(ASK, {"role": "tool", "content": "x"}),
        "messages.1.role: Input should be 'user', 'assistant' or 'system'",
    ),
    "only system messages": (with_messages({"role": "system", "content": "x"}), "at least one user message"),
    "image in a system message": (
        with_messages(ASK, {"role": "system", "content": [{"type": "image", "source": {}}]}),
        "a system message holds text",
    ),
    "missing tool_result": (
        with_messages(ASK, CALLS, {"role": "user", "content": [RESULT_A]}),
        "`tool_use` ids were found without `tool_result` blocks immediately after: toolu_b",
    ),
    "no user message after tool_use": (
        with_messages(ASK, CALLS, {"role": "user", "content": "thanks"}),
        "immediately after: toolu_a, toolu_b",
    ),
    "text before tool_result": (
        with_messages(
            ASK, CALLS, {"role": "user", "content": [{"type": "text", "text": "Here you go"}, RESULT_A, RESULT_B]}
        ),
        "messages.2: Did not find 2 `tool_result` block(s) at the beginning of this message",
    ),
    "tool_result id unknown": (
        with_messages(
            ASK, CALLS, {"role": "user", "content": [RESULT_A, RESULT_B, {**RESULT_A, "tool_use_id": "toolu_zzz"}]}
        ),
        "unexpected `tool_use_id` found in `tool_result` blocks: toolu_zzz",
    ),
    "tool_result without tool_use": (
        with_messages({"role": "user", "content": [RESULT_A]}),
        "unexpected `tool_use_id`",
    ),
    "bad tool name": (variant(tools=[{**TOOL, "name": "get weather"}]), "tools.0.name: String should match pattern"),
    "tool name too long": (variant(tools=[{**TOOL, "name": "x" * 65}]), "tools.0.name"),
    "input_schema missing": (
        variant(tools=[{"name": "t", "description": "d"}]),
        "tools.0.input_schema: Field required",
    ),
    "input_schema not object": (
        variant(tools=[{**TOOL, "input_schema": {"type": "string"}}]),
        "tools.0.input_schema.type: Input should be 'object'",
    ),
    "duplicate tool names": (variant(tools=[TOOL, TOOL]), "Tool names must be unique"),
    "tool_choice unknown tool": (
        variant(tool_choice={"type": "tool", "name": "get_time"}),
        "tool_choice.name: tool 'get_time' not found",
    ),
    "tool_choice bad type": (variant(tool_choice={"type": "sometimes"}), "tool_choice.type"),
    "empty text block": (
        with_messages({"role": "user", "content": [{"type": "text", "text": ""}]}),
        "text content blocks must be non-empty",
    ),
    "thinking budget too small": (variant(thinking={"type": "enabled", "budget_tokens": 10}), "budget_tokens"),
    "thinking budget above max_tokens": (
        variant(max_tokens=2000, thinking={"type": "enabled", "budget_tokens": 4000}),
        "`max_tokens` must be greater than `thinking.budget_tokens`",
    ),
    "threads beta (server-side history)": (variant(thread={"type": "create"}), "server-side history"),
    "too many cache breakpoints": (
        with_messages(
            {
                "role": "user",
                "content": [{"type": "text", "text": str(i), "cache_control": {"type": "ephemeral"}} for i in range(5)],
            }
        ),
        "A maximum of 4 blocks with cache_control",
    ),
}


@pytest.fixture(scope="module")
def live():
    settings = SimSettings()
    handler = SimHandler(settings, think=never_called)
    server, url = start_server(settings, handler=handler)
    yield url, handler
    server.shutdown()


def clients(url: str, handler: SimHandler) -> list[anthropic.Anthropic]:
    http = httpx2.Client(transport=SimTransport(handler.settings, handler))
    return [
        anthropic.Anthropic(api_key="k", base_url=url, max_retries=0),
        anthropic.Anthropic(api_key="k", base_url="http://simulated.invalid", http_client=http, max_retries=0),
    ]


@pytest.mark.parametrize("name", list(CASES))
def test_invalid_request_gives_400_with_message(live, name):
    body, expected = CASES[name]
    for client in clients(*live):
        with pytest.raises(anthropic.BadRequestError) as err:
            client.post("/v1/messages", body=body, cast_to=object)
        envelope = err.value.body
        assert err.value.status_code == 400 and envelope["type"] == "error"
        assert envelope["error"]["type"] == "invalid_request_error"
        assert expected in envelope["error"]["message"]
        assert envelope["request_id"] == err.value.response.headers["request-id"]


@pytest.mark.parametrize(
    "raw,expected",
    [
        (b"{not json", "not valid JSON"),
        (b"[1, 2]", "must be a JSON object"),
        (b'"text"', "must be a JSON object"),
    ],
)
def test_body_not_a_json_object(live, raw, expected):
    url, _ = live
    response = httpx2.post(f"{url}/v1/messages", content=raw, headers={"content-type": "application/json", **API})
    assert response.status_code == 400 and expected in response.json()["error"]["message"]


def _reply(body: dict, brain=ok_brain, seed: int = 0):
    return SimHandler(SimSettings(seed=seed), think=brain).handle(
        "POST", "/v1/messages", API, json.dumps(body).encode()
    )


def test_valid_history_passes():
    assert _reply(GOOD).status == 200


def test_server_tools_need_no_input_schema():
    body = variant(tools=[TOOL, {"type": "web_search_20250305", "name": "web_search"}])
    assert _reply(body).status == 200


def test_forced_tool_choice_without_tools_is_rejected():
    body = variant(tools=None, messages=[ASK], tool_choice={"type": "any"})
    assert _reply(body, never_called).status == 400


def test_thinking_signature_checked_against_seed():
    thinking = {"type": "thinking", "thinking": "Two cities.", "signature": sign_thinking("Two cities.", 5)}
    signed = copy.deepcopy(GOOD)
    signed["messages"][1]["content"].insert(0, thinking)
    assert _reply(signed, seed=5).status == 200
    other_seed = _reply(signed, never_called, seed=6)
    assert other_seed.status == 400 and b"passed back unchanged" in other_seed.body
    signed["messages"][1]["content"][0]["signature"] = ""
    assert _reply(signed, never_called, seed=5).status == 400


def test_count_tokens_validates_without_max_tokens(live):
    url, _ = live
    good = httpx2.post(f"{url}/v1/messages/count_tokens", json=variant(max_tokens=None), headers=API)
    assert good.status_code == 200 and good.json()["input_tokens"] > 0
    bad = httpx2.post(f"{url}/v1/messages/count_tokens", json=variant(max_tokens=None, messages=[]), headers=API)
    assert bad.status_code == 400 and "at least one message" in bad.json()["error"]["message"]


@pytest.mark.parametrize("version,status", [("2026-10-21", 400), ("2023-06-01", 200)])
def test_sampling_fields_depend_on_api_version(version, status):
    headers = {"anthropic-version": version} if version else {}
    reply = SimHandler(SimSettings(), think=ok_brain).handle(
        "POST", "/v1/messages", {**API, **headers}, json.dumps(variant(temperature=0.2)).encode()
    )
    assert reply.status == status
    if status == 400:
        assert b"temperature: Extra inputs are not permitted" in reply.body


def test_sdk_sends_a_version_without_sampling_fields(live):
    url, _ = live
    client = anthropic.Anthropic(api_key="k", base_url=url, max_retries=0)
    with pytest.raises(anthropic.BadRequestError, match="temperature"):
        client.messages.create(model=MODEL, max_tokens=10, messages=[ASK], extra_body={"temperature": 0.5})
