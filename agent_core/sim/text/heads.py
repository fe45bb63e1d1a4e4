"""A noun that another concept's word qualifies means that concept only: the address of 'email address', 'адрес
электронной почты', 'adres e-mail' is no postal address (concepts.json 'qualified')."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache

from agent_core.sim.text import language as lx

NEAR = 2  # a qualifying word this many words either side, in the same part of the text ('адрес электронной почты')
_PARTS = re.compile(r"[,;:.!?()\n]+|\s(?:and|or|и|или|i|lub|oraz)\s")


@cache
def _table() -> tuple[tuple[str, tuple[str, ...], frozenset[str]], ...]:
    rows = (lx.load("concepts").get("qualified") or {}).get("heads") or []
    return tuple((row["concept"], tuple(row["words"]), frozenset(row["by"])) for row in rows)


def apply(text: str, found: set[str], concepts_of: Callable[[str], frozenset[str]]) -> set[str]:
    """found without a concept whose every word in the text is such a noun with a qualifying word beside it
    ('the email address' is no contact; 'the email and the address', 'email, phone' keep it)."""
    parts: list[list[str]] | None = None  # the text's parts, split once for every row that applies
    for concept, nouns, by in _table():
        if concept not in found or not by & found:
            continue
        parts = parts if parts is not None else [lx.words(part) for part in _PARTS.split(text) if part]
        own = [(t, i) for t in parts for i, token in enumerate(t) if concept in concepts_of(token)]
        if own and all(lx.hits([t[i]], nouns) and _qualified(t, i, by, concepts_of) for t, i in own):
            found = found - {concept}
    return found


def _qualified(tokens: list[str], i: int, by: frozenset[str], concepts_of: Callable[[str], frozenset[str]]) -> bool:
    near = tokens[max(0, i - NEAR) : i] + tokens[i + 1 : i + 1 + NEAR]
    return any(by & concepts_of(word) for word in near)
