"""An agent loop over the offline model's brain for tests: every call run, its result sent back, until it answers."""

from __future__ import annotations

import copy
from collections.abc import Callable

from agent_core.model import SimSettings
from agent_core.sim.brain import think

# A tool's runner: (name, input) -> (output, is_error)
Runner = Callable[[str, dict], tuple[str, bool]]


def tool(name: str, description: str, props: dict, required: list[str] | None = None) -> dict:
    """A tool definition as the Messages API takes it; every property required unless `required` says otherwise."""
    schema = {"type": "object", "properties": props, "required": list(props) if required is None else required}
    return {"name": name, "description": description, "input_schema": schema}


def agent_loop(
    question: str, tools: list[dict], run: Runner, turns: int = 8, **extra
) -> tuple[list[list[tuple[str, dict]]], str]:
    """think() in a loop of at most `turns` replies: the calls of each reply (name, input), and the answer."""
    body = {"model": "claude-sonnet-4-6", "max_tokens": 1024, "messages": [{"role": "user", "content": question}]}
    body.update(tools=tools, **extra)
    replies: list[list[tuple[str, dict]]] = []
    for turn in range(turns):
        draft = think(copy.deepcopy(body), SimSettings())
        content = [dict(b, id=f"t{turn}_{i}") if b["type"] == "tool_use" else b for i, b in enumerate(draft.content)]
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
