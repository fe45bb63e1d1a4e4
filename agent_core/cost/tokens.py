"""A documented token estimator shared by the simulated model and the cost accounting.

Rule of thumb, stated so learners can check it by hand:
- ASCII text costs one token per 4 characters (rounded up);
- other characters (Cyrillic, Polish letters, emoji) cost one token per 2 characters,
  because real tokenizers split them into more pieces;
- structured values (tool schemas, tool inputs) are measured as compact JSON;
- every message costs 4 tokens of framing, every content block 2;
- a request that carries tools pays a hidden tool-use system prompt (size by model, see below).
Real tokenizers differ; the simulated model reports exactly these numbers.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

from agent_core import jsontext, lineup

COMPONENTS = ("system", "tools", "tool_prompt", "user_text", "assistant_text", "tool_use", "tool_result")
COMPONENT_LABELS = {
    "system": "System prompt",
    "tools": "Tool definitions",
    "tool_prompt": "Hidden tool-use prompt",
    "user_text": "User text",
    "assistant_text": "Assistant text",
    "tool_use": "tool_use blocks",
    "tool_result": "tool_result blocks",
}
MESSAGE_FRAMING = 4
BLOCK_FRAMING = 2

# Hidden tool-use system prompt: (auto/none, any/tool) per model, from models.json (the API docs' figures).
_DEFAULT_TOOL_PROMPT = (497, 589)
# What json.dumps(value, ensure_ascii=False, separators=(",", ":")) builds on every call, built once.
_COMPACT = jsontext.encoder(separators=(",", ":"))


def estimate_text(text: str) -> int:
    """Tokens for a piece of text under the rule above."""
    if not text:
        return 0
    if text.isascii():  # most text is: skip counting character by character
        return -(-len(text) // 4)
    ascii_chars = len(text.encode("ascii", "ignore"))  # the codec drops exactly the characters >= 128
    other = len(text) - ascii_chars
    return -(-ascii_chars // 4) + -(-other // 2)


def estimate_json(value: Any) -> int:
    """Tokens for a structured value, measured as compact JSON."""
    return estimate_text(_COMPACT(value))


def tool_prompt_tokens(model: str, tool_choice: dict[str, Any] | None, has_tools: bool) -> int:
    """The hidden system prompt the API adds when tools are present."""
    if not has_tools:
        return 0
    forced = (tool_choice or {}).get("type") in ("any", "tool")
    row = lineup.find(model)
    pair = row.tool_prompt_tokens if row and row.tool_prompt_tokens else _DEFAULT_TOOL_PROMPT
    return pair[1] if forced else pair[0]


def _block_component(text_key: str, block: dict[str, Any]) -> tuple[str, int]:
    kind = block.get("type")
    if kind == "tool_use":
        return "tool_use", estimate_text(block.get("name", "")) + estimate_json(block.get("input", {}))
    if kind == "tool_result":
        content = block.get("content", "")
        size = estimate_text(content) if isinstance(content, str) else estimate_json(content)
        return "tool_result", size
    if kind == "text":
        return text_key, estimate_text(block.get("text", ""))
    if kind == "thinking":
        return "assistant_text", estimate_text(block.get("thinking", ""))
    return text_key, estimate_json(block)


# A message's share of the input: (the model wrote it, framing and text, tool results as text, other blocks).
MessageCost = tuple[bool, int, int, tuple[tuple[str, int], ...]]


def message_cost(message: dict[str, Any]) -> MessageCost:
    """One message's share of the input: whether the model wrote it, its framing and text, its tool results given
    as text, and its other blocks by component (the sim works this out once per message text: sim/wire.py)."""
    mine = message.get("role") == "assistant"
    content = message.get("content")
    if isinstance(content, str):
        return mine, MESSAGE_FRAMING + estimate_text(content), 0, ()
    # The common blocks (text, tool_result) are counted inline; the rest goes through _block_component.
    size, results, other = MESSAGE_FRAMING, 0, []
    for block in content if isinstance(content, list) else ():  # any other content (a hostile body's) counts none
        if not isinstance(block, dict):
            continue
        kind = block.get("type")
        if kind == "text":
            size += estimate_text(block.get("text", "")) + BLOCK_FRAMING
        elif kind == "tool_result" and isinstance(text := block.get("content", ""), str):
            results += estimate_text(text) + BLOCK_FRAMING
        else:
            name, cost = _block_component("assistant_text" if mine else "user_text", block)
            other.append((name, cost + BLOCK_FRAMING))
    return mine, size, results, tuple(other)


def _add_messages(parts: dict[str, int], costs: Iterable[MessageCost]) -> None:
    # Runs over the whole history twice per turn offline (the sim and the accounting): local sums.
    user = assistant = results = 0
    for mine, size, result, other in costs:
        for name, cost in other:
            parts[name] += cost
        results += result
        if mine:
            assistant += size
        else:
            user += size
    parts["user_text"] += user
    parts["assistant_text"] += assistant
    parts["tool_result"] += results


def split_components(
    body: dict[str, Any],
    tool_costs: Sequence[int] | None = None,
    message_costs: Sequence[MessageCost] | None = None,
) -> dict[str, int]:
    """Estimated input tokens of a Messages request, by component (tool_costs, message_costs: estimate_json of each
    tool and message_cost of each message, already worked out)."""
    parts = dict.fromkeys(COMPONENTS, 0)
    system = body.get("system")
    if isinstance(system, list):
        parts["system"] = sum(estimate_text(b.get("text", "")) for b in system if isinstance(b, dict))
    elif isinstance(system, str):
        parts["system"] = estimate_text(system)
    tools = body.get("tools") or []
    parts["tools"] = sum(map(estimate_json, tools) if tool_costs is None else tool_costs)
    parts["tool_prompt"] = tool_prompt_tokens(str(body.get("model", "")), body.get("tool_choice"), bool(tools))
    messages = body.get("messages") or []
    _add_messages(parts, map(message_cost, messages) if message_costs is None else message_costs)
    return parts


def count_request(
    body: dict[str, Any],
    tool_costs: Sequence[int] | None = None,
    message_costs: Sequence[MessageCost] | None = None,
) -> int:
    """Whole estimated input of a request; the simulated count_tokens returns this."""
    return sum(split_components(body, tool_costs, message_costs).values())


def scale_components(parts: dict[str, int], total: int) -> dict[str, int]:
    """Scale an estimated split so it sums to a real reported total (largest-remainder rounding)."""
    estimate = sum(parts.values())
    if estimate <= 0 or total <= 0:
        return dict.fromkeys(parts, 0)
    raw = {k: v * total / estimate for k, v in parts.items()}
    floors = {k: math.floor(v) for k, v in raw.items()}
    short = total - sum(floors.values())
    for k in sorted(raw, key=lambda k: raw[k] - floors[k], reverse=True)[:short]:
        floors[k] += 1
    return floors
