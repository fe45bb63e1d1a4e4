"""What a tool result says, as the simulated model reads it: JSON, a Python literal or plain text, as key-value facts.

A result `{'id': '1213210', 'name': 'John Doe', ...}` (a tutorial's `str(dict)`) is read like its JSON; the facts
give a pending call its argument (`customer_id` <- `id`), and the answer its values to quote."""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass
from typing import Any

from agent_core.sim.text import language as lx

MAX_FACTS = 400  # a huge result is read for its first facts only (BEHAVIOUR.md, "Huge inputs")
_KEY_LINE = re.compile(r"^\s*[-*•]?\s*([A-Za-zА-Яа-яЁёĄĆĘŁŃÓŚŹŻąćęłńóśźż][\w .()/-]{0,40}?)\s*[:=]\s*(.+?)\s*$", re.M)
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
# Keys that name the same thing: a parameter "lat" is answered by a key "latitude", "lng" by "lon" or "longitude".
_SAME = (
    {"lat", "latitude"},
    {"lng", "lon", "long", "longitude"},
    {"temp", "temperature", "temp_c", "temperature_c"},
    {"desc", "description", "summary"},
    {"zip", "zipcode", "zip_code", "postal_code", "postcode"},
)


@dataclass(frozen=True)
class Fact:
    """One value in a result, with the path of keys that leads to it ('orders.0.id')."""

    path: tuple[str, ...]
    value: Any

    @property
    def key(self) -> str:
        """The innermost key that is not a list index ('id' for 'orders.0.id')."""
        return next((p for p in reversed(self.path) if not p.isdigit()), "")


def parse(text: str) -> Any:
    """The result as data: JSON, a Python literal (repr of a dict or list), or None for plain text."""
    stripped = text.strip()
    if not stripped or stripped[0] not in "{[(":
        return None
    try:
        return json.loads(stripped)
    except ValueError:
        pass
    try:
        return ast.literal_eval(stripped)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return None


def read(text: str) -> tuple[Fact, ...]:
    """Every fact of a result: the leaves of its data, or `key: value` lines of its text."""
    return _read(lx.attend(text))


@lx.text_cache
def _read(text: str) -> tuple[Fact, ...]:
    data = parse(text)
    if data is None:
        return tuple(Fact((m.group(1).strip(),), m.group(2)) for m in _KEY_LINE.finditer(text))[:MAX_FACTS]
    out: list[Fact] = []
    _walk(data, (), out)
    return tuple(out)


def _walk(data: Any, path: tuple[str, ...], out: list[Fact]) -> None:
    if len(out) >= MAX_FACTS:
        return
    if isinstance(data, dict):
        for key, value in data.items():
            _walk(value, (*path, str(key)), out)
    elif isinstance(data, (list, tuple)):
        for index, value in enumerate(data):
            _walk(value, (*path, str(index)), out)
    else:
        out.append(Fact(path, data))


def norm(key: str) -> str:
    """A key compared loosely: 'customerId', 'customer_id' and 'Customer ID' are the same."""
    return re.sub(r"[\s_\-.]+", "_", _CAMEL.sub("_", key).strip().lower())


def _aliases(key: str) -> set[str]:
    key = norm(key)
    for group in _SAME:
        if key in group:
            return set(group)
    return {key}


def lookup(text: str, param: str, about: bool = False) -> list[Any]:
    """Values of a result for a parameter: keys named like it ('customer_id', 'customerId'), else (about: the tool
    that answered finds the parameter's thing) the result's own 'id' (a user's 'id' for customer_id)."""
    facts = read(text)
    if not facts:
        return []
    names = _aliases(param)
    found = [f.value for f in facts if norm(f.key) in names]
    if found:
        return found
    bare = norm(param)
    if about and (bare.endswith("_id") or bare.endswith("_ids") or bare in ("id", "ids")):
        # "id" of the object itself, or of the thing the parameter names ("user_id" for customer_id is not it).
        own = [f.value for f in facts if norm(f.key) == "id" and len(f.path) <= 3]
        if own:
            return own
        stem = bare.rsplit("_id", 1)[0]
        return [f.value for f in facts if norm(f.key).endswith("_id") and stem and stem in norm(f.key)]
    return []


def records(text: str) -> list[dict[str, Any]]:
    """The result's records: its object, or the objects of its list (an order list), for answers and choices."""
    data = parse(lx.attend(text))
    if isinstance(data, dict):
        lists = [v for v in data.values() if isinstance(v, list) and v and all(isinstance(i, dict) for i in v)]
        return list(lists[0]) if len(lists) == 1 and len(data) <= 3 else [data]
    if isinstance(data, (list, tuple)):
        return [item for item in data if isinstance(item, dict)]
    return []
