"""The anthropic SDK's own paths against the offline server over loopback: create, stream, tool_runner (threaded
and not), parse and JSON schemas, strict tools, count_tokens."""

from __future__ import annotations

import json

import anthropic
import jsonschema
import pytest
from anthropic import beta_tool
from pydantic import BaseModel

from agent_core.model import DEFAULT_MODEL, SimSettings
from agent_core.sim import SimHandler, start_server

WEATHER = {
    "name": "get_weather",
    "description": "Current weather in a city. Use it for any weather question.",
    "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
}


@pytest.fixture
def sim():
    handler = SimHandler(SimSettings())
    server, url = start_server(handler.settings, handler=handler)
    yield anthropic.Anthropic(api_key="k", base_url=url, max_retries=0), handler
    server.shutdown()


@beta_tool
def get_weather(city: str) -> str:
    """Current weather in a city. Use it for any weather question.

    Args:
        city: the city name, e.g. Oslo
    """
    return f"Weather in {city}: temperature: 4, light rain"


def test_create_and_stream_agree(sim):
    client, _ = sim
    kwargs = dict(model=DEFAULT_MODEL, max_tokens=1000, messages=[{"role": "user", "content": "Hello!"}])
    plain = client.messages.create(**kwargs)
    with client.messages.stream(**kwargs) as stream:
        streamed = stream.get_final_message()
    assert plain.to_dict() == streamed.to_dict()
    assert plain.content[0].type == "thinking" and plain.content[-1].type == "text"


def test_count_tokens(sim):
    client, _ = sim
    count = client.messages.count_tokens(
        model=DEFAULT_MODEL, messages=[{"role": "user", "content": "What's the weather in Oslo?"}], tools=[WEATHER]
    )
    assert count.input_tokens > 0


@pytest.mark.parametrize("thread", [None, False])
def test_tool_runner_completes_with_and_without_threads(sim, thread):
    client, handler = sim
    extra = {} if thread is None else {"thread": thread}
    runner = client.beta.messages.tool_runner(
        model=DEFAULT_MODEL,
        max_tokens=2000,
        tools=[get_weather],
        messages=[{"role": "user", "content": "What's the weather in Oslo?"}],
        **extra,
    )
    final = runner.until_done()
    assert final.stop_reason == "end_turn" and "Oslo" in "".join(b.text for b in final.content if b.type == "text")
    posts = [s.status for s in handler.seen if s.path == "/v1/messages"]
    if thread is None:
        assert posts[0] == 400 and posts[-1] == 200  # refused once with thread_unsupported_request, then unthreaded
    else:
        assert 400 not in posts


class Forecast(BaseModel):
    city: str
    temperature: float
    summary: str


def test_parse_gives_json_valid_against_the_schema_from_tool_results(sim):
    client, _ = sim
    history = [
        {"role": "user", "content": "What's the weather in Oslo?"},
        {
            "role": "assistant",
            "content": [{"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Oslo"}}],
        },
        {
            "role": "user",
            "content": [
                {"type": "tool_result", "tool_use_id": "toolu_1", "content": "city: Oslo, temperature: 4, light rain"}
            ],
        },
    ]
    parsed = client.messages.parse(
        model="claude-haiku-4-5", max_tokens=1000, tools=[WEATHER], messages=history, output_format=Forecast
    )
    assert parsed.parsed_output == Forecast(city="Oslo", temperature=4.0, summary=parsed.parsed_output.summary)
    assert parsed.parsed_output.summary


def test_output_config_json_schema_with_enum_and_array(sim):
    client, _ = sim
    schema = {
        "type": "object",
        "properties": {
            "mood": {"type": "string", "enum": ["happy", "sad", "neutral"]},
            "tags": {"type": "array", "items": {"type": "string"}, "minItems": 2},
            "count": {"type": "integer", "minimum": 1},
        },
        "required": ["mood", "tags", "count"],
        "additionalProperties": False,
    }
    reply = client.messages.create(
        model=DEFAULT_MODEL,
        max_tokens=1000,
        messages=[{"role": "user", "content": "I am sad today, tag it twice."}],
        output_config={"format": {"type": "json_schema", "schema": schema}},
    )
    value = json.loads(next(b.text for b in reply.content if b.type == "text"))
    jsonschema.validate(value, schema)
    assert value["mood"] == "sad"
    with pytest.raises(anthropic.BadRequestError, match="json_schema"):
        client.messages.create(
            model=DEFAULT_MODEL,
            max_tokens=100,
            messages=[{"role": "user", "content": "hi"}],
            output_config={"format": {"type": "yaml"}},
        )


def test_strict_tool_inputs_stay_valid(sim):
    client, _ = sim
    strict = {
        "name": "get_weather",
        "description": "Current weather in a city. Use it for any weather question.",
        "strict": True,
        "input_schema": {
            "type": "object",
            "properties": {"city": {"type": "string"}, "days": {"type": "integer"}},
            "required": ["city", "days"],
            "additionalProperties": False,
        },
    }
    reply = client.messages.create(
        model="claude-haiku-4-5",
        max_tokens=1000,
        tools=[strict],
        messages=[{"role": "user", "content": "What's the weather in Oslo for 3 days?"}],
    )
    call = next(b for b in reply.content if b.type == "tool_use")
    jsonschema.validate(call.input, strict["input_schema"])
    assert call.input["city"] == "Oslo"
