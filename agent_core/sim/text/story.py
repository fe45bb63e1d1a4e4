"""Word problems as the simulated model reads them: 'I have 300 chickens. I sell 25% of them, then buy twelve more.
How many chickens do I have now?' is one sum, 300-300*25/100+12, the amount stated first changed by each verb after
it (data/numbers.json 'story'), in English, Russian and Polish."""

from __future__ import annotations

import re
from functools import cache

from agent_core.sim.text import language as lx
from agent_core.sim.text.arithmetic import words_to_digits
from agent_core.sim.text.values import normalise_numbers

_AMOUNT = r"(\d+(?:[.,]\d+)?)\s*(%|percent|per cent|процент\w*|procent\w*)?"


@cache
def _patterns() -> tuple[re.Pattern[str], re.Pattern[str], tuple[tuple[re.Pattern[str], str], ...]]:
    data = lx.load("numbers")["story"]

    def alternatives(words: list[str]) -> str:
        return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))

    start = re.compile(rf"(?<!\w)(?:{alternatives(data['have'])})\s+(\d+(?:[.,]\d+)?)(?![\d%])", re.I)
    asks = re.compile(rf"(?<!\w)(?:{alternatives(data['how_many'])})(?!\w)", re.I)
    changes = tuple(
        (re.compile(rf"(?<!\w)(?:{alternatives(words)})\w*\s+(?:\w+\s+)?{_AMOUNT}", re.I), sign)
        for sign, words in (("-", data["less"]), ("+", data["more"]))
    )
    return start, asks, changes


@lx.text_cache
def expression(question: str) -> str | None:
    """The sum a word problem asks for, or None: an amount stated, at least one change of it, and 'how many'."""
    start, asks, changes = _patterns()
    text = words_to_digits(normalise_numbers(question, lx.detect_language(question)))
    first = start.search(text)
    if first is None or not asks.search(text):
        return None
    steps = sorted(
        (m.start(), sign, m.group(1).replace(",", "."), bool(m.group(2)))
        for pattern, sign in changes
        for m in pattern.finditer(text, first.end())
    )
    if not steps:
        return None
    total = first.group(1).replace(",", ".")
    for _, sign, amount, percent in steps:
        base = f"({total})" if any(op in total for op in "+-") else total  # a percentage is of the amount so far
        total = f"{total}{sign}{base}*{amount}/100" if percent else f"{total}{sign}{amount}"
    return total
