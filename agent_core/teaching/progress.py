"""Lesson progress on disk (exercises passed, questions answered), keyed by a learner id kept in the URL."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from agent_core.storage import db
from agent_core.storage.store import default_db_path

SCHEMA = """CREATE TABLE IF NOT EXISTS progress (
    learner TEXT NOT NULL, lesson TEXT NOT NULL, item TEXT NOT NULL, done_at REAL NOT NULL,
    PRIMARY KEY (learner, lesson, item))"""
# Each learner's FIRST answer to each question: later answers never overwrite it (the first answer counts).
ANSWERS_SCHEMA = """CREATE TABLE IF NOT EXISTS quiz_answers (
    learner TEXT NOT NULL, lesson TEXT NOT NULL, question TEXT NOT NULL, choice INTEGER NOT NULL,
    correct INTEGER NOT NULL, answered_at REAL NOT NULL, PRIMARY KEY (learner, lesson, question))"""


def progress_db_path() -> str | Path:
    """The progress database: beside the runs database, named after it (runs.db -> runs-progress.db); on
    PostgreSQL (DATABASE_URL) the same server database as the runs."""
    if url := db.database_url():
        return url
    runs_db = default_db_path()
    return runs_db.with_name(runs_db.stem + "-progress.db")


class ProgressTables(db.Tables):
    """A store in the progress database: lesson progress, classes, the class's lead, the spend ledger."""

    def __init__(self, path: str | Path | None = None) -> None:
        super().__init__(path or progress_db_path())


@dataclass(frozen=True)
class Completion:
    """One finished item of a lesson ("exercise:ID" or "question:ID") for one learner."""

    learner: str
    lesson: str
    item: str
    done_at: float


@dataclass(frozen=True)
class QuizAnswer:
    """A learner's first answer to one question: the option index they picked and whether it was right."""

    learner: str
    lesson: str
    question: str
    choice: int
    correct: bool
    answered_at: float


class ProgressStore(ProgressTables):
    """Which exercises and questions a learner has completed; a reload or a new tab keeps them."""

    SCHEMA = (SCHEMA, ANSWERS_SCHEMA)

    def close(self) -> None:
        """Nothing stays open between calls; here so every store closes the same way."""

    def __enter__(self) -> ProgressStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def mark(self, learner: str, lesson: str, item: str) -> None:
        with self._connect() as conn:
            conn.execute(
                "INSERT INTO progress VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING", (learner, lesson, item, time.time())
            )

    def done(self, learner: str, lesson: str) -> set[str]:
        with self._connect() as conn:
            rows = conn.execute("SELECT item FROM progress WHERE learner = ? AND lesson = ?", (learner, lesson))
            return {r[0] for r in rows}

    def counts(self, learner: str) -> dict[str, int]:
        """How many items of each lesson this learner has finished, in one query (the lesson picker shows them all)."""
        with self._connect() as conn:
            rows = conn.execute("SELECT lesson, COUNT(*) FROM progress WHERE learner = ? GROUP BY lesson", (learner,))
            return {lesson: count for lesson, count in rows}

    def reset(self, learner: str, lesson: str) -> None:
        with self._connect() as conn:
            conn.execute("DELETE FROM progress WHERE learner = ? AND lesson = ?", (learner, lesson))

    def completed(self, learners: list[str]) -> list[Completion]:
        """Every finished item of these learners, in one query (a class report reads 40 learners at once)."""
        if not learners:
            return []
        marks = ",".join("?" * len(learners))
        with self._connect() as conn:
            rows = conn.execute(
                f"SELECT learner, lesson, item, done_at FROM progress WHERE learner IN ({marks})", learners
            )
            return [Completion(*row) for row in rows]

    def record_answer(self, learner: str, lesson: str, question: str, choice: int, correct: bool) -> bool:
        """Keep a learner's answer if it is their first to this question; True if it was (and so counts)."""
        with self._connect() as conn:
            cursor = conn.execute(
                "INSERT INTO quiz_answers VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (learner, lesson, question, int(choice), int(bool(correct)), time.time()),
            )
            return bool(cursor.rowcount == 1)

    def answers(self, learners: list[str]) -> list[QuizAnswer]:
        """The first answers of these learners to every question they answered, oldest first."""
        if not learners:
            return []
        marks = ",".join("?" * len(learners))
        with self._connect() as conn:
            rows = conn.execute(
                "SELECT learner, lesson, question, choice, correct, answered_at FROM quiz_answers "
                f"WHERE learner IN ({marks}) ORDER BY answered_at",
                learners,
            )
            return [QuizAnswer(r[0], r[1], r[2], r[3], bool(r[4]), r[5]) for r in rows]
