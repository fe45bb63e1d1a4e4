"""A streamed Messages API reply (server-sent events) put back together into the message it carried."""

from __future__ import annotations

import json
from typing import Any


def events(raw: bytes) -> list[tuple[str, dict[str, Any]]]:
    """(event name, data) of every event in an SSE body; lines that are not JSON data are skipped."""
    out: list[tuple[str, dict[str, Any]]] = []
    name = ""
    for line in raw.decode("utf-8", "replace").splitlines():
        if line.startswith("event:"):
            name = line[6:].strip()
        elif line.startswith("data:"):
            try:
                data = json.loads(line[5:].strip())
            except ValueError:
                continue
            if isinstance(data, dict):
                out.append((name or str(data.get("type", "")), data))
            name = ""
    return out


def _block(start: dict[str, Any]) -> dict[str, Any]:
    block = dict(start)
    if block.get("type") in ("tool_use", "server_tool_use", "mcp_tool_use"):
        block["_json"] = ""
    return block


def _apply(block: dict[str, Any], delta: dict[str, Any]) -> None:
    kind = delta.get("type")
    if kind == "text_delta":
        block["text"] = block.get("text", "") + str(delta.get("text", ""))
    elif kind == "input_json_delta":
        block["_json"] = block.get("_json", "") + str(delta.get("partial_json", ""))
    elif kind == "thinking_delta":
        block["thinking"] = block.get("thinking", "") + str(delta.get("thinking", ""))
    elif kind == "signature_delta":
        block["signature"] = str(delta.get("signature", ""))
    elif kind == "citations_delta":
        block.setdefault("citations", []).append(delta.get("citation"))


def _finish(block: dict[str, Any]) -> dict[str, Any]:
    raw = block.pop("_json", None)
    if raw is not None:
        try:
            block["input"] = json.loads(raw) if raw else block.get("input") or {}
        except ValueError:
            block["input"] = {"_partial_json": raw}  # cut off (max_tokens): kept as it came
    return block


def assemble(raw: bytes) -> dict[str, Any] | None:
    """The message a stream carried, as the non-streamed reply would have it; None when it has no message_start.

    An `error` event (the API's overloaded_error mid-stream) comes back as {"type": "error", ...} instead."""
    message: dict[str, Any] | None = None
    blocks: dict[int, dict[str, Any]] = {}
    for name, data in events(raw):
        kind = data.get("type", name)
        if kind == "error":
            return data
        if kind == "message_start" and isinstance(data.get("message"), dict):
            message = dict(data["message"])
            message["content"] = list(message.get("content") or [])
        elif message is None:
            continue
        elif kind == "content_block_start":
            blocks[int(data.get("index", len(blocks)))] = _block(data.get("content_block") or {})
        elif kind == "content_block_delta" and int(data.get("index", -1)) in blocks:
            _apply(blocks[int(data["index"])], data.get("delta") or {})
        elif kind == "message_delta":
            message.update({k: v for k, v in (data.get("delta") or {}).items()})
            usage = {k: v for k, v in (data.get("usage") or {}).items() if v is not None}
            message["usage"] = {**(message.get("usage") or {}), **usage}
    if message is None:
        return None
    message["content"] = [*message["content"], *(_finish(blocks[i]) for i in sorted(blocks))]
    return message
