"""A folder tree result (directory_tree's JSON: entries with a name, a type and a folder's children) told as the
paths of everything in it, sub-folders' files included, never just its top level."""

from __future__ import annotations

from typing import Any

from agent_core.sim.gist import MAX_ITEMS, code
from agent_core.sim.text.language import say

_CHILDREN = ("children", "entries", "contents")
_DEPTH = 8


def _kids(entry: dict[str, Any]) -> list[Any] | None:
    return next((entry[k] for k in _CHILDREN if isinstance(entry.get(k), list)), None)


def _is_tree(data: Any) -> bool:
    """A list of named entries, at least one of which holds a list of named entries of its own."""
    if not isinstance(data, list) or not data or not all(isinstance(e, dict) and "name" in e for e in data):
        return False
    return any(_kids(e) for e in data)


def _paths(entries: list[Any], prefix: str, depth: int) -> list[str]:
    out: list[str] = []
    for entry in entries:
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
            continue
        kids = _kids(entry)
        folder = kids is not None or str(entry.get("type", "")).lower() in ("directory", "dir", "folder")
        path = f"{prefix}{entry['name']}"
        out.append(f"{path}/" if folder else path)
        if kids and depth < _DEPTH:
            out.extend(_paths(kids, f"{path}/", depth + 1))
    return out


def line(data: Any, lang: str, where: str = "") -> str | None:
    """'There are 4 entries in /home/ann/projects: app/, app/app.log, app/main.py, notes.txt.', or None for data
    that is no tree."""
    if not _is_tree(data):
        return None
    paths = _paths(data, "", 0)
    limit = MAX_ITEMS * 2  # a tree is asked for whole: more of it is shown than of one folder
    shown = ", ".join(code(p, lang) for p in paths[:limit]) + (", …" if len(paths) > limit else "")
    return say("gist.listing", lang, where=where, n=len(paths), items=shown)
