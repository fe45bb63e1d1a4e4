"""Times of day in a text: '3pm', '16:30', '7.15pm', 'half past seven', '9 утра', 'wpół do ósmej wieczorem'."""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from agent_core.sim.text import language as lx
from agent_core.sim.text.meaning import concepts as meaning_concepts


def times(text: str) -> list[tuple[str, int, int]]:
    """Every time of day (HH:MM, start, end): said in words first, then written with a colon or am/pm, then with a
    dot; of overlapping ones the reader keeps the first."""
    typed = [(_clock(m), m.start(), m.end()) for m in _TIME.finditer(text)]
    return _said_times(text) + typed + dotted_times(text)


@cache
def _data() -> dict[str, Any]:
    clock: dict[str, Any] = lx.load("entities")["clock"]
    return clock


_TIME = re.compile(
    r"(?<![\w:.])(\d{1,2})(?::(\d{2}))?(?::\d{2})?\s*(a\.?m\.?|p\.?m\.?)(?![\w])"
    r"|(?<![\w:.])([01]?\d|2[0-3]):([0-5]\d)(?::\d{2})?(?![\w:])",
    re.I,
)
_DOTTED_TIME = re.compile(
    r"(?<![\w:.,])([01]?\d|2[0-3])\.([0-5]\d)\s*(a\.?m\.?|p\.?m\.?)?(?![\w.,%$€£])(?!\s*[A-Z]{3}\b|\s*[$€£])", re.I
)


def dotted_times(text: str) -> list[tuple[str, int, int]]:
    """'16.30', '7.15pm': times written with a dot (HH:MM, start, end), when a part of the day, a word for time or
    a 'when' word before it says so (a price of 16.30 stays a number)."""
    when = {lx.fold(w) for w in _data()["when"]}
    out = []
    for m in _DOTTED_TIME.finditer(text):
        before = [lx.fold(w) for w in lx.words(re.split(r"[,;:?!]", text[: m.start()])[-1])]
        if m.group(3) or "time" in meaning_concepts(text) or (before and (before[-1] in when or before[0] in when)):
            hour, minute = int(m.group(1)), int(m.group(2))
            if m.group(3):
                hour = (hour % 12) + (12 if m.group(3).lower().startswith("p") else 0)
            out.append((f"{hour:02d}:{minute:02d}", m.start(), m.end()))
    return out


def _clock(m: re.Match[str]) -> str:
    if m.group(3):
        hour, minute = int(m.group(1)), int(m.group(2) or 0)
        pm = m.group(3).lower().startswith("p")
        hour = (hour % 12) + (12 if pm else 0)
        return f"{hour:02d}:{minute:02d}"
    return f"{int(m.group(4)):02d}:{m.group(5)}"


@cache
def _clock_words() -> tuple[re.Pattern[str], dict[str, Any]]:
    """The pattern of a time said in words, and the folded word tables it reads."""
    data = _data()
    table = {key: {lx.fold(k): v for k, v in data[key].items()} for key in ("hours", "before", "after", "named")}
    parts = {lx.fold(w): key for key in ("am", "pm", "night", "pm_after_filler") for w in data[key]}

    def alt(items: Any) -> str:
        return "|".join(re.escape(lx.fold(w)) for w in sorted(items, key=len, reverse=True))

    hours = rf"\d{{1,2}}|{alt(table['hours'])}"
    pattern = re.compile(
        rf"(?<![\w:.])(?:(?P<named>{alt(table['named'])})"
        rf"|(?:(?P<before>{alt(table['before'])})|(?P<after>{alt(table['after'])}))\s+(?P<hour>{hours})"
        rf"|(?P<bare>{hours})(?::(?P<minute>[0-5]\d))?)"
        rf"(?:\s+(?:(?P<oclock>{alt(data['oclock'])})|(?P<filler>{alt(data['filler'])})))?"
        rf"(?:\s+(?P<part>{alt(parts)}))?(?![\w])"
    )
    return pattern, {**table, "parts": parts}


def _said_times(text: str) -> list[tuple[str, int, int]]:
    """'9 утра' (09:00), 'wpół do ósmej wieczorem' (19:30), 'half past seven', 'noon': a time of day in words."""
    folded = lx.fold(text)
    out: list[tuple[str, int, int]] = []
    if len(folded) != len(text):
        return out
    pattern, table = _clock_words()
    for m in pattern.finditer(folded):
        if m["named"]:
            out.append((table["named"][m["named"]], m.start(), m.end()))
            continue
        written = m["hour"] or m["bare"]
        hour = int(written) if written.isdigit() else table["hours"][written]
        if not 0 <= hour <= 23:
            continue
        minutes = int(m["minute"] or 0)
        if m["before"]:
            hour, minutes = (hour - 1) % 12 or 12, table["before"][m["before"]]
        elif m["after"]:
            minutes = table["after"][m["after"]]
        part = table["parts"].get(m["part"] or "")
        if part == "pm_after_filler":
            part = "pm" if m["filler"] else None
        if not (m["hour"] or part or m["oclock"]):
            continue
        if hour < 12 and (part == "pm" or (part == "night" and hour >= 7)):
            hour += 12
        elif hour == 12 and part in ("am", "night"):
            hour = 0
        out.append((f"{hour:02d}:{minutes:02d}", m.start(), m.end()))
    return out
