"""A name a tool does not know ('Entity with name Ann not found'): looked up with a reading tool of the same store
that searches it (search_nodes(query="Ann")), then the same call made again with the full name found ('Ann
Kowalska'). A careful model does not give up on a short name the user takes for granted, nor guess a full one."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from agent_core.sim import kinds
from agent_core.sim.choice import GENERIC_MEANING
from agent_core.sim.mood import tool_action
from agent_core.sim.text import language as lx
from agent_core.sim.text.reader import Need, View, _tool_key
from agent_core.sim.text.results import Attempt

Path = tuple[str | int, ...]
_NAME = re.compile(r"^[A-ZА-ЯЁŁŚŻŹĆ][\w'’.-]*(?: [\w'’.-]+){0,3}$")  # a proper name: no path, no number, no sentence
MAX_WORDS = 5


def _leaves(value: Any, path: Path = ()) -> Iterator[tuple[Path, str]]:
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _leaves(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _leaves(item, (*path, index))


def _said(value: str, text: str) -> bool:
    return bool(re.search(rf"(?<![\w-]){re.escape(value)}(?![\w-])", text))


def unknown_name(attempt: Attempt) -> tuple[Path, str] | None:
    """The name in a failed call's input that its error says is not there, with where it sits in the input."""
    if attempt.status != "error" or not lx.hits(lx.words(attempt.output), lx.lexicon()["not_found_errors"]):
        return None
    for path, value in _leaves(attempt.input):
        # a file name ('CONTRIBUTING.md') is no short name of something longer: its folder says what is there
        if _NAME.match(value) and _said(value, attempt.output) and not lx.extract_paths(value):
            return path, value
    return None


def _store_words(tool: dict[str, Any]) -> set[str]:
    stop = lx.word_set("stopwords")
    words = lx.words(str(tool.get("description") or ""))
    return {lx.stem(w) for w in words if w not in stop and len(w) > 3 and lx.stem(w) not in GENERIC_MEANING}


def _query_args(tool: dict[str, Any], name: str) -> dict[str, Any] | None:
    """The input that searches this reading tool for a name: its one required text parameter, a query."""
    schema = tool.get("input_schema") or {}
    props, required = schema.get("properties") or {}, list(schema.get("required") or [])
    if len(required) != 1 or not isinstance(props.get(required[0]), dict):
        return None
    pname, prop = required[0], props[required[0]]
    if prop.get("type") == "string" and kinds.kind_of(pname, prop, _tool_key(tool)) == "query":
        return {pname: name}
    return None


def finder(view: View, need: Need) -> Need | None:
    """The search that finds the full name a failed call lacked, as a step feeding that call."""
    last = need.attempts[-1] if need.attempts and need.result is None and need.tool is not None else None
    found = unknown_name(last) if last is not None else None
    if found is None or need.tool is None:
        return None
    own = _store_words(need.tool)
    for tool in view.tools:
        if tool.get("name") == need.tool.get("name") or tool_action(_tool_key(tool)) != "read":
            continue
        args = _query_args(tool, found[1])
        if args is not None and own & _store_words(tool):
            view.notes.append(
                f"{need.tool.get('name')} does not know “{found[1]}”; {tool.get('name')} can find the full name."
            )
            return Need("search", need.clause, found[1], tool=tool, args=args, state="call", feeds=need)
    return None


def _names_in(output: str) -> Iterator[str]:
    try:
        data = json.loads(output)
    except ValueError:
        data = output.splitlines()
    for _, leaf in _leaves(data):
        yield leaf.strip()


def corrected(view: View, need: Need) -> tuple[dict[str, Any], str, str] | None:
    """The failed call's input with the full name a later lookup found (one name only: two would be a guess),
    the short name and the full one."""
    last = need.attempts[-1] if need.attempts else None
    found = unknown_name(last) if last is not None else None
    if last is None or found is None:
        return None
    path, short = found
    words = lx.fold(short).split()
    later = view.episode[view.episode.index(last) + 1 :] if last in view.episode else view.episode
    fuller = {
        leaf
        for attempt in later
        if attempt.status == "ok" and attempt.name != last.name
        for leaf in _names_in(attempt.output)
        if _NAME.match(leaf) and _extends(lx.fold(leaf).split(), words)
    }
    if len(fuller) != 1:
        return None
    full = fuller.pop()
    return _replaced(last.input, path, full), short, full


def _extends(longer: list[str], words: list[str]) -> bool:
    """'ann kowalska' holds 'ann' as whole words, and says more."""
    if not words or len(longer) <= len(words) or len(longer) > MAX_WORDS:
        return False
    return any(longer[i : i + len(words)] == words for i in range(len(longer) - len(words) + 1))


def _replaced(value: Any, path: Path, new: str) -> Any:
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {k: _replaced(v, rest, new) if k == head else v for k, v in value.items()}
    return [_replaced(v, rest, new) if i == head else v for i, v in enumerate(value)]


def first_change(old: Any, new: Any) -> tuple[Any, Any]:
    """Where two inputs first differ, as deep as both go: 'Ann' -> 'Ann Kowalska' inside observations[0]."""
    if isinstance(old, dict) and isinstance(new, dict):
        key = next((k for k in new if k in old and old[k] != new[k]), None)
        return (old, new) if key is None else first_change(old[key], new[key])
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        index = next((i for i, (a, b) in enumerate(zip(old, new, strict=True)) if a != b), None)
        return (old, new) if index is None else first_change(old[index], new[index])
    return old, new


def changes(tool: dict[str, Any]) -> bool:
    """A tool named for a change (add_observations, create_branch), which looks nothing up."""
    return tool_action(_tool_key(tool)) not in ("", "read")
