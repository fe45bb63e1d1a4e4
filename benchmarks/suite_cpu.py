"""A pytest plugin for benchmarks/bench_suite.py: each test's wall seconds and CPU seconds (its test process and every
process below it: app servers, Playwright's driver, Chromium), one line per test in the file LAB_CPU_LOG names.

A test whose CPU is far below its wall time waited (for a timeout, a retry's back-off, a browser or server that
was idle) rather than worked: on a quiet machine that wait is the time to win back. Linux only (/proc)."""

from __future__ import annotations

import json
import os
import resource
import time
from pathlib import Path

import pytest

TICK = os.sysconf("SC_CLK_TCK")


def _children() -> dict[int, list[int]]:
    tree: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue  # gone meanwhile
            tree.setdefault(parent, []).append(int(entry.name))
    return tree


def _cpu_below(pid: int) -> float:
    """CPU seconds of the live processes below `pid`, each with what its own finished children used."""
    tree, total = _children(), 0.0
    todo = list(tree.get(pid, ()))
    while todo:
        child = todo.pop()
        try:
            fields = Path(f"/proc/{child}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += sum(int(x) for x in fields[11:15]) / TICK  # utime stime cutime cstime
        todo += tree.get(child, ())
    return total


def _cpu() -> float:
    mine = resource.getrusage(resource.RUSAGE_SELF)
    finished = resource.getrusage(resource.RUSAGE_CHILDREN)
    own = mine.ru_utime + mine.ru_stime + finished.ru_utime + finished.ru_stime
    return own + _cpu_below(os.getpid())


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None):
    log = os.environ.get("LAB_CPU_LOG")
    if not log:
        yield
        return
    cpu, wall = _cpu(), time.perf_counter()
    yield
    line = {"test": item.nodeid, "wall": time.perf_counter() - wall, "cpu": _cpu() - cpu}
    with open(log, "a") as out:
        out.write(json.dumps(line) + "\n")
