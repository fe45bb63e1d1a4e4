"""The test suite's own cost: `make test`'s pytest run, timed (wall and CPU), with the slowest files and tests.

Figures (target: `make test` under 10 minutes wall on the 2-core machine):
- wall: seconds from start to the last test's end;
- CPU: user + system seconds of pytest and every process it waited for (xdist workers, app servers, Chromium);
- floor: CPU divided by the cores: the wall time if every core were busy all along; wall / floor says how much of
  the run was waiting (a browser waiting for a rerun, a test waiting for a timeout) or one core working alone;
- the slowest files and tests (setup + call + teardown), and the browser tests' waits for a rerun (wait_idle);
- the tests that waited most: wall minus the CPU of their test process and every process below it
  (benchmarks/suite_cpu.py), the time a quiet machine would still spend on them doing nothing.
The machine's load average before and after is printed: on a shared machine the figures are worth only that.

    python benchmarks/bench_suite.py [--workers N] [--dist MODE] [pytest arguments, e.g. -m "not browser"]
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).parents[1]
ARTIFACTS = ROOT / "test-artifacts"  # the run's whole output and its waits stay here to read afterwards
SUMMARY = re.compile(r"\d+ (?:passed|failed|errors?)\b.* in [\d.]+s")
TARGET_S = 600
DURATION = re.compile(r"^\s*([\d.]+)s (setup|call|teardown)\s+(\S+)")


def _cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def _idle_waits(log: Path) -> str:
    """How the browser tests spent their time: waits for a rerun, waits after an input that asked for none,
    screenshots; how many of each and their seconds."""
    if not log.exists():
        return "no browser waits logged"
    kinds: dict[str, list[float]] = collections.defaultdict(list)
    for line in log.read_text().splitlines():
        seconds, kind, _counters = line.split(" ", 2)
        kinds[kind].append(float(seconds))
    return ", ".join(f"{len(v)} {k} waits ({sum(v):.0f} s)" for k, v in sorted(kinds.items()))


def _waiting(cpu_log: Path) -> str:
    """The tests' CPU summed, and the tests that waited most (wall minus CPU)."""
    if not cpu_log.exists():
        return "  no per-test CPU logged"
    logged = [json.loads(line) for line in cpu_log.read_text().splitlines()]
    # A process that ended in the test without a parent below the test process to collect its CPU (a browser
    # launched and closed by the test) takes its past CPU with it: such a test's figure is unknown, not negative.
    tests = [t for t in logged if t["cpu"] >= 0]
    wall, cpu = sum(t["wall"] for t in tests), sum(t["cpu"] for t in tests)
    lines = [
        f"  per test: {wall:.0f} s of wall and {cpu:.0f} s of CPU summed over {len(tests)} tests"
        f" ({len(logged) - len(tests)} not measured); waited most:"
    ]
    for t in sorted(tests, key=lambda t: t["cpu"] - t["wall"])[:10]:
        lines.append(f"    {t['wall'] - t['cpu']:7.1f}  ({t['wall']:.1f} s wall, {t['cpu']:.1f} s CPU)  {t['test']}")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", default="3", help="pytest-xdist processes, as `make test` (default 3)")
    parser.add_argument("--dist", default="worksteal", help="pytest-xdist's scheduling, as `make test`")
    options, pytest_args = parser.parse_known_args()
    ARTIFACTS.mkdir(exist_ok=True)
    log, out = ARTIFACTS / "bench-suite-waits.log", ARTIFACTS / "bench-suite-pytest.txt"
    cpu_log = ARTIFACTS / "bench-suite-cpu.jsonl"
    log.unlink(missing_ok=True)
    cpu_log.unlink(missing_ok=True)
    command = [sys.executable, "-m", "pytest", "-q", "-n", options.workers, "--dist", options.dist, "--durations=0"]
    command += pytest_args
    command += ["-p", "no:cacheprovider", "-p", "suite_cpu"]
    load_before = os.getloadavg()
    cpu_before, started = _cpu(), time.perf_counter()
    with open(out, "w") as sink:
        path = os.pathsep.join(filter(None, [str(ROOT / "benchmarks"), os.environ.get("PYTHONPATH")]))
        env = {**os.environ, "LAB_IDLE_LOG": str(log), "LAB_CPU_LOG": str(cpu_log), "PYTHONPATH": path}
        code = subprocess.call(command, cwd=ROOT, env=env, stdout=sink)
    wall, cpu = time.perf_counter() - started, _cpu() - cpu_before
    load_after = os.getloadavg()
    text = out.read_text()
    per_test: dict[str, float] = collections.defaultdict(float)
    for line in text.splitlines():
        if m := DURATION.match(line):
            per_test[m.group(3)] += float(m.group(1))
    per_file: dict[str, float] = collections.defaultdict(float)
    for test, seconds in per_test.items():
        per_file[test.split("::")[0]] += seconds
    cores = os.cpu_count() or 1
    floor = cpu / cores
    summary = next((m.group(0) for line in reversed(text.splitlines()) if (m := SUMMARY.search(line))), "?")
    print(f"suite: {' '.join(command[2:])}")
    print(f"  result: {summary} (the whole output: {out.relative_to(ROOT)})")
    print(f"  wall {wall:.0f} s ({wall / 60:.1f} min; target {TARGET_S / 60:.0f} min), CPU {cpu:.0f} s")
    print(f"  floor (CPU / {cores} cores) {floor:.0f} s: wall is {wall / floor:.2f}x the floor" if floor else "")
    print(f"  load average before {load_before[0]:.1f}, after {load_after[0]:.1f} (1 min)")
    print(f"  browser: {_idle_waits(log)}")
    print("  slowest files (seconds in their tests, summed over workers):")
    for name, seconds in sorted(per_file.items(), key=lambda kv: -kv[1])[:12]:
        print(f"    {seconds:7.1f}  {name}")
    print("  slowest tests:")
    for name, seconds in sorted(per_test.items(), key=lambda kv: -kv[1])[:10]:
        print(f"    {seconds:7.1f}  {name}")
    print(_waiting(cpu_log))
    if code:
        print("\n".join(line for line in text.splitlines() if line.startswith(("FAILED", "ERROR"))))
    return code


if __name__ == "__main__":
    sys.exit(main())
