"""The messages a turn adds to the history: the reply as an assistant message, the tool results as a user message."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from agent_core.facts import Params
from agent_core.model import ToolExecution
from agent_core.vocab import LoopBug, StopReason

# The fields of each known block type that go back into the history (a block of another type is kept whole).
PARAM_FIELDS = {
    "text": ("type", "text", "citations"),
    "tool_use": ("type", "id", "name", "input"),
    "thinking": ("type", "thinking", "signature"),
    "redacted_thinking": ("type", "data"),
}


def assistant_message(response: dict[str, Any]) -> dict[str, Any]:
    """The reply as it goes back into the history: blocks unchanged (thinking signatures included)."""
    blocks = []
    for block in response.get("content") or []:
        keep = PARAM_FIELDS.get(block.get("type"))
        kept = {k: block[k] for k in (keep or block) if k in block and block[k] is not None}
        blocks.append(kept)
    return {"role": "assistant", "content": blocks}


def final_stop_params(reason: str, response: dict[str, Any]) -> Params:
    """The facts the learner needs about a final stop_reason: the sequence that fired, a refusal's category."""
    params: Params = {"reason": reason}
    content = response.get("content") or []
    if reason == StopReason.MAX_TOKENS and content and content[-1].get("type") == "tool_use":
        params["tool_call_cut_off"] = True  # the last tool call is incomplete and cannot be run
    if reason == StopReason.STOP_SEQUENCE:
        params["sequence"] = response.get("stop_sequence")
    if reason == StopReason.REFUSAL:
        details = response.get("stop_details") or {}
        params["category"] = details.get("category")
        params["explanation"] = details.get("explanation") or ""
    return params


def tool_results_message(tools: Iterable[ToolExecution], bugs: Iterable[str] = ()) -> dict[str, Any]:
    """The user message that answers the tool calls: one tool_result block per call, in the calls' order.

    `bugs` are the lesson's deliberate loop bugs that change this message (a missing result, text first)."""
    blocks: list[dict[str, Any]] = []
    for tool in tools:
        block: dict[str, Any] = {"type": "tool_result", "tool_use_id": tool.tool_use_id, "content": tool.output}
        if tool.is_error:
            block["is_error"] = True
        blocks.append(block)
    if LoopBug.DROP_ONE_TOOL_RESULT in bugs:
        blocks = blocks[:-1]
    if LoopBug.TEXT_BEFORE_TOOL_RESULT in bugs:
        blocks.insert(0, {"type": "text", "text": "Here are the results:"})
    return {"role": "user", "content": blocks}


def workflow_task_message(task: str, steps: Iterable[ToolExecution]) -> dict[str, Any]:
    """Workflow mode's one question: the task followed by the data the program's fixed steps gathered."""
    lines = [f"- {s.name}({json.dumps(s.input, ensure_ascii=False)}): {s.output}" for s in steps]
    return {"role": "user", "content": f"{task}\n\nData the program already gathered:\n" + "\n".join(lines)}
