"""Shell tools (Claude Code's Bash, a tutorial's run_command): what the model types into one for a folder listing.

Coding agents give the model no list tool, only a shell: Claude Code 2.1's tools are Bash, Read, Edit, Write,
Agent, Skill and the like. A model asked to list a folder runs `ls` there. So, when the request has a tool that
runs shell commands (its name says so, or its description does, and it has a string `command`-like parameter) and
no tool named for listing files (`list_directory`, `Glob`, `LS`), a listing need goes to the shell tool with
`ls -p` (folders marked with a trailing slash), and a question that asks how many gets the count of what it lists.
"""

from __future__ import annotations

import re
import shlex
from typing import Any

SHELL_NAMES = frozenset({"bash", "shell", "sh", "zsh", "terminal", "powershell", "cmd", "exec"})
SHELL_WORDS = re.compile(
    r"\b(bash|shell|terminal|command[- ]line)\b[^.\n]{0,40}\bcommands?\b|\bexecutes? (a |the )?(given )?(bash|shell) command",
    re.I,
)
COMMAND_PARAMS = ("command", "cmd", "script", "shell_command", "bash_command")
# A tool whose name has one of these words lists files itself: the shell is not needed for a listing.
LISTING_NAMES = frozenset({"ls", "glob", "dir", "directory", "directories", "folder", "folders", "files", "tree"})
_SPLIT = re.compile(r"[_\-\s]+|(?<=[a-z])(?=[A-Z])")
COUNT_WORDS = ("how many", "number of", "count", "сколько", "количество", "ile", "liczba", "policz")


def _words(name: str) -> set[str]:
    return {w.lower() for w in _SPLIT.split(name) if w}


def command_param(tool: dict[str, Any]) -> str | None:
    """The parameter a shell tool takes its command in, or None when the tool does not run shell commands."""
    props = (tool.get("input_schema") or {}).get("properties") or {}
    param = next(
        (p for p in COMMAND_PARAMS if isinstance(props.get(p), dict) and props[p].get("type") == "string"), None
    )
    if param is None:
        return None
    named = bool(_words(str(tool.get("name", ""))) & SHELL_NAMES) or "run_command" in str(tool.get("name", "")).lower()
    return param if named or SHELL_WORDS.search(str(tool.get("description", ""))) else None


def lists_files(tool: dict[str, Any]) -> bool:
    """A tool named for listing files or folders (list_directory, Glob, LS)."""
    return bool(_words(str(tool.get("name", ""))) & LISTING_NAMES)


def listing_tool(tools: list[dict[str, Any]]) -> int | None:
    """The shell tool a folder listing goes to: the first shell tool, when no tool is named for listing files."""
    if any(lists_files(t) for t in tools):
        return None
    return next((i for i, t in enumerate(tools) if command_param(t) is not None), None)


def list_command(folder: str | None) -> str:
    """`ls -p` in a folder the question names (the current one when it names none)."""
    if not folder or folder in (".", "./"):
        return "ls -p"
    return f"ls -p {shlex.quote(folder)}"


def asks_count(question: str) -> bool:
    low = question.lower()
    return any(word in low for word in COUNT_WORDS)


def entries(output: str) -> list[str]:
    """The names a listing printed: one per line (ls), or comma-separated (a list tool's "a.txt, b.txt")."""
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    if len(lines) == 1 and ", " in lines[0]:
        head, colon, rest = lines[0].partition(": ")
        lines = [p.strip() for p in (rest if colon and len(head) < 40 else lines[0]).split(",") if p.strip()]
    return [line for line in lines if not line.startswith("total ")]


def count(output: str) -> tuple[int, int, int]:
    """(entries, files, folders) of a listing; folders end with a slash (ls -p)."""
    names = entries(output)
    folders = sum(1 for n in names if n.endswith("/"))
    return len(names), len(names) - folders, folders
