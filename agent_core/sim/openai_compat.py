"""POST /v1/chat/completions on the offline server, as Anthropic's own OpenAI SDK compatibility layer serves it.

The request is turned into a Messages API request, answered by the same handler, and the reply turned back into a
`chat.completion` (or `chat.completion.chunk` events). The documented differences from OpenAI hold here too
(platform.claude.com/docs/en/cli-sdks-libraries/libraries/openai-sdk, read 2026-12-02):
- system and developer messages, wherever they are, are hoisted and joined with a newline into the one system prompt;
- `strict` on a function is ignored; `n` must be 1; `temperature` above 1 is clamped to 1;
- `logprobs`, `metadata`, `response_format`, `prediction`, `presence_penalty`, `frequency_penalty`, `seed`,
  `service_tier`, `audio`, `logit_bias`, `store`, `user`, `modalities`, `top_logprobs`, `reasoning_effort` are
  accepted and ignored; `thinking` (the SDK's `extra_body`) is passed on, and the reply carries no thinking;
- `max_tokens` / `max_completion_tokens`, `stop`, `stream`, `stream_options.include_usage`, `top_p`, `tools`,
  `tool_choice`, `parallel_tool_calls` map to their Messages API counterparts;
- errors come in OpenAI's envelope: {"error": {"message", "type", "param", "code"}}.
"""

from __future__ import annotations

import json
import time
from typing import Any

from agent_core.wire.openai_form import to_openai_response

DEFAULT_MAX_TOKENS = 4096
IGNORED = frozenset(
    {
        "logprobs",
        "top_logprobs",
        "metadata",
        "response_format",
        "prediction",
        "presence_penalty",
        "frequency_penalty",
        "seed",
        "service_tier",
        "audio",
        "logit_bias",
        "store",
        "user",
        "modalities",
        "reasoning_effort",
        "web_search_options",
        "verbosity",
        "safety_identifier",
        "prompt_cache_key",
    }
)
KNOWN = frozenset(
    {"model", "messages", "max_tokens", "max_completion_tokens", "stop", "stream", "stream_options", "temperature"}
    | {"top_p", "tools", "tool_choice", "parallel_tool_calls", "n", "thinking", "functions", "function_call"}
)
OPENAI_ERROR_TYPES = {400: "invalid_request_error", 401: "authentication_error", 403: "permission_error"} | {
    404: "not_found_error",
    429: "rate_limit_error",
}


class ChatInvalid(ValueError):
    """A chat request the compatibility layer refuses (400), with the parameter it names."""

    def __init__(self, message: str, param: str | None = None) -> None:
        super().__init__(message)
        self.param = param


def error_body(status: int, message: str, param: str | None = None) -> dict[str, Any]:
    """OpenAI's error envelope."""
    kind = OPENAI_ERROR_TYPES.get(status, "api_error" if status >= 500 else "invalid_request_error")
    return {"error": {"message": message, "type": kind, "param": param, "code": None}}


def _text(content: Any, where: str) -> str:
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for i, part in enumerate(content):
            if not isinstance(part, dict) or part.get("type") not in ("text", "input_text"):
                raise ChatInvalid(f"{where}.content.{i}: only text parts are supported here", f"{where}.content")
            parts.append(str(part.get("text", "")))
        return "".join(parts)
    raise ChatInvalid(f"{where}.content: expected a string or a list of parts", f"{where}.content")


def _user_blocks(content: Any, where: str) -> list[dict[str, Any]]:
    if isinstance(content, list):
        blocks: list[dict[str, Any]] = []
        for i, part in enumerate(content):
            kind = part.get("type") if isinstance(part, dict) else None
            if kind == "text":
                blocks.append({"type": "text", "text": str(part.get("text", ""))})
            elif kind == "image_url":
                url = str((part.get("image_url") or {}).get("url", ""))
                blocks.append({"type": "image", "source": {"type": "url", "url": url}})
            elif kind == "input_audio":
                continue  # the layer strips audio input
            else:
                raise ChatInvalid(f"{where}.content.{i}.type: {kind!r} is not supported", f"{where}.content")
        return [b for b in blocks if b.get("type") != "text" or b["text"]]
    text = _text(content, where)
    return [{"type": "text", "text": text}] if text else []


def _tool_calls(calls: Any, where: str) -> list[dict[str, Any]]:
    blocks = []
    for i, call in enumerate(calls or []):
        function = call.get("function") if isinstance(call, dict) else None
        if not isinstance(function, dict):
            raise ChatInvalid(f"{where}.tool_calls.{i}.function: Field required", f"{where}.tool_calls")
        raw = function.get("arguments") or "{}"
        try:
            arguments = json.loads(raw) if isinstance(raw, str) else raw
        except ValueError as exc:
            raise ChatInvalid(f"{where}.tool_calls.{i}.function.arguments: not valid JSON ({exc})") from exc
        blocks.append({"type": "tool_use", "id": call.get("id"), "name": function.get("name"), "input": arguments})
    return blocks


def _append(turns: list[dict[str, Any]], role: str, blocks: list[dict[str, Any]]) -> None:
    """Add blocks as a turn, merged into the last one of the same role (tool results and the text after them)."""
    if not blocks:
        return
    if turns and turns[-1]["role"] == role:
        turns[-1]["content"].extend(blocks)
    else:
        turns.append({"role": role, "content": list(blocks)})


def _conversation(messages: Any) -> tuple[str, list[dict[str, Any]]]:
    if not isinstance(messages, list) or not messages:
        raise ChatInvalid("messages: at least one message is required", "messages")
    system: list[str] = []
    turns: list[dict[str, Any]] = []
    for i, message in enumerate(messages):
        where = f"messages.{i}"
        role = message.get("role") if isinstance(message, dict) else None
        if role in ("system", "developer"):
            system.append(_text(message.get("content"), where))  # hoisted, wherever it was
        elif role == "user":
            _append(turns, "user", _user_blocks(message.get("content"), where))
        elif role == "assistant":
            text = _text(message.get("content"), where)
            blocks = ([{"type": "text", "text": text}] if text else []) + _tool_calls(message.get("tool_calls"), where)
            _append(turns, "assistant", blocks)
        elif role == "tool":
            result = {
                "type": "tool_result",
                "tool_use_id": message.get("tool_call_id"),
                "content": _text(message.get("content"), where),
            }
            _append(turns, "user", [result])
        else:
            raise ChatInvalid(f"{where}.role: {role!r} is not one of system, developer, user, assistant, tool", where)
    # Tool results come first in their user turn (the Messages API's rule); text that followed them stays after.
    for turn in turns:
        if turn["role"] == "user":
            turn["content"].sort(key=lambda b: b.get("type") != "tool_result")
        if len(turn["content"]) == 1 and turn["content"][0]["type"] == "text":
            turn["content"] = turn["content"][0]["text"]  # one text: a plain string, as a native client sends it
    return "\n".join(s for s in system if s), turns


def _tools(tools: Any) -> list[dict[str, Any]]:
    out = []
    for i, tool in enumerate(tools or []):
        function = (
            tool.get("function") if isinstance(tool, dict) and tool.get("type", "function") == "function" else None
        )
        if not isinstance(function, dict):
            raise ChatInvalid(f"tools.{i}: only function tools are supported", "tools")
        out.append(
            {
                "name": function.get("name"),
                "description": function.get("description", ""),
                "input_schema": function.get("parameters") or {"type": "object", "properties": {}},
            }  # `strict` is ignored, as the layer documents
        )
    return out


def _tool_choice(choice: Any, parallel: Any) -> dict[str, Any] | None:
    if choice is None and parallel is None:
        return None
    if isinstance(choice, dict):
        out: dict[str, Any] = {"type": "tool", "name": (choice.get("function") or {}).get("name")}
    else:
        out = {"type": {"required": "any", "none": "none"}.get(str(choice), "auto")}
    if parallel is False and out["type"] != "none":
        out["disable_parallel_tool_use"] = True
    return out


def to_messages_request(body: Any) -> dict[str, Any]:
    """A chat.completions request as the Messages API request the layer sends on."""
    if not isinstance(body, dict):
        raise ChatInvalid("The request body must be a JSON object.")
    unknown = sorted(set(body) - KNOWN - IGNORED)
    if unknown:
        raise ChatInvalid(f"{unknown[0]}: Unrecognized request argument supplied", unknown[0])
    if body.get("n") not in (None, 1):
        raise ChatInvalid("n: must be exactly 1", "n")
    system, messages = _conversation(body.get("messages"))
    out: dict[str, Any] = {
        "model": body.get("model"),
        "max_tokens": body.get("max_completion_tokens") or body.get("max_tokens") or DEFAULT_MAX_TOKENS,
        "messages": messages,
    }
    if system:
        out["system"] = system
    if body.get("tools"):
        out["tools"] = _tools(body["tools"])
    choice = _tool_choice(body.get("tool_choice"), body.get("parallel_tool_calls")) if body.get("tools") else None
    if choice:
        out["tool_choice"] = choice
    stop = body.get("stop")
    stops = [stop] if isinstance(stop, str) else list(stop or [])
    if stops := [s for s in stops if isinstance(s, str) and s.strip()]:
        out["stop_sequences"] = stops
    if isinstance(body.get("temperature"), (int, float)):
        out["temperature"] = min(float(body["temperature"]), 1.0)
    for name in ("top_p", "thinking"):
        if body.get(name) is not None:
            out[name] = body[name]
    return out


def completion(message: dict[str, Any]) -> dict[str, Any]:
    """A Messages API reply as a chat.completion (the Lab's OpenAI view of a response, with `created`)."""
    out = to_openai_response(message)
    out["created"] = int(time.time())
    return out


def _chunk(message: dict[str, Any], created: int, delta: dict[str, Any], finish: str | None = None) -> bytes:
    data = {
        "id": message.get("id"),
        "object": "chat.completion.chunk",
        "created": created,
        "model": message.get("model"),
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }
    return f"data: {json.dumps(data, ensure_ascii=False, separators=(',', ':'))}\n\n".encode()


def chunks(message: dict[str, Any], include_usage: bool) -> list[bytes]:
    """A reply as the chat.completion.chunk events of a stream, ending with `data: [DONE]`."""
    from agent_core.sim.stream import text_pieces

    whole = completion(message)
    created, choice = whole["created"], whole["choices"][0]
    events = [_chunk(message, created, {"role": "assistant", "content": ""})]
    events += [
        _chunk(message, created, {"content": piece}) for piece in text_pieces(choice["message"].get("content") or "")
    ]
    for index, call in enumerate(choice["message"].get("tool_calls") or []):
        head = {
            "index": index,
            "id": call["id"],
            "type": "function",
            "function": {"name": call["function"]["name"], "arguments": ""},
        }
        events.append(_chunk(message, created, {"tool_calls": [head]}))
        arguments = call["function"]["arguments"]
        for start in range(0, len(arguments), 24):
            piece = {"index": index, "function": {"arguments": arguments[start : start + 24]}}
            events.append(_chunk(message, created, {"tool_calls": [piece]}))
    events.append(_chunk(message, created, {}, choice["finish_reason"]))
    if include_usage:
        usage = {
            "id": message.get("id"),
            "object": "chat.completion.chunk",
            "created": created,
            "model": message.get("model"),
            "choices": [],
            "usage": whole["usage"],
        }
        events.append(f"data: {json.dumps(usage, separators=(',', ':'))}\n\n".encode())
    return [*events, b"data: [DONE]\n\n"]


# -- the way back: a chat.completion (or its chunks) as the Messages API reply it came from -----------------
_STOPS = {"stop": "end_turn", "length": "max_tokens", "tool_calls": "tool_use", "content_filter": "refusal"}


def message_from_completion(data: dict[str, Any]) -> dict[str, Any] | None:
    """A chat.completion as a Messages API message (what the recorder shows a turn of an OpenAI client as)."""
    choices = data.get("choices") or []
    if not choices or not isinstance(choices[0], dict):
        return None
    choice = choices[0]
    message = choice.get("message") or {}
    blocks: list[dict[str, Any]] = [{"type": "text", "text": message["content"]}] if message.get("content") else []
    blocks += _tool_calls(message.get("tool_calls"), "choices.0.message")
    usage = data.get("usage") or {}
    return {
        "id": data.get("id"),
        "type": "message",
        "role": "assistant",
        "model": data.get("model"),
        "content": blocks,
        "stop_reason": _STOPS.get(str(choice.get("finish_reason")), "end_turn"),
        "stop_sequence": None,
        "usage": {
            "input_tokens": int(usage.get("prompt_tokens") or 0),
            "output_tokens": int(usage.get("completion_tokens") or 0),
        },
    }


def completion_from_chunks(raw: bytes) -> dict[str, Any] | None:
    """The chat.completion a stream of chat.completion.chunk events adds up to."""
    text, finish, head = "", None, None
    calls: dict[int, dict[str, Any]] = {}
    usage: dict[str, Any] = {}
    for line in raw.decode("utf-8", "replace").splitlines():
        if not line.startswith("data:") or line.strip() == "data: [DONE]":
            continue
        try:
            chunk = json.loads(line[5:])
        except ValueError:
            continue
        head = head or chunk
        usage = chunk.get("usage") or usage
        for choice in chunk.get("choices") or []:
            delta = choice.get("delta") or {}
            text += delta.get("content") or ""
            finish = choice.get("finish_reason") or finish
            for part in delta.get("tool_calls") or []:
                entry = calls.setdefault(
                    part.get("index", 0), {"id": None, "type": "function", "function": {"name": "", "arguments": ""}}
                )
                entry["id"] = part.get("id") or entry["id"]
                function = part.get("function") or {}
                entry["function"]["name"] += function.get("name") or ""
                entry["function"]["arguments"] += function.get("arguments") or ""
    if head is None:
        return None
    message = {"role": "assistant", "content": text or None, "tool_calls": [calls[i] for i in sorted(calls)] or None}
    return {
        "id": head.get("id"),
        "model": head.get("model"),
        "choices": [{"message": message, "finish_reason": finish}],
        "usage": usage,
    }
