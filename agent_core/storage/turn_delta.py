"""A saved turn holds only what is new since the turn before it; the exact wire bytes are rebuilt on load.

Every request carries the whole history again, so storing each turn whole grew a run's rows with the square of
its length (a 1 MB task run to the end added 359 MB to the database). Here a turn's request keeps only the
messages after the previous request's, and each HTTP attempt's body keeps only the bytes between the part it
shares with the attempt before it at the front and the part at the back: base + (prefix, middle, suffix) is the
body byte for byte. Anything that does not share a prefix (a context policy rewrote the history) is kept whole.
"""

from __future__ import annotations

import base64
from dataclasses import fields
from typing import Any

from agent_core.model import Exchange, Turn

DELTA = "delta"  # the key of a body kept as a difference
FROM_PREVIOUS = "messages_from_previous"  # on a request: how many leading messages are the previous request's
_WORTH = 256  # a body shorter than this is kept whole (a delta would not be smaller)


def _bytes_of(value: Any) -> bytes | None:
    if isinstance(value, dict) and "text" in value:
        return str(value["text"]).encode("utf-8")
    if isinstance(value, dict) and "base64" in value:
        return base64.b64decode(value["base64"])
    return None


def _as_json(data: bytes) -> dict[str, str]:
    try:
        return {"text": data.decode("utf-8")}
    except UnicodeDecodeError:
        return {"base64": base64.b64encode(data).decode("ascii")}


def _shared_ends(a: bytes, b: bytes) -> tuple[int, int]:
    """How many bytes a and b share at the front, and then at the back (never overlapping), by halving:
    each probe is one C-speed comparison, so a megabyte body costs microseconds."""
    low, high = 0, min(len(a), len(b))
    while low < high:
        mid = (low + high + 1) // 2
        if a[:mid] == b[:mid]:
            low = mid
        else:
            high = mid - 1
    prefix = low
    low, high = 0, min(len(a), len(b)) - prefix
    while low < high:
        mid = (low + high + 1) // 2
        if a[len(a) - mid :] == b[len(b) - mid :]:
            low = mid
        else:
            high = mid - 1
    return prefix, low


def turn_record(turn: Turn, previous: Turn | None) -> dict[str, Any]:
    """A turn as the store saves it after `previous` (export.dumps encodes what is left: records and bytes)."""
    record: dict[str, Any] = {f.name: getattr(turn, f.name) for f in fields(Turn)}
    request, before = turn.request, previous.request if previous else None
    if isinstance(request, dict) and isinstance(before, dict):
        now, then = request.get("messages"), before.get("messages")
        # Messages are compared by value; the big strings in them are the same objects, so this is quick.
        if isinstance(now, list) and isinstance(then, list) and then and now[: len(then)] == then:
            record["request"] = {**request, "messages": now[len(then) :], FROM_PREVIOUS: len(then)}
    base = previous.exchanges[-1].request_body if previous and previous.exchanges else None
    exchanges: list[Any] = []
    for exchange in turn.exchanges:
        body = exchange.request_body
        if base is not None and len(body) >= _WORTH:
            prefix, suffix = _shared_ends(base, body)
            delta = {"prefix": prefix, "suffix": suffix, **_as_json(body[prefix : len(body) - suffix])}
            exchanges.append(
                {**{f.name: getattr(exchange, f.name) for f in fields(Exchange)}, "request_body": {DELTA: delta}}
            )
        else:
            exchanges.append(exchange)
        base = body
    record["exchanges"] = exchanges
    return record


def decode_turns(saved: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The saved turns (in order) whole again: each request's history and each body rebuilt from the one before."""
    whole: list[dict[str, Any]] = []
    previous: dict[str, Any] | None = None
    for turn in saved:
        turn = dict(turn)
        request = turn.get("request")
        if isinstance(request, dict) and FROM_PREVIOUS in request:
            before = ((previous or {}).get("request") or {}).get("messages") or []
            shared = int(request[FROM_PREVIOUS])
            if shared > len(before):
                raise ValueError(f"turn {turn.get('index')} continues a history the turn before it does not have")
            rest = {k: v for k, v in request.items() if k != FROM_PREVIOUS}
            turn["request"] = {**rest, "messages": [*before[:shared], *request.get("messages", [])]}
        base = _last_body(previous)
        exchanges = []
        for exchange in turn.get("exchanges") or []:
            body = exchange.get("request_body")
            if isinstance(body, dict) and DELTA in body:
                delta = body[DELTA]
                if base is None:
                    raise ValueError(f"turn {turn.get('index')} has a body kept as a difference to nothing")
                middle = _bytes_of(delta) or b""
                prefix, suffix = int(delta["prefix"]), int(delta["suffix"])
                rebuilt = base[:prefix] + middle + (base[len(base) - suffix :] if suffix else b"")
                exchange = {**exchange, "request_body": _as_json(rebuilt)}
            exchanges.append(exchange)
            decoded = _bytes_of(exchange.get("request_body"))
            base = decoded if decoded is not None else base
        turn["exchanges"] = exchanges
        whole.append(turn)
        previous = turn
    return whole


def _last_body(turn: dict[str, Any] | None) -> bytes | None:
    """The body the next turn's first attempt is kept against: the last attempt's (as turn_record takes it)."""
    exchanges = (turn or {}).get("exchanges") or []
    return _bytes_of(exchanges[-1].get("request_body")) if exchanges else None
