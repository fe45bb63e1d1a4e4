"""Shaping the brain's draft into a Messages API reply: thinking blocks, stop sequences, token limits and usage."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from agent_core.cost import tokens
from agent_core.lineup import ModelRow
from agent_core.model import SimSettings
from agent_core.sim import behaviour, structured, validate
from agent_core.sim.cache import CacheUsage

# ---- shaping the brain's draft into a Messages API reply -------------------------------------------------

# A request that exactly fills the window still gets a few words out before the model stops.
SHORT_PARTIAL_TOKENS = 8
UNKNOWN_STOP_TEXT_TOKENS = 12
UNKNOWN_STOP_REASON = "future_reason"


def output_cost(block: dict[str, Any]) -> int:
    """Output tokens of one generated block under the shared estimator."""
    kind = block.get("type")
    if kind == "text":
        return tokens.estimate_text(block["text"])
    if kind == "thinking":
        return tokens.estimate_text(block["thinking"])
    if kind == "tool_use":
        return tokens.estimate_text(block["name"]) + tokens.estimate_json(block["input"])
    return tokens.estimate_json(block)


def cut_text(text: str, budget: int) -> str:
    """The longest prefix of text that fits the token budget."""
    low, high = 0, len(text)
    while low < high:
        mid = (low + high + 1) // 2
        if tokens.estimate_text(text[:mid]) <= budget:
            low = mid
        else:
            high = mid - 1
    return text[:low]


def _cut_input(value: Any, budget: int) -> dict[str, Any]:
    # Whole top-level fields only: what a client parsing the partial JSON stream would also end up with.
    kept: dict[str, Any] = {}
    for key, item in value.items() if isinstance(value, dict) else []:
        if tokens.estimate_json({**kept, key: item}) > budget:
            break
        kept[key] = item
    return kept


def _cut_block(block: dict[str, Any], budget: int) -> dict[str, Any] | None:
    kind = block["type"]
    if kind == "text":
        text = cut_text(block["text"], budget)
        return {**block, "text": text} if text else None
    if kind == "thinking":
        return {**block, "thinking": cut_text(block["thinking"], budget)}
    if kind == "tool_use":
        return {**block, "input": _cut_input(block["input"], budget - tokens.estimate_text(block["name"]))}
    return None


def fit_blocks(blocks: list[dict[str, Any]], budget: int) -> tuple[list[dict[str, Any]], bool]:
    """Keep blocks while they fit; the first that does not is cut. Returns (blocks, whether anything was cut)."""
    kept: list[dict[str, Any]] = []
    for block in blocks:
        cost = output_cost(block)
        if cost <= budget:
            kept.append(block)
            budget -= cost
            continue
        partial = _cut_block(block, budget) if budget > 0 else None
        return kept + ([partial] if partial else []), True
    return kept, False


def apply_stop_sequences(blocks: list[dict[str, Any]], stops: list[str]) -> tuple[list[dict[str, Any]], str | None]:
    """Cut before the first stop sequence in the text; later blocks are never generated."""
    for index, block in enumerate(blocks):
        if block["type"] != "text" or not stops:
            continue
        hits = [(block["text"].find(s), s) for s in stops if s in block["text"]]
        if hits:
            position, sequence = min(hits)
            head = block["text"][:position]
            return blocks[:index] + ([{**block, "text": head}] if head else []), sequence
    return blocks, None


def _draft_blocks(draft: Any, ids: Callable[[str, int], str]) -> list[dict[str, Any]]:
    blocks, tool_index = [], 0
    for block in draft.content:
        if block.get("type") == "text":
            if block.get("text"):
                blocks.append({"type": "text", "text": block["text"]})
        elif block.get("type") == "tool_use":
            blocks.append(
                {
                    "type": "tool_use",
                    # A draft may bring its own id (a human playing the model); the brain leaves it to us.
                    "id": block.get("id") or ids("toolu", tool_index),
                    "name": block["name"],
                    "input": block.get("input") or {},
                }
            )
            tool_index += 1
        else:
            blocks.append(dict(block))
    return blocks


def thinking_kind(body: dict[str, Any], row: ModelRow | None) -> str | None:
    """The request's thinking mode: what it asks for, else the model's default (None when the model is unknown)."""
    if row is not None:
        return behaviour.thinking_type(body, row)
    return (body.get("thinking") or {}).get("type")


def thinking_on(body: dict[str, Any], settings: SimSettings, row: ModelRow | None = None) -> bool:
    """Up-front thinking: asked for, the model's default, or the sim set to think (unless disabled/between_tools)."""
    kind = thinking_kind(body, row)
    return kind in ("enabled", "adaptive") or (settings.thinking and kind in (None, "off"))


def _display_omitted(body: dict[str, Any]) -> bool:
    return (body.get("thinking") or {}).get("display") == "omitted"


def between_tools_as_thinking(
    blocks: list[dict[str, Any]], body: dict[str, Any], row: ModelRow | None
) -> list[dict[str, Any]]:
    """On models that do so, text written before a tool call comes back as a thinking block (progress notes)."""
    if (
        row is None
        or not row.behaviour.text_between_tools_as_thinking
        or thinking_kind(body, row) in ("disabled", "off")
    ):
        return blocks
    if not any(b["type"] == "tool_use" for b in blocks):
        return blocks
    last_call = max(i for i, b in enumerate(blocks) if b["type"] == "tool_use")
    return [
        {"type": "thinking", "thinking": b["text"], "signature": ""} if b["type"] == "text" and i < last_call else b
        for i, b in enumerate(blocks)
    ]


def structure(blocks: list[dict[str, Any]], body: dict[str, Any], stop_reason: str) -> list[dict[str, Any]]:
    """Strict tools get inputs valid against their schema; a final answer under an output schema becomes its JSON."""
    answer = " ".join(b["text"] for b in blocks if b["type"] == "text")
    tools = {t.get("name"): t for t in body.get("tools") or [] if isinstance(t, dict)}
    facts = None  # read from the whole history only when a strict tool is called (a 50-turn history is not free)
    for block in blocks:
        tool = tools.get(block.get("name")) if block["type"] == "tool_use" else None
        if tool and tool.get("strict") and isinstance(tool.get("input_schema"), dict):
            facts = facts or structured.evidence(body, answer)
            block["input"] = structured.conform(block["input"], tool["input_schema"], facts)
    if stop_reason in ("tool_use", "refusal", "pause_turn"):
        return blocks
    text = structured.structured_text(body, answer)
    if text is None:
        return blocks
    return [b for b in blocks if b["type"] != "text"] + [{"type": "text", "text": text}]


def forced_starts_with_tool(blocks: list[dict[str, Any]], body: dict[str, Any]) -> list[dict[str, Any]]:
    """A forced tool_choice (any/tool) makes the model call at once: no text before the first tool_use."""
    if (body.get("tool_choice") or {}).get("type") not in ("any", "tool"):
        return blocks
    first_call = next((i for i, b in enumerate(blocks) if b["type"] == "tool_use"), None)
    if first_call is None:
        return blocks
    return [b for i, b in enumerate(blocks) if i >= first_call or b["type"] != "text"]


def _thinking_block(body: dict[str, Any], draft: Any) -> dict[str, Any]:
    text = getattr(draft, "reasoning", "") or ""
    budget = (body.get("thinking") or {}).get("budget_tokens")
    return {"type": "thinking", "thinking": cut_text(text, budget) if budget else text, "signature": ""}


def usage_for(
    body: dict[str, Any], output_tokens: int, total: int | None = None, cache: Any | None = None
) -> dict[str, Any]:
    """Usage as the API reports it; `cache` (a sim.cache.CacheUsage, from the server's prompt cache) splits the
    input into read, written and the rest; without one nothing is cached."""
    total = tokens.count_request(body) if total is None else total
    split = cache.usage_fields(total) if cache is not None else CacheUsage().usage_fields(total)
    return {**split, "output_tokens": output_tokens, "service_tier": "standard"}


def _unknown_stop_blocks(blocks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    text = next((b["text"] for b in blocks if b["type"] == "text"), "") or "..."
    return [{"type": "text", "text": cut_text(text, UNKNOWN_STOP_TEXT_TOKENS) or text[:1]}]


def shape_message(
    body: dict[str, Any],
    draft: Any,
    settings: SimSettings,
    window: int,
    ids: Callable[[str, int], str],
    unknown_stop_reason: bool = False,
    row: ModelRow | None = None,
    tie: str = "",
    prompt_tokens: int | None = None,
    cache: Any | None = None,
) -> dict[str, Any]:
    """Turn the brain's draft into the reply: stop sequences, thinking, token limits, usage (prompt_tokens: the
    request's input tokens when the caller has counted them already; cache: how the prompt cache split them)."""
    blocks = structure(forced_starts_with_tool(_draft_blocks(draft, ids), body), body, draft.stop_reason)
    stop_reason, stop_sequence, details = draft.stop_reason, None, getattr(draft, "stop_details", None)
    if details is not None and "type" not in details:
        details = {"type": stop_reason, **details}
    if unknown_stop_reason:
        blocks, stop_reason, details = _unknown_stop_blocks(blocks), UNKNOWN_STOP_REASON, None
    blocks, hit = apply_stop_sequences(blocks, body.get("stop_sequences") or [])
    if hit is not None:
        stop_reason, stop_sequence, details = "stop_sequence", hit, None
    blocks = between_tools_as_thinking(blocks, body, row)
    if thinking_on(body, settings, row):
        blocks.insert(0, _thinking_block(body, draft))
    if _display_omitted(body):
        blocks = [{**b, "thinking": ""} if b["type"] == "thinking" else b for b in blocks]
    total = tokens.count_request(body) if prompt_tokens is None else prompt_tokens
    room = window - total
    if room <= 0:  # the input exactly fills the window (more is a 400 before this): no room to write
        text_only = [b for b in blocks if b["type"] == "text"]
        blocks, _ = fit_blocks(text_only, min(SHORT_PARTIAL_TOKENS, body["max_tokens"]))
        stop_reason, stop_sequence, details = "model_context_window_exceeded", None, None
    else:
        blocks, cut = fit_blocks(blocks, min(body["max_tokens"], room))
        if cut:
            stop_reason = "max_tokens" if body["max_tokens"] <= room else "model_context_window_exceeded"
            stop_sequence, details = None, None
    for block in blocks:
        if block["type"] == "thinking":
            block["signature"] = validate.sign_thinking(block["thinking"], settings.seed, tie)
    produced = max(1, sum(output_cost(b) for b in blocks))
    return {
        "id": ids("msg", 0),
        "type": "message",
        "role": "assistant",
        "model": body["model"],
        "content": blocks,
        "stop_reason": stop_reason,
        "stop_sequence": stop_sequence,
        "stop_details": details,
        "usage": usage_for(body, body["max_tokens"] if stop_reason == "max_tokens" else produced, total, cache),
    }
