"""The recorder: a program's calls, served offline or passed through, saved as runs grouped the way its loop built
them, with the exact bytes that crossed the wire and no key anywhere."""

from __future__ import annotations

import functools
import json
import os
import re
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import anthropic
import pytest

from agent_core.model import Run, SimSettings
from agent_core.recorder import RecorderConfig, start_recorder
from agent_core.recorder.grouping import Grouper
from agent_core.recorder.upstream import UpstreamRefused
from agent_core.sim import SimHandler, start_server
from agent_core.storage.store import RunStore
from agent_core.vocab import ErrorReason
from agent_core.wire import errors
from lab_ui.words.catalogue import stop_text
from lab_ui.words.i18n import translate

MODEL = "claude-sonnet-5-5"
NODE_DIR = Path(__file__).parent / "node"
WEATHER = {
    "name": "get_weather",
    "description": "Current weather in a city. Use it for any weather question.",
    "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
}


def weather(city: str) -> str:
    return f"Weather in {city}: 4°C, light rain"


@pytest.fixture
def store(tmp_path):
    with RunStore(tmp_path / "runs.db") as runs:
        yield runs


@pytest.fixture
def recording(store):
    """A recorder on loopback answering with the offline model; yields (base_url, recorder)."""
    servers = []

    def start(config: RecorderConfig | None = None):
        server, url, recorder = start_recorder(config, save=store.save_turn)
        servers.append((server, recorder))
        return url, recorder

    yield start
    for server, recorder in servers:
        server.shutdown()
        recorder.close()


def tool_loop(client: anthropic.Anthropic, question: str, stream: bool = False, **extra) -> str:
    """The loop every tutorial writes: call, run the tools, send the results back, until end_turn."""
    messages: list = [{"role": "user", "content": question}]
    for _ in range(6):
        kwargs = dict(model=MODEL, max_tokens=1000, tools=[WEATHER], messages=messages, **extra)
        if stream:
            with client.messages.stream(**kwargs) as s:
                reply = s.get_final_message()
        else:
            reply = client.messages.create(**kwargs)
        messages.append({"role": "assistant", "content": reply.content})
        if reply.stop_reason != "tool_use":
            return "".join(b.text for b in reply.content if b.type == "text")
        results = [
            {"type": "tool_result", "tool_use_id": b.id, "content": weather(**b.input)}
            for b in reply.content
            if b.type == "tool_use"
        ]
        messages.append({"role": "user", "content": results})
    raise AssertionError("the loop did not end")


def recorded(store: RunStore) -> list[Run]:
    runs = [store.load(s.id) for s in store.list_runs() if s.recorded]
    return sorted(runs, key=lambda r: r.created_at)


def test_a_tool_loop_is_one_run_with_a_turn_per_request(recording, store):
    url, _ = recording()
    client = anthropic.Anthropic(api_key="program-own-key", base_url=url, max_retries=0)
    answer = tool_loop(client, "What's the weather in Oslo and in Paris?")
    [run] = recorded(store)
    assert [t.stop_reason for t in run.turns] == ["tool_use", "end_turn"]
    assert run.config.task == "What's the weather in Oslo and in Paris?" and run.config.tools[0].name == "get_weather"
    first = run.turns[0]
    assert sorted(x.input["city"] for x in first.tools) == ["Oslo", "Paris"]  # parallel calls, read back
    assert all(x.output.startswith("Weather in") for x in first.tools)
    assert answer and run.final_text == answer
    assert run.origin["client"].startswith("Anthropic Python SDK") and run.origin["upstream"] == "offline"
    summary = next(s for s in store.list_runs() if s.id == run.id)
    assert summary.recorded and summary.turns == 2 and summary.tokens > 0 and summary.cost_usd > 0


def test_the_exact_wire_bytes_are_kept_and_no_key(recording, store, tmp_path):
    url, _ = recording()
    key = "program-" + "k" * 30
    client = anthropic.Anthropic(api_key=key, base_url=url, max_retries=0)
    tool_loop(client, "What's the weather in Oslo?", stream=True)
    [run] = recorded(store)
    exchange = run.turns[0].exchanges[0]
    assert json.loads(exchange.request_body)["messages"][0]["content"] == "What's the weather in Oslo?"
    assert exchange.response_body.startswith(b"event: message_start")  # the SSE stream as it came
    assert run.turns[0].response["content"][-1]["type"] == "tool_use"  # and the message it carried
    assert {k.lower(): v for k, v in exchange.request_headers.items()}["authorization"] == "[redacted]"
    store.close()
    for path in tmp_path.glob("runs.db*"):
        assert key.encode() not in path.read_bytes()


def test_interleaved_conversations_are_separate_runs(recording, store):
    url, _ = recording()
    client = anthropic.Anthropic(api_key="k", base_url=url, max_retries=0)
    a = [{"role": "user", "content": "What's the weather in Oslo?"}]
    b = [{"role": "user", "content": "What's the weather in Cairo?"}]
    ra = client.messages.create(model=MODEL, max_tokens=500, tools=[WEATHER], messages=a)
    rb = client.messages.create(model=MODEL, max_tokens=500, tools=[WEATHER], messages=b)
    for history, reply, city in ((b, rb, "Cairo"), (a, ra, "Oslo")):
        history += [
            {"role": "assistant", "content": reply.content},
            {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": reply.content[-1].id, "content": weather(city)}],
            },
        ]
        client.messages.create(model=MODEL, max_tokens=500, tools=[WEATHER], messages=history)
    runs = recorded(store)
    assert [r.config.task for r in runs] == ["What's the weather in Oslo?", "What's the weather in Cairo?"]
    assert [len(r.turns) for r in runs] == [2, 2]
    assert runs[0].turns[0].tools[0].input == {"city": "Oslo"}


def test_a_retry_is_another_attempt_of_the_same_turn(recording, store):
    url, _ = recording(RecorderConfig(fault_plan=("529",)))
    client = anthropic.Anthropic(api_key="k", base_url=url, max_retries=2)
    tool_loop(client, "What's the weather in Oslo?")
    [run] = recorded(store)
    assert [x.status for x in run.turns[0].exchanges] == [529, 200]
    assert [x.retry for x in run.turns[0].exchanges] == [0, 1] and len(run.turns) == 2


def test_a_dropped_connection_is_recorded_as_a_fact_worded_in_the_learners_language(recording, store):
    url, _ = recording(RecorderConfig(fault_plan=("drop",)))
    client = anthropic.Anthropic(api_key="k", base_url=url, max_retries=0)
    with pytest.raises(anthropic.APIConnectionError):
        tool_loop(client, "What's the weather in Oslo?")
    [run] = recorded(store)
    error = run.turns[0].error
    assert (
        error is not None
        and error.params == {"reason": ErrorReason.DROPPED}
        and run.turns[0].exchanges[0].error is None
    )
    assert stop_text(run) == errors.explain(error) and stop_text(run, functools.partial(translate, "pl")) != stop_text(
        run
    )


def test_a_program_run_twice_is_two_runs(recording, store):
    url, _ = recording()
    client = anthropic.Anthropic(api_key="k", base_url=url, max_retries=0)
    tool_loop(client, "What's the weather in Oslo?")
    tool_loop(client, "What's the weather in Oslo?")
    assert [len(r.turns) for r in recorded(store)] == [2, 2]


def test_passed_through_with_the_programs_own_key_to_a_compatible_server(recording, store):
    seen: list[dict] = []

    class Upstream(SimHandler):
        def handle(self, method, path, headers, body):
            seen.append({k.lower(): v for k, v in headers.items()})
            return super().handle(method, path, headers, body)

    upstream = Upstream(SimSettings())
    server, upstream_url = start_server(upstream.settings, handler=upstream)
    try:
        url, _ = recording(RecorderConfig(upstream=upstream_url))
        client = anthropic.Anthropic(api_key="learners-own-key", base_url=url, max_retries=0)
        tool_loop(client, "What's the weather in Oslo?", stream=True)
    finally:
        server.shutdown()
    assert seen and all(h.get("authorization") == "Bearer learners-own-key" for h in seen)
    [run] = recorded(store)
    assert run.origin["upstream"] == upstream_url and run.config.provider == "compatible"
    assert [t.stop_reason for t in run.turns] == ["tool_use", "end_turn"]
    assert run.turns[0].cost_usd == 0  # a compatible server's calls have no price


def test_a_request_path_never_chooses_where_it_goes(recording):
    url, recorder = recording(RecorderConfig(upstream="http://127.0.0.1:9"))
    for path in ("//evil.example/v1/messages", "/v1/../../x", "/v1/messages@evil.example"):
        with pytest.raises(UpstreamRefused):
            recorder.upstream.url_for(path)
    # Over HTTP the server folds a leading // to one slash: the request still only goes to the configured
    # upstream (nothing listens there, so the program gets a 502 naming it).
    raw = socket.create_connection(("127.0.0.1", int(url.rsplit(":", 1)[1])), timeout=10)
    raw.sendall(
        b"POST //evil.example/v1/messages HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}"
    )
    answer = b""
    while chunk := raw.recv(4096):
        answer += chunk
    raw.close()
    assert answer.startswith(b"HTTP/1.1 502") and b"http://127.0.0.1:9" in answer


def test_grouping_reads_replies_as_clients_send_them_back():
    """Clients rebuild replies their own way: a text block as a string, citations: null, cache_control moved."""
    grouper = Grouper(new_id=iter("abc").__next__)
    ask = {"role": "user", "content": [{"type": "text", "text": "Hi", "cache_control": {"type": "ephemeral"}}]}
    first = grouper.place([ask])
    grouper.answered(
        first.run_id, {"type": "message", "content": [{"type": "text", "text": "Hello! ", "citations": None}]}
    )
    again = grouper.place(
        [
            {"role": "user", "content": "Hi"},
            {"role": "assistant", "content": "Hello!"},
            {"role": "user", "content": "More"},
        ]
    )
    assert (first.run_id, again.run_id, again.new_run) == ("a", "a", False)
    assert grouper.place([{"role": "user", "content": "Other"}]).new_run


def test_the_typescript_sdk_loop_is_recorded(recording, store):
    tsx = NODE_DIR / "node_modules" / ".bin" / "tsx"
    if not shutil.which("node") or not tsx.exists():
        pytest.skip("node or tests/node's packages are not installed (make tests/node/node_modules/.installed)")
    url, _ = recording()
    env = {**os.environ, "ANTHROPIC_BASE_URL": url, "ANTHROPIC_API_KEY": "k"}
    done = subprocess.run(
        [str(tsx), "agent.ts", "What's the weather in Oslo?"],
        cwd=NODE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-800:]
    [run] = recorded(store)
    assert run.origin["client"].startswith("Anthropic TypeScript SDK")
    assert [t.stop_reason for t in run.turns] == ["tool_use", "end_turn"] and run.turns[0].tools[0].input == {
        "city": "Oslo"
    }


def test_serve_record_from_the_command_line(tmp_path):
    """`python -m agent_core serve --record`: the banner gives the recipe, and a program's run lands in the store."""
    env = {**os.environ, "AGENT_LOOP_LAB_DB": str(tmp_path / "cli.db"), "PYTHONUNBUFFERED": "1"}
    command = [sys.executable, "-m", "agent_core", "serve", "--record", "--port", "0"]
    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, text=True)
    try:
        banner = process.stdout.readline()
        base = re.search(r"Recording at (http://127\.0\.0\.1:\d+)", banner)[1]
        recipe = [process.stdout.readline() for _ in range(3)]
        assert f"export ANTHROPIC_BASE_URL={base}" in recipe[0]
        tool_loop(anthropic.Anthropic(api_key="k", base_url=base, max_retries=0), "What's the weather in Oslo?")
    finally:
        process.terminate()
        process.wait(timeout=10)
    with RunStore(tmp_path / "cli.db") as runs:
        [summary] = runs.list_runs()
        assert summary.recorded and summary.turns == 2


def test_serve_record_refuses_an_unreadable_upstream(capsys):
    from agent_core.cli import main

    assert main(["serve", "--record", "--upstream", "ftp://x"]) == 2
    assert "--upstream" in capsys.readouterr().out


def test_a_recorded_run_exports_and_imports_with_its_origin(recording, store):
    from agent_core.files.export import export_json, import_json

    url, _ = recording()
    client = anthropic.Anthropic(api_key="k", base_url=url, max_retries=0)
    messages = [
        {"role": "user", "content": "What's the weather in Oslo?"},
        {"role": "system", "content": "The user prefers Celsius."},  # Claude Code's mid-conversation context
    ]
    client.messages.create(model=MODEL, max_tokens=500, tools=[WEATHER], messages=messages)
    [run] = recorded(store)
    back = import_json(export_json(run))
    assert back.origin == run.origin and back.origin["kind"] == "recorded"
    assert [m["role"] for m in back.turns[0].request["messages"]] == ["user", "system"]


@pytest.mark.parametrize("stream", [False, True])
def test_an_openai_sdk_loop_is_recorded_as_the_messages_it_stands_for(recording, store, stream):
    """The OpenAI SDK on /v1/chat/completions: the exact OpenAI bytes are kept, the turns read as Messages API."""
    import openai

    url, _ = recording()
    client = openai.OpenAI(api_key="k", base_url=url + "/v1/", max_retries=0)
    tool = {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": WEATHER["description"],
            "parameters": WEATHER["input_schema"],
        },
    }
    messages: list = [{"role": "user", "content": "What's the weather in Oslo?"}]
    for _ in range(4):
        if stream:
            chunks = list(client.chat.completions.create(model=MODEL, messages=messages, tools=[tool], stream=True))
            calls = [c.choices[0].delta.tool_calls[0] for c in chunks if c.choices and c.choices[0].delta.tool_calls]
            call = next((c for c in calls if c.id), None)
            done = call is None
            if call is not None:
                args = "".join(c.function.arguments or "" for c in calls)
                message = {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        {"id": call.id, "type": "function", "function": {"name": "get_weather", "arguments": args}}
                    ],
                }
        else:
            reply = client.chat.completions.create(model=MODEL, messages=messages, tools=[tool]).choices[0]
            done = reply.finish_reason != "tool_calls"
            message = reply.message.model_dump(exclude_none=True)
        if done:
            break
        messages += [
            message,
            {"role": "tool", "tool_call_id": message["tool_calls"][0]["id"], "content": weather("Oslo")},
        ]
    [run] = recorded(store)
    assert [t.stop_reason for t in run.turns] == ["tool_use", "end_turn"]
    assert run.turns[0].tools[0].input == {"city": "Oslo"} and run.turns[0].tools[0].output.startswith(
        "Weather in Oslo"
    )
    assert run.turns[0].exchanges[0].url.endswith("/v1/chat/completions")
    assert b'"tool_calls"' in run.turns[0].exchanges[0].response_body  # OpenAI's own bytes, as they came
