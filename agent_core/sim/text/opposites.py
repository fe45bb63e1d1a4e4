"""Concepts said with a negation a few words before them are their opposites: 'not staged yet', 'ещё не добавил в
индекс' and 'nie są jeszcze w indeksie' speak of the unstaged changes, not the staged ones (concepts.json 'negated')."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from agent_core.sim.text import language as lx

NEAR = 5  # a negation this many words before a concept's word negates it ('nie są jeszcze dodane do indeksu')


@cache
def _table() -> tuple[frozenset[str], dict[str, str]]:
    data = lx.load("concepts").get("negated") or {}
    return frozenset(lx.words(" ".join(data.get("words") or []))), dict(data.get("concepts") or {})


def apply(tokens: list[str], found: set[str], concepts_of: Callable[[str], frozenset[str]]) -> set[str]:
    """found with each negated concept's opposite added; the concept itself stays only where a word of it is said
    without a negation ('Unstages all staged changes' still speaks of staged ones)."""
    negations, opposites = _table()
    if not opposites.keys() & found or not negations & set(tokens):
        return found
    out, plain = set(found), set()
    for i, token in enumerate(tokens):
        for concept in concepts_of(token) & opposites.keys():
            if not negations & set(tokens[max(0, i - NEAR) : i]):
                plain.add(concept)
            elif opposites[concept]:  # '' names no opposite: the concept only goes
                out.add(opposites[concept])
    return out - (opposites.keys() & found - plain)
