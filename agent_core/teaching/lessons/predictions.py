"""Predict, then reveal, inside a lesson: before running, the learner says which tool, how many turns, which
stop_reason or how many tokens; the first answer is recorded (it counts on the teacher's board) and the run says.

A lesson's `predictions` entry names a measure of the lesson's own run (or of one exercise's change): a run-wide
measure of figures.py (`turns`, `stop`, `tool_calls`...) or one turn's (`turn_tools`, `turn_stop_reason`,
`turn_input_tokens` with `turn`). Its options are values, or number ranges for token counts; exactly one holds.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from agent_core.model import Run
from agent_core.report.numbers import number_text
from agent_core.teaching.lessons.figures import MEASURES
from agent_core.teaching.lessons.scenario import LessonError, entries, text_problems

TURN_MEASURES = ("turn_tools", "turn_stop_reason", "turn_input_tokens")
_KEYS = ("id", "step", "question", "measure", "turn", "exercise", "options", "explanation")
_OPTION_KEYS = ("value", "min", "max", "label")


@dataclass(frozen=True)
class Option:
    """One answer: a value (a tool name, a stop_reason, a count) or a range of numbers, with its own words."""

    value: Any = None
    min: float | None = None
    max: float | None = None
    label: dict[str, str] | None = None  # words for a value that is not an API name ("no tool")

    def holds(self, measured: Any) -> bool:
        if self.min is not None or self.max is not None:
            if not isinstance(measured, (int, float)) or isinstance(measured, bool):
                return False
            return (self.min is None or measured >= self.min) and (self.max is None or measured <= self.max)
        return bool(measured == self.value)

    def text(self, lang: str) -> str:
        if self.label:
            return self.label[lang]
        if self.min is not None and self.max is not None:
            return f"{number_text(self.min, lang)}–{number_text(self.max, lang)}"
        if self.min is not None:
            return f"≥ {number_text(self.min, lang)}"
        if self.max is not None:
            return f"≤ {number_text(self.max, lang)}"
        return number_text(self.value, lang) if isinstance(self.value, int) else str(self.value)


@dataclass(frozen=True)
class Prediction:
    """One prediction step of a lesson: shown with narrative step `step`, about one measure of the lesson's run."""

    id: str
    step: int  # 1-based: the narrative step it belongs to
    question: dict[str, str]
    measure: str
    options: tuple[Option, ...]
    explanation: dict[str, str]
    turn: int | None = None
    exercise: str | None = None  # measured on the run of this exercise's change (default: the lesson's own)

    @property
    def key(self) -> str:
        """The id its answers are recorded under (beside the lesson's questions)."""
        return f"predict:{self.id}"

    def measured(self, run: Run) -> Any:
        """What the run shows for this prediction's measure."""
        if self.measure in TURN_MEASURES:
            if self.turn is None or len(run.turns) < self.turn:
                return None
            turn = run.turns[self.turn - 1]
            if self.measure == "turn_tools":
                return ", ".join(sorted({c.get("name", "") for c in turn.tool_calls}))
            if self.measure == "turn_stop_reason":
                return turn.stop_reason
            return turn.usage.whole_input if turn.usage else None
        return MEASURES[self.measure](run)

    def answer(self, run: Run) -> int | None:
        """The index of the option the run bears out (None: none does, which a test forbids)."""
        value = self.measured(run)
        matches = [n for n, o in enumerate(self.options) if o.holds(value)]
        return matches[0] if len(matches) == 1 else None

    def ready(self, run: Run | None) -> bool:
        """Whether a run has got far enough to show this prediction's answer."""
        if run is None:
            return False
        if self.measure in TURN_MEASURES and self.turn is not None and len(run.turns) >= self.turn:
            return run.turns[self.turn - 1].stop_reason is not None  # that turn's reply is in
        return run.stop is not None


def predictions_from(raw: Any, exercise_ids: set[str], steps: int, where: str) -> list[Prediction]:
    """A lesson's `predictions` list as Predictions; LessonError lists every problem."""
    if raw is None:
        return []
    problems: list[str] = []
    out: list[Prediction] = []
    for at, item, found in entries(raw, where, _KEYS):
        problems += found
        if not item:
            continue
        measure = item.get("measure")
        if measure not in MEASURES and measure not in TURN_MEASURES:
            problems.append(f"{at}.measure: one of " + ", ".join((*MEASURES, *TURN_MEASURES)))
        if measure in TURN_MEASURES and not isinstance(item.get("turn"), int):
            problems.append(f"{at}.turn: a turn measure needs the turn number")
        if "exercise" in item and item["exercise"] not in exercise_ids:
            problems.append(f"{at}.exercise: no exercise {item['exercise']!r} in this lesson")
        if not (isinstance(item.get("step"), int) and 1 <= item["step"] <= steps):
            problems.append(f"{at}.step: a step number from 1 to {steps}")
        problems += text_problems(item, ("question", "explanation"), at)
        options = item.get("options")
        if not (isinstance(options, list) and len(options) >= 2):
            problems.append(f"{at}.options: at least two")
            continue
        opts = []
        for k, o in enumerate(options):
            if not isinstance(o, dict) or any(key not in _OPTION_KEYS for key in o):
                problems.append(f"{at}.options[{k}]: an object with value, or min/max, and an optional label")
                continue
            opts.append(Option(o.get("value"), o.get("min"), o.get("max"), o.get("label")))
        out.append(
            Prediction(
                str(item.get("id")),
                int(item.get("step") or 1),
                item.get("question") or {},
                str(measure),
                tuple(opts),
                item.get("explanation") or {},
                item.get("turn"),
                item.get("exercise"),
            )
        )
    ids = [p.id for p in out]
    problems += [f"{where}: duplicate id {i!r}" for i in sorted({i for i in ids if ids.count(i) > 1})]
    if problems:
        raise LessonError(problems)
    return out
