"""Server-sent events for the simulated model: a finished message replayed as the real streaming event sequence."""

from __future__ import annotations

import json
import re
from typing import Any

TEXT_WORDS_PER_DELTA = 4
JSON_CHARS_PER_DELTA = 24
CUT_REASONS = ("max_tokens", "model_context_window_exceeded")


def sse(event: str, data: dict[str, Any]) -> bytes:
    """One SSE event in the wire format the API uses."""
    return f"event: {event}\ndata: {json.dumps(data, ensure_ascii=False, separators=(',', ':'))}\n\n".encode()


def text_pieces(text: str) -> list[str]:
    """Split text into small deltas of a few words, keeping every character."""
    words = re.findall(r"\s*\S+\s*|\s+", text)
    return ["".join(words[i : i + TEXT_WORDS_PER_DELTA]) for i in range(0, len(words), TEXT_WORDS_PER_DELTA)]


def json_pieces(value: dict[str, Any], complete: bool) -> list[str]:
    """The input JSON in slices; an input cut by max_tokens lacks its closing brace, as on the wire."""
    raw = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    if not complete:
        raw = raw[:-1]
    return [raw[i : i + JSON_CHARS_PER_DELTA] for i in range(0, len(raw), JSON_CHARS_PER_DELTA)]


def _start_block(block: dict[str, Any]) -> dict[str, Any]:
    kind = block["type"]
    if kind == "text":
        return {"type": "text", "text": ""}
    if kind == "thinking":
        return {"type": "thinking", "thinking": "", "signature": ""}
    if kind == "tool_use":
        return {"type": "tool_use", "id": block["id"], "name": block["name"], "input": {}}
    return block


def _deltas(block: dict[str, Any], complete: bool) -> list[dict[str, Any]]:
    kind = block["type"]
    if kind == "text":
        return [{"type": "text_delta", "text": t} for t in text_pieces(block["text"])]
    if kind == "thinking":
        deltas = [{"type": "thinking_delta", "thinking": t} for t in text_pieces(block["thinking"])]
        return deltas + [{"type": "signature_delta", "signature": block["signature"]}]
    if kind == "tool_use":
        return [{"type": "input_json_delta", "partial_json": p} for p in json_pieces(block["input"], complete)]
    return []


def _block_events(index: int, block: dict[str, Any], complete: bool) -> list[bytes]:
    events = [
        sse(
            "content_block_start", {"type": "content_block_start", "index": index, "content_block": _start_block(block)}
        )
    ]
    for delta in _deltas(block, complete):
        events.append(sse("content_block_delta", {"type": "content_block_delta", "index": index, "delta": delta}))
    events.append(sse("content_block_stop", {"type": "content_block_stop", "index": index}))
    return events


def sse_events(message: dict[str, Any]) -> list[bytes]:
    """The full event sequence for a message: start, ping, blocks, message_delta, stop."""
    usage = message["usage"]
    start = {
        **message,
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
        "stop_details": None,
        "usage": {**usage, "output_tokens": min(1, usage["output_tokens"])},
    }
    events = [sse("message_start", {"type": "message_start", "message": start}), sse("ping", {"type": "ping"})]
    content = message["content"]
    for index, block in enumerate(content):
        cut = message["stop_reason"] in CUT_REASONS and index == len(content) - 1
        events += _block_events(index, block, complete=not cut)
    delta_usage = {
        k: usage[k]
        for k in ("input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens", "output_tokens")
        if k in usage
    }
    events.append(
        sse(
            "message_delta",
            {
                "type": "message_delta",
                "delta": {
                    "stop_reason": message["stop_reason"],
                    "stop_sequence": message["stop_sequence"],
                    "stop_details": message.get("stop_details"),
                },
                "usage": delta_usage,
            },
        )
    )
    events.append(sse("message_stop", {"type": "message_stop"}))
    return events
