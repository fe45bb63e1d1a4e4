"""The request body parsed with each tool's and message's own JSON text, so what was worked out for one is reused.

A loop sends the same tools and a history that only grows: each request repeats almost every element of the one
before. `loads` gives json.loads' value and, for the top-level `tools` and `messages` arrays, each element's text;
the facts of an element (its depth, canonical JSON, token cost, sorted-key JSON) are pure functions of that text,
cached by it (bounded, LRU). Any body the split does not read plainly (not an object, bad JSON, too deep) is parsed
by json.loads alone, with its errors, and has no parts: every caller then takes the full path.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from agent_core import jsontext
from agent_core.cost import tokens

SPLIT = ("tools", "messages")  # the top-level arrays that repeat from request to request
CACHE_SIZE = 4096  # elements: a few long runs' histories and tool sets
# What json.loads reads with: its decoder's value scanner (the C one), string scanner and whitespace (not in stubs).
_SCAN: Callable[[str, int], tuple[Any, int]] = getattr(json.JSONDecoder(), "scan_once")  # noqa: B009
_STRING: Callable[[str, int], tuple[str, int]] = getattr(json.decoder, "scanstring")  # noqa: B009
_WHITESPACE = re.compile(r"[ \t\n\r]*", re.VERBOSE | re.MULTILINE | re.DOTALL)  # json.decoder.WHITESPACE


def _skip(s: str, i: int) -> int:
    """The index of the first character at or after i that is not JSON whitespace."""
    found = _WHITESPACE.match(s, i)
    return found.end() if found else i


# json.dumps(..., sort_keys=True, ensure_ascii=False, separators=(",", ":")): the ids' key (handler.canonical).
CANONICAL = jsontext.encoder(sort_keys=True, separators=(",", ":"))
# json.dumps(..., sort_keys=True, ensure_ascii=False): a tool's key in the brain's score caches (text/reader.py).
SORTED = jsontext.encoder(sort_keys=True)
_CONTAINERS = frozenset({dict, list})  # what json.loads builds for objects and arrays


class _Unplain(Exception):
    """The split does not read this body; json.loads decides."""


@dataclass(frozen=True)
class Facts:
    """What one tool or message is, worked out once per text."""

    depth: int  # nesting of lists and objects (a scalar 0, {} 1)
    canonical: str  # as CANONICAL writes it
    cost: Any  # tools: tokens.estimate_json; messages: tokens.message_cost (None for a message that is no object)
    sorted_json: str = ""  # tools: as SORTED writes it
    marked: bool = True  # messages: a block (or the content itself) has a cache_control object (sim/cache.py)
    inputs: tuple[tuple[int, str], ...] = ()  # messages: each tool_use block's index and its input as SORTED writes it


@dataclass(frozen=True)
class Parts:
    """The split arrays of one body: the list objects json built, and each element's facts."""

    lists: dict[str, list[Any]]
    facts: dict[str, tuple[Facts, ...]]

    def of(self, body: Any, key: str) -> tuple[Facts, ...] | None:
        """The facts of body[key], if body[key] is still the array they were read from, as long as it was."""
        found = self.lists.get(key)
        if found is None or len(found) != len(facts := self.facts[key]):
            return None
        return facts if isinstance(body, dict) and body.get(key) is found else None


class _Text:
    """An element's text with its value, hashed and compared by the text alone: an lru_cache keyed by it caches a
    function of the text. The value is dropped once read, so the cache holds no parsed object of any request."""

    __slots__ = ("text", "value")

    def __init__(self, text: str, value: Any) -> None:
        self.text, self.value = text, value

    def __hash__(self) -> int:
        return hash(self.text)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Text) and other.text == self.text

    def take(self) -> Any:
        value, self.value = self.value, None
        return value


def depth(value: Any) -> int:
    """How deeply lists and objects nest in a parsed JSON value (a scalar 0, {} 1), level by level, never recursing."""
    level, found = [value], 0
    while level := [item for item in level if type(item) in _CONTAINERS]:
        found += 1
        level = [c for item in level for c in (item.values() if type(item) is dict else item)]
    return found


@lru_cache(maxsize=CACHE_SIZE)
def _tool_facts(text: _Text) -> Facts:
    value = text.take()
    return Facts(depth(value), CANONICAL(value), tokens.estimate_json(value), SORTED(value))


@lru_cache(maxsize=CACHE_SIZE)
def _message_facts(text: _Text) -> Facts:
    value = text.take()
    if type(value) is not dict:
        return Facts(depth(value), CANONICAL(value), None)
    content = value.get("content")
    blocks = content if isinstance(content, list) else [content]
    marked = any(isinstance(b, dict) and isinstance(b.get("cache_control"), dict) for b in blocks)
    inputs = tuple(
        (j, SORTED(b["input"]))
        for j, b in enumerate(content if isinstance(content, list) else [])
        if isinstance(b, dict) and b.get("type") == "tool_use" and isinstance(b.get("input"), dict)
    )
    return Facts(depth(value), CANONICAL(value), tokens.message_cost(value), marked=marked, inputs=inputs)


_FACTS = {"tools": _tool_facts, "messages": _message_facts}


def loads(text: str) -> tuple[Any, Parts | None]:
    """json.loads(text), and the parts of its split arrays (None when the split did not read it)."""
    try:
        return _split(text)
    except Exception:  # anything unusual, RecursionError included: json.loads gives the value or the error
        return json.loads(text), None


def _split(s: str) -> tuple[dict[str, Any], Parts]:
    i = _skip(s, 0)
    if s[i] != "{":
        raise _Unplain
    i = _skip(s, i + 1)
    body: dict[str, Any] = {}
    lists: dict[str, list[Any]] = {}
    texts: dict[str, list[str]] = {}
    if s[i] == "}":
        return _done(s, i + 1, body, lists, texts)
    while True:
        if s[i] != '"':
            raise _Unplain
        key, i = _STRING(s, i + 1)
        i = _skip(s, i)
        if s[i] != ":":
            raise _Unplain
        i = _skip(s, i + 1)
        if key in SPLIT and s[i] == "[":
            value, elements, i = _array(s, i)
            lists[key], texts[key] = value, elements
        else:
            value, i = _SCAN(s, i)
            lists.pop(key, None)  # a later duplicate key wins, as in json.loads
            texts.pop(key, None)
        body[key] = value
        i = _skip(s, i)
        if s[i] == "}":
            return _done(s, i + 1, body, lists, texts)
        if s[i] != ",":
            raise _Unplain
        i = _skip(s, i + 1)


def _array(s: str, i: int) -> tuple[list[Any], list[str], int]:
    i = _skip(s, i + 1)
    values: list[Any] = []
    texts: list[str] = []
    if s[i] == "]":
        return values, texts, i + 1
    while True:
        value, end = _SCAN(s, i)
        values.append(value)
        texts.append(s[i:end])
        i = _skip(s, end)
        if s[i] == "]":
            return values, texts, i + 1
        if s[i] != ",":
            raise _Unplain
        i = _skip(s, i + 1)


def _done(
    s: str, end: int, body: dict[str, Any], lists: dict[str, list[Any]], texts: dict[str, list[str]]
) -> tuple[dict[str, Any], Parts]:
    if _skip(s, end) != len(s):
        raise _Unplain  # extra data: json.loads names it
    facts = {key: tuple(_FACTS[key](_Text(t, v)) for t, v in zip(texts[key], lists[key], strict=True)) for key in lists}
    return body, Parts(lists, facts)


def depth_within(body: Any, parts: Parts | None, limit: int) -> bool:
    """Whether no list or object nests deeper than limit in the body; the split arrays' elements by their facts."""
    if parts is None or not isinstance(body, dict):
        return _walk_within(body, limit)
    rest: dict[str, Any] = {}
    for key, value in body.items():
        facts = parts.of(body, key) if key in parts.lists else None
        if facts is None:
            rest[key] = value
        elif any(f.depth > limit - 2 for f in facts):  # body -> array -> element
            return False
    return _walk_within(rest, limit)


def _walk_within(value: Any, limit: int) -> bool:
    """True when no list/object in value (parsed JSON: plain dicts and lists) is nested deeper than limit.

    Walks one level at a time, never recursing (safe on hostile input, which json.loads has already bounded); the
    exact type test in one comprehension per level costs half the recursive walk over every value it replaced."""
    level = [value] if type(value) in _CONTAINERS else []
    for _ in range(limit):
        if not level:
            return True
        level = [c for item in level for c in (item.values() if type(item) is dict else item) if type(c) in _CONTAINERS]
    return not level


def canonical(body: dict[str, Any], parts: Parts | None) -> str:
    """CANONICAL of the body without `stream`, each split array written from its elements' canonical texts."""
    out = []
    for key in sorted(k for k in body if k != "stream"):
        facts = parts.of(body, key) if parts is not None and key in parts.lists else None
        value = CANONICAL(body[key]) if facts is None else "[" + ",".join(f.canonical for f in facts) + "]"
        out.append(CANONICAL(key) + ":" + value)
    return "{" + ",".join(out) + "}"


def costs(body: dict[str, Any], parts: Parts | None) -> dict[str, Any]:
    """The token costs of the tools and messages, for tokens.count_request (empty: it measures them itself)."""
    if parts is None:
        return {}
    tools, messages = parts.of(body, "tools"), parts.of(body, "messages")
    found: dict[str, Any] = {}
    if tools is not None:
        found["tool_costs"] = [f.cost for f in tools]
    if messages is not None and all(f.cost is not None for f in messages):
        found["message_costs"] = [f.cost for f in messages]
    return found


def tool_keys(body: dict[str, Any], parts: Parts | None) -> tuple[str, ...] | None:
    """Each tool as SORTED writes it, in the body's order (None: the brain makes them itself)."""
    facts = parts.of(body, "tools") if parts is not None else None
    return None if facts is None else tuple(f.sorted_json for f in facts)


def messages_unmarked(body: dict[str, Any], parts: Parts | None) -> bool:
    """True when no message's content has a cache_control object (False: the caller looks for itself)."""
    facts = parts.of(body, "messages") if parts is not None else None
    return facts is not None and not any(f.marked for f in facts)


def input_keys(body: dict[str, Any], parts: Parts | None) -> dict[int, str] | None:
    """The id of each tool_use block's input dict in the body's messages -> that input as SORTED writes it, valid
    while the body lives (None: the brain makes the keys itself)."""
    facts = parts.of(body, "messages") if parts is not None else None
    if facts is None:
        return None
    return {
        id(m["content"][j]["input"]): key for m, f in zip(body["messages"], facts, strict=True) for j, key in f.inputs
    }
