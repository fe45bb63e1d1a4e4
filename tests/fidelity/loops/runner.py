"""One case as a whole loop: the official SDK against the offline model (in-process transport), fake tools answering,
until the model stops asking for tools, once per user turn."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import anthropic
import httpx2

from agent_core.model import SimSettings
from agent_core.sim import SimHandler, SimTransport
from fidelity.loops.fakes import Answer, FakeTool

DEFAULT_MODEL = "claude-sonnet-4-6"
MAX_REQUESTS_PER_TURN = 10  # a loop that has not ended by then never will: it is reported, not waited for


@dataclass
class Call:
    """One tool call as the model made it, and what the program answered."""

    name: str
    input: dict[str, Any]
    answer: Answer
    turn: int  # the user turn (1-based) it belongs to
    request: int  # the model request (0-based, over the whole conversation) whose reply made it


@dataclass
class Run:
    """What happened: every call, the text each user turn ended with, and how the run ended."""

    calls: list[Call] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)  # the final text of each user turn
    requests: int = 0
    output: Any = None  # the output tool's input, when a framework's output tool ended the run
    ended: str = "end_turn"  # or "output_tool", "loop", "api_error: ...", "stop_reason: ..."
    tool_names: list[str] = field(default_factory=list)  # the tools the model was offered
    schemas: list[dict[str, Any]] = field(default_factory=list)  # their input schemas

    @property
    def answer(self) -> str:
        return self.texts[-1] if self.texts else ""


def client(think: Callable[[dict[str, Any], SimSettings], Any] | None = None) -> anthropic.Anthropic:
    """The official SDK talking to the offline model without a socket (its own brain, or `think` in tests)."""
    settings = SimSettings()
    transport = SimTransport(settings, SimHandler(settings, think=think))
    return anthropic.Anthropic(
        api_key="offline-corpus",
        base_url="http://simulated.invalid",
        http_client=httpx2.Client(transport=transport),
        max_retries=0,
    )


def _request(case: dict[str, Any], tools: dict[str, FakeTool], messages: list[dict[str, Any]]) -> dict[str, Any]:
    body: dict[str, Any] = {
        "model": case.get("model", DEFAULT_MODEL),
        "max_tokens": case.get("max_tokens", 2048),
        "messages": messages,
    }
    if tools:
        body["tools"] = [copy.deepcopy(t.definition) for t in tools.values()]
    for key in ("system", "tool_choice", "output_config"):
        if case.get(key) is not None:
            body[key] = case[key]
    return body


def _blocks(content: list[Any]) -> list[dict[str, Any]]:
    return [block.model_dump(exclude_none=True) for block in content]


def run_case(case: dict[str, Any], tools: dict[str, FakeTool], sdk: anthropic.Anthropic | None = None) -> Run:
    """Run every user turn of the case to its end and record what the model did."""
    sdk = sdk or client()
    run, messages = Run(), []
    run.tool_names = list(tools)
    run.schemas = [t.definition["input_schema"] for t in tools.values()]
    for turn, text in enumerate(case["user"], start=1):
        if messages and messages[-1]["role"] == "user":
            # an output tool ended the last turn: its result and the next question go in one user message
            messages[-1]["content"].append({"type": "text", "text": text})
        else:
            messages.append({"role": "user", "content": text})
        if (
            not _one_turn(case, tools, messages, run, turn, sdk)
            or run.ended == "output_tool"
            and turn == len(case["user"])
        ):
            break
    return run


def _one_turn(
    case: dict[str, Any],
    tools: dict[str, FakeTool],
    messages: list[dict[str, Any]],
    run: Run,
    turn: int,
    sdk: anthropic.Anthropic,
) -> bool:
    """One user turn's loop, until the model answers or calls an output tool; False when the conversation cannot
    go on (an API error, a stop reason a loop stops at, a runaway)."""
    for _ in range(MAX_REQUESTS_PER_TURN):
        try:
            reply = sdk.messages.create(**_request(case, tools, messages))
        except anthropic.APIStatusError as error:
            run.ended = f"api_error: {error.status_code} {error.message}"[:200]
            return False
        request, run.requests = run.requests, run.requests + 1
        content = _blocks(reply.content)
        messages.append({"role": "assistant", "content": content})
        uses = [b for b in content if b["type"] == "tool_use"]
        if reply.stop_reason != "tool_use" or not uses:
            run.texts.append(" ".join(b["text"] for b in content if b["type"] == "text").strip())
            if reply.stop_reason not in ("end_turn", "stop_sequence"):
                run.ended = f"stop_reason: {reply.stop_reason}"
                return False
            return True
        results, finished = [], False
        for use in uses:
            if finished:
                # pydantic-ai's 'early' end: once the output tool has the result, the other calls are not run
                skipped = "Tool not executed - a final result was already processed."
                results.append({"type": "tool_result", "tool_use_id": use["id"], "content": skipped})
                continue
            tool = tools.get(use["name"])
            answer = tool.call(use["input"]) if tool else Answer(f"Unknown tool: {use['name']}", True)
            run.calls.append(Call(use["name"], use["input"], answer, turn, request))
            if tool and tool.output and not answer.is_error:
                # pydantic-ai and LangChain end the run at a valid output-tool call; its input is the result.
                run.output, run.ended, finished = use["input"], "output_tool", True
                answer = Answer(f"Returning structured response: {json.dumps(use['input'], ensure_ascii=False)}")
            results.append(
                {"type": "tool_result", "tool_use_id": use["id"], "content": answer.text, "is_error": answer.is_error}
            )
        messages.append({"role": "user", "content": results})
        if finished:
            run.texts.append("")
            return True
    run.ended = f"loop: no end_turn after {MAX_REQUESTS_PER_TURN} requests in turn {turn}"
    return False
