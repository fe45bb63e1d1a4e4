"""A file name a reading tool does not know ('ENOENT ... DEPLOY.md', '404 Not Found'): its folder is listed with a
tool that lists folders, and the one entry that is that name in another case, with a typo, or in another language
(notatki.txt for notes.txt) is read instead. A careful model looks before it gives up, and never guesses a name."""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Iterator
from typing import Any

from agent_core.sim import kinds
from agent_core.sim.failure import sort_of
from agent_core.sim.mood import tool_action
from agent_core.sim.text import language as lx
from agent_core.sim.text import meaning
from agent_core.sim.text.reader import Need, View, _tool_key
from agent_core.sim.text.results import Attempt

NEAR = 0.8  # a typo: most letters of the name in their order ('q3-sumary' for 'q3-summary')
_FILE = re.compile(r"^[^\s]*[^/\s]\.[A-Za-z0-9]{1,8}$")  # a name with an extension: what a folder lists


def missing(attempt: Attempt) -> tuple[str, str] | None:
    """The parameter and file name of a failed read whose error says the name is not there."""
    if attempt.status != "error" or sort_of(attempt.output) != "not_found":
        return None
    for pname, value in attempt.input.items():
        if isinstance(value, str) and _FILE.match(value) and value in attempt.output:
            return pname, value
    return None


def _parent(value: str) -> str:
    return value.rstrip("/").rpartition("/")[0]


def _listing_args(tool: dict[str, Any], failed: dict[str, Any], folder: str) -> dict[str, Any] | None:
    """The input that lists `folder` with this tool: its folder parameter, the rest taken from the failed call."""
    schema = tool.get("input_schema") or {}
    props, required = schema.get("properties") or {}, list(schema.get("required") or [])
    key = _tool_key(tool)
    folders = [p for p, prop in props.items() if isinstance(prop, dict) and kinds.kind_of(p, prop, key) == "directory"]
    if len(folders) != 1:
        return None
    args = {p: failed[p] for p in required if p != folders[0] and p in failed}
    if any(p not in args and p != folders[0] for p in required):
        return None
    return {**args, folders[0]: folder}


def _lists(tool: dict[str, Any]) -> bool:
    if tool_action(_tool_key(tool)) not in ("", "read"):
        return False
    return "list" in meaning.concepts(f"{tool.get('name', '')} {tool.get('description', '')}".replace("_", " "))


def finder(view: View, need: Need) -> Need | None:
    """The listing of the folder a failed read's file should be in, as a step feeding that read."""
    last = need.attempts[-1] if need.attempts and need.result is None and need.tool is not None else None
    found = missing(last) if last is not None else None
    if last is None or found is None or need.tool is None or tool_action(_tool_key(need.tool)) not in ("", "read"):
        return None
    folder = _parent(found[1])
    if not folder:
        return None
    for tool in view.tools:
        args = _listing_args(tool, last.input, folder) if _lists(tool) else None
        if args is not None and args != last.input:
            view.notes.append(
                f"{need.tool.get('name')} has no “{found[1]}”; {tool.get('name')} shows what {folder} holds."
            )
            return Need("list", need.clause, folder, tool=tool, args=args, state="call", feeds=need)
    return None


def listings(attempts: list[Attempt]) -> list[bool]:
    """For each attempt: is it a listing made for an earlier failed read of the same tool (get_file_contents of the
    folder after the file's 404)? It answers the search for the name, not the read. One pass: the failed reads are
    kept as they come, so a long run's history is not rescanned for every call."""
    out: list[bool] = []
    failed_reads: list[tuple[Attempt, tuple[str, str]]] = []
    for attempt in attempts:
        out.append(_lists_after(attempt, failed_reads))
        found = missing(attempt)
        if found:
            failed_reads.append((attempt, found))
    return out


def _lists_after(attempt: Attempt, failed_reads: list[tuple[Attempt, tuple[str, str]]]) -> bool:
    if attempt.status != "ok":
        return False
    for failed, (pname, name) in failed_reads:
        if failed.name == attempt.name and attempt.input == {**failed.input, pname: _parent(name)}:
            return True
    return False


def _entries(output: str) -> Iterator[str]:
    try:
        data: Any = json.loads(output)
    except ValueError:
        data = None
    if isinstance(data, list):
        for item in data:
            if isinstance(item, dict):
                yield str(item.get("name") or item.get("path") or "").rpartition("/")[2]
        return
    for line in output.splitlines():
        token = line.split()[-1] if line.split() else ""
        yield token.rstrip("/").rpartition("/")[2]


def _match(name: str, entries: list[str]) -> str | None:
    """The one entry that is `name`: in another case, else with a typo, else the same word in another language."""
    stem, _, ext = name.rpartition(".")
    same_ext = [e for e in entries if e.rpartition(".")[2].lower() == ext.lower() and e != name]
    tiers = (
        [e for e in same_ext if lx.fold(e) == lx.fold(name)],
        [
            e
            for e in same_ext
            if difflib.SequenceMatcher(None, lx.fold(stem), lx.fold(e.rpartition(".")[0])).ratio() >= NEAR
        ],
        [e for e in same_ext if meaning.concepts(stem) & meaning.concepts(e.rpartition(".")[0])],
    )
    for tier in tiers:
        if tier:
            return tier[0] if len(set(tier)) == 1 else None  # two would be a guess
    return None


def corrected(view: View, need: Need) -> tuple[dict[str, Any], str, str] | None:
    """The failed read's input with the real name a later listing of its folder shows, the old name and the new."""
    last = need.attempts[-1] if need.attempts else None
    found = missing(last) if last is not None else None
    if last is None or found is None:
        return None
    pname, name = found
    folder, base = _parent(name), name.rpartition("/")[2]
    later = view.episode[view.episode.index(last) + 1 :] if last in view.episode else view.episode
    for attempt in later:
        if attempt.status != "ok" or folder not in [v for v in attempt.input.values() if isinstance(v, str)]:
            continue
        real = _match(base, [e for e in _entries(attempt.output) if e])
        if real is not None:
            return {**last.input, pname: f"{folder}/{real}"}, name, f"{folder}/{real}"
    return None
