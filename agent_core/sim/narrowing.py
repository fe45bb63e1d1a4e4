"""A filter parameter's value said next to the noun of what it narrows by: 'only in the security domain'."""

from __future__ import annotations

import re
from functools import cache

from agent_core.sim.kinds import name_words
from agent_core.sim.text import language as lx


@cache
def _patterns(pname: str) -> tuple[re.Pattern[str], re.Pattern[str]] | None:
    """(after the noun, before the noun) for a parameter whose name holds a noun of lexicon 'filter_nouns'."""
    table = lx.lexicon()["filter_nouns"]
    nouns = [n for w in name_words(pname) if w != "_about" for n in table.get(w, [])]
    if not nouns:
        return None
    alts = "|".join(re.escape(n) for n in sorted(set(nouns), key=len, reverse=True))
    # The value is written in Latin letters (the API's own word, 'security'), so a word of the sentence is none.
    after = re.compile(rf"(?<!\w)(?:{alts})\w*\s*[:=]?\s*['\"“«„]?([A-Za-z][\w-]+)", re.I)
    before = re.compile(rf"(?<![\w-])([a-z][\w-]+)\s+(?:{alts})s?\b")
    return after, before


def filter_value(text: str, pname: str) -> str | None:
    """'разделу security', 'w dziedzinie finance', 'domain: legal', 'the security domain' -> the filter's value."""
    found = _patterns(pname)
    if found is None:
        return None
    stop = lx.word_set("stopwords")
    for pattern in found:
        for m in pattern.finditer(text):
            if lx.fold(m.group(1)) not in stop:
                return m.group(1)
    return None


def filters_said(text: str, pnames: list[str]) -> set[str]:
    """The filter values the text gives any of these parameters (folded)."""
    return {lx.fold(v) for v in (filter_value(text, p) for p in pnames) if v}


@cache
def _nouns() -> frozenset[str]:
    table = lx.lexicon()["filter_nouns"]
    return frozenset(lx.fold(n) for key, words in table.items() if key != "_about" for n in words)


def is_noun(word: str) -> bool:
    """A word naming what a filter narrows by ('domain', 'разделу', 'dziedzinie')."""
    folded = lx.fold(word)
    return any(folded.startswith(n) for n in _nouns() if len(n) >= 4) or folded in _nouns()
