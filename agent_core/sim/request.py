"""What the simulated model reads of a request: the wire body of any client turned into the form the brain knows.

The brain (brain.py and its helpers) reads a system prompt, tools and user/assistant turns. Clients send more:
- top-level `output_format`, the structured-outputs beta's name for `output_config.format` (litellm sends it with
  the `structured-outputs-2025-11-13` beta header): accepted and read as `output_config.format`, as the API does;
- `role: "system"` messages inside `messages` (SDK 2.15's MessageParam has them; Claude Code and the Agent SDK
  send them under the `mid-conversation-system-*` betas): context, read with the system prompt; one with
  `clear_at: "next_user_message"` stops counting once a later user message exists;
- `<system-reminder>` blocks in a user message (Claude Code, the Agent SDK): context around the question, never
  the question itself, so they join the system prompt the brain reads and leave the user's turn.
Nothing here changes what the reply's ids, signatures or token counts are computed from: those read the wire body.
"""

from __future__ import annotations

import re
from typing import Any

OUTPUT_FORMAT_CONFLICT = "output_format and output_config.format cannot both be set; use output_config.format"
_REMINDER = re.compile(r"<system-reminder>(.*?)</system-reminder>", re.DOTALL)


class RequestConflict(ValueError):
    """Two spellings of one setting that disagree: the API's 400."""


def wire_aliases(body: Any) -> Any:
    """The body with the beta spellings the API accepts mapped to their current fields (output_format)."""
    if not isinstance(body, dict) or "output_format" not in body:
        return body
    fmt = body["output_format"]
    config = body.get("output_config")
    config = dict(config) if isinstance(config, dict) else ({} if config is None else config)
    if not isinstance(config, dict):
        return body  # the validator names the broken output_config
    if config.get("format") is not None and fmt is not None and config["format"] != fmt:
        raise RequestConflict(OUTPUT_FORMAT_CONFLICT)
    rest = {k: v for k, v in body.items() if k != "output_format"}
    if fmt is None:
        return rest
    return {**rest, "output_config": {**config, "format": fmt}}


def text_of(content: Any) -> str:
    """The text of a message's content: the string, or its text blocks joined by newlines."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(b["text"] for b in content if isinstance(b, dict) and isinstance(b.get("text"), str))
    return ""


def strip_reminders(text: str) -> str:
    """Text without its <system-reminder> parts."""
    return _REMINDER.sub("", text)


def _split_reminders(content: Any) -> tuple[Any, list[str]]:
    """A user turn without its <system-reminder> parts, and those parts."""
    found: list[str] = []

    def strip(text: str) -> str:
        found.extend(m.strip() for m in _REMINDER.findall(text))
        return _REMINDER.sub("", text).strip()

    if isinstance(content, str):
        return strip(content), found
    if not isinstance(content, list):
        return content, found
    kept = []
    for block in content:
        if isinstance(block, dict) and block.get("type") == "text" and isinstance(block.get("text"), str):
            if "<system-reminder>" in block["text"]:
                text = strip(block["text"])
                if text:
                    kept.append({**block, "text": text})
                continue
        kept.append(block)
    return kept, found


def _system_blocks(system: Any) -> list[dict[str, Any]]:
    if isinstance(system, str):
        return [{"type": "text", "text": system}] if system else []
    return [b for b in system if isinstance(b, dict)] if isinstance(system, list) else []


def for_brain(body: dict[str, Any]) -> dict[str, Any]:
    """The request as the brain reads it: system messages and reminders moved into the system prompt."""
    messages = body.get("messages")
    if not isinstance(messages, list) or _as_is(messages):
        return body
    context: list[str] = []
    turns: list[dict[str, Any]] = []
    for i, message in enumerate(messages):
        if not isinstance(message, dict):
            continue
        if message.get("role") == "system":
            later_user = any(isinstance(m, dict) and m.get("role") == "user" for m in messages[i + 1 :])
            if not (message.get("clear_at") == "next_user_message" and later_user):
                context.append(text_of(message.get("content")))
            continue
        if message.get("role") == "user":
            content, reminders = _split_reminders(message.get("content"))
            context += reminders
            if not content:
                continue  # a turn that held only reminders
            message = {**message, "content": content}
        turns.append(message)
    if not context and len(turns) == len(messages):
        return body
    extra = [{"type": "text", "text": text} for text in context if text]
    if not any(m.get("role") == "user" for m in turns):  # the only user turn held nothing but reminders
        turns = [m for m in messages if isinstance(m, dict) and m.get("role") != "system"]
    return {**body, "system": _system_blocks(body.get("system")) + extra, "messages": turns}


def _as_is(messages: list[Any]) -> bool:
    """True when for_brain has nothing to move or drop: no system message, no reminder, no user turn that holds
    nothing (a cheap look on every request; False only means the full reading decides)."""
    for message in messages:
        if not isinstance(message, dict) or message.get("role") == "system":
            return False
        content = message.get("content")
        if message.get("role") != "user":
            continue
        if isinstance(content, str):
            if "<system-reminder>" in content or not content.strip():
                return False
        elif not isinstance(content, list) or not content:
            return False
        elif any(isinstance(b, dict) and "<system-reminder>" in str(b.get("text", "")) for b in content):
            return False
    return True
