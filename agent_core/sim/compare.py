"""The two figures a comparison is worked out from: two places' temperatures, two clocks' UTC hours, or two periods
of one forecast ('How much colder than today will it get tonight?': today's 61 and tonight's 39)."""

from __future__ import annotations

import json
from typing import Any

from agent_core.sim.text import language as lx
from agent_core.sim.text.figures import compared
from agent_core.sim.text.reader import Need, View
from agent_core.sim.words import translate

MIN_PERIODS = 2


def figures(view: View, first: Need, second: Need) -> tuple[str | None, str | None]:
    """The figure of each side, in the order the question compares them (None where a result is missing)."""
    if first is second:
        return _periods(view, first)
    return tuple(compared(n.intent, n.result.output) if n.result else None for n in (first, second))  # type: ignore[return-value]


def _periods(view: View, need: Need) -> tuple[str | None, str | None]:
    """Two periods of one forecast the question names ('today' and 'tonight', 'сегодня' and 'ночью'), in the order
    of the forecast, the higher first: the difference is by how much one is above the other."""
    if need.result is None:
        return None, None
    try:
        data = json.loads(need.result.output)
    except ValueError:
        return None, None
    periods = data.get("periods") if isinstance(data, dict) else None
    named = [p for p in periods or [] if isinstance(p, dict) and _named(p, view)]
    if len(named) < MIN_PERIODS:
        return None, None
    a, b = (_degrees(p) for p in named[:2])
    if a is None or b is None:
        return None, None
    return (a, b) if float(a) >= float(b) else (b, a)  # by how much one period is above the other


def _named(period: dict[str, Any], view: View) -> bool:
    name = str(period.get("name", ""))
    question = {lx.stem(w) for w in lx.words(view.question)}
    for form in {name, translate(name, view.lang)}:
        stems = [lx.stem(w) for w in lx.words(form)]
        if stems and all(any(lx.stems_match(s, w) for w in question) for s in stems):
            return True
    return False


def _degrees(period: dict[str, Any]) -> str | None:
    value = next((v for k, v in period.items() if k.lower() in ("temperature", "temp")), None)
    return str(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None
