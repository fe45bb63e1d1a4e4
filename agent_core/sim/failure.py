"""A failed call told as a model tells it: what failed, why and what the user can do, from the error's facts."""

from __future__ import annotations

import json
import re
from functools import cache
from typing import Any

from agent_core.sim.text import language as lx
from agent_core.sim.text.results import Attempt, short

RAW_LIMIT = 100  # a longer error is not shown at all: the sentence already says what it means
_PATH = re.compile(r"(?<![\w:/])(?:~|/)[\w.~/-]*\w")


@cache
def _data() -> dict[str, Any]:
    return lx.load("failures")


def sort_of(error: str) -> str:
    """The sort of an error ('outside', 'not_found', ...; 'other' when none fits), read from its words."""
    folded = lx.fold(error)
    data = _data()
    return next((s for s in data["order"] if any(lx.fold(w) in folded for w in data["sorts"][s])), "other")


def code(value: str) -> str:
    """A name, a path or an error's own text as code: written as it is in any language."""
    return "`" + value.replace("`", "'") + "`"


def _values(tool_input: Any) -> list[str]:
    if isinstance(tool_input, dict):
        return [v for item in tool_input.values() for v in _values(item)]
    if isinstance(tool_input, list):
        return [v for item in tool_input for v in _values(item)]
    return [] if isinstance(tool_input, bool) or tool_input is None else [str(tool_input)]


def subject(attempt: Attempt) -> str | None:
    """The input the error is about: of the call's values its text names, the one named last (a URL ends with the
    thing it asks for, after its owner and repository), the longer of two named at the same place."""
    named = [v for v in _values(attempt.input) if v.strip() and v.rstrip("/") in attempt.output]
    return max(named, key=lambda v: (attempt.output.rfind(v.rstrip("/")) + len(v), len(v))) if named else None


def allowed(attempt: Attempt) -> str | None:
    """The place the tool may use, as its error names it: a path in the error that is none of the call's own."""
    own = {v.rstrip("/") for v in _values(attempt.input)}
    found = [p.rstrip("/") for p in _PATH.findall(attempt.output)]
    others = [p for p in found if p not in own]
    return others[-1] if others else None


_MESSAGE_KEYS = ("error_message", "message", "error", "detail", "reason")


def message(output: str) -> str:
    """An error's own words: the message of an in-band JSON error ({"status": "error", "error_message": "..."}),
    not the object around it; any other text as it is."""
    try:
        data = json.loads(output)
    except ValueError:
        return output
    if isinstance(data, dict):
        found = next((data[k] for k in _MESSAGE_KEYS if isinstance(data.get(k), str) and data[k].strip()), None)
        return found or output
    return output


def _say(key: str, lang: str, **values: object) -> str:
    sentences = _data()["told"][key]
    return str(sentences.get(lang) or sentences["en"]).format(**values)


def told(attempt: Attempt, attempts: int, task: str, fallback: str | None, lang: str, found: bool = False) -> str:
    """The answer's sentence for a call that failed for good (`attempts` tries), with the raw error as code; `found`
    when another call of the same tool found the thing, so only the miss is told, with no advice."""
    sort = sort_of(attempt.output)
    value = subject(attempt) or fallback
    if found and sort == "not_found" and value:
        return _say("not_found_here", lang, value=code(value))
    place = allowed(attempt) if sort == "outside" else None
    if sort == "outside" and not place:
        sort = "denied"
    if sort in ("outside", "denied", "not_found", "invalid", "no_data") and not value:
        sort = "other"
    if sort == "other" and attempts == 1:
        sort = "other_final"
    text = _say(sort, lang, task=task, value=code(value or ""), allowed=code(place or ""), n=attempts)
    raw = " ".join(message(attempt.output).split())
    if raw and len(raw) <= RAW_LIMIT:
        text += " " + _say("raw", lang, raw=code(short(raw, RAW_LIMIT).rstrip(".")))
    return text
