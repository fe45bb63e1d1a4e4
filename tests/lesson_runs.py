"""The lesson tests' shared cache: each lesson folder loaded once, and one offline run per (lesson, language,
exercise) however many tests read it."""

from __future__ import annotations

import functools
from pathlib import Path

from agent_core.model import Run
from agent_core.teaching.lessons import LESSONS_ROOT, Lesson, load_lesson
from agent_core.teaching.lessons.validate import FOLDER

FOLDERS = sorted(p for p in LESSONS_ROOT.iterdir() if p.is_dir() and FOLDER.match(p.name))


@functools.cache
def lesson(folder: Path) -> Lesson:
    return load_lesson(folder)


@functools.cache
def run(folder: Path, lang: str, exercise: str | None = None) -> Run:
    """The lesson's scenario (with one exercise's change) run offline to its end."""
    from agent_core.loop.stepper import run_task  # the loader tests do not need the loop

    found = lesson(folder)
    return run_task(found.scenario_config(lang, found.exercise(exercise).change if exercise else None))
