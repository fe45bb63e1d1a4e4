"""Class plans across lessons (lessons/plans/*.json): timed blocks, some of them a lesson and step to send the class."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from agent_core.teaching.lessons import LANGUAGES, LESSONS_ROOT, LessonError


@dataclass(frozen=True)
class Block:
    """A stretch of the class: how long, what happens, and the lesson and step it sends the class to (or none)."""

    minutes: int
    what: dict[str, str]
    lesson: str | None = None
    step: int = 1


@dataclass(frozen=True)
class Plan:
    id: str
    title: dict[str, str]
    blocks: tuple[Block, ...]

    @property
    def minutes(self) -> int:
        return sum(b.minutes for b in self.blocks)

    def starts(self) -> list[int]:
        """The minute each block starts at (0 for the first)."""
        out, at = [], 0
        for block in self.blocks:
            out.append(at)
            at += block.minutes
        return out


def load_plans(lesson_ids: set[str], root: Path | None = None) -> list[Plan]:
    """Every plan in lessons/plans, checked: texts in every language, positive minutes, lessons that exist."""
    plans = []
    for path in sorted((root or LESSONS_ROOT / "plans").glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        problems = []
        blocks = []
        for n, raw in enumerate(data.get("blocks", [])):
            where = f"plans/{path.name}: blocks[{n}]"
            if not isinstance(raw.get("minutes"), int) or raw["minutes"] < 1:
                problems.append(f"{where}.minutes: a whole number of minutes, 1 or more")
            if set(raw.get("what", {})) != set(LANGUAGES):
                problems.append(f"{where}.what: a text in each of {', '.join(LANGUAGES)}")
            if raw.get("lesson") is not None and raw["lesson"] not in lesson_ids:
                problems.append(f"{where}.lesson: no lesson {raw['lesson']!r}")
            blocks.append(Block(raw.get("minutes", 0), raw.get("what", {}), raw.get("lesson"), raw.get("step", 1)))
        if problems:
            raise LessonError(problems)
        plans.append(Plan(data["id"], data["title"], tuple(blocks)))
    return plans
