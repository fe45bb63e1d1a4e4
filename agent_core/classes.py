"""Classes without accounts: a teacher creates one (a short join code plus a teacher key), learners join by code.

Stored beside the lesson progress (the same SQLite file, so a class report is one database); the API is narrow
(create, find, join, members) so another backend can implement it.
"""

from __future__ import annotations

import hmac
import secrets
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agent_core import db
from agent_core.progress import progress_db_path

# No 0/O, 1/I/L: a code read off a projector must not be misread.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
MAX_NAME = 40  # a learner's or class's display name, in characters
SCHEMA = (
    """CREATE TABLE IF NOT EXISTS classes (
        code TEXT PRIMARY KEY, name TEXT NOT NULL, teacher_key TEXT NOT NULL, created_at REAL NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS class_members (
        code TEXT NOT NULL, learner TEXT NOT NULL, name TEXT NOT NULL, joined_at REAL NOT NULL,
        PRIMARY KEY (code, learner))""",
)


class ClassError(ValueError):
    """A class action that cannot be done as asked (unknown code, empty name)."""


@dataclass(frozen=True)
class SchoolClass:
    """One class: the code learners type, a display name, and the key that opens its Teacher page."""

    code: str
    name: str
    teacher_key: str
    created_at: float

    def opens_with(self, key: str | None) -> bool:
        """True if `key` is this class's teacher key (compared in constant time)."""
        if not key:
            return False
        return hmac.compare_digest(key.encode(), self.teacher_key.encode())


@dataclass(frozen=True)
class Member:
    """A learner in a class: the learner id from the URL and the name they gave."""

    learner: str
    name: str
    joined_at: float


def normalize_code(text: str) -> str:
    """A typed code as stored: upper case, without spaces or dashes ("abc-123 " -> "ABC123")."""
    return "".join(ch for ch in text.upper() if ch.isalnum())


def clean_name(text: str) -> str:
    """A display name on one line, at most MAX_NAME characters; ClassError if nothing is left."""
    name = " ".join("".join(ch for ch in text if ch.isprintable()).split())[:MAX_NAME]
    if not name:
        raise ClassError("empty name")
    return name


class ClassStore:
    """Classes and their members in SQLite; each call opens its own connection (safe across sessions)."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = db.prepare(path or progress_db_path())
        with self._connect() as conn:
            for statement in SCHEMA:
                conn.execute(statement)

    def _connect(self) -> Any:
        return db.connect(self.path)

    def create(self, name: str) -> SchoolClass:
        """A new class with a fresh code that no other class has."""
        made = SchoolClass("", clean_name(name), secrets.token_urlsafe(9), time.time())
        with self._connect() as conn:
            for _ in range(20):
                code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
                cursor = conn.execute(
                    "INSERT INTO classes VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
                    (code, made.name, made.teacher_key, made.created_at),
                )
                if cursor.rowcount:
                    return SchoolClass(code, made.name, made.teacher_key, made.created_at)
        raise ClassError("no free class code")  # 31^6 codes: only a nearly full database gets here

    def find(self, code: str) -> SchoolClass | None:
        """The class with this code (as typed: case and dashes do not matter), or None."""
        with self._connect() as conn:
            row = conn.execute("SELECT * FROM classes WHERE code = ?", (normalize_code(code),)).fetchone()
        return SchoolClass(*row) if row else None

    def join(self, code: str, learner: str, name: str) -> Member:
        """Add a learner to a class, or rename them if they are in it already."""
        found = self.find(code)
        if found is None:
            raise ClassError(f"no class {normalize_code(code)}")
        member = Member(learner, clean_name(name), time.time())
        with self._connect() as conn:
            conn.execute(
                "INSERT INTO class_members VALUES (?, ?, ?, ?) ON CONFLICT(code, learner) DO UPDATE SET name = excluded.name",
                (found.code, learner, member.name, member.joined_at),
            )
        return member

    def member(self, code: str, learner: str) -> Member | None:
        """This learner's membership of the class, or None."""
        with self._connect() as conn:
            row = conn.execute(
                "SELECT learner, name, joined_at FROM class_members WHERE code = ? AND learner = ?",
                (normalize_code(code), learner),
            ).fetchone()
        return Member(*row) if row else None

    def members(self, code: str) -> list[Member]:
        """Everyone in the class, in the order they joined."""
        with self._connect() as conn:
            rows = conn.execute(
                "SELECT learner, name, joined_at FROM class_members WHERE code = ? ORDER BY joined_at, name",
                (normalize_code(code),),
            ).fetchall()
        return [Member(*row) for row in rows]

    def joined(self, learner: str) -> list[str]:
        """The codes of the classes this learner is in, the one joined last first."""
        with self._connect() as conn:
            rows = conn.execute(
                "SELECT code FROM class_members WHERE learner = ? ORDER BY joined_at DESC", (learner,)
            ).fetchall()
        return [row[0] for row in rows]
