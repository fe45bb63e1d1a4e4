"""Opens the app's database: a SQLite file by default, PostgreSQL when DATABASE_URL is set, with one SQL text for both."""

from __future__ import annotations

import os
import re
import sqlite3
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

ENV_URL = "DATABASE_URL"
_SCHEMES = ("postgresql://", "postgres://")
_VERSION_TABLE = "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)"


def database_url() -> str | None:
    """DATABASE_URL when it names a PostgreSQL server; None means the embedded SQLite default."""
    url = os.environ.get(ENV_URL, "").strip()
    return url if url.startswith(_SCHEMES) else None


def is_postgres(target: object) -> bool:
    return isinstance(target, str) and target.startswith(_SCHEMES)


def describe(target: str | Path) -> str:
    """The database as messages may name it: a file path, or a server URL without its password."""
    if not is_postgres(target):
        return str(target)
    parts = urlsplit(str(target))
    return f"postgresql://{parts.hostname or ''}{':' + str(parts.port) if parts.port else ''}{parts.path}"


def prepare(target: str | Path) -> str | Path:
    """A store's target as it keeps it: a PostgreSQL URL as given, or a file path whose folder now exists."""
    if is_postgres(target):
        return str(target)
    path = Path(target).expanduser()
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


def errors() -> tuple[type[BaseException], ...]:
    """The exceptions either backend raises for a database that cannot be used."""
    try:
        import psycopg
    except ImportError:
        return (sqlite3.DatabaseError,)
    return (sqlite3.DatabaseError, psycopg.Error)


def connect_sqlite(path: Path, autocommit: bool) -> sqlite3.Connection:
    conn = sqlite3.connect(
        path, timeout=10.0, check_same_thread=False, isolation_level=None if autocommit else "DEFERRED"
    )
    conn.execute("PRAGMA foreign_keys = ON")
    return conn


def to_postgres(sql: str) -> str:
    """SQLite's dialect as the stores write it, in PostgreSQL's: placeholders, float type, transaction start,
    and the case-insensitive search (Python's casefold becomes lower(), which folds Cyrillic and Polish too)."""
    sql = sql.replace("%", "%%").replace("?", "%s").replace("BEGIN IMMEDIATE", "BEGIN")
    sql = re.sub(r"\bREAL\b", "DOUBLE PRECISION", sql)
    return sql.replace("instr(casefold(", "strpos(lower(")


class PostgresConnection:
    """A psycopg connection that takes the stores' SQLite-dialect SQL, so each store keeps one SQL text.

    It commits each statement unless the caller opens a transaction with BEGIN; `with` closes it, because the
    stores that use `with` open a connection per call and a server connection must not be left open."""

    def __init__(self, url: str) -> None:
        import psycopg

        self.raw = psycopg.connect(url, autocommit=True, connect_timeout=10)

    def execute(self, sql: str, params: Any = ()) -> Any:
        return self.raw.execute(to_postgres(sql), tuple(params))

    def executemany(self, sql: str, rows: Any) -> None:
        with self.raw.cursor() as cursor:
            cursor.executemany(to_postgres(sql), [tuple(r) for r in rows])

    @property
    def in_transaction(self) -> bool:
        from psycopg.pq import TransactionStatus

        return self.raw.info.transaction_status != TransactionStatus.IDLE

    def close(self) -> None:
        self.raw.close()

    def __enter__(self) -> PostgresConnection:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def connect(target: str | Path, autocommit: bool = False) -> Any:
    """A connection to a SQLite file or a PostgreSQL URL; both take `?` placeholders and SQLite's DDL."""
    if is_postgres(target):
        return PostgresConnection(str(target))
    return connect_sqlite(Path(target), autocommit)


@contextmanager
def transaction(target: str | Path) -> Iterator[Any]:
    """One connection for one call, committed (or rolled back) and then closed: the stores that open one per call
    (lesson progress, the spend ledger) leave none open between calls."""
    conn = connect(target)
    try:
        with conn:
            yield conn
    finally:
        conn.close()


class Tables:
    """A store in one database: its SCHEMA's tables made when it opens, then one connection per call, committed
    (or rolled back) and closed, so none is left open between calls."""

    SCHEMA: tuple[str, ...] = ()

    def __init__(self, target: str | Path) -> None:
        self.path = prepare(target)
        with self._connect() as conn:
            for statement in self.SCHEMA:
                conn.execute(statement)

    def _connect(self) -> AbstractContextManager[Any]:
        return transaction(self.path)


def user_version(conn: Any) -> int:
    """How many schema migrations have run (SQLite's PRAGMA user_version; a one-row table on PostgreSQL)."""
    if not isinstance(conn, PostgresConnection):
        return int(conn.execute("PRAGMA user_version").fetchone()[0])
    conn.execute(_VERSION_TABLE)
    row = conn.execute("SELECT version FROM schema_version").fetchone()
    return row[0] if row else 0


def set_user_version(conn: Any, number: int) -> None:
    if not isinstance(conn, PostgresConnection):
        conn.execute(f"PRAGMA user_version = {int(number)}")
        return
    conn.execute("DELETE FROM schema_version")
    conn.execute("INSERT INTO schema_version VALUES (?)", (int(number),))


def lock_for_migration(conn: Any) -> None:
    """Inside a migration's transaction: app processes starting together on one server migrate one at a time
    (SQLite's BEGIN IMMEDIATE already does this for a file)."""
    if isinstance(conn, PostgresConnection):
        conn.execute("SELECT pg_advisory_xact_lock(7411)")
