"""The figures behind a lesson's teacher notes: measured from a run, checked against what the notes state, and
rendered into the per-language texts ("{turns} turns" -> "3 turns"), so the numbers a teacher reads stay true.

In lesson.json, `teacher_notes.numbers` holds the texts per language plus an optional `figures` object:

    "numbers": {
      "en": ["{turns} turns; about {first_input} input tokens on the first request"],
      "ru": [...], "pl": [...],
      "figures": {
        "turns": {"measure": "turns", "equals": 3},
        "first_input": {"measure": "first_input_tokens", "about": 850},
        "refused": {"measure": "api_error_status", "exercise": "context-window", "equals": 400}
      }
    }

A figure names one measure of a finished run (of the scenario, or of the scenario with one exercise's change) and
states its value: `equals` (exact), `about` (within `within`, a fraction, default 0.1) or `min`/`max` (a range).
The text shows the stated value, formatted for the language; tests run the scenario and compare.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from agent_core.model import Run, Usage
from agent_core.report.numbers import number_text
from agent_core.teaching.lessons.facts import FactError, data_value

PLACEHOLDER = re.compile(r"\{([a-z][a-z0-9_]*)\}")
DEFAULT_WITHIN = 0.1
_FIGURE_KEYS = ("measure", "data", "exercise", "equals", "about", "within", "min", "max", "digits")


def _usages(run: Run) -> list[Usage]:
    return [t.usage for t in run.turns if t.usage]


def _growth(run: Run) -> float | None:
    """How much the whole input grows per turn on average (a run whose every turn adds the same blocks)."""
    inputs = [u.whole_input for u in _usages(run)]
    return round((inputs[-1] - inputs[0]) / (len(inputs) - 1), 1) if len(inputs) > 1 else None


def _first_error_status(run: Run) -> int | None:
    for turn in run.turns:
        if turn.error and turn.error.status:
            return turn.error.status
        for exchange in turn.exchanges:
            if exchange.status and exchange.status >= 400:
                return exchange.status
    return None


MEASURES: dict[str, Callable[[Run], Any]] = {
    "turns": lambda run: len(run.turns),
    "first_input_tokens": lambda run: _usages(run)[0].whole_input if _usages(run) else None,
    "last_input_tokens": lambda run: _usages(run)[-1].whole_input if _usages(run) else None,
    "second_input_tokens": lambda run: _usages(run)[1].whole_input if len(_usages(run)) > 1 else None,
    "third_input_tokens": lambda run: _usages(run)[2].whole_input if len(_usages(run)) > 2 else None,
    "input_growth_per_turn": lambda run: _growth(run),
    "total_tokens": lambda run: run.total_tokens,
    "all_input_tokens": lambda run: sum(u.whole_input for u in _usages(run)),
    "cost_usd": lambda run: run.total_cost_usd,
    "stop_reason": lambda run: run.turns[-1].stop_reason if run.turns else None,
    "stop": lambda run: str(getattr(run.stop, "kind", "")) or None,
    "tool_calls": lambda run: sum(len(t.tool_calls) for t in run.turns),
    "tools_called": lambda run: ", ".join(sorted({c.get("name", "") for t in run.turns for c in t.tool_calls})) or None,
    "most_calls_in_one_reply": lambda run: max((len(t.tool_calls) for t in run.turns), default=0),
    "tool_errors": lambda run: sum(x.is_error for t in run.turns for x in t.tools),
    "api_error_status": _first_error_status,
    "cache_write_tokens": lambda run: max((u.cache_creation_input_tokens for u in _usages(run)), default=0),
    "cache_read_tokens": lambda run: max((u.cache_read_input_tokens for u in _usages(run)), default=0),
}


@dataclass(frozen=True)
class Figure:
    """One stated figure: which measure of which run, and the value the notes give for it."""

    name: str
    measure: str = ""  # a measure of a run (MEASURES) ...
    data: str = ""  # ... or a data path (agent_core/teaching/lessons/facts.py): a price, a window, a limit of the code
    exercise: str | None = None
    equals: Any = None
    about: float | None = None
    within: float = DEFAULT_WITHIN
    min: float | None = None
    max: float | None = None
    digits: int | None = None  # decimals to show: 0.1 with digits 2 reads "0.10"

    def holds(self, measured: Any) -> bool:
        """True when the measured value agrees with the stated one."""
        if self.equals is not None:
            return bool(measured == self.equals)
        if not isinstance(measured, (int, float)) or isinstance(measured, bool):
            return False
        if self.about is not None:
            return abs(measured - self.about) <= self.within * abs(self.about)
        return (self.min is None or measured >= self.min) and (self.max is None or measured <= self.max)

    def stated(self, lang: str) -> str:
        """The stated value as the text shows it in one language."""
        if self.equals is not None:
            if isinstance(self.equals, (int, float)) and not isinstance(self.equals, bool):
                return number_text(self.equals, lang, self.digits)
            return str(self.equals)
        if self.about is not None:
            return number_text(self.about, lang, self.digits)
        return "–".join(number_text(v, lang, self.digits) for v in (self.min, self.max) if v is not None)


def figures_of(numbers: Any) -> dict[str, Figure]:
    """The figures of a `teacher_notes.numbers` value (empty when it has none or they are malformed)."""
    raw = numbers.get("figures") if isinstance(numbers, dict) else None
    if not isinstance(raw, dict) or figure_problems(raw, None):
        return {}
    return {name: Figure(name=name, **spec) for name, spec in raw.items()}


def measure(figure: Figure, run: Run | None) -> Any:
    """The figure's measure taken from a finished run, or its data value (no run needed)."""
    if figure.data:
        return data_value(figure.data)
    assert run is not None, f"{figure.name}: a measured figure needs a run"
    return MEASURES[figure.measure](run)


def render(text: str, figures: dict[str, Figure], lang: str) -> str:
    """A numbers text with each {name} replaced by its figure's stated value in that language."""
    return PLACEHOLDER.sub(lambda m: figures[m[1]].stated(lang) if m[1] in figures else m[0], text)


def rendered_numbers(numbers: Any) -> Any:
    """`teacher_notes.numbers` with its figures filled into every language's texts (anything else unchanged)."""
    if not isinstance(numbers, dict):
        return numbers
    figures = figures_of(numbers)
    out: dict[str, Any] = {}
    for lang, items in numbers.items():
        if lang == "figures":
            continue
        out[lang] = [render(i, figures, lang) for i in items] if isinstance(items, list) else items
    return out


def figure_problems(raw: Any, exercise_ids: set[str] | None) -> list[tuple[str, str]]:
    """(where, what is wrong) for each malformed figure; exercise ids are checked when given."""
    if not isinstance(raw, dict) or not raw:
        return [("", "must be an object naming at least one figure")]
    problems: list[tuple[str, str]] = []
    for name, spec in raw.items():
        problems += [(name, p) for p in _spec_problems(name, spec, exercise_ids)]
    return problems


def _spec_problems(name: str, spec: Any, exercise_ids: set[str] | None) -> list[str]:
    if not PLACEHOLDER.fullmatch("{" + str(name) + "}"):
        return ["a figure's name must be a lowercase identifier"]
    if not isinstance(spec, dict):
        return ["must be an object"]
    out = [f"unknown key {k!r}" for k in spec if k not in _FIGURE_KEYS]
    if "data" in spec:
        if "measure" in spec or "exercise" in spec:
            out.append("a figure is measured from a run or read from data, not both")
        try:
            data_value(str(spec["data"]))
        except FactError as err:
            out.append(f"data: {err}")
    elif spec.get("measure") not in MEASURES:
        out.append("measure must be one of " + ", ".join(MEASURES))
    if "digits" in spec and not (isinstance(spec["digits"], int) and 0 <= spec["digits"] <= 6):
        out.append("digits must be a whole number 0-6")
    if exercise_ids is not None and "exercise" in spec and spec["exercise"] not in exercise_ids:
        out.append(f"no exercise {spec['exercise']!r} in this lesson")
    stated = [k for k in ("equals", "about", "min") if k in spec] + (
        ["max"] if "max" in spec and "min" not in spec else []
    )
    if len(stated) != 1 or spec.get("equals", 0) is None:
        out.append("state the value once: equals, about, or min/max")
    numeric = [spec[k] for k in ("about", "within", "min", "max") if k in spec]
    if any(not isinstance(v, (int, float)) or isinstance(v, bool) for v in numeric):
        out.append("about, within, min and max must be numbers")
    return out


def placeholder_problems(numbers: dict[str, Any], figures: dict[str, Any]) -> list[tuple[str, str]]:
    """Every {name} in a text is a figure, each item uses the same ones in every language, and every figure shows."""
    problems: list[tuple[str, str]] = []
    used: set[str] = set()
    texts = {lang: items for lang, items in numbers.items() if lang != "figures" and isinstance(items, list)}
    for lang, items in texts.items():
        for n, item in enumerate(items):
            names = set(PLACEHOLDER.findall(str(item)))
            used |= names
            for name in sorted(names - set(figures)):
                problems.append((f"{lang}[{n}]", f"{{{name}}} names no figure"))
            english = texts.get("en", [])
            if lang != "en" and n < len(english) and names != set(PLACEHOLDER.findall(str(english[n]))):
                problems.append((f"{lang}[{n}]", "must show the same figures as the English item"))
    for name in sorted(set(figures) - used):
        problems.append(("figures", f"figure {name!r} is not shown in any text"))
    return problems
