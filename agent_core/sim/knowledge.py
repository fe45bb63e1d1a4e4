"""What the offline model knows without tools: a small table (data/knowledge.json) of the facts tutorials ask a
model directly (capitals, colours, a few facts, unit conversions, well-known cities' coordinates). Outside it the
model says plainly that it is the offline model and has no world knowledge."""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from agent_core.sim import wordbook
from agent_core.sim.text import arithmetic, entities, gazetteer
from agent_core.sim.text import language as lx
from agent_core.sim.text.language import say

NOTE = "no_world_knowledge"  # the Draft's note (and the x-sim-note header) when it had to say so


@cache
def _table() -> dict[str, Any]:
    return lx.load("knowledge")


def _has(tokens: list[str], folded: str, words: list[str]) -> bool:
    """Every word (a stem or a phrase) is in the text."""
    for word in words:
        w = lx.fold(word)
        if " " in w:
            if w not in folded:
                return False
        elif not any(t.startswith(w) or lx.stem(t) == lx.stem(w) for t in tokens):
            return False
    return True


def _forms_in(folded: str, forms: list[str]) -> bool:
    return any(re.search(rf"(?<![\w-]){re.escape(lx.fold(f))}(?![\w-])", folded) for f in forms)


def answer(question: str, lang: str) -> str | None:
    """The answer the small knowledge table gives, in the user's language, or None."""
    table, folded = _table(), lx.fold(question)
    tokens = lx.words(question)
    if lx.hits(tokens, table["capital_words"]):
        for entry in table["capitals"]:
            if _forms_in(folded, entry["forms"]):
                return say("know.capital", lang, capital=entry["answer"][lang])
    if lx.hits(tokens, table["colour_words"]):
        for entry in table["colours"]:
            if _forms_in(folded, entry["forms"]):
                return str(entry["answer"][lang])
    return fact(question, lang) or conversion(question, lang) or coordinates(question, lang)


def fact(question: str, lang: str) -> str | None:
    """The answer of one of the table's facts whose words the question holds all of ('boils' + 'water'), or None."""
    word = wordbook.translation(question, lang)  # 'как по-английски снег': the word table, whatever topic it names
    if word:
        return word
    folded, tokens = lx.fold(question), lx.words(question)
    for entry in _table()["facts"]:
        if any(_has(tokens, folded, entry[key]) for key in ("en", "ru", "pl")):
            return str(entry["answer"][lang])
    return None


@cache
def _units() -> tuple[tuple[str, str], ...]:
    pairs = [(lx.fold(w), unit) for unit, words in _table()["unit_words"].items() for w in words]
    return tuple(sorted(pairs, key=lambda p: len(p[0]), reverse=True))


def _unit_at(text: str) -> list[tuple[int, str]]:
    found: list[tuple[int, str]] = []
    folded = lx.fold(text)
    for word, unit in _units():
        for m in re.finditer(rf"(?<![\w]){re.escape(word)}\w*", folded):
            if not any(s <= m.start() < s + 3 for s, _ in found):
                found.append((m.start(), unit))
    return sorted(found)


def conversion(question: str, lang: str) -> str | None:
    """'10 km in miles', 'Сколько фунтов в 5 кг', '100 °F w stopniach Celsjusza'."""
    numbers = [e for e in entities.of_kind(question, "number")]
    units = _unit_at(question)
    if not numbers or len(units) < 2:
        return None
    amount = numbers[0]
    source = min(units, key=lambda u: abs(u[0] - amount.end))
    target = next((u for u in units if u[1] != source[1]), None)
    if target is None:
        return None
    value = _convert(float(amount.value), source[1], target[1])
    if value is None:
        return None
    shown = arithmetic.format_number(round(value, 2))
    return say("know.convert", lang, a=amount.text.strip(), b=f"{shown} {_unit_name(target[1])}")


def _convert(value: float, a: str, b: str) -> float | None:
    if (a, b) == ("c", "f"):
        return value * 9 / 5 + 32
    if (a, b) == ("f", "c"):
        return (value - 32) * 5 / 9
    factor = _table()["conversions"].get(f"{a}>{b}")
    return value * float(factor) if factor else None


def _unit_name(unit: str) -> str:
    return {"c": "°C", "f": "°F", "mi": "mi", "lb": "lb", "ft": "ft", "in": "in", "gal": "gal", "oz": "oz"}.get(
        unit, unit
    )


def coordinates(question: str, lang: str) -> str | None:
    """'Where is Sacramento?' / 'coordinates of Oslo': a well-known city's latitude and longitude."""
    if not lx.hits(lx.words(question), ["coordinat", "latitude", "longitude", "координат", "współrzędn"]):
        return None
    from agent_core.sim.places import city_info  # kinds reads the same city table

    for name in gazetteer.places(question):
        info = city_info(name)
        if info and "lat" in info:
            return say("know.coords", lang, where=gazetteer.where(name, lang), lat=info["lat"], lng=info["lng"])
    return None


def offline(lang: str) -> str:
    """The honest reply outside the table: the offline model has no world knowledge."""
    return say("know.offline", lang)


def known(intent: str, value: str | None, clause: str, lang: str) -> bool:
    """The small table answers the clause: a search it needs no tool for, or a fact that only shares a word with
    the tool's kind ('At what temperature does water boil?' is no weather question: it names no place)."""
    if intent == "search":
        return answer(clause, lang) is not None
    return not value and fact(clause, lang) is not None
