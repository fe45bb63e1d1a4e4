"""The suite's own order (tests/schedule.py): worksteal's contiguous slices each get their share of the long tests."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import schedule

LONG = [key for key, seconds in schedule.SECONDS_PER_TEST.items() if seconds >= 10]


def _item(key: str) -> SimpleNamespace:
    file, _, name = key.partition("::")
    return SimpleNamespace(
        path=Path("/repo/tests") / file, originalname=name, name=name, nodeid=key, get_closest_marker=lambda _m: None
    )


def test_each_slice_worksteal_cuts_holds_about_a_third_of_the_seconds_longest_first():
    items = [_item(key) for key in LONG] + [_item(f"test_quick.py::test_{n}") for n in range(300)]
    ordered = schedule.order(items, 3)
    assert sorted(i.nodeid for i in ordered) == sorted(i.nodeid for i in items)
    cuts, left = [], len(ordered)
    for i in range(3):  # as worksteal cuts: len(pending) // processes left
        cuts.append(left // (3 - i))
        left -= cuts[-1]
    starts = [sum(cuts[:i]) for i in range(3)]
    slices = [ordered[start : start + size] for start, size in zip(starts, cuts, strict=True)]
    seconds = [sum(schedule.expected_seconds(i) for i in part) for part in slices]
    longest = max(schedule.SECONDS_PER_TEST.values())
    assert max(seconds) - min(seconds) <= longest, seconds
    for part in slices:
        costs = [schedule.expected_seconds(i) for i in part]
        assert costs == sorted(costs, reverse=True), "each share runs its longest test first"


def test_recorded_durations_are_read_back_by_node_id_and_a_new_parameter_counts_as_its_siblings(tmp_path):
    path = tmp_path / "durations.json"
    recorder = schedule.DurationRecorder(path, "a test run")
    for nodeid, seconds in [("tests/test_a.py::test_x[en]", 4.0), ("tests/test_a.py::test_x[ru]", 6.0)]:
        for when in ("setup", "call", "teardown"):
            recorder.pytest_runtest_logreport(SimpleNamespace(nodeid=nodeid, duration=seconds / 3, when=when))
    recorder.pytest_runtest_logreport(SimpleNamespace(nodeid="tests/test_a.py::test_quick", duration=0.01))
    recorder.pytest_sessionfinish(None)
    seconds, means = schedule._load(path)
    assert seconds == {"test_a.py::test_x[en]": 4.0, "test_a.py::test_x[ru]": 6.0}  # the quick one is left out
    assert means == {"test_a.py::test_x": 5.0}


def test_each_test_process_is_told_the_dealing_it_runs_under(pytestconfig):
    # xdist sets a test process's own --dist to "no"; read there, the shares were never dealt. The tests folder's
    # own conftest, found by its file (`import conftest` may find another folder's).
    ours = str(Path(__file__).with_name("conftest.py"))
    conftest = next(p for p in pytestconfig.pluginmanager.get_plugins() if getattr(p, "__file__", None) == ours)
    node = SimpleNamespace(workerinput={"workercount": 3}, config=SimpleNamespace(getoption=lambda name: "worksteal"))
    conftest.pytest_configure_node(node)
    assert node.workerinput["lab_dist"] == "worksteal"
