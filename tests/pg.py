"""A real PostgreSQL server for the store tests, started from the machine's binaries in a temporary folder."""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser import free_port


def _bin_dir() -> Path | None:
    found = shutil.which("initdb")
    if found:
        return Path(found).resolve().parent
    dirs = sorted(glob.glob("/usr/lib/postgresql/*/bin"))
    return Path(dirs[-1]) if dirs and (Path(dirs[-1]) / "initdb").exists() else None


def _as_server_user() -> list[str]:
    """initdb and postgres refuse to run as root: as root, run them as the 'postgres' user."""
    if os.geteuid() != 0:
        return []
    try:
        pwd.getpwnam("postgres")
    except KeyError:
        pytest.skip("running as root and there is no 'postgres' user to run the PostgreSQL server as")
    return ["runuser", "-u", "postgres", "--"]


@contextlib.contextmanager
def postgres_server() -> Iterator[str]:
    """Start a throwaway server on a free loopback port; yields the admin URL. Skips where it cannot run."""
    bin_dir = _bin_dir()
    if bin_dir is None:
        pytest.skip("PostgreSQL's server binaries (initdb, postgres) are not installed; .ci/run installs them")
    pytest.importorskip("psycopg", reason="psycopg is not installed (it comes with the test extras)")
    runas = _as_server_user()
    data = Path(tempfile.mkdtemp(prefix="agent-loop-lab-pg-"))
    if runas:
        shutil.chown(data, "postgres")
    port = free_port()
    subprocess.run([*runas, str(bin_dir / "initdb"), "-D", str(data / "db"), "-A", "trust", "-U", "postgres",
                    "--no-sync"], check=True, capture_output=True)  # fmt: skip
    options = f"-h 127.0.0.1 -p {port} -k {data} -c fsync=off -c max_connections=200"
    ctl = [*runas, str(bin_dir / "pg_ctl"), "-D", str(data / "db"), "-l", str(data / "log"), "-w"]
    subprocess.run([*ctl, "-o", options, "start"], check=True, capture_output=True)
    try:
        yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run([*ctl, "-m", "immediate", "stop"], capture_output=True)
        shutil.rmtree(data, ignore_errors=True)


def fresh_database(admin_url: str) -> str:
    """A new empty database on the server, so each test starts clean; returns its URL."""
    import psycopg

    name = f"t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return admin_url.rsplit("/", 1)[0] + f"/{name}"
