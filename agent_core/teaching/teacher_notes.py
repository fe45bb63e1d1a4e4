"""Teacher notes of a lesson ("teacher_notes" in lessons/NN-slug/lesson.json), read as plain data for the Teacher page."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from agent_core.teaching.lessons import Lesson
from agent_core.teaching.lessons.figures import rendered_numbers

SECTIONS = ("objectives", "numbers", "misconceptions", "discussion")
LEVELS = ("beginner", "intermediate", "advanced")


@dataclass(frozen=True)
class TeacherNotes:
    """Minutes, level and per-language lists of objectives, numbers, misconceptions and discussion questions."""

    minutes: int | None = None
    level: str | None = None
    sections: dict[str, dict[str, list[str]]] = field(default_factory=dict)

    def items(self, section: str, lang: str) -> list[str]:
        """One section in one language, English when that language is missing."""
        texts = self.sections.get(section, {})
        return texts.get(lang) or texts.get("en") or []


def notes_from(data: object) -> TeacherNotes | None:
    """The notes in a lesson.json's "teacher_notes" value; None when there are none or they are not an object."""
    if not isinstance(data, dict) or not data:
        return None
    minutes = data.get("minutes")
    level = data.get("level")
    return TeacherNotes(
        minutes=minutes if isinstance(minutes, int) and not isinstance(minutes, bool) and minutes > 0 else None,
        level=level if level in LEVELS else None,
        sections={name: _by_language(_filled(name, data.get(name))) for name in SECTIONS if data.get(name)},
    )


def lesson_notes(lesson: Lesson) -> TeacherNotes | None:
    """A lesson's teacher notes, from its loaded data if the loader kept them, else from its lesson.json."""
    raw = getattr(lesson, "teacher_notes", None)
    if raw is None:
        try:
            raw = json.loads((lesson.path / "lesson.json").read_text(encoding="utf-8")).get("teacher_notes")
        except (OSError, ValueError, AttributeError):
            return None
    if isinstance(raw, TeacherNotes):
        return raw
    if not isinstance(raw, dict) and hasattr(raw, "__dict__"):
        raw = vars(raw)  # the loader's own dataclass, if it grows one
    return notes_from(raw)


def _filled(section: str, value: object) -> object:
    """The numbers' texts with their measured figures filled in ("{turns} turns" -> "3 turns")."""
    return rendered_numbers(value) if section == "numbers" else value


def _by_language(value: object) -> dict[str, list[str]]:
    """{"en": [...], "ru": "..."} -> {"en": [...], "ru": ["..."]}; anything else is dropped."""
    if not isinstance(value, dict):
        return {}
    out: dict[str, list[str]] = {}
    for lang, items in value.items():
        if isinstance(items, str):
            items = [items]
        if isinstance(items, list):
            out[str(lang)] = [str(i) for i in items if isinstance(i, (str, int, float)) and str(i).strip()]
    return out
