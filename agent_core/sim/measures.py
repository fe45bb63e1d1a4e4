"""Measures an output field asks for, read from the tool results by the field's own unit and meaning: a temperature
in degrees, a speed said in mph for a field in km/h (converted), a compass direction in the form the field wants."""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from agent_core.sim import knowledge
from agent_core.sim.text import language as lx
from agent_core.sim.text.reader import View

_NUMBER = r"-?\d+(?:[.,]\d+)?"


@cache
def _degree_words() -> tuple[str, ...]:
    return tuple(lx.fold(w) for w in lx.load("knowledge")["degree_words"]["words"])


def _outputs(view: View) -> list[str]:
    """The results of this episode, the latest first."""
    return [a.output for a in reversed(view.episode) if a.status == "ok"]


def measured(view: View, words: list[str], prop: dict[str, Any]) -> float | None:
    """The number a field of a measure takes: a temperature from 'Weather in Oslo: 4°C' or 'It is 75 degrees',
    else a number whose unit is of the dimension the field's description names ('The speed of the wind in km/h'
    from '3 mph winds': 4.83), converted into that unit."""
    if any(w.startswith("temp") for w in words):
        degrees = "|".join(re.escape(w) for w in _degree_words())
        for text in _outputs(view):
            found = re.search(rf"({_NUMBER})(?=\s*(?:°|(?:{degrees})))", lx.fold(text))
            if found:
                return float(found.group(1).replace(",", "."))
    wanted = knowledge.unit_of(str(prop.get("description") or ""))
    if wanted is None:
        return None
    for text in _outputs(view):
        for match in re.finditer(rf"({_NUMBER})\s*([^\W\d][\w/]*(?:\s+per\s+\w+)?)", text):
            unit = knowledge.unit_of(match.group(2))
            value = knowledge.convert(float(match.group(1).replace(",", ".")), unit, wanted) if unit else None
            if value is not None:
                return round(value, 2)
    return None


@cache
def _compass() -> tuple[tuple[str, str], ...]:
    table = lx.load("knowledge")["compass"]
    pairs = [(lx.fold(w), point) for point, names in table.items() if point != "_about" for w in names]
    return tuple(sorted(pairs, key=lambda p: len(p[0]), reverse=True))  # 'north-east' before 'north'


def direction(view: View, words: list[str], prop: dict[str, Any]) -> str | None:
    """A direction field ('wind_direction', 'The direction of the wind in abbreviated form'): the compass point a
    result names, as its abbreviation (NE), or as written when the field does not ask for the short form."""
    about = f"{' '.join(words)} {lx.fold(str(prop.get('description') or ''))}"
    if not re.search(r"direct|направлен|kierun", about):
        return None
    short = bool(re.search(r"abbreviat|short|сокращ|кратк|skrót|skróc", about))
    for text in _outputs(view):
        folded = lx.fold(text)
        for name, point in _compass():
            found = re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", folded)
            if found:
                return point if short else text[found.start() : found.end()]
    return None
