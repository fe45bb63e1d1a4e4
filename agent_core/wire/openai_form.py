"""A request and a response in the OpenAI Chat Completions form, to compare the two APIs side by side."""

from __future__ import annotations

import json
from typing import Any

from agent_core.vocab import STOP_TABLE

FINISH_REASONS = {reason: info.openai_finish for reason, info in STOP_TABLE.items()}
_OPENAI_TOOL_CHOICE = {"auto": "auto", "any": "required", "none": "none"}


def to_openai_messages(request: dict[str, Any]) -> dict[str, Any]:
    """One Messages API request as an OpenAI Chat Completions request (same conversation, other names)."""
    messages: list[dict[str, Any]] = []
    system = _text_of(request.get("system"))
    if system:
        messages.append({"role": "system", "content": system})
    for message in request.get("messages") or []:
        if message.get("role") == "assistant":
            messages.append(_openai_assistant(message.get("content")))
        else:
            messages.extend(_openai_user(message.get("content")))
    out: dict[str, Any] = {"model": request.get("model"), "messages": messages}
    if request.get("max_tokens") is not None:
        out["max_tokens"] = request["max_tokens"]
    if request.get("tools"):
        out["tools"] = [
            {
                "type": "function",
                "function": {
                    "name": t.get("name"),
                    "description": t.get("description", ""),
                    "parameters": t.get("input_schema", {}),
                },
            }
            for t in request["tools"]
        ]
    out.update(_openai_tool_choice(request.get("tool_choice")))
    if request.get("stop_sequences"):
        out["stop"] = list(request["stop_sequences"])
    return out


def to_openai_response(response: dict[str, Any]) -> dict[str, Any]:
    """One Messages API reply as an OpenAI chat.completion object."""
    message = _openai_assistant(response.get("content"))
    usage = response.get("usage") or {}
    prompt = sum(
        int(usage.get(k) or 0) for k in ("input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens")
    )
    completion = int(usage.get("output_tokens") or 0)
    return {
        "id": response.get("id"),
        "object": "chat.completion",
        "model": response.get("model"),
        "choices": [
            {
                "index": 0,
                "message": message,
                "finish_reason": FINISH_REASONS.get(str(response.get("stop_reason")), "stop"),
            }
        ],
        "usage": {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion},
    }


def _openai_assistant(content: Any) -> dict[str, Any]:
    blocks, text = _blocks(content), _text_of(content)
    calls = [
        {
            "id": b.get("id"),
            "type": "function",
            "function": {"name": b.get("name"), "arguments": json.dumps(b.get("input", {}), ensure_ascii=False)},
        }
        for b in blocks
        if b.get("type") == "tool_use"
    ]
    # OpenAI has no thinking blocks; they are left out.
    message: dict[str, Any] = {"role": "assistant", "content": text or (None if calls else "")}
    if calls:
        message["tool_calls"] = calls
    return message


def _openai_user(content: Any) -> list[dict[str, Any]]:
    blocks = _blocks(content)
    out: list[dict[str, Any]] = []
    for block in blocks:
        if block.get("type") == "tool_result":
            text = _text_of(block.get("content"))
            # OpenAI has no is_error flag: the words must carry the failure.
            if block.get("is_error") and not text.lower().startswith("error"):
                text = f"Error: {text}"
            out.append({"role": "tool", "tool_call_id": block.get("tool_use_id"), "content": text})
    # Tool messages must follow the assistant's tool_calls directly; any text comes after them.
    text = _text_of(blocks)
    if text or not out:
        out.append({"role": "user", "content": text})
    return out


def _openai_tool_choice(choice: dict[str, Any] | None) -> dict[str, Any]:
    if not choice:
        return {}
    out: dict[str, Any] = {}
    kind = choice.get("type")
    if kind == "tool":
        out["tool_choice"] = {"type": "function", "function": {"name": choice.get("name")}}
    elif kind in _OPENAI_TOOL_CHOICE:
        out["tool_choice"] = _OPENAI_TOOL_CHOICE[kind]
    if choice.get("disable_parallel_tool_use"):
        out["parallel_tool_calls"] = False
    return out


def _blocks(content: Any) -> list[dict[str, Any]]:
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    return [b for b in content or [] if isinstance(b, dict)]


def _text_of(content: Any) -> str:
    return "".join(b.get("text", "") for b in _blocks(content) if b.get("type") == "text")
