"""Concepts said with a negation a few words before them are their opposites: 'not staged yet', 'ещё не добавил в
индекс' and 'nie są jeszcze w indeksie' speak of the unstaged changes, not the staged ones (concepts.json 'negated')."""

from __future__ import annotations

import re
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


BEFORE = 2  # a negation this many words before a keyword, in its part of the text, takes it back ('не срочно')
_PARTS = re.compile(r"[,.;:!?()\n]+")


def plainly(text: str, items: list[str] | tuple[str, ...]) -> list[str]:
    """The keywords of a list the text says with no negation just before them, in the same part of it ('urgent'
    is not said in 'not urgent', 'не срочно', 'to nie jest pilne'; it is in 'nie drukuje, pilne'); a keyword that
    holds a negation itself ('not urgent') is said."""
    negations, _ = _table()
    written = {item.lstrip("="): item for item in items}  # a hit is the keyword without its '=' (whole words)
    found = set()
    for part in _PARTS.split(text):
        tokens = lx.words(part)
        for item in (written[hit] for hit in lx.hits(tokens, items)):
            size, negated = len(lx.words(item)), bool(negations & set(lx.words(item)))
            if any(
                lx.hits(tokens[i : i + size], [item])
                and (negated or not negations & set(tokens[max(0, i - BEFORE) : i]))
                for i in range(len(tokens))
            ):
                found.add(item)
    return [item.lstrip("=") for item in items if item in found]
