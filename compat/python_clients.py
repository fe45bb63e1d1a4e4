"""The Python clients of the matrix, each as its own docs show it: a multi-turn tool task, a structured output
where the client has one, streaming, and a fault it must retry. Each case returns a short detail or raises."""

from __future__ import annotations

import importlib.util
import json
from typing import Any

from tasks import ONE_CITY, QUESTION, calculate, get_weather, openai_tools, right, run_tool, tool_defs

from agent_core.lineup import lineup

MODEL = "claude-sonnet-5-5"
# The newest served model that takes forced tool choice (tool_choice any/tool), read from the lineup's data
FORCING_MODEL = next(r.id for r in lineup().served if r.behaviour.forced_tool_choice)


class Skip(Exception):
    """The client is not installed here (say why)."""


def needs(module: str) -> None:
    if importlib.util.find_spec(module) is None:
        raise Skip(f"{module} is not installed")


def _check(answer: str) -> str:
    assert right(answer), answer
    return answer.replace("\n", " ")[:60]


# -- the anthropic SDK ------------------------------------------------------------------------------
def anthropic_loop(url: str, stream: bool = False) -> str:
    import anthropic

    client = anthropic.Anthropic(api_key="k", base_url=url, max_retries=3)
    messages: list[Any] = [{"role": "user", "content": QUESTION}]
    for _ in range(8):
        kwargs = dict(model=MODEL, max_tokens=1500, tools=tool_defs(), messages=messages)
        if stream:
            with client.messages.stream(**kwargs) as events:
                reply = events.get_final_message()
        else:
            reply = client.messages.create(**kwargs)
        messages.append({"role": "assistant", "content": reply.content})
        if reply.stop_reason != "tool_use":
            return _check("".join(b.text for b in reply.content if b.type == "text"))
        results = [
            {"type": "tool_result", "tool_use_id": b.id, "content": run_tool(b.name, b.input)}
            for b in reply.content
            if b.type == "tool_use"
        ]
        messages.append({"role": "user", "content": results})
    raise AssertionError("no end_turn")


def anthropic_parse(url: str) -> str:
    import anthropic
    from pydantic import BaseModel

    class Weather(BaseModel):
        city: str
        temperature: float

    client = anthropic.Anthropic(api_key="k", base_url=url, max_retries=0)
    parsed = client.messages.parse(
        model=MODEL,
        max_tokens=500,
        messages=[{"role": "user", "content": "Oslo is at 4 degrees now. Give the city and its temperature."}],
        output_format=Weather,
    ).parsed_output
    assert parsed is not None and parsed.city == "Oslo" and parsed.temperature == 4, parsed
    return f"{parsed.city} {parsed.temperature}"


def anthropic_tool_runner(url: str) -> str:
    import anthropic
    from anthropic import beta_tool

    client = anthropic.Anthropic(api_key="k", base_url=url, max_retries=0)
    runner = client.beta.messages.tool_runner(
        model=MODEL,
        max_tokens=1500,
        tools=[beta_tool(get_weather), beta_tool(calculate)],
        messages=[{"role": "user", "content": QUESTION}],
        thread=False,
    )
    final = runner.until_done()
    return _check("".join(b.text for b in final.content if b.type == "text"))


# -- pydantic-ai ------------------------------------------------------------------------------------
def _pydantic_model(url: str, retries: int = 0) -> Any:
    import anthropic
    from pydantic_ai.models.anthropic import AnthropicModel
    from pydantic_ai.providers.anthropic import AnthropicProvider

    client = anthropic.AsyncAnthropic(api_key="k", base_url=url, max_retries=retries)
    return AnthropicModel(MODEL, provider=AnthropicProvider(anthropic_client=client))


def pydantic_ai_tools(url: str, retries: int = 0) -> str:
    needs("pydantic_ai")
    from pydantic_ai import Agent

    agent = Agent(_pydantic_model(url, retries), tools=[get_weather, calculate])
    return _check(agent.run_sync(QUESTION).output)


def pydantic_ai_retry(url: str) -> str:
    return pydantic_ai_tools(url, retries=3)


def pydantic_ai_structured(url: str) -> str:
    needs("pydantic_ai")
    from pydantic import BaseModel
    from pydantic_ai import Agent

    class Weather(BaseModel):
        city: str
        temperature: float

    agent = Agent(_pydantic_model(url), tools=[get_weather], output_type=Weather)
    result = agent.run_sync(ONE_CITY).output
    assert result.city == "Oslo" and result.temperature == 4, result
    return f"{result.city} {result.temperature}"


def pydantic_ai_stream(url: str) -> str:
    needs("pydantic_ai")
    import asyncio

    from pydantic_ai import Agent

    agent = Agent(_pydantic_model(url), tools=[get_weather, calculate])

    async def go() -> str:
        async with agent.run_stream(QUESTION) as result:
            return "".join([piece async for piece in result.stream_text(delta=True)])

    return _check(asyncio.run(go()))


# -- LangChain / LangGraph --------------------------------------------------------------------------
def _chat(url: str, retries: int = 0) -> Any:
    needs("langchain_anthropic")
    from langchain_anthropic import ChatAnthropic

    return ChatAnthropic(model=MODEL, base_url=url, api_key="k", max_tokens=2000, max_retries=retries)


def langgraph_agent(url: str, retries: int = 0) -> str:
    needs("langgraph")
    from langchain_core.tools import tool
    from langgraph.prebuilt import create_react_agent

    agent = create_react_agent(_chat(url, retries), [tool(get_weather), tool(calculate)])
    state = agent.invoke({"messages": [("user", QUESTION)]})
    final = state["messages"][-1]
    return _check(final.text() if callable(getattr(final, "text", None)) else str(final.content))


def langgraph_retry(url: str) -> str:
    return langgraph_agent(url, retries=3)


def langgraph_stream(url: str) -> str:
    needs("langgraph")
    from langchain_core.tools import tool
    from langgraph.prebuilt import create_react_agent

    agent = create_react_agent(_chat(url), [tool(get_weather), tool(calculate)])
    last = None
    for step in agent.stream({"messages": [("user", QUESTION)]}, stream_mode="values"):
        last = step["messages"][-1]
    assert last is not None
    return _check(last.text() if callable(getattr(last, "text", None)) else str(last.content))


def langchain_structured(url: str) -> str:
    from pydantic import BaseModel

    class Weather(BaseModel):
        """The weather in one city."""

        city: str
        temperature: float

    result = (
        _chat(url)
        .with_structured_output(Weather)
        .invoke("Oslo is at 4 degrees now. Give the city and its temperature.")
    )
    assert result.city == "Oslo" and result.temperature == 4, result
    return f"{result.city} {result.temperature}"


def langchain_response_format(url: str) -> str:
    """LangChain's create_agent(response_format=Schema), as its structured-output docs write it: the schema goes
    as a tool the model must call (tool_choice any) after the real tool ran, so the case runs on a model of the
    lineup that takes forced choice (models.json), not on one that refuses it with a 400."""
    needs("langchain")
    needs("langchain_anthropic")
    from langchain.agents import create_agent
    from langchain.agents.structured_output import ToolStrategy
    from langchain_anthropic import ChatAnthropic
    from langchain_core.tools import tool
    from pydantic import BaseModel

    class WeatherResponse(BaseModel):
        """The weather in one city."""

        city: str
        temperature: float

    model = ChatAnthropic(model=FORCING_MODEL, base_url=url, api_key="k", max_tokens=2000, max_retries=0)
    agent = create_agent(model, tools=[tool(get_weather)], response_format=ToolStrategy(WeatherResponse))
    state = agent.invoke({"messages": [("user", ONE_CITY)]})
    result = state["structured_response"]
    called = [c["name"] for m in state["messages"] for c in getattr(m, "tool_calls", None) or []]
    assert called[:2] == ["get_weather", "WeatherResponse"], called  # the real tool first, then the schema's
    assert result.city == "Oslo" and result.temperature == 4, result
    return f"{FORCING_MODEL}: {result.city} {result.temperature}"


# -- litellm ----------------------------------------------------------------------------------------
def _litellm_loop(url: str, stream: bool = False, retries: int = 0) -> str:
    needs("litellm")
    import litellm

    messages: list[Any] = [{"role": "user", "content": QUESTION}]
    kwargs = dict(model=f"anthropic/{MODEL}", api_base=url, api_key="k", max_tokens=2000, tools=openai_tools())
    for _ in range(8):
        if stream:
            chunks = list(litellm.completion(messages=messages, stream=True, num_retries=retries, **kwargs))
            reply = litellm.stream_chunk_builder(chunks, messages=messages)
        else:
            reply = litellm.completion(messages=messages, num_retries=retries, **kwargs)
        message = reply.choices[0].message
        messages.append(message.model_dump())
        if not message.tool_calls:
            return _check(message.content or "")
        for call in message.tool_calls:
            args = json.loads(call.function.arguments)
            messages.append({"role": "tool", "tool_call_id": call.id, "content": run_tool(call.function.name, args)})
    raise AssertionError("no final answer")


def litellm_tools(url: str) -> str:
    return _litellm_loop(url)


def litellm_stream(url: str) -> str:
    return _litellm_loop(url, stream=True)


def litellm_retry(url: str) -> str:
    return _litellm_loop(url, retries=3)


def litellm_structured(url: str) -> str:
    needs("litellm")
    import litellm

    schema = {
        "type": "object",
        "properties": {"city": {"type": "string"}, "temperature": {"type": "number"}},
        "required": ["city", "temperature"],
        "additionalProperties": False,
    }
    reply = litellm.completion(
        model=f"anthropic/{MODEL}",
        api_base=url,
        api_key="k",
        max_tokens=500,
        messages=[{"role": "user", "content": "Oslo is at 4 degrees now. Give the city and its temperature."}],
        response_format={"type": "json_schema", "json_schema": {"name": "weather", "schema": schema, "strict": True}},
    )
    data = json.loads(reply.choices[0].message.content)
    assert data == {"city": "Oslo", "temperature": 4}, data
    return json.dumps(data)


# -- the OpenAI SDK against /v1/chat/completions --------------------------------------------------
def _openai_loop(url: str, stream: bool = False, retries: int = 0) -> str:
    needs("openai")
    import openai

    client = openai.OpenAI(api_key="k", base_url=url + "/v1/", max_retries=retries)
    messages: list[Any] = [{"role": "user", "content": QUESTION}]
    for _ in range(8):
        if stream:
            events = client.chat.completions.create(model=MODEL, messages=messages, tools=openai_tools(), stream=True)
            text, calls = "", {}
            for chunk in events:
                delta = chunk.choices[0].delta if chunk.choices else None
                text += (delta.content or "") if delta else ""
                for part in (delta.tool_calls or []) if delta else []:
                    entry = calls.setdefault(part.index, {"id": part.id, "name": "", "arguments": ""})
                    entry["name"] += (part.function.name or "") if part.function else ""
                    entry["arguments"] += (part.function.arguments or "") if part.function else ""
            tool_calls = [
                {"id": c["id"], "type": "function", "function": {"name": c["name"], "arguments": c["arguments"]}}
                for c in calls.values()
            ]
        else:
            message = (
                client.chat.completions.create(model=MODEL, messages=messages, tools=openai_tools()).choices[0].message
            )
            text, tool_calls = message.content or "", [c.model_dump() for c in message.tool_calls or []]
        messages.append(
            {"role": "assistant", "content": text or None, **({"tool_calls": tool_calls} if tool_calls else {})}
        )
        if not tool_calls:
            return _check(text)
        for call in tool_calls:
            args = json.loads(call["function"]["arguments"])
            messages.append(
                {"role": "tool", "tool_call_id": call["id"], "content": run_tool(call["function"]["name"], args)}
            )
    raise AssertionError("no final answer")


def openai_tools_case(url: str) -> str:
    return _openai_loop(url)


def openai_stream(url: str) -> str:
    return _openai_loop(url, stream=True)


def openai_retry(url: str) -> str:
    return _openai_loop(url, retries=3)
