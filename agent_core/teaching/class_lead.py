"""A teacher who leads: "send the class to lesson N, step M", and where each learner is (lesson and step).

Stored beside the classes and the progress (one database); every call opens its own connection, so the sessions
of a class share nothing but the database."""

from __future__ import annotations

import time
from dataclasses import dataclass

from agent_core.teaching.classes import normalize_code
from agent_core.teaching.progress import ProgressTables

SCHEMA = (
    # The place the teacher last sent the class to (one row per class).
    """CREATE TABLE IF NOT EXISTS class_focus (
        code TEXT PRIMARY KEY, lesson TEXT NOT NULL, step INTEGER NOT NULL, sent_at REAL NOT NULL)""",
    # The lesson and step each learner last had on screen.
    """CREATE TABLE IF NOT EXISTS learner_places (
        learner TEXT PRIMARY KEY, lesson TEXT NOT NULL, step INTEGER NOT NULL, seen_at REAL NOT NULL)""",
)


@dataclass(frozen=True)
class Place:
    """A lesson (its id) and a step of it (1-based), with when it was sent or seen."""

    lesson: str
    step: int
    at: float


class ClassLead(ProgressTables):
    """The teacher's "send the class there" and the learners' places, in SQLite or PostgreSQL."""

    SCHEMA = SCHEMA

    def send(self, code: str, lesson: str, step: int) -> Place:
        """The teacher sends the class to `lesson`, step `step` (1-based); learners who follow go there."""
        place = Place(lesson, max(1, int(step)), time.time())
        with self._connect() as conn:
            conn.execute(
                "INSERT INTO class_focus VALUES (?, ?, ?, ?) ON CONFLICT(code) DO UPDATE SET "
                "lesson = excluded.lesson, step = excluded.step, sent_at = excluded.sent_at",
                (normalize_code(code), place.lesson, place.step, place.at),
            )
        return place

    def focus(self, code: str) -> Place | None:
        """Where the teacher last sent the class, or None."""
        with self._connect() as conn:
            row = conn.execute(
                "SELECT lesson, step, sent_at FROM class_focus WHERE code = ?", (normalize_code(code),)
            ).fetchone()
        return Place(row[0], int(row[1]), float(row[2])) if row else None

    def seen(self, learner: str, lesson: str, step: int) -> None:
        """The learner has `lesson`, step `step` on screen now."""
        with self._connect() as conn:
            conn.execute(
                "INSERT INTO learner_places VALUES (?, ?, ?, ?) ON CONFLICT(learner) DO UPDATE SET "
                "lesson = excluded.lesson, step = excluded.step, seen_at = excluded.seen_at",
                (learner, lesson, int(step), time.time()),
            )

    def places(self, learners: list[str]) -> dict[str, Place]:
        """Where each of these learners last was (learners never seen on a lesson are left out)."""
        if not learners:
            return {}
        marks = ", ".join("?" for _ in learners)
        with self._connect() as conn:
            rows = conn.execute(
                f"SELECT learner, lesson, step, seen_at FROM learner_places WHERE learner IN ({marks})",  # noqa: S608
                tuple(learners),
            ).fetchall()
        return {r[0]: Place(r[1], int(r[2]), float(r[3])) for r in rows}
