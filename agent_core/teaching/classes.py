"""Classes without accounts: a teacher creates one (a short join code plus a teacher key), learners join by code.

Stored beside the lesson progress (the same SQLite file, so a class report is one database); the API is narrow
(create, find, join, members) so another backend can implement it.
"""

from __future__ import annotations

import hmac
import secrets
import time
from dataclasses import dataclass

from agent_core.teaching.progress import ProgressTables

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
    # A class server's learners carry an id in a cookie; the resume code takes it to another device.
    """CREATE TABLE IF NOT EXISTS resume_codes (
        learner TEXT PRIMARY KEY, code TEXT NOT NULL UNIQUE, created_at REAL NOT NULL)""",
    # The browsers that opened a class with its teacher key: the key leaves the address bar after that.
    """CREATE TABLE IF NOT EXISTS class_teachers (
        code TEXT NOT NULL, learner TEXT NOT NULL, since REAL NOT NULL, PRIMARY KEY (code, learner))""",
    # Whether a class's learners may use the server's own key (no row: they may).
    """CREATE TABLE IF NOT EXISTS class_switches (code TEXT PRIMARY KEY, server_key INTEGER NOT NULL)""",
    # Whether a class's learners may run their own tool code on the server, shut in (no row: they may not).
    """CREATE TABLE IF NOT EXISTS class_own_code (code TEXT PRIMARY KEY, allowed INTEGER NOT NULL)""",
)
RESUME_LENGTH = 8  # 31^8 codes, typed once on a second device


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


class ClassStore(ProgressTables):
    """Classes and their members in SQLite or PostgreSQL; each call opens its own connection (safe across sessions)."""

    SCHEMA = SCHEMA

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

    # -- a class server's identities ---------------------------------------------------------------
    def resume_code(self, learner: str) -> str:
        """The learner's resume code (made on first asking): typed on another device, it makes that device them."""
        with self._connect() as conn:
            row = conn.execute("SELECT code FROM resume_codes WHERE learner = ?", (learner,)).fetchone()
            if row:
                return str(row[0])
            for _ in range(20):
                code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(RESUME_LENGTH))
                cursor = conn.execute(
                    "INSERT INTO resume_codes VALUES (?, ?, ?) ON CONFLICT DO NOTHING", (learner, code, time.time())
                )
                if cursor.rowcount:
                    return code
        raise ClassError("no free resume code")

    def learner_of(self, resume_code: str) -> str | None:
        """Whose resume code this is (as typed: case, spaces and dashes do not matter), or None."""
        with self._connect() as conn:
            row = conn.execute("SELECT learner FROM resume_codes WHERE code = ?", (normalize_code(resume_code),))
            found = row.fetchone()
        return str(found[0]) if found else None

    def bind_teacher(self, code: str, learner: str) -> None:
        """This browser opened the class with its teacher key: it opens it from now on without the key in the URL."""
        with self._connect() as conn:
            conn.execute(
                "INSERT INTO class_teachers VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                (normalize_code(code), learner, time.time()),
            )

    def teaches(self, learner: str) -> list[str]:
        """The codes of the classes this browser opened as their teacher, the newest first."""
        with self._connect() as conn:
            rows = conn.execute(
                "SELECT code FROM class_teachers WHERE learner = ? ORDER BY since DESC", (learner,)
            ).fetchall()
        return [str(r[0]) for r in rows]

    def rename(self, code: str, learner: str, name: str) -> None:
        """The teacher renames a learner on the board."""
        with self._connect() as conn:
            conn.execute(
                "UPDATE class_members SET name = ? WHERE code = ? AND learner = ?",
                (clean_name(name), normalize_code(code), learner),
            )

    def remove(self, code: str, learner: str) -> None:
        """The teacher takes a learner (a test join, a duplicate) off the board; their own work stays theirs."""
        with self._connect() as conn:
            conn.execute("DELETE FROM class_members WHERE code = ? AND learner = ?", (normalize_code(code), learner))

    def server_key_on(self, code: str) -> bool:
        """Whether this class's learners may use the server's own key (on until the teacher switches it off)."""
        with self._connect() as conn:
            row = conn.execute("SELECT server_key FROM class_switches WHERE code = ?", (normalize_code(code),))
            found = row.fetchone()
        return found is None or bool(found[0])

    def own_code_on(self, code: str) -> bool:
        """Whether this class's learners may run their own tool code (off until the teacher switches it on)."""
        with self._connect() as conn:
            row = conn.execute("SELECT allowed FROM class_own_code WHERE code = ?", (normalize_code(code),))
            found = row.fetchone()
        return found is not None and bool(found[0])

    def set_own_code(self, code: str, on: bool) -> None:
        with self._connect() as conn:
            conn.execute(
                "INSERT INTO class_own_code VALUES (?, ?) ON CONFLICT(code) DO UPDATE SET allowed = excluded.allowed",
                (normalize_code(code), int(on)),
            )

    def set_server_key(self, code: str, on: bool) -> None:
        with self._connect() as conn:
            conn.execute(
                "INSERT INTO class_switches VALUES (?, ?) ON CONFLICT(code) DO UPDATE SET server_key = excluded.server_key",
                (normalize_code(code), int(on)),
            )
