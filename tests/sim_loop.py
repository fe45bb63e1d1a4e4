"""An agent loop over the offline model's brain for tests: every call run, its result sent back, until it answers."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable

from agent_core.model import SimSettings
from agent_core.sim.brain import think

# A tool's runner: (name, input) -> (output, is_error)
Runner = Callable[[str, dict], tuple[str, bool]]


def tool(name: str, description: str, props: dict, required: list[str] | None = None, **extra) -> dict:
    """A tool definition as the Messages API takes it; every property required unless `required` says otherwise;
    `extra` adds fields beside the schema (MCP `annotations`, `strict`)."""
    schema = {"type": "object", "properties": props, "required": list(props) if required is None else required}
    return {"name": name, "description": description, "input_schema": schema, **extra}


def structured(question: str, schema: dict) -> dict:
    """The JSON the model answers a question with under output_config.format's schema, parsed."""
    body = {
        "model": "claude-sonnet-4-6",
        "max_tokens": 512,
        "messages": [{"role": "user", "content": question}],
        "output_config": {"format": {"type": "json_schema", "schema": schema}},
    }
    draft = think(body, SimSettings())
    return json.loads("".join(b["text"] for b in draft.content if b["type"] == "text"))


def agent_loop(
    question: str, tools: list[dict], run: Runner, turns: int = 8, **extra
) -> tuple[list[list[tuple[str, dict]]], str]:
    """think() in a loop of at most `turns` replies: the calls of each reply (name, input), and the answer."""
    body = {"model": "claude-sonnet-4-6", "max_tokens": 1024, "messages": [{"role": "user", "content": question}]}
    body.update(tools=tools, **extra)
    return _answer(body, run, turns, "t")


def conversation(texts: list[str], tools: list[dict], run: Runner, steps: int = 6) -> list[list[tuple[str, dict]]]:
    """Several user turns, each one's loop run to its answer (at most `steps` replies): the calls each turn made."""
    body: dict = {"model": "claude-sonnet-4-6", "max_tokens": 512, "messages": [], "tools": tools}
    made = []
    for n, text in enumerate(texts):
        body["messages"].append({"role": "user", "content": text})
        replies, _ = _answer(body, run, steps, f"c{n}_")
        made.append([call for reply in replies for call in reply])
    return made


def _answer(body: dict, run: Runner, turns: int, tag: str) -> tuple[list[list[tuple[str, dict]]], str]:
    """Replies to the body's last user turn, appended to it, until one asks for no tool."""
    replies: list[list[tuple[str, dict]]] = []
    for turn in range(turns):
        draft = think(copy.deepcopy(body), SimSettings())
        content = [
            dict(b, id=f"{tag}{turn}_{i}") if b["type"] == "tool_use" else b for i, b in enumerate(draft.content)
        ]
        body["messages"].append({"role": "assistant", "content": content})
        if draft.stop_reason != "tool_use":
            return replies, " ".join(b["text"] for b in content if b["type"] == "text")
        uses = [b for b in content if b["type"] == "tool_use"]
        replies.append([(b["name"], b["input"]) for b in uses])
        results = []
        for block in uses:
            output, failed = run(block["name"], block["input"])
            results.append({"type": "tool_result", "tool_use_id": block["id"], "content": output, "is_error": failed})
        body["messages"].append({"role": "user", "content": results})
    raise AssertionError("the loop did not end")
