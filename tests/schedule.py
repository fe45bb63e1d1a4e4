"""The order each test process runs the tests in: longest first, dealt into shares of about the same seconds."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

# How many seconds each test took (setup, call and teardown), by node id from tests/ ("file::test[params]"), as
# measured by a whole run with LAB_RECORD_DURATIONS=tests/durations.json (tests/conftest.py writes it; the file says
# when and where). The test processes share the tests out by these figures; they need only be right relative to
# each other. A test the file does not know (new since) counts as its siblings' mean, or else as below.
DURATIONS = Path(__file__).with_name("durations.json")
BROWSER_TEST_SECONDS = 10  # a browser test never measured
RECORDED_BELOW = 0.5  # quicker tests are not written down: they count as 0


def _load(path: Path) -> tuple[dict[str, float], dict[str, float]]:
    """(seconds by node id, mean seconds by "file::test" over its parameters)."""
    seconds = json.loads(path.read_text())["seconds"] if path.exists() else {}
    groups: dict[str, list[float]] = {}
    for nodeid, value in seconds.items():
        groups.setdefault(nodeid.split("[", 1)[0], []).append(value)
    return seconds, {name: sum(values) / len(values) for name, values in groups.items()}


SECONDS_PER_TEST, SECONDS_PER_FUNCTION = _load(DURATIONS)


def key_of(nodeid: str) -> str:
    """A node id from the tests folder (pytest's are from the rootdir: tests/test_x.py::test_y)."""
    return nodeid.removeprefix("tests/")


def expected_seconds(item: pytest.Item) -> float:
    key = key_of(item.nodeid)
    if key in SECONDS_PER_TEST:
        return SECONDS_PER_TEST[key]
    if (function := key.split("[", 1)[0]) in SECONDS_PER_FUNCTION:
        return SECONDS_PER_FUNCTION[function]
    return BROWSER_TEST_SECONDS if item.get_closest_marker("browser") else 0


class DurationRecorder:
    """Sums each test's phases as the reports arrive (in the controlling process under xdist) and writes the
    figures expected_seconds reads."""

    def __init__(self, path: Path, note: str) -> None:
        self.path, self.note, self.seconds = path, note, {}

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        key = key_of(report.nodeid)
        self.seconds[key] = self.seconds.get(key, 0.0) + report.duration

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        kept = {k: round(v, 1) for k, v in sorted(self.seconds.items()) if v >= RECORDED_BELOW}
        self.path.write_text(json.dumps({"measured": self.note, "seconds": kept}, indent=1, ensure_ascii=False) + "\n")


def order(items: list[pytest.Item], workers: int) -> list[pytest.Item]:
    """The tests longest first; with several `--dist worksteal` processes, in one share per process, each share
    longest first and as long as the others. worksteal hands process i the i-th contiguous slice of the list
    (as many tests each); an idle process then steals the back half of a busy one's slice, which is its quick
    tests. Sorted as one list, the first slice held every long walk, so one process ran them all one after another
    while the others stole its quick tests and idled at the end (the longest test first in each share instead, the
    next one to the share with the fewest seconds: longest processing time first)."""
    cost = {item.nodeid: expected_seconds(item) for item in items}
    ranked = sorted(items, key=lambda item: cost[item.nodeid], reverse=True)  # stable: files keep their order
    if workers <= 1:
        return ranked
    sizes, left = [], len(ranked)
    for i in range(workers):  # as worksteal cuts: len(pending) // processes left, in turn
        sizes.append(left // (workers - i))
        left -= sizes[-1]
    shares: list[list[pytest.Item]] = [[] for _ in sizes]
    seconds = [0.0] * workers
    for item in ranked:
        open_ = [i for i in range(workers) if len(shares[i]) < sizes[i]]
        i = min(open_, key=lambda i: (seconds[i], len(shares[i]) / sizes[i]))
        shares[i].append(item)
        seconds[i] += cost[item.nodeid]
    return [item for share in shares for item in share]
