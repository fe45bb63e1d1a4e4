"""Client matrix (`make compat`): the clients learners move on to, against the offline server on loopback.

Each case starts nothing but this process's own loopback server, runs one client the way its docs show (a tool
call, then the answer; a retry through a fault), and the table at the end says PASS/FAIL/SKIP per case.
Exit status 1 when any case fails."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from agent_core.model import DEFAULT_MODEL, SimSettings  # noqa: E402
from agent_core.sim import SimHandler, start_server  # noqa: E402

QUESTION = "What's the weather in Oslo?"


def get_weather(city: str) -> str:
    """Current weather in a city. Use it for any weather question."""
    return f"Weather in {city}: 4°C, light rain"


@dataclass
class Outcome:
    """One row of the table."""

    client: str
    case: str
    status: str  # PASS / FAIL / SKIP
    detail: str = ""


class Skip(Exception):
    """The client is not installed here (say why)."""


def _needs(module: str) -> None:
    if importlib.util.find_spec(module) is None:
        raise Skip(f"{module} is not installed")


def _server(faults: list[str] | None = None) -> tuple[object, str]:
    handler = SimHandler(SimSettings(), fault_plan=faults)
    return start_server(handler.settings, handler=handler)


def pydantic_ai_tool_call(url: str) -> str:
    _needs("pydantic_ai")
    from pydantic_ai import Agent
    from pydantic_ai.models.anthropic import AnthropicModel
    from pydantic_ai.providers.anthropic import AnthropicProvider

    model = AnthropicModel("claude-sonnet-4-6", provider=AnthropicProvider(api_key="k", base_url=url))
    agent = Agent(model, tools=[get_weather])
    result = agent.run_sync(QUESTION)
    assert "4°C" in result.output, result.output
    return result.output[:60]


def langchain_tool_call(url: str) -> str:
    _needs("langchain_anthropic")
    from langchain_anthropic import ChatAnthropic
    from langchain_core.messages import HumanMessage, ToolMessage

    chat = ChatAnthropic(model=DEFAULT_MODEL, base_url=url, api_key="k", max_tokens=2000).bind_tools([get_weather])
    history = [HumanMessage(QUESTION)]
    first = chat.invoke(history)
    assert first.tool_calls, first
    call = first.tool_calls[0]
    history += [first, ToolMessage(get_weather(**call["args"]), tool_call_id=call["id"])]
    final = chat.invoke(history)
    text = final.text() if callable(getattr(final, "text", None)) else str(final.content)
    assert "4°C" in text, text
    return text[:60]


def litellm_tool_call(url: str) -> str:
    _needs("litellm")
    import litellm

    tool = {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": get_weather.__doc__,
            "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
        },
    }
    messages = [{"role": "user", "content": QUESTION}]
    kwargs = dict(model=f"anthropic/{DEFAULT_MODEL}", api_base=url, api_key="k", max_tokens=2000, tools=[tool])
    first = litellm.completion(messages=messages, **kwargs)
    call = first.choices[0].message.tool_calls[0]
    args = __import__("json").loads(call.function.arguments)
    messages += [
        first.choices[0].message.model_dump(),
        {"role": "tool", "tool_call_id": call.id, "content": get_weather(**args)},
    ]
    final = litellm.completion(messages=messages, **kwargs)
    text = final.choices[0].message.content or ""
    assert "4°C" in text, text
    return text[:60]


def litellm_retry(url: str) -> str:
    _needs("litellm")
    import litellm

    reply = litellm.completion(
        model=f"anthropic/{DEFAULT_MODEL}",
        api_base=url,
        api_key="k",
        max_tokens=500,
        messages=[{"role": "user", "content": "Hello!"}],
        num_retries=3,
    )
    return (reply.choices[0].message.content or "")[:60]


def typescript_sdk(url: str) -> str:
    node, npm = shutil.which("node"), shutil.which("npm")
    if not node or not npm:
        raise Skip("node/npm not found")
    folder = ROOT / "tests" / "node"
    if not (folder / "node_modules" / "@anthropic-ai" / "sdk").exists():
        subprocess.run([npm, "ci", "--prefix", str(folder), "--no-audit", "--no-fund", "--silent"], check=False)
    if not (folder / "node_modules" / "@anthropic-ai" / "sdk").exists():
        raise Skip("@anthropic-ai/sdk could not be installed")
    script = (ROOT / "compat" / "ts_client.mjs").read_text(encoding="utf-8")
    env = {**os.environ, "ANTHROPIC_BASE_URL": url, "ANTHROPIC_API_KEY": "k"}
    # Evaluated from tests/node so that the SDK resolves from its node_modules.
    command = [node, "--input-type=module", "-e", script]
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=120, cwd=folder)
    assert done.returncode == 0, done.stderr[-500:]
    assert "4°C" in done.stdout, done.stdout
    return done.stdout.strip().splitlines()[-1][:60]


CASES: list[tuple[str, str, Callable[[str], str], list[str] | None]] = [
    ("pydantic-ai", "Agent with a tool (claude-sonnet-4-6)", pydantic_ai_tool_call, None),
    ("pydantic-ai", "same, through 429 + 529 (the SDK retries twice)", pydantic_ai_tool_call, ["429", "529"]),
    ("langchain-anthropic", "bind_tools, tool call, answer", langchain_tool_call, None),
    ("langchain-anthropic", "same, through 529", langchain_tool_call, ["529"]),
    ("litellm", "tools (OpenAI format), answer", litellm_tool_call, None),
    ("litellm", "num_retries through 429 + 529", litellm_retry, ["429", "529"]),
    ("TypeScript SDK", "tool call, answer, retry through 529", typescript_sdk, ["529"]),
]


def run_case(client: str, case: str, check: Callable[[str], str], faults: list[str] | None) -> Outcome:
    server, url = _server(faults)
    try:
        return Outcome(client, case, "PASS", check(url))
    except Skip as exc:
        return Outcome(client, case, "SKIP", str(exc))
    except Exception as exc:  # the table reports every failure; the traceback goes to stderr
        traceback.print_exc()
        return Outcome(client, case, "FAIL", f"{type(exc).__name__}: {exc}"[:120])
    finally:
        server.shutdown()


def main() -> int:
    outcomes = [run_case(*case) for case in CASES]
    width = max(len(o.client) for o in outcomes), max(len(o.case) for o in outcomes)
    print(f"\n{'client':<{width[0]}}  {'case':<{width[1]}}  result  detail")
    for o in outcomes:
        print(f"{o.client:<{width[0]}}  {o.case:<{width[1]}}  {o.status:<6}  {o.detail}")
    failed = sum(o.status == "FAIL" for o in outcomes)
    passed = sum(o.status == "PASS" for o in outcomes)
    skipped = sum(o.status == "SKIP" for o in outcomes)
    print(f"\ncompat: {passed} passed, {failed} failed, {skipped} skipped")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
