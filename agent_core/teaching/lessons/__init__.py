"""Hands-on lessons: load and validate lessons/NN-slug folders, build their runs, check goals.

The format is documented in lessons/README.md. Public API: load_lessons, load_lesson, Lesson,
Step, Exercise, Question, Option, check_goal, GoalResult, LessonError, LANGUAGES.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agent_core.model import Run, RunConfig
from agent_core.teaching.lessons.code import CodeExercise, code_from
from agent_core.teaching.lessons.figures import PLACEHOLDER, Figure, figures_of, render
from agent_core.teaching.lessons.goals import (
    GOAL_CHECKS,
    STOP_KINDS,
    STOP_REASONS,
    GoalResult,
    check_goal,
    config_value,
)
from agent_core.teaching.lessons.parsons import Puzzle, puzzle_from
from agent_core.teaching.lessons.predictions import Prediction, predictions_from
from agent_core.teaching.lessons.scenario import (
    LANGUAGES,
    LessonError,
    build_config,
    deep_merge,
    pick,
    resolve_tool,
)
from agent_core.teaching.lessons.validate import FOLDER, Checker, check_lesson, check_patch
from agent_core.tools.mcp import listed_tool

__all__ = [
    "LANGUAGES",
    "LESSONS_ROOT",
    "GOAL_CHECKS",
    "STOP_KINDS",
    "STOP_REASONS",
    "Exercise",
    "GoalResult",
    "Lesson",
    "LessonError",
    "Option",
    "Question",
    "Step",
    "build_config",
    "check_goal",
    "config_value",
    "deep_merge",
    "load_lesson",
    "load_lessons",
    "parse_steps",
    "pick",
    "resolve_tool",
]

LESSONS_ROOT = Path(__file__).resolve().parents[3] / "lessons"
DEPTH_MARK = "<!-- in depth -->"  # splits a step into "simply" (before) and "in depth" (after)


@dataclass
class Step:
    """One step of a lesson's narrative: a `## ` heading and the text under it."""

    title: str
    body: str
    depth: str = ""  # the "in depth" part, after a line `<!-- in depth -->`; body is the "simply" part


@dataclass
class Exercise:
    """A change the learner makes, and the goal that proves it worked."""

    id: str
    title: dict[str, str]
    instructions: dict[str, str]
    change: dict[str, Any]
    goal: dict[str, Any]
    hint: dict[str, str]
    success: dict[str, str]
    tempting: list[dict[str, Any]] = field(
        default_factory=list
    )  # wrong changes a learner is likely to try; none may pass
    accepted: list[dict[str, Any]] = field(default_factory=list)  # other correct changes; each must pass
    step: int | None = None  # the narrative step (1-based) it belongs to; None: the lesson's last step


@dataclass
class Option:
    """One answer to a check question."""

    text: dict[str, str]
    correct: bool


@dataclass
class Question:
    """A check question with exactly one correct option and an explanation."""

    id: str
    question: dict[str, str]
    options: list[Option]
    explanation: dict[str, str]
    step: int | None = None  # the narrative step (1-based) it belongs to; None: the lesson's last step


@dataclass
class Lesson:
    """One lesson folder: metadata, scenario, exercises, questions and the narrative per language."""

    id: str
    order: int
    curriculum: list[int]
    title: dict[str, str]
    summary: dict[str, str]
    scenario: dict[str, Any]
    expected: dict[str, Any]
    exercises: list[Exercise]
    questions: list[Question]
    path: Path
    steps: dict[str, list[Step]]
    teacher_notes: dict[str, Any] | None = (
        None  # minutes, level, objectives/numbers/misconceptions/discussion per language
    )
    sources: list[dict[str, Any]] = field(default_factory=list)  # [{"title", "url", "checked": "YYYY-MM-DD"}]
    figures: dict[str, Figure] = field(default_factory=dict)  # the {name} numbers its texts state (figures.py)
    puzzles: list[Puzzle] = field(default_factory=list)  # "assemble the loop" exercises (parsons.py)
    predictions: list[Prediction] = field(default_factory=list)  # predict, then reveal (predictions.py)
    code: list[CodeExercise] = field(default_factory=list)  # write real code, checked in a child process (code.py)

    def heading(self, lang: str) -> str:
        """'7. Break the loop': the lesson as pickers, the board and the plan name it."""
        return f"{self.order}. {self.title[lang]}"

    def text(self, lang: str) -> list[Step]:
        """The narrative steps in one language."""
        return self.steps[_language(lang)]

    def scenario_config(self, lang: str, patch: dict[str, Any] | None = None) -> RunConfig:
        """The RunConfig to run: the scenario in one language, with an optional deep-merge patch."""
        return build_config(self._patched(patch), _language(lang))

    def _patched(self, patch: dict[str, Any] | None) -> dict[str, Any]:
        if patch:
            check_patch(patch)  # a typo in a UI edit must fail loudly, not be dropped by config_from_dict
        return deep_merge(self.scenario, patch or {})

    def check(self, goal: dict[str, Any], run: Run) -> GoalResult:
        """Check a goal against a finished run, comparing its config with this lesson's own scenario."""
        return check_goal(goal, run, self.scenario_config(run.config.language))

    def puzzle(self, puzzle_id: str) -> Puzzle:
        """A puzzle by id (KeyError if there is none)."""
        for puzzle in self.puzzles:
            if puzzle.id == puzzle_id:
                return puzzle
        raise KeyError(puzzle_id)

    def exercise(self, exercise_id: str) -> Exercise:
        """An exercise by id (KeyError if there is none)."""
        for ex in self.exercises:
            if ex.id == exercise_id:
                return ex
        raise KeyError(exercise_id)


def _language(lang: str) -> str:
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; expected one of {', '.join(LANGUAGES)}")
    return lang


def _read_steps(folder: Path, lang: str, problems: list[str]) -> list[Step]:
    label = f"{folder.parent.name}/{folder.name}/{lang}.md"
    try:
        steps, stray = parse_steps((folder / f"{lang}.md").read_text(encoding="utf-8"))
    except FileNotFoundError:
        problems.append(f"{label}: file missing")
        return []
    if stray:
        problems.append(f"{label}: text before the first '## ' step heading: {stray[0][:60]!r}")
    if len(steps) < 2:
        problems.append(f"{label}: needs at least two '## ' steps, found {len(steps)}")
    for n, step in enumerate(steps, 1):
        if not step.title or not step.body:
            problems.append(f"{label}: step {n} {step.title!r}: empty title or body")
    return steps


def _rendered(value: Any, figures: dict[str, Figure]) -> Any:
    """Every per-language text inside a value with its {name} figures filled in (the stated values)."""
    if isinstance(value, dict) and set(value) == set(LANGUAGES) and all(isinstance(v, str) for v in value.values()):
        return {lang: render(text, figures, lang) for lang, text in value.items()}
    if isinstance(value, dict):
        return {
            k: v if k in ("change", "goal", "tempting", "accepted", "patch", "shows") else _rendered(v, figures)
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [_rendered(v, figures) for v in value]
    return value


def _figure_texts(data: dict[str, Any], steps: dict[str, list[Step]], lang: str) -> str:
    """Everything a learner reads in one language: the steps, and the lesson's texts (the scenario aside)."""
    words: list[str] = [f"{s.title}\n{s.body}\n{s.depth}" for s in steps[lang]]

    def walk(value: Any) -> None:
        if isinstance(value, dict) and set(value) == set(LANGUAGES):
            words.append(str(value[lang]))
        elif isinstance(value, dict):
            for key, item in value.items():
                if key not in ("scenario", "change", "goal", "tempting", "accepted", "figures", "expected"):
                    walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk({k: v for k, v in data.items() if k != "teacher_notes"})
    return "\n".join(words)


def _check_figures_shown(data: dict[str, Any], steps: dict[str, list[Step]], label: str, problems: list[str]) -> None:
    """Each lesson figure shows in every language, and no {name} in a text is left without its figure."""
    figures = data.get("figures") or {}
    for lang in LANGUAGES:
        used = set(PLACEHOLDER.findall(_figure_texts(data, steps, lang)))
        problems += [f"{label}: figure {n!r} is not shown in {lang}" for n in sorted(set(figures) - used)]


def _lesson_from(data: dict[str, Any], folder: Path, steps: dict[str, list[Step]]) -> Lesson:
    figures = figures_of({"figures": data.get("figures") or {}})
    data = {
        **data,
        **{k: _rendered(data[k], figures) for k in ("title", "summary", "questions", "exercises") if k in data},
    }
    steps = {
        lang: [
            Step(render(s.title, figures, lang), render(s.body, figures, lang), render(s.depth, figures, lang))
            for s in items
        ]
        for lang, items in steps.items()
    }
    questions = [
        Question(
            id=q["id"],
            question=q["question"],
            explanation=q["explanation"],
            options=[Option(text=o["text"], correct=o["correct"]) for o in q["options"]],
            step=q.get("step"),
        )
        for q in data["questions"]
    ]
    return Lesson(
        id=data["id"],
        order=data["order"],
        curriculum=data["curriculum"],
        title=data["title"],
        summary=data["summary"],
        scenario=data["scenario"],
        expected=data.get("expected", {}),
        exercises=[Exercise(**e) for e in data.get("exercises", [])],
        questions=questions,
        path=folder,
        steps=steps,
        teacher_notes=data.get("teacher_notes"),
        sources=data.get("sources", []),
        figures=figures,
        puzzles=[
            puzzle_from(p, (folder.parent, LESSONS_ROOT), f"puzzles[{n}]")
            for n, p in enumerate(data.get("puzzles") or [])
        ],
        code=code_from(data.get("code"), "code"),
        predictions=predictions_from(
            data.get("predictions"), {e["id"] for e in data.get("exercises", [])}, len(steps["en"]), "predictions"
        ),
    )


def parse_steps(markdown: str) -> tuple[list[Step], list[str]]:
    """Split a narrative into `## ` steps; returns the steps and any stray text before the first one."""
    steps: list[Step] = []
    stray: list[str] = []
    fenced = False
    for line in markdown.splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
        if not fenced and line.startswith("## "):
            steps.append(Step(title=line[3:].strip(), body=""))
        elif steps:
            steps[-1].body += line + "\n"
        elif line.strip() and not (line.startswith("# ") and not stray):
            stray.append(line)
    for step in steps:
        simple, _, depth = step.body.partition(f"\n{DEPTH_MARK}\n")
        step.body, step.depth = simple.strip(), depth.strip()
    return steps, stray


def _with_mcp_tools(data: dict[str, Any], folder: Path, problems: list[str]) -> None:
    """Tool entries {"mcp": FILE, "name": ..., "impl": ...} become the tool that FILE (an MCP server's tools/list
    answer, kept in the lesson's folder) lists under that name: the lesson shows the server's own words."""
    places = [(data.get("scenario") or {}).get("tools")]
    places += [(x.get("change") or {}).get("tools") for x in data.get("exercises") or [] if isinstance(x, dict)]
    for tools in (p for p in places if isinstance(p, list)):
        for i, entry in enumerate(tools):
            if not isinstance(entry, dict) or "mcp" not in entry:
                continue
            source = str(entry["mcp"])
            try:
                if Path(source).name != source:
                    raise KeyError(f"{source!r} must be a file in the lesson's folder")
                listed = listed_tool(folder / source, str(entry.get("name")))
            except (OSError, ValueError, KeyError) as err:
                problems.append(f"{folder.name}/lesson.json: tool {entry.get('name')!r} from MCP: {err}")
                continue
            tools[i] = {**listed, **{k: v for k, v in entry.items() if k != "mcp"}}


def load_lesson(path: str | Path) -> Lesson:
    """Load and validate one lesson folder (or its lesson.json); raises LessonError naming file and field."""
    folder = Path(path)
    folder = folder.parent if folder.name == "lesson.json" else folder
    label = f"{folder.parent.name}/{folder.name}"
    check = Checker(f"{label}/lesson.json")
    try:
        data = json.loads((folder / "lesson.json").read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise LessonError([f"{label}/lesson.json: file missing"]) from None
    except json.JSONDecodeError as err:
        raise LessonError([f"{label}/lesson.json: invalid JSON at line {err.lineno}: {err.msg}"]) from None
    _with_mcp_tools(data, folder, check.problems)
    check_lesson(check, data, folder)
    steps = {lang: _read_steps(folder, lang, check.problems) for lang in LANGUAGES}
    deep = {lang: [bool(x.depth) for x in steps[lang]] for lang in LANGUAGES}
    if len({tuple(v) for v in deep.values()}) > 1:
        check.problems.append(f"{label}: the '{DEPTH_MARK}' parts must be in the same steps in en, ru and pl")
    if not check.problems:
        _check_figures_shown(data, steps, f"{label}/lesson.json", check.problems)
    count = len(steps["en"])
    for kind in ("exercises", "questions"):
        for n, item in enumerate(data.get(kind, [])):
            if isinstance(item.get("step"), int) and count and item["step"] > count:
                check.problems.append(f"{label}/lesson.json: {kind}[{n}].step: the lesson has only {count} steps")
    if check.problems:
        raise LessonError(check.problems)
    try:
        return _lesson_from(data, folder, steps)
    except LessonError as err:
        raise LessonError([f"{label}/lesson.json: {p}" for p in err.problems]) from None


def load_lessons(root: str | Path | None = None) -> list[Lesson]:
    """Every `NN-slug` folder under root (default: the repo's lessons/), sorted by order."""
    root = Path(root) if root else LESSONS_ROOT
    lessons, problems = [], []
    for folder in sorted(p for p in root.iterdir() if p.is_dir() and FOLDER.match(p.name)):
        try:
            lessons.append(load_lesson(folder))
        except LessonError as err:
            problems.extend(err.problems)
    for attr in ("id", "order"):
        values = [getattr(x, attr) for x in lessons]
        problems.extend(
            f"{root.name}: two lessons share {attr} {v!r}" for v in sorted(set(values), key=str) if values.count(v) > 1
        )
    if problems:
        raise LessonError(problems)
    return sorted(lessons, key=lambda x: x.order)
