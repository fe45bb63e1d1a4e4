"""The simulated model's HTTP side, driven by the official SDK over a live loopback server and in-process."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

import anthropic
import httpx2
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agent_core.cost import tokens
from agent_core.model import SimSettings
from agent_core.sim import SimHandler, SimTransport, start_server
from agent_core.sim.brain import Draft  # scripted brains return the real type
from agent_core.sim.validate import sign_thinking

API = {"x-api-key": "test-key", "anthropic-version": "2023-06-01"}  # the headers the API requires
MODEL = "claude-sonnet-4-6"
WEATHER = {
    "name": "get_weather",
    "description": "Current weather in a city.",
    "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
}
WRITE = {
    "name": "write_file",
    "description": "Write a file.",
    "input_schema": {"type": "object", "properties": {"path": {"type": "string"}, "content": {"type": "string"}}},
}
LONG = "The quick brown fox jumps over the lazy dog near the quiet river bank. " * 12


def assistant(message) -> dict:
    """A reply as plain JSON for the history, the way a loop appends it."""
    return {"role": "assistant", "content": [b.to_dict() for b in message.content]}


def _last_user_text(body: dict) -> str:
    content = body["messages"][-1]["content"]
    if isinstance(content, str):
        return content
    return " ".join(b.get("text", "") for b in content if b.get("type") == "text")


def scripted(body: dict, settings: SimSettings) -> Draft:
    """A tiny scripted brain: the user's text names what to do."""
    last = body["messages"][-1]["content"]
    results = [b for b in last if b.get("type") == "tool_result"] if isinstance(last, list) else []
    if results:
        quoted = "; ".join(str(r["content"]) for r in results)
        return Draft([{"type": "text", "text": f"Done. The tools said: {quoted}"}], "end_turn", reasoning="I have it.")
    text = _last_user_text(body)
    verb, _, rest = text.partition(" ")
    if verb == "weather":
        calls = [{"type": "tool_use", "id": None, "name": "get_weather", "input": {"city": c}} for c in rest.split(",")]
        return Draft([{"type": "text", "text": "Let me check."}, *calls], "tool_use", reasoning=f"Cities: {rest}.")
    if verb == "write":
        call = {"type": "tool_use", "id": None, "name": "write_file", "input": {"path": "notes.txt", "content": LONG}}
        return Draft([call], "tool_use")
    if verb == "refuse":
        return Draft(
            [{"type": "text", "text": "I can't help with that."}],
            "refusal",
            {"type": "refusal", "category": "cyber", "explanation": "Malware request."},
        )
    if verb == "pause":
        return Draft([{"type": "text", "text": "Still searching."}], "pause_turn")
    if verb == "long":
        return Draft([{"type": "text", "text": LONG}], "end_turn")
    reply = rest if verb == "say" else "Hello!"
    return Draft([{"type": "text", "text": reply}], "end_turn", reasoning="A greeting.")


@dataclass
class Sim:
    """One simulated model reachable both ways: a live server and an in-process transport."""

    settings: SimSettings = field(default_factory=SimSettings)

    def __post_init__(self) -> None:
        self.handler = SimHandler(self.settings, think=scripted)

    def client(self, mode: str, base_url: str, **kwargs) -> anthropic.Anthropic:
        if mode == "server":
            return anthropic.Anthropic(api_key="test-key", base_url=base_url, **kwargs)
        http = httpx2.Client(transport=SimTransport(self.settings, self.handler))
        return anthropic.Anthropic(api_key="test-key", base_url="http://simulated.invalid", http_client=http, **kwargs)


@pytest.fixture
def make(request):
    """make(mode, **settings) -> (client factory, handler); servers are shut down afterwards."""
    servers = []

    def build(mode: str, **settings):
        sim = Sim(SimSettings(**settings))
        server, url = start_server(sim.settings, handler=sim.handler)
        servers.append(server)
        return (lambda **kw: sim.client(mode, url, **kw)), sim.handler, url

    yield build
    for server in servers:
        server.shutdown()


MODES = ["server", "transport"]


def create(client, text, **kw):
    kw.setdefault("max_tokens", 512)
    return client.messages.create(model=MODEL, messages=[{"role": "user", "content": text}], **kw)


@pytest.mark.parametrize("mode", MODES)
def test_end_turn_reply_has_real_shape(make, mode):
    client_for, _, _ = make(mode)
    raw = client_for().messages.with_raw_response.create(
        model="claude-opus-4-8", max_tokens=100, messages=[{"role": "user", "content": "say Hi there"}]
    )
    message = raw.parse()
    assert message.stop_reason == "end_turn" and message.content[0].text == "Hi there"
    assert message.id.startswith("msg_") and message.model == "claude-opus-4-8"
    assert raw.headers["request-id"].startswith("req_") and raw.request_id == raw.headers["request-id"]
    assert message.usage.service_tier == "standard"
    assert message.usage.input_tokens == tokens.count_request(
        {"model": "claude-opus-4-8", "messages": [{"role": "user", "content": "say Hi there"}]}
    )
    assert message.usage.output_tokens == tokens.estimate_text("Hi there")


@pytest.mark.parametrize("mode", MODES)
def test_tool_use_round_trip_quotes_the_result(make, mode):
    client = make(mode)[0]()
    first = create(client, "weather Moscow,Kraków", tools=[WEATHER])
    calls = [b for b in first.content if b.type == "tool_use"]
    assert first.stop_reason == "tool_use" and [c.input["city"] for c in calls] == ["Moscow", "Kraków"]
    assert all(c.id.startswith("toolu_") for c in calls) and calls[0].id != calls[1].id
    results = [{"type": "tool_result", "tool_use_id": c.id, "content": f"{c.input['city']}: 3°C"} for c in calls]
    second = client.messages.create(
        model=MODEL,
        max_tokens=512,
        tools=[WEATHER],
        messages=[
            {"role": "user", "content": "weather Moscow,Kraków"},
            assistant(first),
            {"role": "user", "content": results},
        ],
    )
    assert second.stop_reason == "end_turn"
    assert "Moscow: 3°C" in second.content[0].text and "Kraków: 3°C" in second.content[0].text


@pytest.mark.parametrize("mode", MODES)
def test_max_tokens_cuts_text(make, mode):
    message = create(make(mode)[0](), "long", max_tokens=7)
    assert message.stop_reason == "max_tokens" and message.usage.output_tokens == 7
    text = message.content[0].text
    assert LONG.startswith(text) and 0 < len(text) < len(LONG) and tokens.estimate_text(text) <= 7


@pytest.mark.parametrize("mode", MODES)
def test_max_tokens_mid_tool_use_returns_incomplete_input(make, mode):
    message = create(make(mode)[0](), "write", max_tokens=12, tools=[WRITE])
    assert message.stop_reason == "max_tokens"
    call = message.content[-1]
    assert call.type == "tool_use" and call.input == {"path": "notes.txt"}  # "content" never arrived


@pytest.mark.parametrize("mode", MODES)
def test_stop_sequence_cuts_before_it(make, mode):
    message = create(make(mode)[0](), "say alpha beta END gamma", stop_sequences=["END", "beta"])
    assert message.stop_reason == "stop_sequence" and message.stop_sequence == "beta"
    assert message.content[0].text == "alpha "


def test_stop_sequence_beyond_max_tokens_is_max_tokens(make):
    message = create(make("transport")[0](), f"say {LONG} END", stop_sequences=["END"], max_tokens=5)
    assert message.stop_reason == "max_tokens" and message.stop_sequence is None


@pytest.mark.parametrize("mode", MODES)
def test_refusal_carries_stop_details(make, mode):
    message = create(make(mode)[0](), "refuse")
    assert message.stop_reason == "refusal"
    assert message.stop_details.category == "cyber" and message.stop_details.explanation == "Malware request."


@pytest.mark.parametrize("mode", MODES)
def test_pause_turn_passes_through(make, mode):
    message = create(make(mode)[0](), "pause")
    assert message.stop_reason == "pause_turn" and message.content[0].text == "Still searching."


@pytest.mark.parametrize("mode", MODES)
def test_input_alone_over_the_window_is_a_400_prompt_too_long(make, mode):
    client = make(mode, context_window=50)[0]()
    with pytest.raises(anthropic.BadRequestError) as caught:
        create(client, "say " + "word " * 200, max_tokens=5000)
    assert caught.value.status_code == 400
    assert "prompt is too long" in str(caught.value) and "> 50 maximum" in str(caught.value)


def test_context_window_fills_up_during_output(make):
    prompt = "long"
    window = tokens.count_request({"model": MODEL, "messages": [{"role": "user", "content": prompt}]}) + 10
    message = create(make("transport", context_window=window)[0](), prompt, max_tokens=500)
    assert message.stop_reason == "model_context_window_exceeded" and message.usage.output_tokens <= 10


def test_real_window_from_the_model_table(make):
    client = make("transport")[0]()
    big = "hello " + "x" * 1_000_000  # 250K tokens: over Haiku 4.5's 200K, inside Sonnet 5.5's 1M
    with pytest.raises(anthropic.BadRequestError, match="prompt is too long"):
        client.messages.create(model="claude-haiku-4-5", max_tokens=50, messages=[{"role": "user", "content": big}])
    assert (
        client.messages.create(
            model="claude-sonnet-5-5", max_tokens=50, messages=[{"role": "user", "content": big}]
        ).stop_reason
        == "end_turn"
    )


@pytest.mark.parametrize("mode", MODES)
def test_unknown_stop_reason_fault(make, mode):
    client = make(mode, faults=[{"kind": "unknown_stop_reason", "turn": 1}])[0]()
    message = create(client, "say Something long enough to be cut short by the fault.")
    assert message.stop_reason == "future_reason" and message.content[0].text


@pytest.mark.parametrize("mode", MODES)
def test_thinking_round_trip(make, mode):
    client = make(mode)[0]()
    request = dict(model=MODEL, max_tokens=2048, tools=[WEATHER], thinking={"type": "enabled", "budget_tokens": 1024})
    first = client.messages.create(messages=[{"role": "user", "content": "weather Oslo"}], **request)
    assert first.content[0].type == "thinking" and first.content[0].thinking == "Cities: Oslo."
    call = first.content[-1]
    history = [
        {"role": "user", "content": "weather Oslo"},
        assistant(first),
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": call.id, "content": "sunny"}]},
    ]
    assert client.messages.create(messages=history, **request).stop_reason == "end_turn"
    history[1]["content"][0]["thinking"] = "Cities: Bergen."
    with pytest.raises(anthropic.BadRequestError) as err:
        client.messages.create(messages=history, **request)
    assert "thinking blocks must be passed back unchanged" in err.value.message


def test_settings_thinking_adds_signed_block(make):
    message = create(make("transport", thinking=True, seed=7)[0](), "say Hi")
    block = message.content[0]
    assert block.type == "thinking" and block.signature == sign_thinking(block.thinking, 7)
    assert (
        create(make("transport", thinking=True)[0](), "say Hi", thinking={"type": "disabled"}).content[0].type == "text"
    )


def _attempts(handler: SimHandler) -> list[tuple[int, int | None]]:
    return [(s.retry, s.status) for s in handler.seen if s.path == "/v1/messages"]


@pytest.mark.parametrize("mode", MODES)
def test_429_with_retry_after_then_success(make, mode):
    client_for, handler, _ = make(mode, faults=[{"status": 429, "retry_after": 0.01}])
    raw = client_for().messages.with_raw_response.create(
        model=MODEL, max_tokens=50, messages=[{"role": "user", "content": "say ok"}]
    )
    assert raw.parse().content[0].text == "ok" and raw.retries_taken == 1
    assert _attempts(handler) == [(0, 429), (1, 200)]
    with pytest.raises(anthropic.RateLimitError) as err:
        create(client_for(max_retries=0), "say ok")
    assert err.value.response.headers["retry-after"] == "0.01"
    assert err.value.body["error"]["type"] == "rate_limit_error"


@pytest.mark.parametrize("mode", MODES)
def test_529_then_success(make, mode):
    client_for, handler, _ = make(mode, faults=[{"status": 529, "retry_after": 0.01}])
    assert create(client_for(), "say ok").content[0].text == "ok"
    assert _attempts(handler) == [(0, 529), (1, 200)]


@pytest.mark.parametrize("mode", MODES)
def test_500_beyond_retries_surfaces(make, mode):
    client_for, handler, _ = make(mode, faults=[{"status": 500, "attempts": 5, "retry_after": 0.01}])
    with pytest.raises(anthropic.InternalServerError) as err:
        create(client_for(max_retries=2), "say ok")
    assert err.value.status_code == 500 and err.value.body["error"]["type"] == "api_error"
    assert _attempts(handler) == [(0, 500), (1, 500), (2, 500)]


@pytest.mark.parametrize("mode", MODES)
def test_drop_then_success(make, mode):
    client_for, handler, _ = make(mode, faults=[{"kind": "drop", "turn": 1}])
    with pytest.raises(anthropic.APIConnectionError):
        create(client_for(max_retries=0), "say ok")
    # The server counts the same request sent again as its retry, whichever client sends it.
    assert create(client_for(max_retries=0), "say ok").content[0].text == "ok"
    assert _attempts(handler) == [(0, None), (1, 200)]
    handler.seen.clear()
    assert create(client_for(max_retries=1), "say ok please").content[0].text == "ok please"
    assert _attempts(handler) == [(0, None), (1, 200)]  # a new request: dropped once, the SDK's retry passes


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    "status,exc,kind",
    [
        (401, anthropic.AuthenticationError, "authentication_error"),
        (403, anthropic.PermissionDeniedError, "permission_error"),
        (404, anthropic.NotFoundError, "not_found_error"),
        (413, anthropic.ContentTooLargeError, "request_too_large"),
        (400, anthropic.BadRequestError, "invalid_request_error"),
    ],
)
def test_status_faults_raise_sdk_exceptions(make, mode, status, exc, kind):
    client_for, handler, _ = make(mode, faults=[{"status": status}])
    with pytest.raises(exc) as err:
        create(client_for(), "say ok")
    assert err.value.status_code == status and err.value.body["error"]["type"] == kind
    assert len(_attempts(handler)) == 1  # the SDK does not retry these


def test_fault_only_on_its_turn(make):
    client = make("transport", faults=[{"status": 401, "turn": 2}])[0]()
    first = create(client, "weather Oslo", tools=[WEATHER])
    assert first.stop_reason == "tool_use"
    history = [
        {"role": "user", "content": "weather Oslo"},
        assistant(first),
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": first.content[-1].id, "content": "sunny"}]},
    ]
    with pytest.raises(anthropic.AuthenticationError):
        client.messages.create(model=MODEL, max_tokens=50, tools=[WEATHER], messages=history)


@pytest.mark.parametrize("mode", MODES)
def test_slow_reply_meets_client_timeout(make, mode):
    client_for, _, _ = make(mode, faults=[{"kind": "slow", "delay_s": 0.4}])
    with pytest.raises(anthropic.APITimeoutError):
        create(client_for(max_retries=0, timeout=0.1), "say ok")
    assert create(client_for(max_retries=0, timeout=5), "say ok").content[0].text == "ok"


def test_latency_setting_delays_replies():
    assert SimHandler(SimSettings(), think=scripted).handle("GET", "/v1/models", API, b"").delay_s == 0
    assert SimHandler(SimSettings(latency_ms=250), think=scripted).handle("GET", "/v1/models", API, b"").delay_s == 0.25


STREAM_CASES = [
    dict(text="weather Oslo,Rome", tools=[WEATHER]),
    dict(text="weather Oslo", tools=[WEATHER], thinking={"type": "enabled", "budget_tokens": 1024}, max_tokens=2000),
    dict(text="write", tools=[WRITE], max_tokens=12),
    dict(text="long", max_tokens=9),
    dict(text="refuse"),
    dict(text="say ünïcode — текст and emoji 🙂 END tail", stop_sequences=["END"]),
]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("case", STREAM_CASES, ids=lambda c: c["text"][:12])
def test_stream_gives_same_final_message(make, mode, case):
    client = make(mode)[0]()
    case = dict(case)
    kwargs = dict(
        model=MODEL,
        max_tokens=case.pop("max_tokens", 512),
        messages=[{"role": "user", "content": case.pop("text")}],
        **case,
    )
    plain = client.messages.create(**kwargs)
    with client.messages.stream(**kwargs) as stream:
        final = stream.get_final_message()
    assert final.to_dict() == plain.to_dict()


def test_sse_event_sequence():
    handler = SimHandler(SimSettings(), think=scripted)
    body = {
        "model": MODEL,
        "max_tokens": 2000,
        "stream": True,
        "tools": [WEATHER],
        "thinking": {"type": "enabled", "budget_tokens": 1024},
        "messages": [{"role": "user", "content": "weather Oslo"}],
    }
    reply = handler.handle("POST", "/v1/messages", API, json.dumps(body).encode())
    assert reply.status == 200 and reply.headers["content-type"].startswith("text/event-stream")
    events = [json.loads(c.decode().split("data: ", 1)[1]) for c in reply.chunks]
    names = [e["type"] for e in events]
    assert names[:2] == ["message_start", "ping"] and names[-2:] == ["message_delta", "message_stop"]
    deltas = [e["delta"]["type"] for e in events if e["type"] == "content_block_delta"]
    assert deltas[0] == "thinking_delta" and "signature_delta" in deltas
    assert {"text_delta", "input_json_delta"} <= set(deltas)
    assert names.count("content_block_start") == names.count("content_block_stop") == 3
    assert events[0]["message"]["stop_reason"] is None and events[-2]["delta"]["stop_reason"] == "tool_use"


@pytest.mark.parametrize("mode", MODES)
def test_count_tokens_equals_usage_input(make, mode):
    client = make(mode)[0]()
    kwargs = dict(
        model=MODEL, system="Be brief.", tools=[WEATHER], messages=[{"role": "user", "content": "say Привет"}]
    )
    counted = client.messages.count_tokens(**kwargs)
    assert counted.input_tokens == client.messages.create(max_tokens=50, **kwargs).usage.input_tokens
    assert counted.input_tokens == tokens.count_request(kwargs)


def test_same_request_same_bytes_and_seed_changes_ids():
    body = json.dumps(
        {
            "model": MODEL,
            "max_tokens": 99,
            "tools": [WEATHER],
            "messages": [{"role": "user", "content": "weather Oslo"}],
        }
    ).encode()
    replies = [
        SimHandler(SimSettings(seed=s), think=scripted).handle("POST", "/v1/messages", API, body) for s in (3, 3, 4)
    ]
    assert replies[0].body == replies[1].body and replies[0].headers == replies[1].headers
    first, other = json.loads(replies[0].body), json.loads(replies[2].body)
    assert first["id"] != other["id"] and first["content"][1]["id"] != other["content"][1]["id"]


@pytest.mark.parametrize(
    "headers",
    [
        {"x-api-key": "sk-old", "anthropic-version": "2023-06-01"},
        {"authorization": "Bearer sk-new", "anthropic-version": "2026-10-21"},
    ],
)
def test_both_auth_styles_accepted(make, headers):
    _, _, url = make("server")
    body = {"model": MODEL, "max_tokens": 20, "messages": [{"role": "user", "content": "say yes"}]}
    response = httpx2.post(f"{url}/v1/messages", json=body, headers=headers)
    assert response.status_code == 200 and response.json()["content"][0]["text"] == "yes"


@pytest.mark.parametrize(
    "method,path,body,status",
    [
        (
            "POST",
            "/v1/messages",
            {"model": MODEL, "max_tokens": 5, "messages": [{"role": "user", "content": "hi"}]},
            200,
        ),
        ("POST", "/v1/messages", {"model": MODEL}, 400),
        ("POST", "/v1/messages/count_tokens", {"model": MODEL, "messages": [{"role": "user", "content": "hi"}]}, 200),
        ("GET", "/v1/models", None, 200),
        ("GET", "/v1/models/claude-haiku-4-5", None, 200),
        ("GET", "/v1/models/claude-nope-1", None, 404),
        ("GET", "/v1/nothing", None, 404),
        ("DELETE", "/v1/messages", None, 404),
    ],
)
def test_request_id_on_every_response(make, method, path, body, status):
    _, _, url = make("server")
    response = httpx2.request(method, url + path, json=body, headers=API)
    assert response.status_code == status and response.headers["request-id"].startswith("req_")
    if status >= 400:
        data = response.json()
        assert data["type"] == "error" and data["request_id"] == response.headers["request-id"]
        assert data["error"]["type"] == ("not_found_error" if status == 404 else "invalid_request_error")


def test_rate_limit_header_and_envelope_on_429(make):
    _, _, url = make("server", faults=[{"status": 429}])
    response = httpx2.post(
        f"{url}/v1/messages",
        json={"model": MODEL, "max_tokens": 5, "messages": [{"role": "user", "content": "hi"}]},
        headers=API,
    )
    assert response.status_code == 429 and response.headers["retry-after"] == "1"
    assert response.json()["error"]["type"] == "rate_limit_error"


@pytest.mark.parametrize("mode", MODES)
def test_models_list(make, mode):
    models = {m.id: m for m in make(mode)[0]().models.list()}
    for wanted in (
        "claude-sonnet-4-6",
        "claude-opus-4-8",
        "claude-haiku-4-5",
        "claude-sonnet-5-5",
        "claude-opus-5-5",
        "claude-haiku-5-5",
    ):
        assert wanted in models
    assert models["claude-opus-4-8"].display_name == "Claude Opus 4.8"
    assert models["claude-sonnet-5-5"].max_input_tokens == 1_000_000
    assert (
        models["claude-sonnet-4-6"].max_input_tokens == 1_000_000 and models["claude-sonnet-4-6"].max_tokens == 128_000
    )
    assert models["claude-haiku-4-5"].max_input_tokens == 200_000
    assert "claude-sonnet-4-5" not in models  # retired on 2026-11-30
    assert all(not m.created_at.isoformat().startswith("1970") for m in models.values())


def test_sdk_tool_runner_without_threads(make):
    client_for, handler, _ = make("transport")

    @anthropic.beta_tool
    def get_weather(city: str) -> str:
        """Current weather in a city."""
        return f"{city}: 7°C"

    runner = client_for().beta.messages.tool_runner(
        model=MODEL,
        max_tokens=500,
        tools=[get_weather],
        thread=False,
        messages=[{"role": "user", "content": "weather Oslo"}],
    )
    final = runner.until_done()
    assert final.stop_reason == "end_turn" and "Oslo: 7°C" in final.content[0].text
    assert len(_attempts(handler)) == 2


def test_brain_failure_is_a_500_envelope():
    def broken(body, settings):
        raise KeyError("lexicon")

    reply = SimHandler(SimSettings(), think=broken).handle(
        "POST",
        "/v1/messages",
        API,
        json.dumps({"model": MODEL, "max_tokens": 5, "messages": [{"role": "user", "content": "hi"}]}).encode(),
    )
    error = json.loads(reply.body)
    assert reply.status == 500 and error["error"]["type"] == "api_error" and "KeyError" in error["error"]["message"]
    assert error["request_id"] == reply.headers["request-id"]


@settings(max_examples=60, deadline=None)
@given(
    text=st.text(alphabet=st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=120),
    budget=st.integers(min_value=1, max_value=40),
)
def test_max_tokens_cut_is_a_prefix_within_budget(text, budget):
    body = {"model": MODEL, "max_tokens": budget, "messages": [{"role": "user", "content": "say " + text}]}
    reply = json.loads(
        SimHandler(SimSettings(), think=scripted).handle("POST", "/v1/messages", API, json.dumps(body).encode()).body
    )
    spoken = "".join(b["text"] for b in reply["content"])
    assert text.startswith(spoken) and tokens.estimate_text(spoken) <= budget
    assert (reply["stop_reason"] == "max_tokens") == (tokens.estimate_text(text) > budget)
    assert reply["usage"]["output_tokens"] == (
        budget if reply["stop_reason"] == "max_tokens" else max(1, tokens.estimate_text(text))
    )
