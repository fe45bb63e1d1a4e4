"""What other programs put on the wire, as the offline server must read it: Claude Code's mid-conversation system
messages and <system-reminder> blocks, litellm's top-level output_format, reachability probes and wrong paths.

The request shapes are the ones Claude Code 2.1.197 / 2.1.332 and litellm were seen sending (trimmed)."""

from __future__ import annotations

import json

import anthropic
import httpx2
import pytest

from agent_core.model import SimSettings
from agent_core.sim import SimHandler, start_server

API = {"x-api-key": "k", "anthropic-version": "2023-06-01", "content-type": "application/json"}
MODEL = "claude-sonnet-5-5"
WEATHER = {
    "name": "get_weather",
    "description": "Current weather in a city. Use it for any weather question.",
    "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
}
REMINDER = (
    "<system-reminder>\nAs you answer the user's questions, you can use the following context:\n# currentDate\n"
    "Today's date is 2026-12-01.\n\n      IMPORTANT: this context may or may not be relevant to your tasks. You "
    "should not respond to this context unless it is highly relevant to your task.\n</system-reminder>\n\n"
)
AGENTS = (
    "Available agent types for the Agent tool:\n- Explore: Read-only search agent for broad fan-out searches. "
    "Use it to search code, look up files and find the weather of other folders."
)


@pytest.fixture(scope="module")
def url():
    handler = SimHandler(SimSettings())
    server, base = start_server(handler.settings, handler=handler)
    yield base
    server.shutdown()


def post(url: str, body: dict, path: str = "/v1/messages?beta=true", **headers: str) -> httpx2.Response:
    return httpx2.post(url + path, content=json.dumps(body), headers={**API, **headers}, timeout=30)


def claude_code_body(question: str) -> dict:
    return {
        "model": MODEL,
        "max_tokens": 4000,
        "system": [{"type": "text", "text": "You are a Claude agent.", "cache_control": {"type": "ephemeral"}}],
        "tools": [WEATHER],
        "messages": [
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": REMINDER},
                    {"type": "text", "text": question, "cache_control": {"type": "ephemeral"}},
                ],
            },
            {"role": "system", "content": AGENTS},
        ],
        "metadata": {"user_id": "{}"},
        "thinking": {"type": "adaptive"},
        "context_management": {"edits": [{"type": "clear_thinking_20251015", "keep": "all"}]},
        "stream": True,
    }


def events(response: httpx2.Response) -> list[dict]:
    return [json.loads(line[6:]) for line in response.text.splitlines() if line.startswith("data: ")]


def test_claude_codes_system_messages_and_reminders_are_context_not_the_question(url):
    response = post(
        url, claude_code_body("What's the weather in Oslo?"), **{"anthropic-beta": "mid-conversation-system-2026-04-07"}
    )
    assert response.status_code == 200, response.text
    calls = [e["content_block"] for e in events(response) if e["type"] == "content_block_start"]
    tool_uses = [c for c in calls if c["type"] == "tool_use"]
    assert [c["name"] for c in tool_uses] == ["get_weather"]
    deltas = "".join(e["delta"].get("partial_json", "") for e in events(response) if e["type"] == "content_block_delta")
    assert json.loads(deltas[deltas.index("{") :]) == {"city": "Oslo"}


def test_a_reminder_alone_is_never_answered_as_the_question(url):
    """The issue's Claude Code 2.1.332 run: the <system-reminder> text was read as the question for 18 turns."""
    body = claude_code_body("Hello!")
    body["stream"] = False
    reply = post(url, body).json()
    text = " ".join(b.get("text", "") for b in reply["content"] if b["type"] == "text")
    assert reply["stop_reason"] == "end_turn" and "date" not in text.lower() and "2026" not in text


def test_system_messages_keep_the_turn_rules(url):
    """A system message between a tool_use and its results is context; a missing result is still a 400 naming the
    message that should have held it."""
    call = {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Oslo"}}
    history = [
        {"role": "user", "content": "Weather in Oslo?"},
        {"role": "assistant", "content": [call]},
        {"role": "system", "content": [{"type": "text", "text": "The user is in a hurry."}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "4°C, rain"}]},
    ]
    ok = post(url, {"model": MODEL, "max_tokens": 500, "tools": [WEATHER], "messages": history})
    assert ok.status_code == 200 and "4°C" in json.dumps(ok.json(), ensure_ascii=False)
    broken = [*history[:3], {"role": "user", "content": "thanks"}]
    bad = post(url, {"model": MODEL, "max_tokens": 500, "tools": [WEATHER], "messages": broken})
    assert bad.status_code == 400 and bad.json()["error"]["message"].startswith("messages.3:")


def test_a_system_message_cleared_at_the_next_user_message_stops_counting(url):
    body = {
        "model": MODEL,
        "max_tokens": 500,
        "tools": [WEATHER],
        "messages": [
            {"role": "system", "content": "The user is in Lisbon.", "clear_at": "next_user_message"},
            {"role": "user", "content": "What's the weather here?"},
        ],
    }
    asked = post(url, body).json()
    assert asked["stop_reason"] == "end_turn"  # no city: it asks (the cleared message is not shown to the model)
    body["messages"][0].pop("clear_at")
    called = post(url, body).json()
    assert [b["input"] for b in called["content"] if b["type"] == "tool_use"] == [{"city": "Lisbon"}]


def test_the_anthropic_sdk_sends_system_messages_too(url):
    client = anthropic.Anthropic(api_key="k", base_url=url, max_retries=0)
    reply = client.messages.create(
        model=MODEL,
        max_tokens=500,
        tools=[WEATHER],
        messages=[
            {"role": "user", "content": "What's the weather?"},
            {"role": "system", "content": "The user lives in Warsaw."},
        ],
    )
    assert [b.input for b in reply.content if b.type == "tool_use"] == [{"city": "Warsaw"}]


SCHEMA = {
    "type": "object",
    "properties": {"city": {"type": "string"}, "temperature": {"type": "number"}},
    "required": ["city", "temperature"],
    "additionalProperties": False,
}


def test_litellms_top_level_output_format_is_read_as_output_config_format(url):
    body = {
        "model": MODEL,
        "max_tokens": 500,
        "messages": [{"role": "user", "content": "Oslo is at 4 degrees. Give me the city and temperature."}],
        "output_format": {"type": "json_schema", "schema": SCHEMA},
    }
    reply = post(url, body, path="/v1/messages", **{"anthropic-beta": "structured-outputs-2025-11-13"})
    assert reply.status_code == 200, reply.text
    answer = json.loads(reply.json()["content"][-1]["text"])
    assert answer == {"city": "Oslo", "temperature": 4}
    count = post(url, {k: v for k, v in body.items() if k != "max_tokens"}, path="/v1/messages/count_tokens")
    assert count.status_code == 200 and count.json()["input_tokens"] > 0


def test_output_format_and_a_different_output_config_format_conflict(url):
    body = {
        "model": MODEL,
        "max_tokens": 500,
        "messages": [{"role": "user", "content": "Hi"}],
        "output_format": {"type": "json_schema", "schema": SCHEMA},
        "output_config": {"format": {"type": "json_schema", "schema": {"type": "object"}}},
    }
    reply = post(url, body, path="/v1/messages")
    assert reply.status_code == 400 and "output_format" in reply.json()["error"]["message"]


@pytest.mark.parametrize(
    ("method", "path", "status"),
    [("HEAD", "/api/hello", 200), ("HEAD", "/", 200), ("GET", "/", 200), ("HEAD", "/v1/models", 200)],
)
def test_reachability_probes_answer(url, method, path, status):
    response = httpx2.request(method, url + path)
    assert response.status_code == status and (method != "HEAD" or response.content == b"")


@pytest.mark.parametrize(
    ("method", "path"),
    [("POST", "/v1/responses"), ("GET", "/v2/models"), ("HEAD", "/nothing"), ("PUT", "/v1/messages")],
)
def test_an_unknown_path_is_a_404_in_the_api_envelope_even_without_headers(url, method, path):
    response = httpx2.request(method, url + path)
    assert response.status_code == 404
    if method != "HEAD":
        error = response.json()
        assert error["type"] == "error" and error["error"]["type"] == "not_found_error"
        assert "POST /v1/messages" in error["error"]["message"] and error["request_id"].startswith("req_")
