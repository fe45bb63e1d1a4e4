"""Lesson progress on disk (exercises passed, questions answered), keyed by a learner id kept in the URL."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

from agent_core.store import default_db_path

SCHEMA = """CREATE TABLE IF NOT EXISTS progress (
    learner TEXT NOT NULL, lesson TEXT NOT NULL, item TEXT NOT NULL, done_at REAL NOT NULL,
    PRIMARY KEY (learner, lesson, item))"""


class ProgressStore:
    """Which exercises and questions a learner has completed; a reload or a new tab keeps them."""

    def __init__(self, path: str | Path | None = None) -> None:
        runs_db = default_db_path()
        self.path = Path(path) if path else runs_db.with_name(runs_db.stem + "-progress.db")
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self._connect() as conn:
            conn.execute(SCHEMA)

    def _connect(self) -> sqlite3.Connection:
        return sqlite3.connect(self.path, timeout=10.0)

    def mark(self, learner: str, lesson: str, item: str) -> None:
        with self._connect() as conn:
            conn.execute("INSERT OR IGNORE INTO progress VALUES (?, ?, ?, ?)", (learner, lesson, item, time.time()))

    def done(self, learner: str, lesson: str) -> set[str]:
        with self._connect() as conn:
            rows = conn.execute("SELECT item FROM progress WHERE learner = ? AND lesson = ?", (learner, lesson))
            return {r[0] for r in rows}

    def reset(self, learner: str, lesson: str) -> None:
        with self._connect() as conn:
            conn.execute("DELETE FROM progress WHERE learner = ? AND lesson = ?", (learner, lesson))
