"""Checks of meaning for free text a learner edits: what a tool description claims, what a text says.

A goal must test the change an exercise asks for, not that "something changed": a space added to the system
prompt, a description of one letter or "Weather." alone are edits, not the change. These checks read a text the
way the offline model reads it (agent_core.sim.text.meaning: the same concepts and the same "do not use it for ..."
split its tool choice uses), so a description passes when it says what the exercise asks in any of en/ru/pl.
"""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Any

from agent_core.teaching.lessons.scenario import LANGUAGES

DESCRIBES_KEYS = ("claims", "disclaims", "not_claims", "min_sentences")
_SENTENCE = re.compile(r"[^.!?;:\n]*[^\W\d_][^.!?;:\n]*[.!?;:\n]?")


def folded(text: str) -> str:
    """Lower case, accents dropped, spaces collapsed: "Kraków " and "krakow" compare equal (й and и too)."""
    decomposed = unicodedata.normalize("NFKD", text.replace("ł", "l").replace("Ł", "L"))
    return " ".join("".join(ch for ch in decomposed if not unicodedata.combining(ch)).lower().split())


def same_text(a: Any, b: Any) -> bool:
    """Two config values equal once whitespace is ignored (strings only; anything else compares as it is)."""
    if isinstance(a, str) and isinstance(b, str):
        return " ".join(a.split()) == " ".join(b.split())
    return bool(a == b)


def alternatives(want: Any, lang: str) -> list[str]:
    """A wanted text as alternatives: a string, a list of strings, or one of those per language."""
    if isinstance(want, dict) and set(want) == set(LANGUAGES):
        want = want[lang]
    return [str(w) for w in (want if isinstance(want, list) else [want])]


def mentions(actual: Any, options: list[str]) -> bool:
    """True when a text (or a list) holds any of the options, ignoring case and accents."""
    if isinstance(actual, list):
        return any(o in actual for o in options) or any(mentions(a, options) for a in actual if isinstance(a, str))
    if not isinstance(actual, str):
        return False
    text = folded(actual)
    return any(folded(o) in text for o in options)


def names_place(text: str, value: str) -> bool:
    """True when a text holds a value, or names the same city in another language or case ("в Гданьске")."""
    if mentions(text, [value]):
        return True
    from agent_core.sim.text import gazetteer  # the offline model's own city names, in every form it knows

    return folded(value) in {folded(p) for p in gazetteer.places(text)}


def sentences(text: str) -> int:
    """How many sentences (or clauses ended by . ! ? ; :) with at least one word a text has."""
    return sum(1 for s in _SENTENCE.findall(text or "") if len(re.findall(r"[^\W\d_]{2,}", s)) >= 2)


def read_description(description: str) -> tuple[frozenset[str], frozenset[str]]:
    """The concepts a tool description claims, and those it disclaims ("do not use it for the weather")."""
    from agent_core.sim.text import meaning  # the offline model's own reading; imported late (heavy word lists)

    profile = meaning.profile(json.dumps({"name": "", "description": description}, sort_keys=True))
    return profile.described, profile.against


def describes_misses(actual: Any, spec: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """What a description lacks against a spec {claims, disclaims, not_claims, min_sentences}: (code, values)."""
    text = actual if isinstance(actual, str) else ""
    claimed, disclaimed = read_description(text)
    misses: list[tuple[str, dict[str, Any]]] = []
    misses += [("describes_claims", {"concept": c}) for c in spec.get("claims", []) if c not in claimed]
    misses += [("describes_disclaims", {"concept": c}) for c in spec.get("disclaims", []) if c not in disclaimed]
    misses += [("describes_not_claims", {"concept": c}) for c in spec.get("not_claims", []) if c in claimed]
    least = spec.get("min_sentences")
    if isinstance(least, int) and sentences(text) < least:
        misses.append(("describes_sentences", {"got": sentences(text), "want": least}))
    return misses
