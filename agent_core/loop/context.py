"""What goes into each request: the body built from config + history, and the context-management policies."""

from __future__ import annotations

import copy
import json
from typing import Any

from agent_core.model import Decision, RunConfig
from agent_core.tools import texts
from agent_core.vocab import ContextPolicy, DecisionKind

# The placeholder and the summary go into the history the model reads, so they are written in the run's language
# (tools/data/texts.json); CLEARED is the English one.
CLEARED = texts.render(texts.said("context.cleared"))


def cleared_text(lang: str = "en") -> str:
    """The placeholder an old tool result becomes, in a language."""
    return texts.render(texts.said("context.cleared"), lang)


def cache_control() -> dict[str, Any]:
    """A fresh marker per use, so no two requests (or a module constant) ever share one dict."""
    return {"type": "ephemeral"}


def build_request(config: RunConfig, messages: list[dict[str, Any]], with_tools: bool = True) -> dict[str, Any]:
    """The exact Messages API body for the next call (a deep copy: later edits never change what was sent)."""
    body: dict[str, Any] = {"model": config.model, "max_tokens": config.max_tokens}
    if config.system:
        body["system"] = (
            [{"type": "text", "text": config.system, "cache_control": cache_control()}]
            if config.cache_prompt
            else config.system
        )
    tools = [t.definition() for t in config.tools] if with_tools else []
    if tools:
        if config.cache_prompt:
            tools[-1]["cache_control"] = cache_control()  # one breakpoint after the last tool caches them all
        body["tools"] = tools
        if config.tool_choice:
            body["tool_choice"] = config.tool_choice
    if config.stop_sequences:
        body["stop_sequences"] = list(config.stop_sequences)
    if config.thinking_budget:
        body["thinking"] = {"type": "enabled", "budget_tokens": config.thinking_budget}
    body["messages"] = copy.deepcopy(messages)
    return body


def _turn_starts(messages: list[dict[str, Any]]) -> list[int]:
    """Indexes of assistant messages: each starts one finished turn of the history."""
    return [i for i, m in enumerate(messages) if m.get("role") == "assistant"]


def clear_tool_results(
    messages: list[dict[str, Any]], keep_last_turns: int, lang: str = "en"
) -> tuple[list[dict[str, Any]], int]:
    """Replace tool results older than the last N turns with a placeholder; returns (messages, blocks cleared)."""
    starts = _turn_starts(messages)
    if len(starts) <= keep_last_turns:
        return messages, 0
    boundary = starts[len(starts) - keep_last_turns] if keep_last_turns > 0 else len(messages)
    cleared, placeholder = 0, cleared_text(lang)
    out = copy.deepcopy(messages)
    for message in out[:boundary]:
        for block in message["content"] if isinstance(message.get("content"), list) else []:
            if block.get("type") == "tool_result" and block.get("content") != placeholder:
                block["content"] = placeholder
                cleared += 1
    return out, cleared


def _summarise(messages: list[dict[str, Any]], lang: str) -> str:
    """A short, deterministic summary the program writes itself (no model call): what was asked and learned."""
    calls: dict[str, str] = {}
    lines = []
    a_tool = texts.render(texts.said("context.a_tool"), lang)
    for message in messages:
        for block in message["content"] if isinstance(message.get("content"), list) else []:
            if block.get("type") == "tool_use":
                calls[block["id"]] = f"{block['name']}({json.dumps(block.get('input', {}), ensure_ascii=False)})"
            elif block.get("type") == "tool_result":
                content = block.get("content")
                text = content if isinstance(content, str) else json.dumps(content, ensure_ascii=False)
                status = texts.said("context.error" if block.get("is_error") else "context.result")
                call = calls.get(block.get("tool_use_id"), a_tool)
                line = texts.said("context.summary_line", call=call, status=status, text=text[:160])
                lines.append(texts.render(line, lang))
    return texts.render(texts.said("context.summary"), lang) + "\n" + "\n".join(lines)


def summarize_old_turns(
    messages: list[dict[str, Any]], keep_last_turns: int, lang: str = "en"
) -> tuple[list[dict[str, Any]], int]:
    """Fold all but the last N turns into the first user message; returns (messages, turns folded)."""
    starts = _turn_starts(messages)
    if len(starts) <= keep_last_turns or not messages:
        return messages, 0
    boundary = starts[len(starts) - keep_last_turns] if keep_last_turns > 0 else len(messages)
    # The kept part must start with an assistant message so the history stays user/assistant alternating.
    old, kept = messages[1:boundary], messages[boundary:]
    first = copy.deepcopy(messages[0])
    summary = _summarise(old, lang)
    if isinstance(first.get("content"), str):
        first["content"] = first["content"] + "\n\n" + summary
    else:
        first["content"] = list(first.get("content") or []) + [{"type": "text", "text": summary}]
    folded = len(_turn_starts(old))
    return [first, *copy.deepcopy(kept)], folded


def apply_policy(config: RunConfig, messages: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], Decision | None]:
    """Apply the configured context policy; returns the new history and what it did (None when nothing changed)."""
    if config.context_policy == ContextPolicy.CLEAR_TOOL_RESULTS:
        out, n = clear_tool_results(messages, config.keep_last_turns, config.language)
        return out, (Decision(DecisionKind.CONTEXT_CLEARED, {"results": n}) if n else None)
    if config.context_policy == ContextPolicy.SUMMARIZE:
        out, n = summarize_old_turns(messages, config.keep_last_turns, config.language)
        return out, (Decision(DecisionKind.CONTEXT_SUMMARISED, {"turns": n}) if n else None)
    return messages, None
