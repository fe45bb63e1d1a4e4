"""The offline server's POST /v1/chat/completions, driven by the real OpenAI Python SDK (as Anthropic's own OpenAI
compatibility layer is used: base_url=".../v1/", a Claude model name): a tool loop, streaming with tool calls,
the documented differences, OpenAI's error envelope, and the Lab's OpenAI view of a run accepted by the SDK."""

from __future__ import annotations

import json

import anthropic
import httpx2
import openai
import pytest

from agent_core.model import SimSettings
from agent_core.sim import SimHandler, start_server
from agent_core.wire.openai_form import to_openai_messages, to_openai_response

MODEL = "claude-sonnet-5-5"
WEATHER = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Current weather in a city. Use it for any weather question.",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
        "strict": True,
    },
}


def weather(city: str) -> str:
    return f"Weather in {city}: 4°C, light rain"


@pytest.fixture(scope="module")
def server():
    handler = SimHandler(SimSettings())
    srv, url = start_server(handler.settings, handler=handler)
    yield url, handler
    srv.shutdown()


@pytest.fixture
def client(server):
    return openai.OpenAI(api_key="k", base_url=server[0] + "/v1/", max_retries=0)


def run_loop(client: openai.OpenAI, question: str, **extra) -> tuple[str, list]:
    """The OpenAI quickstart's function-calling loop."""
    messages: list = [
        {"role": "system", "content": "You are a helpful assistant."},
        {"role": "user", "content": question},
    ]
    for _ in range(6):
        reply = client.chat.completions.create(model=MODEL, messages=messages, tools=[WEATHER], **extra)
        choice = reply.choices[0]
        messages.append(choice.message.model_dump(exclude_none=True))
        if choice.finish_reason != "tool_calls":
            return choice.message.content or "", messages
        for call in choice.message.tool_calls:
            args = json.loads(call.function.arguments)
            messages.append({"role": "tool", "tool_call_id": call.id, "content": weather(**args)})
    raise AssertionError("the loop did not end")


def test_a_tool_loop_with_parallel_calls(client):
    answer, messages = run_loop(client, "What's the weather in Oslo and in Paris?")
    calls = messages[2]["tool_calls"]
    assert sorted(json.loads(c["function"]["arguments"])["city"] for c in calls) == ["Oslo", "Paris"]
    assert "4°C" in answer and "Oslo" in answer and "Paris" in answer
    assert [m["role"] for m in messages] == ["system", "user", "assistant", "tool", "tool", "assistant"]


def test_finish_reasons_and_usage(client):
    first = client.chat.completions.create(
        model=MODEL, messages=[{"role": "user", "content": "What's the weather in Oslo?"}], tools=[WEATHER]
    )
    assert first.object == "chat.completion" and first.choices[0].finish_reason == "tool_calls"
    assert first.usage.total_tokens == first.usage.prompt_tokens + first.usage.completion_tokens > 0
    cut = client.chat.completions.create(
        model=MODEL, messages=[{"role": "user", "content": "Tell me about Oslo."}], max_tokens=3
    )
    assert cut.choices[0].finish_reason == "length"
    parallel = client.chat.completions.create(
        model=MODEL,
        messages=[{"role": "user", "content": "What's the weather in Oslo and in Paris?"}],
        tools=[WEATHER],
        parallel_tool_calls=False,
    )
    assert len(parallel.choices[0].message.tool_calls) == 1


def test_streaming_with_tool_calls_and_usage(client):
    stream = client.chat.completions.create(
        model=MODEL,
        messages=[{"role": "user", "content": "What's the weather in Oslo?"}],
        tools=[WEATHER],
        stream=True,
        stream_options={"include_usage": True},
    )
    chunks = list(stream)
    arguments = "".join(
        c.choices[0].delta.tool_calls[0].function.arguments or ""
        for c in chunks
        if c.choices and c.choices[0].delta.tool_calls
    )
    assert json.loads(arguments) == {"city": "Oslo"}
    assert [c.choices[0].finish_reason for c in chunks if c.choices][-1] == "tool_calls"
    assert chunks[-1].choices == [] and chunks[-1].usage.total_tokens > 0


def test_system_and_developer_messages_are_hoisted_and_joined(server, client):
    url, handler = server
    client.chat.completions.create(
        model=MODEL,
        messages=[
            {"role": "user", "content": "Hi"},
            {"role": "developer", "content": "The user is in Warsaw."},
            {"role": "system", "content": "Be brief."},
        ],
    )
    # The same conversation through the Messages API with the joined system prompt gets the same reply id.
    native = anthropic.Anthropic(api_key="k", base_url=url, max_retries=0).messages.create(
        model=MODEL,
        max_tokens=4096,
        system="The user is in Warsaw.\nBe brief.",
        messages=[{"role": "user", "content": "Hi"}],
    )
    again = client.chat.completions.create(
        model=MODEL,
        messages=[
            {"role": "user", "content": "Hi"},
            {"role": "developer", "content": "The user is in Warsaw."},
            {"role": "system", "content": "Be brief."},
        ],
    )
    assert again.id == native.id and again.choices[0].message.content == native.content[-1].text


def test_documented_differences_n_ignored_fields_and_errors(client):
    base = dict(model=MODEL, messages=[{"role": "user", "content": "Hello!"}])
    ok = client.chat.completions.create(
        **base, logprobs=True, seed=7, response_format={"type": "json_object"}, temperature=0.2 * 0 + 1
    )
    assert ok.choices[0].message.content
    with pytest.raises(openai.BadRequestError) as err:
        client.chat.completions.create(**base, n=2)
    assert err.value.body["message"].startswith("n:") and err.value.body["param"] == "n"
    with pytest.raises(openai.NotFoundError) as missing:
        client.chat.completions.create(model="gpt-4o", messages=base["messages"])
    assert "gpt-4o" in missing.value.body["message"]
    keyless = httpx2.post(str(client.base_url) + "chat/completions", json={**base, "max_tokens": 10})
    assert keyless.status_code == 401 and keyless.json()["error"]["type"] == "authentication_error"


def test_the_labs_openai_view_of_a_run_is_what_the_openai_sdk_sends_and_reads(server, client):
    """The Playground's OpenAI view: its request form is accepted by the endpoint, and its response form of the
    native reply parses as the SDK's ChatCompletion with the same content."""
    url, _ = server
    native_client = anthropic.Anthropic(api_key="k", base_url=url, max_retries=0)
    request = {
        "model": MODEL,
        "max_tokens": 500,
        "system": "You are a helpful assistant.",
        "tools": [
            {
                "name": "get_weather",
                "description": WEATHER["function"]["description"],
                "input_schema": WEATHER["function"]["parameters"],
            }
        ],
        "messages": [{"role": "user", "content": "What's the weather in Oslo?"}],
    }
    native = native_client.messages.create(**request).to_dict()
    via_openai = client.chat.completions.create(**to_openai_messages(request))
    shown = openai.types.chat.ChatCompletion.model_validate({**to_openai_response(native), "created": 0})
    assert shown.choices[0].finish_reason == via_openai.choices[0].finish_reason == "tool_calls"
    assert (
        shown.choices[0].message.tool_calls[0].function.arguments
        == via_openai.choices[0].message.tool_calls[0].function.arguments
    )
    assert shown.id == via_openai.id  # the same conversation: the offline model's reply ids agree
