"""A page or a document a tool read, as a reader takes it: without the tool's wrapper line ('Contents of <url>:') and
its note that the text was cut, and with the rest fetched after a cut joined to it, so the answer tells one text."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from agent_core.sim.text.reader import Need

# 'Content truncated. Call the fetch tool with a start_index of 5000 to get more content.' (in <error> tags or not)
_NOTICE = re.compile(
    r"^[^\n]*(?:\btruncated\b|\bcut off\b|обрезан|сокращ[её]н|obcięt|skrócon)[^\n]*$\n?|<error>\s*</error>", re.I | re.M
)
_CUT = re.compile(r"truncated|more content|more results|next page|обрезан|продолжени|obcięt|więcej", re.I)
_LABEL_LIMIT = 200


def unwrapped(out: str, sent: dict[str, Any]) -> str:
    """The text without a first line that only restates what was sent ('Contents of https://example.com/a:', 'File
    /home/ann/notes.txt:') and without a note that it was cut; the text itself is untouched."""
    text = _NOTICE.sub("", out)
    head, newline, rest = text.lstrip().partition("\n")
    named = [v for v in sent.values() if isinstance(v, str) and len(v) > 3]
    if newline and rest.strip() and len(head) <= _LABEL_LIMIT and head.rstrip().endswith(":"):
        if any(v.rstrip("/") in head for v in named):
            text = rest
    return text.strip() if text.strip() else out


def is_rest(need: Need) -> bool:
    """A call made for the rest of a text its tool cut (onward.continuation): the same tool, after a result that said
    it was cut."""
    before = need.after
    return (
        before is not None
        and before.result is not None
        and need.result is not None
        and need.tool is not None
        and need.tool is before.tool
        and bool(_CUT.search(before.result.output))
    )


def join_rests(needs: list[Need]) -> list[Need]:
    """Each text and the rest fetched after it told as one: the first need gets the joined text, the needs that
    fetched the rest are returned (they have no line of their own)."""
    rests = [n for n in needs if is_rest(n)]
    for need in rests:
        first = need.after
        assert first is not None and first.result is not None and need.result is not None  # is_rest saw them
        whole = (
            unwrapped(first.result.output, first.result.input)
            + "\n\n"
            + unwrapped(need.result.output, need.result.input)
        )
        first.result = replace(first.result, output=whole)
    return rests
