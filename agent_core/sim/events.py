"""What a sentence about an event says of it, for a structured output (the OpenAI Agents SDK's CalendarEvent): the
people it names (a list, 'Ann, Marek and Ola', each member a person once one is) and its title (what is left when
the date, the weekdays and the people are taken out: 'Team retro', 'Созвон по бюджету')."""

from __future__ import annotations

import re
from typing import Any

from agent_core.sim.kinds import name_words
from agent_core.sim.text import entities, names
from agent_core.sim.text import language as lx

_NAME = r"[A-ZА-ЯЁŁŚŻŹĆŃÓ][\w'’-]+"
_LIST = re.compile(rf"{_NAME}(?:\s*,\s*{_NAME})*\s*,?\s+(?:and|и|i|oraz|&)\s+{_NAME}")
_TOKEN = re.compile(r"[^\W_]+(?:['’-][^\W_]+)*|[.,;:!?()]")


def people_field(pname: str, prop: dict[str, Any]) -> bool:
    """An array of strings named for people (participants, attendees, guests)."""
    items = prop.get("items") if isinstance(prop.get("items"), dict) else {}
    if prop.get("type") != "array" or (items or {}).get("type", "string") != "string":
        return False
    said = name_words(pname) + lx.words(str(prop.get("description") or ""))
    return bool(lx.hits(said, lx.lexicon()["people_fields"]))


def people(text: str) -> list[str]:
    """The people a text names, in order: known first names and full names, and every member of a list one of them
    is in ('Ann, Marek and Ola'); a sentence's first word before a first name is no part of it ('Будут Игорь')."""
    found: dict[int, str] = {}
    lists = {m.start() for m in _LIST.finditer(text)}
    for start, name, kind in names.known_entities(text):
        if kind != "person":
            continue
        words = str(name).split()
        rest = start + len(words[0]) + 1
        opening = not text[:start].strip() or text[:start].rstrip()[-1:] in ".!?:"
        if (
            len(words) > 1
            and not names.first_name(words[0])
            and (names.first_name(words[1]) or opening and rest in lists)
        ):
            start, name = rest, " ".join(words[1:])
        found[start] = names.base_name(str(name))
    places = {lx.fold(str(e.text)) for e in entities.find(text) if e.kind in ("city", "state")}
    stop = lx.word_set("stopwords")
    for match in _LIST.finditer(text):
        members = [(m.start() + match.start(), m.group()) for m in re.finditer(_NAME, match.group())]
        if any(s in found or any(s2 <= s < s2 + len(n) for s2, n in found.items()) for s, _ in members):
            for start, word in members:
                taken = any(s2 <= start < s2 + len(n) for s2, n in found.items())
                if not taken and lx.fold(word) not in places | stop:
                    found[start] = names.base_name(word)
    return list(dict.fromkeys(found[s] for s in sorted(found)))


def title(text: str) -> str | None:
    """The event's title: the longest run of words that is no date, weekday, time or person, its edge words
    (prepositions, conjunctions) trimmed."""
    marked: list[tuple[int, int]] = [
        (e.start, e.end) for e in entities.find(text) if e.kind in ("date", "time", "number")
    ]
    for person in people(text):
        marked += [(m.start(), m.end()) for m in re.finditer(rf"(?<![\w]){re.escape(person)}(?![\w])", text)]
    days = lx.lexicon()["date_words"]
    runs: list[list[str]] = [[]]
    for token in _TOKEN.finditer(text):
        word = token.group()
        inside = any(s <= token.start() < e for s, e in marked)
        if not word[0].isalnum() or inside or lx.hits(lx.words(word), days):
            runs.append([])
        else:
            runs[-1].append(word)
    stop = lx.word_set("stopwords")
    best: list[str] = []
    for run in runs:
        while run and lx.fold(run[0]) in stop:
            run = run[1:]
        while run and lx.fold(run[-1]) in stop:
            run = run[:-1]
        if len([w for w in run if lx.fold(w) not in stop]) > len([w for w in best if lx.fold(w) not in stop]):
            best = run
    if not best:
        return None
    phrase = " ".join(best)
    return phrase[:1].upper() + phrase[1:]


__all__ = ["people", "people_field", "title"]
