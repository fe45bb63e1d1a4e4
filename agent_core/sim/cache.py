"""Prompt caching as the API keeps it: entries keyed by the hash of the prompt prefix up to each breakpoint.

What the docs define (platform.claude.com/docs/en/build-with-claude/prompt-caching), and what this does:
- the prompt is read in the order tools -> system -> messages, one *block* at a time (a tool, a system block, a
  message's content block); a breakpoint is a block with `cache_control`, or the last block when the request has a
  top-level `cache_control` (automatic caching);
- a request looks for the longest cached prefix at each breakpoint and up to LOOKBACK_BLOCKS blocks before it:
  that prefix is `cache_read_input_tokens`; what lies between it and the last breakpoint is written
  (`cache_creation_input_tokens`, split by each breakpoint's TTL into `cache_creation.ephemeral_{5m,1h}`); the rest
  is `input_tokens`, so input + creation + read is the whole input;
- a prefix shorter than the model's minimum cacheable length (models.json `min_cache_tokens`) is not cached;
- an entry lives 5 minutes (or 1 hour with `"ttl": "1h"`) from its last use: every read refreshes it;
- tool definitions change the whole key; `tool_choice` and `thinking` only the messages' part (the docs' table of
  what invalidates what); `cache_control` marks are not part of the key, so a breakpoint that moves forward still
  finds the prefix it wrote before;
- entries belong to one credential (a hash of the API key): learners on one server never read each other's cache.
"""

from __future__ import annotations

import hashlib
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from agent_core import jsontext, lineup
from agent_core.cost import tokens

TTL_SECONDS = {"5m": 300.0, "1h": 3600.0}
LOOKBACK_BLOCKS = 20
DEFAULT_MIN_TOKENS = 1024  # a model the table does not list
MAX_ENTRIES = 20_000  # oldest forgotten first: a bound, not a behaviour
_KEY = jsontext.encoder(sort_keys=True, separators=(",", ":"))


@dataclass(frozen=True)
class CacheUsage:
    """How one request's input splits: read from the cache, written to it (per TTL), the rest."""

    read: int = 0
    write_5m: int = 0
    write_1h: int = 0

    @property
    def written(self) -> int:
        return self.write_5m + self.write_1h

    def usage_fields(self, total: int) -> dict[str, Any]:
        """The usage keys as the API reports them, for a request of `total` input tokens."""
        return {
            "input_tokens": max(0, total - self.read - self.written),
            "cache_creation_input_tokens": self.written,
            "cache_read_input_tokens": self.read,
            "cache_creation": {"ephemeral_5m_input_tokens": self.write_5m, "ephemeral_1h_input_tokens": self.write_1h},
        }


@dataclass(frozen=True)
class _Position:
    """The prompt up to and including one block: its key, where the block is, and its own cache_control."""

    key: str
    where: tuple[str, int, int]  # ("tools" | "system" | "messages", index, block index within the message)
    mark: dict[str, Any] | None


def _without_mark(block: Any) -> Any:
    if isinstance(block, dict) and "cache_control" in block:
        return {k: v for k, v in block.items() if k != "cache_control"}
    return block


def _chain(previous: str, *parts: Any) -> str:
    digest = hashlib.sha256(previous.encode("ascii"))
    for part in parts:
        digest.update(b"\x1f" + _KEY(part).encode("utf-8"))
    return digest.hexdigest()


def _mark(block: Any) -> dict[str, Any] | None:
    mark = block.get("cache_control") if isinstance(block, dict) else None
    return mark if isinstance(mark, dict) else None


def marked(body: dict[str, Any], messages_unmarked: bool = False) -> bool:
    """Whether the request has any breakpoint: automatic caching, or a tool, system or content block with
    cache_control (as a dict: what _mark reads). Plain loops: it runs over the whole history on every request
    (messages_unmarked: the server has seen already that no message has one)."""
    if isinstance(body.get("cache_control"), dict):
        return True
    system = body.get("system")
    blocks = [*(body.get("tools") or []), *(system if isinstance(system, list) else [system])]
    if any(isinstance(b, dict) and isinstance(b.get("cache_control"), dict) for b in blocks):
        return True
    for message in [] if messages_unmarked else body.get("messages") or []:
        content = message.get("content") if isinstance(message, dict) else None
        for block in content if isinstance(content, list) else [content]:
            if isinstance(block, dict) and isinstance(block.get("cache_control"), dict):
                return True
    return False


def positions(body: dict[str, Any], owner: str) -> list[_Position]:
    """Every block of the prompt in order, each with the key of the prefix that ends with it."""
    key = _chain(owner, "model", body.get("model", ""))
    out: list[_Position] = []
    for i, tool in enumerate(body.get("tools") or []):
        key = _chain(key, "tool", _without_mark(tool))
        out.append(_Position(key, ("tools", i, 0), _mark(tool)))
    system = body.get("system")
    for i, block in enumerate(system if isinstance(system, list) else ([system] if system else [])):
        key = _chain(key, "system", _without_mark(block))
        out.append(_Position(key, ("system", i, 0), _mark(block)))
    key = _chain(key, "messages", body.get("tool_choice"), body.get("thinking"))
    for m, message in enumerate(body.get("messages") or []):
        content = message.get("content") if isinstance(message, dict) else None
        role = message.get("role") if isinstance(message, dict) else None
        for b, block in enumerate(content if isinstance(content, list) else [content]):
            key = _chain(key, role, m, _without_mark(block))
            out.append(_Position(key, ("messages", m, b), _mark(block)))
    return out


def prefix_body(body: dict[str, Any], where: tuple[str, int, int]) -> dict[str, Any]:
    """The request cut just after one block (what the prefix's tokens are counted on)."""
    section, index, block = where
    tools = body.get("tools") or []
    prefix: dict[str, Any] = {"model": body.get("model", ""), "tool_choice": body.get("tool_choice")}
    if section == "tools":
        return {**prefix, "tools": tools[: index + 1]}
    system = body.get("system")
    prefix["tools"] = tools
    if section == "system":
        return {**prefix, "system": system[: index + 1] if isinstance(system, list) else system}
    messages = body.get("messages") or []
    message = messages[index]
    content = message.get("content")
    kept = content[: block + 1] if isinstance(content, list) else content
    return {**prefix, "system": system, "messages": [*messages[:index], {**message, "content": kept}]}


def breakpoints(body: dict[str, Any], places: list[_Position]) -> list[tuple[int, str]]:
    """(position index, ttl) of every breakpoint in prompt order; automatic caching adds the last block."""
    found = [(i, _ttl(p.mark)) for i, p in enumerate(places) if isinstance(p.mark, dict)]
    auto = body.get("cache_control")
    if isinstance(auto, dict) and places and (not found or found[-1][0] != len(places) - 1):
        found.append((len(places) - 1, _ttl(auto)))
    return found


def _ttl(mark: dict[str, Any] | None) -> str:
    return "1h" if isinstance(mark, dict) and mark.get("ttl") == "1h" else "5m"


def min_tokens(model: str) -> int:
    """The model's minimum cacheable prompt length (models.json)."""
    row = lineup.find(model)
    return row.min_cache_tokens if row and row.min_cache_tokens else DEFAULT_MIN_TOKENS


def owner_of(headers: dict[str, str]) -> str:
    """Whose cache a request uses: a hash of its credential (never the key itself)."""
    credential = headers.get("x-api-key") or headers.get("authorization") or ""
    return hashlib.sha256(("prompt-cache\x1f" + credential).encode("utf-8")).hexdigest()


class PromptCache:
    """The server's cache entries: key -> (expires at, TTL in seconds); safe to share between threads."""

    def __init__(self, clock: Callable[[], float] = time.monotonic, max_entries: int = MAX_ENTRIES) -> None:
        self._clock = clock
        self._max = max_entries
        self._entries: OrderedDict[str, tuple[float, float]] = OrderedDict()
        self._lock = threading.Lock()

    def settle(self, body: dict[str, Any], owner: str, messages_unmarked: bool = False) -> CacheUsage:
        """Read the longest cached prefix, write the breakpoints after it; the usage split of this request."""
        if not marked(body, messages_unmarked):
            return CacheUsage()  # no breakpoint: nothing to read or write, so no prefix is hashed
        places = positions(body, owner)
        marks = breakpoints(body, places)
        if not marks:
            return CacheUsage()
        floor = min_tokens(str(body.get("model", "")))
        size = _Sizes(body, places)
        with self._lock:
            now = self._clock()
            hit = self._longest_hit(places, marks, now)
            read = size.at(hit) if hit is not None else 0
            written = {"5m": 0, "1h": 0}
            done = read
            for index, ttl in marks:
                if hit is not None and index <= hit:
                    continue
                tokens_here = size.at(index)
                if tokens_here < floor:
                    continue  # too short to cache: billed as plain input, no entry
                written[ttl] += tokens_here - done
                done = tokens_here
                self._put(places[index].key, TTL_SECONDS[ttl], now)
        return CacheUsage(read, written["5m"], written["1h"])

    def _longest_hit(self, places: list[_Position], marks: list[tuple[int, str]], now: float) -> int | None:
        for index, _ in reversed(marks):
            for back in range(index, max(-1, index - LOOKBACK_BLOCKS - 1), -1):
                entry = self._entries.get(places[back].key)
                if entry is None:
                    continue
                expires, ttl_s = entry
                if expires < now:
                    del self._entries[places[back].key]
                    continue
                self._put(places[back].key, ttl_s, now)  # a read refreshes the entry
                return back
        return None

    def _put(self, key: str, ttl_s: float, now: float) -> None:
        old = self._entries.pop(key, None)
        ttl_s = max(ttl_s, old[1]) if old else ttl_s
        self._entries[key] = (now + ttl_s, ttl_s)
        while len(self._entries) > self._max:
            self._entries.popitem(last=False)

    def __len__(self) -> int:
        return len(self._entries)


class _Sizes:
    """Tokens of the prompt up to a position, counted once per position asked for."""

    def __init__(self, body: dict[str, Any], places: list[_Position]) -> None:
        self._body, self._places = body, places
        self._known: dict[int, int] = {}

    def at(self, index: int) -> int:
        if index not in self._known:
            self._known[index] = tokens.count_request(prefix_body(self._body, self._places[index].where))
        return self._known[index]
