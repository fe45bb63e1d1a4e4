"""The steps a careful model takes with file tools (the MCP filesystem server's shape): a file a search found is read
when the question asks about its content, and a write that failed for a missing folder makes that folder first."""

from __future__ import annotations

import re
from typing import Any

from agent_core.sim import kinds
from agent_core.sim.args import key_in_view
from agent_core.sim.text import language as lx
from agent_core.sim.text import meaning
from agent_core.sim.text.reader import Need, View, _tool_key

MAX_FOUND = 3  # a search that found more files than this is the answer itself, not one file to read
_FOUND_PATH = re.compile(r"^\s*(?:\[FILE\]\s*)?((?:~|\.{0,2})?/[\w./-]*\w\.[A-Za-z0-9]{1,6})\s*$", re.M)


def _kinds(view: View, tool: dict[str, Any]) -> dict[str, str | None]:
    props = (tool.get("input_schema") or {}).get("properties") or {}
    key = key_in_view(view, tool)
    return {p: kinds.kind_of(p, v if isinstance(v, dict) else {}, key) for p, v in props.items()}


def _reader(view: View, avoid: str) -> tuple[dict[str, Any], str] | None:
    """The tool that reads one file (its one required path parameter), other than the one just used."""
    for tool in view.tools:
        required = (tool.get("input_schema") or {}).get("required") or []
        found = _kinds(view, tool)
        if tool.get("name") == avoid or len(required) != 1 or found.get(required[0]) != "path":
            continue
        if "read" in meaning.profile(_tool_key(tool)).name:
            return tool, required[0]
    return None


def read_found(view: View, need: Need) -> Need | None:
    """'Find the CSV file in /home/ann/projects and tell me which city sold the most': the search found the file,
    the rest of the question is about what is in it, so the file is read next."""
    if need.result is None or need.tool is None or need.after is not None or need.feeds is not None:
        return None
    if "glob" not in _kinds(view, need.tool).values() or len(lx.split_clauses(view.question)) < 2:
        return None
    found = _FOUND_PATH.findall(need.result.output)
    reader = _reader(view, str(need.tool.get("name")))
    if not 1 <= len(found) <= MAX_FOUND or reader is None:
        return None
    tool, param = reader
    view.notes.append(f"{need.tool.get('name')} found {found[0]}; the question is about what it holds, so I read it.")
    return Need("file", need.clause, found[0], tool=tool, after=need, args={param: found[0]}, state="call")


_WRITES = ("=write", "=save", "=create", "=put", "=append", "=copy", "=move", "=edit", "=upload")


def _name_words(tool: dict[str, Any]) -> list[str]:
    return lx.words(re.sub(r"(?<=[a-z])(?=[A-Z])", " ", str(tool.get("name", ""))).replace("_", " "))


def _folder_maker(view: View) -> tuple[dict[str, Any], str] | None:
    """The tool that makes a folder (create_directory, mkdir): its one required parameter takes the path."""
    for tool in view.tools:
        words = _name_words(tool)
        required = (tool.get("input_schema") or {}).get("required") or []
        made = lx.hits(words, ["=mkdir", "=makedirs"]) or (
            lx.hits(words, ["=create", "=make", "=new"]) and lx.hits(words, ["=directory", "=dir", "=folder"])
        )
        if made and len(required) == 1:
            return tool, required[0]
    return None


def _missing_folder(view: View, need: Need) -> str | None:
    """The folder a failed write of this need lacked ('Parent directory does not exist: /a/b/q4.txt' -> /a/b)."""
    if need.tool is None or not need.attempts or not lx.hits(_name_words(need.tool), list(_WRITES)):
        return None  # reading a file that is not there is no missing folder
    failed = next(
        (a for a in need.attempts if a.status != "ok" and lx.hits(lx.words(a.output), lx.lexicon()["missing_folder"])),
        None,
    )
    path = next((v for v in failed.input.values() if isinstance(v, str) and "/" in v), None) if failed else None
    return path.rstrip("/").rsplit("/", 1)[0] or None if path else None


def make_folder(view: View, need: Need) -> Need | None:
    """'Save the line ... to /home/ann/projects/reports/q4.txt' answered 'Parent directory does not exist': the
    folder is made first (create_directory), then the same write is made again (folder_made)."""
    folder = _missing_folder(view, need)
    maker = _folder_maker(view) if folder else None
    if maker is None or maker[0].get("name") == need.tool_def.get("name"):
        return None
    tool, param = maker
    view.notes.append(f"{need.tool_def.get('name')} failed for want of {folder}; I make that folder first.")
    return Need("tool", need.clause, folder, tool=tool, after=need, args={param: folder}, state="call")


def folder_made(view: View, need: Need) -> bool:
    """The folder a failed write lacked has been made since: the write is worth making again."""
    folder = _missing_folder(view, need)
    maker = _folder_maker(view) if folder else None
    if maker is None:
        return False
    episode = view.episode
    last = next((i for i, a in enumerate(episode) if a is need.attempts[-1]), len(episode))
    return any(  # made after the last try: once, never again and again
        a.name == maker[0].get("name") and a.status == "ok" and str(a.input.get(maker[1], "")).rstrip("/") == folder
        for a in episode[last + 1 :]
    )


def file_step(view: View, need: Need) -> Need | None:
    """The next call a file tool's result asks for: read the file a search found, or make the missing folder."""
    return read_found(view, need) or make_folder(view, need)
