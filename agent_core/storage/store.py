"""Saved runs: a small SQLite database (or PostgreSQL with DATABASE_URL), one row per run and per turn, no keys."""

from __future__ import annotations

import json
import math
import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from agent_core.files.export import dumps
from agent_core.model import SCHEMA_VERSION, Run, Turn
from agent_core.secrets import scrub_secrets
from agent_core.storage import db
from agent_core.storage.turn_delta import decode_turns, turn_record

APP_DIR = "agent-loop-lab"
DB_NAME = "runs.db"
ENV_DB = "AGENT_LOOP_LAB_DB"
# Schema migrations, applied in order; PRAGMA user_version = how many have run. Append, never edit.
MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE runs (
        id TEXT PRIMARY KEY,
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL,
        task TEXT NOT NULL,
        provider TEXT NOT NULL,
        model TEXT NOT NULL,
        turns INTEGER NOT NULL,
        tokens INTEGER NOT NULL,
        cost_usd REAL NOT NULL,
        stop_kind TEXT,
        parent_id TEXT,
        parent_turn INTEGER,
        title TEXT NOT NULL,
        schema_version INTEGER NOT NULL,
        config_json TEXT NOT NULL,
        run_json TEXT NOT NULL
    );
    CREATE TABLE turns (
        run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        idx INTEGER NOT NULL,
        turn_json TEXT NOT NULL,
        PRIMARY KEY (run_id, idx)
    );
    CREATE INDEX runs_created ON runs(created_at DESC);
    CREATE INDEX runs_parent ON runs(parent_id);
    """,
    # Runs recorded from another program name it (agent_core.recorder): '' for the Lab's own runs.
    "ALTER TABLE runs ADD COLUMN origin TEXT NOT NULL DEFAULT '';",
    # On a class server every run has an owner (a learner id; '' on a personal server) and is private to them
    # until they share it: a row in shares makes its link open read-only for others.
    """
    ALTER TABLE runs ADD COLUMN owner TEXT NOT NULL DEFAULT '';
    CREATE INDEX runs_owner ON runs(owner, created_at DESC);
    CREATE TABLE shares (run_id TEXT PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE, shared_at REAL NOT NULL);
    """,
)
OWN, SHARED, TEACHER, NOT_SHARED, MISSING = "own", "shared", "teacher", "not_shared", "missing"


class StoreError(RuntimeError):
    """The runs database cannot be used as it is (newer format, damaged file, unreadable row)."""


class NotYours(StoreError):
    """A class server's learner tried to write or delete a run that belongs to someone else."""


@dataclass
class RunSummary:
    """One line of the saved-runs list (no turn bodies)."""

    id: str
    created_at: float
    updated_at: float
    task: str
    provider: str
    model: str
    turns: int
    tokens: int
    cost_usd: float
    stop_kind: str | None
    parent_id: str | None
    parent_turn: int | None
    title: str
    origin: str = ""  # the recording program's name for a recorded run, else ""

    @property
    def label(self) -> str:
        return self.title or self.task

    @property
    def recorded(self) -> bool:
        return bool(self.origin)


# INSERT OR REPLACE is SQLite's alone; this form reads the same on PostgreSQL.
_UPSERT_TURN = (
    "INSERT INTO turns (run_id, idx, turn_json) VALUES (?, ?, ?) "
    "ON CONFLICT (run_id, idx) DO UPDATE SET turn_json = excluded.turn_json"
)

# RunSummary's fields are exactly the columns the list queries select, in order.
SUMMARY_COLUMNS = tuple(f.name for f in fields(RunSummary))


def default_target() -> str | Path:
    """Where runs, progress and classes live: DATABASE_URL's PostgreSQL server if set, else the SQLite file."""
    return db.database_url() or default_db_path()


def default_db_path() -> Path:
    """$AGENT_LOOP_LAB_DB, else the user's data folder (XDG), created if missing."""
    explicit = os.environ.get(ENV_DB)
    if explicit:
        return Path(explicit).expanduser()
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    folder = Path(base) / APP_DIR
    folder.mkdir(parents=True, exist_ok=True)
    return folder / DB_NAME


class RunStore:
    """Runs saved through one connection per instance, shared by Streamlit's threads under a lock.

    `path` is a SQLite file, or a postgresql:// URL (the server holds the same tables; see agent_core/storage/db.py)."""

    def __init__(self, path: str | Path | None = None, owner: str | None = None) -> None:
        self.path = db.prepare(default_target() if path is None else path)
        # None: a personal server, where every run is the person's. A learner id: a class server's learner, who
        # lists, writes and deletes only their own runs (reading others' is decided by access()).
        self.owner = owner
        # One connection, kept open: closing the last connection checkpoints the WAL with an fsync, which
        # cost ~25 ms per save when every call opened its own. The lock serialises this process's threads;
        # WAL and the busy timeout cover other processes.
        self._lock = threading.RLock()
        self._conn: Any = None
        try:
            self._migrate()
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        """Close the connection (reopened on the next call)."""
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def __enter__(self) -> RunStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- writing -------------------------------------------------------------------------
    def save_turn(self, run: Run, turn: Turn) -> None:
        """Write one turn and the run header in one transaction: a crash leaves the earlier turns intact."""
        position = next(i for i, t in enumerate(run.turns) if t is turn)
        row = (run.id, turn.index, _turn_json(run, position))
        with self._write() as conn:
            self._check_mine(conn, run.id)
            self._upsert_header(conn, run)
            conn.execute(_UPSERT_TURN, row)

    def save_run(self, run: Run, from_turn: int = 0) -> None:
        """Write the header and the turns numbered `from_turn` or later (every turn by default) in one
        transaction; turns no longer in the run are removed. A click changes only the newest turn, so the
        Playground passes that turn's number instead of re-serialising a run that grows with every turn."""
        indices = [t.index for t in run.turns]
        rows = [(run.id, t.index, _turn_json(run, i)) for i, t in enumerate(run.turns) if t.index >= from_turn]
        with self._write() as conn:
            self._check_mine(conn, run.id)
            self._upsert_header(conn, run)
            conn.execute(
                f"DELETE FROM turns WHERE run_id = ? AND idx NOT IN ({','.join('?' * len(indices))})",
                (run.id, *indices),
            )
            conn.executemany(_UPSERT_TURN, rows)

    def delete(self, run_id: str) -> bool:
        """Delete a run and its turns; its forks keep their own copy and simply lose the link target."""
        with self._write() as conn:
            self._check_mine(conn, run_id)
            conn.execute("DELETE FROM turns WHERE run_id = ?", (run_id,))
            conn.execute("DELETE FROM shares WHERE run_id = ?", (run_id,))
            deleted: int = conn.execute("DELETE FROM runs WHERE id = ?", (run_id,)).rowcount
            return deleted > 0

    def share(self, run_id: str) -> None:
        """Let anyone with the link open this run read-only (on a class server: only its owner may)."""
        with self._write() as conn:
            self._check_mine(conn, run_id)
            conn.execute("INSERT INTO shares VALUES (?, ?) ON CONFLICT DO NOTHING", (run_id, time.time()))

    def access(self, run_id: str, teaches: tuple[str, ...] = ()) -> str:
        """How this store's owner may open a run: OWN, SHARED (read-only), TEACHER (read-only: a learner of a
        class they teach), NOT_SHARED or MISSING. On a personal server every saved run is OWN."""
        with self._read() as conn:
            row = conn.execute(
                "SELECT owner, (SELECT count(*) FROM shares WHERE run_id = ?) FROM runs WHERE id = ?", (run_id, run_id)
            ).fetchone()
        if row is None:
            return MISSING
        owner, shared = str(row[0] or ""), bool(row[1])
        if self.owner is None or owner == self.owner:
            return OWN
        return SHARED if shared else TEACHER if owner in teaches else NOT_SHARED

    def _check_mine(self, conn: Any, run_id: str) -> None:
        if self.owner is None:
            return
        row = conn.execute("SELECT owner FROM runs WHERE id = ?", (run_id,)).fetchone()
        if row is not None and str(row[0] or "") != self.owner:
            raise NotYours(f"Run {run_id} belongs to someone else: it was not changed.")

    # -- reading -------------------------------------------------------------------------
    def load(self, run_id: str) -> Run | None:
        """The saved run, or None if there is no such id."""
        with self._read() as conn:
            head = conn.execute(
                "SELECT schema_version, config_json, run_json FROM runs WHERE id = ?", (run_id,)
            ).fetchone()
            if head is None:
                return None
            turns = conn.execute("SELECT turn_json FROM turns WHERE run_id = ? ORDER BY idx", (run_id,)).fetchall()
        version, config_json, run_json = head
        if not isinstance(version, int) or not 1 <= version <= SCHEMA_VERSION:  # older formats are migrated
            raise StoreError(
                f"Saved run {run_id} uses run format v{version}; this app reads v{SCHEMA_VERSION}. "
                "Export it from the app version that saved it, or delete it."
            )
        try:
            data = json.loads(run_json)
            data["config"] = json.loads(config_json)
            data["turns"] = decode_turns([json.loads(row[0]) for row in turns])
            return Run.from_dict({"schema_version": version, "run": data})
        except (ValueError, KeyError, TypeError, AttributeError, IndexError, RecursionError) as exc:
            # Any shape the row may have been given (by hand, by another program, by a bug) ends here.
            raise StoreError(
                f"Saved run {run_id} is damaged and cannot be read ({type(exc).__name__}: {str(exc)[:200]}). "
                "Delete it on the Runs page."
            ) from exc

    def version(self, run_id: str) -> float | None:
        """When the run was last saved (None: not saved): a tab compares it to spot another tab's saves."""
        with self._read() as conn:
            row = conn.execute("SELECT updated_at FROM runs WHERE id = ?", (run_id,)).fetchone()
        return row[0] if row else None

    def list_runs(self, search: str = "", limit: int = 200, owners: tuple[str, ...] | None = None) -> list[RunSummary]:
        """Newest first; search matches task, title, id, model or stop kind (case-insensitive, any script).

        On a class server only the owner's runs, or those of `owners` (a teacher's class)."""
        sql = f"SELECT {', '.join(SUMMARY_COLUMNS)} FROM runs WHERE 1 = 1"
        params: list[Any] = []
        if owners is None and self.owner is not None:
            owners = (self.owner,)
        if owners is not None:
            sql += f" AND owner IN ({','.join('?' * len(owners))})" if owners else " AND 0 = 1"
            params += owners
        if search.strip():
            sql += (
                " AND instr(casefold(id || ' ' || task || ' ' || title || ' ' || model || ' ' || "
                "coalesce(stop_kind, '')), ?) > 0"
            )
            params.append(search.strip().casefold())
        sql += " ORDER BY created_at DESC LIMIT ?"
        params.append(max(0, int(limit)))
        with self._read() as conn:
            return [_summary(row) for row in conn.execute(sql, params)]

    def children(self, run_id: str) -> list[RunSummary]:
        """Runs forked from this one, in the order of the turn they branch at."""
        sql = f"SELECT {', '.join(SUMMARY_COLUMNS)} FROM runs WHERE parent_id = ?"
        params: tuple[str, ...] = (run_id,)
        if self.owner is not None:  # someone else's fork of a shared run is theirs to know about
            sql, params = sql + " AND owner = ?", (run_id, self.owner)
        with self._read() as conn:
            return [_summary(row) for row in conn.execute(sql + " ORDER BY parent_turn, created_at", params)]

    def schema_version(self) -> int:
        """The database format version (PRAGMA user_version)."""
        with self._read() as conn:
            return db.user_version(conn)

    # -- plumbing ------------------------------------------------------------------------
    def _connection(self) -> Any:
        if self._conn is not None:
            return self._conn
        try:
            conn = db.connect(self.path, autocommit=True)
            if isinstance(conn, sqlite3.Connection):
                conn.create_function("casefold", 1, _casefold, deterministic=True)
                # With WAL, NORMAL cannot corrupt the file; a power cut may lose the last click's save, not more.
                conn.execute("PRAGMA synchronous = NORMAL")
        except db.errors() as exc:
            raise StoreError(f"Cannot open the runs database {db.describe(self.path)}: {exc}") from exc
        self._conn = conn
        return conn

    @contextmanager
    def _read(self) -> Iterator[Any]:
        with self._lock:
            try:
                yield self._connection()
            except db.errors() as exc:
                raise StoreError(f"The runs database {db.describe(self.path)} cannot be read: {exc}") from exc

    @contextmanager
    def _write(self) -> Iterator[Any]:
        with self._lock:
            conn = self._connection()
            try:
                conn.execute("BEGIN IMMEDIATE")
                yield conn
                conn.execute("COMMIT")
            except BaseException as exc:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                if isinstance(exc, db.errors()):
                    raise StoreError(f"The runs database {db.describe(self.path)} cannot be written: {exc}") from exc
                if isinstance(exc, UnicodeEncodeError):
                    raise StoreError(
                        "The run holds text that cannot be stored as UTF-8 (a lone surrogate, such as "
                        "half of an emoji); it stays in this tab but was not saved."
                    ) from exc
                raise

    def _migrate(self) -> None:
        with self._read() as conn:
            current = db.user_version(conn)
            # A server database has no journal mode to set; a SQLite file is ready once it is in WAL mode.
            wal = not isinstance(self.path, Path) or (
                str(conn.execute("PRAGMA journal_mode").fetchone()[0]).lower() == "wal"
            )
        if current == len(MIGRATIONS) and wal:
            return  # up to date: no write lock needed, so a database another process is writing still opens
        with self._write() as conn:
            db.lock_for_migration(conn)
            version = db.user_version(conn)
            if version > len(MIGRATIONS):
                raise StoreError(
                    f"{db.describe(self.path)} was written by a newer Agent Loop Lab (database format v{version}; "
                    f"this version knows up to v{len(MIGRATIONS)}). Update the app, or set "
                    f"{ENV_DB} to another file."
                )
            for number, script in enumerate(MIGRATIONS[version:], start=version + 1):
                # executescript() would commit on its own; split so the version bump shares the transaction.
                for statement in filter(str.strip, script.split(";")):
                    conn.execute(statement)
                db.set_user_version(conn, number)
        if isinstance(self.path, Path):
            with self._read() as conn:
                conn.execute("PRAGMA journal_mode = WAL")  # readers never block the writer

    def _upsert_header(self, conn: Any, run: Run) -> None:
        row = {**_header_row(run), "owner": self.owner or ""}
        names = ", ".join(row)
        updates = ", ".join(f"{k} = excluded.{k}" for k in row if k not in ("id", "owner"))
        conn.execute(
            f"INSERT INTO runs ({names}) VALUES ({', '.join('?' * len(row))}) ON CONFLICT(id) DO UPDATE SET {updates}",
            tuple(row.values()),
        )


_NUMBER_FIELDS = {"created_at": float, "updated_at": float, "turns": int, "tokens": int, "cost_usd": float}


def _summary(row: tuple[Any, ...]) -> RunSummary:
    """A list row, whatever was stored in it: numbers that are not numbers become 0, text becomes text.

    SQLite keeps any value in any column; a row written by hand or by another program must not break the
    list (opening that run then says plainly that it is damaged)."""
    values = dict(zip(SUMMARY_COLUMNS, row, strict=True))
    for name, kind in _NUMBER_FIELDS.items():
        try:
            number = kind(values[name])
            values[name] = number if math.isfinite(number) else kind(0)
        except (TypeError, ValueError, OverflowError):
            values[name] = kind(0)
    for name in ("id", "task", "provider", "model", "title", "origin"):
        values[name] = "" if values[name] is None else str(values[name])
    for name in ("stop_kind", "parent_id"):
        values[name] = None if values[name] is None else str(values[name])
    if not isinstance(values["parent_turn"], int):
        values["parent_turn"] = None
    return RunSummary(**values)


def _turn_json(run: Run, position: int) -> str:
    """A turn's row: only what is new since the turn before it (agent_core/storage/turn_delta.py), scrubbed."""
    previous = run.turns[position - 1] if position > 0 else None
    return dumps(turn_record(run.turns[position], previous))


def _casefold(value: object) -> str:
    return str(value).casefold() if value is not None else ""


def _header_row(run: Run) -> dict[str, Any]:
    rest = {f.name: getattr(run, f.name) for f in fields(Run) if f.name not in ("config", "turns")}
    return {
        "id": run.id,
        "created_at": run.created_at,
        "updated_at": time.time(),
        "task": scrub_secrets(run.config.task),
        "provider": run.config.provider,
        "model": run.config.model,
        "turns": len(run.turns),
        "tokens": run.total_tokens,
        "cost_usd": run.total_cost_usd,
        "stop_kind": run.stop.kind if run.stop else None,
        "parent_id": run.parent_id,
        "parent_turn": run.parent_turn,
        "title": scrub_secrets(run.title or ""),
        "origin": scrub_secrets(str((run.origin or {}).get("client") or "recorded")) if run.origin else "",
        "schema_version": SCHEMA_VERSION,
        "config_json": dumps(run.config),
        "run_json": dumps(rest),
    }
