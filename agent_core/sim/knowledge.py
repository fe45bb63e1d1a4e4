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
    return known_fact(question, lang) or conversion(question, lang) or coordinates(question, lang)


def known_fact(question: str, lang: str) -> str | None:
    """What the table holds of the question's subject itself: a capital, a colour, where a landmark is, what a term
    means, a fact; no conversion or coordinates, which a tool the request offers may be there to give."""
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
    return landmark(question, lang) or definition(question, lang) or fact(question, lang)


def _cued(folded: str, key: str) -> bool:
    return _cue_pattern(key).search(folded) is not None


@cache
def _cue_pattern(key: str) -> re.Pattern[str]:
    cues = sorted({lx.fold(c) for lang, words in _table()[key].items() if lang != "_about" for c in words}, key=len)
    return re.compile(rf"(?<![\w])(?:{'|'.join(re.escape(c) for c in reversed(cues))})")


@cache
def _landmarks() -> tuple[tuple[dict[str, Any], tuple[tuple[str, ...], ...]], ...]:
    entries = [e for e in _table()["things"] if e["kind"] == "landmark"]
    return tuple((e, tuple(tuple(lx.fold(w) for w in g) for g in e["match"])) for e in entries)


def landmark_thing(question: str) -> dict[str, Any] | None:
    """The landmark of the table the question names (its city and country), or None."""
    tokens = lx.words(question)
    for entry, groups in _landmarks():
        if all(any(t.startswith(w) for t in tokens for w in group) for group in groups):
            return entry
    return None


def landmark(question: str, lang: str) -> str | None:
    """'Where is the Eiffel Tower?', 'В какой стране Тадж-Махал?': the landmark's city and country."""
    entry = landmark_thing(question)
    if entry is None or not _cued(lx.fold(question), "where_cues"):
        return None
    values = entry["values"]
    place = ", ".join(v[lang] for v in (values.get("city"), values["country"]) if v)
    name = values["name"][lang]
    return say("know.where", lang, name=name[:1].upper() + name[1:], place=place)


def definition(question: str, lang: str) -> str | None:
    """'What does UTC stand for?', 'Что такое степень числа?': a term of the table the question asks the meaning
    of. A number in the question asks for a sum instead, and a content word that is no cue, term or filler ('time'
    in 'What's the time in UTC?') asks something else."""
    folded = lx.fold(question)
    if re.search(r"\d", question) or entities.of_kind(question, "number") or not _cued(folded, "definition_cues"):
        return None
    tokens = lx.words(question)
    for entry in _table()["definitions"]:
        if all(_term_in(folded, tokens, group) for group in entry["terms"]):
            return str(entry["answer"][lang]) if _only_about(question, entry) else None
    return None


def _only_about(question: str, entry: dict[str, Any]) -> bool:
    """Every content word is a cue's, the term's or a filler's ('maths', 'числа', 'skrót')."""
    table = _table()
    groups = [table["definition_cues"], table["definition_fillers"]]
    own = [w for g in groups for k, ws in g.items() if k != "_about" for c in ws for w in lx.words(c)]
    own += [w for group in entry["terms"] for form in group for w in lx.words(form)]
    return all(
        any(word.startswith(w) or lx.stem(word) == lx.stem(w) for w in own)
        for word in (lx.fold(c) for c in lx.content_words(question))
    )


def _term_in(folded: str, tokens: list[str], group: list[str]) -> bool:
    return any((lx.fold(w) in folded) if " " in w else any(t.startswith(lx.fold(w)) for t in tokens) for w in group)


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
        # An abbreviation ('g', 'mi', 'km/h') is a whole word; a name takes its endings ('метров', 'gramów').
        tail = r"(?![\w/])" if len(word) <= 3 or "/" in word else r"\w*"
        for m in re.finditer(rf"(?<![\w]){re.escape(word)}{tail}", folded):
            if not any(s <= m.start() < s + 3 for s, _ in found):
                found.append((m.start(), unit))
    return sorted(found)


def conversion(question: str, lang: str) -> str | None:
    """'10 km in miles', 'Сколько фунтов в 5 кг', '100 °F w stopniach Celsjusza'; with no number, 'How many
    centimetres are in an inch?' / 'Ile gramów ma kilogram?' asks of one of the unit named last."""
    numbers = [e for e in entities.of_kind(question, "number")]
    units = _unit_at(question)
    if len(units) < 2 or (not numbers and not _cued(lx.fold(question), "how_many_cues")):
        return None
    if numbers:
        amount, shown_amount = float(numbers[0].value), numbers[0].text.strip()
        source = min(units, key=lambda u: abs(u[0] - numbers[0].end))
    else:
        source = units[-1]
        amount, shown_amount = 1.0, f"1 {_unit_name(source[1])}"
    target = next((u for u in units if u[1] != source[1]), None)
    value = convert(amount, source[1], target[1]) if target else None
    if value is None or target is None:
        return None
    shown = arithmetic.format_number(round(value, 2))
    return say("know.convert", lang, a=shown_amount, b=f"{shown} {_unit_name(target[1])}")


def convert(value: float, a: str, b: str) -> float | None:
    """A value in unit a said in unit b of the same dimension (km -> mi, mph -> km/h), or None."""
    if (a, b) == ("c", "f"):
        return value * 9 / 5 + 32
    if (a, b) == ("f", "c"):
        return (value - 32) * 5 / 9
    units = _table()["units"]
    if a not in units or b not in units or units[a][0] != units[b][0]:
        return None
    return value * float(units[a][1]) / float(units[b][1])


def unit_of(text: str) -> str | None:
    """The first unit a text names ('The speed of the wind in km/h' -> 'km/h'), or None."""
    found = _unit_at(text)
    return found[0][1] if found else None


def _unit_name(unit: str) -> str:
    return {"c": "°C", "f": "°F"}.get(unit, unit)


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


def place_thing(question: str, capital: bool = False) -> dict[str, Any] | None:
    """What the model knows of the place a question names, as a thing's values (a city and its country in the three
    languages): a capital asked for ('What is the capital of Japan?', or a bare country when the output has a field
    for its capital), else a city of the gazetteer ('Kraków')."""
    table, folded = _table(), lx.fold(question)
    if capital or lx.hits(lx.words(question), table["capital_words"]):
        for entry in table["capitals"]:
            if _forms_in(folded, entry["forms"]):
                values = {"city": entry["answer"], "capital": entry["answer"], "country": entry["country"]}
                return {"kind": "city", "values": values}
    from agent_core.sim.places import city_info  # kinds reads the same city table

    for name in gazetteer.places(question):
        info = city_info(name) or {}
        country = table["countries"].get(info.get("country", ""))
        if country:
            names = {lang: (info.get(lang) or [info["name"]])[0] for lang in ("ru", "pl")}
            return {"kind": "city", "values": {"city": {"en": info["name"], **names}, "country": country}}
    return None


def names_capital(text: str) -> bool:
    """A field's name or description speaks of a capital ('capital', 'The capital of the country')."""
    return bool(lx.hits(lx.words(text.replace("_", " ")), _table()["capital_words"]))


def without_lack(text: str, lang: str) -> str:
    """The text without the lines in which the model says it has no tool or no knowledge for something."""
    heads = [say(key, lang, task="\0", tool="\0").split("\0")[0].split("{")[0] for key in _LACK_KEYS]
    heads = [h for h in heads if len(h) >= 8]
    kept = [line for line in text.split("\n") if not any(h.lower() in line.lower() for h in heads)]
    return "\n".join(kept).strip()


_LACK_KEYS = ("no_tool", "tools_off", "know.offline")


def offline(lang: str) -> str:
    """The honest reply outside the table: the offline model has no world knowledge."""
    return say("know.offline", lang)


def known(intent: str, value: str | None, clause: str, lang: str) -> bool:
    """The small table answers the clause: a search it needs no tool for, or a fact that only shares a word with
    the tool's kind ('At what temperature does water boil?' is no weather question: it names no place)."""
    if intent == "search":
        return answer(clause, lang) is not None
    return not value and known_fact(clause, lang) is not None
