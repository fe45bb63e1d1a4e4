"""Run code a learner wrote (a tool's function, a lesson's exercise) in a child Python process with a time and a
memory limit, and hand back what it printed and returned; the app itself never executes it.

Personal mode only: the person at the keyboard is trusted with their own machine, but a typo must not hang or
swell the app, so the child gets a CPU and an address-space limit, a wall-clock timeout, no file writes, a bounded
output, a scratch folder as its working directory and an empty environment. A class server does not run
learners' code at all (callers check agent_core.serving.mode first).

The child runs `source` as a module, then `harness` in the same namespace; the harness reads `PAYLOAD` and calls
`report(value)` with a JSON-able result. Only the last report counts.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]  # the repository: a harness may import agent_core (the offline model)
MARK = "@@lab-code-report@@"
DEFAULT_TIMEOUT_S = 5.0  # seconds of CPU time (RLIMIT_CPU); the wall clock allows for a busy machine
WALL_FACTOR, WALL_SLACK_S = 4, 30.0
DEFAULT_MEMORY_MB = 768
MAX_OUTPUT = 64_000

_BOOT = r"""
import json, resource, sys, traceback
spec = json.loads(sys.stdin.read())
limit = spec["memory_mb"] * 1024 * 1024
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
resource.setrlimit(resource.RLIMIT_CPU, (spec["cpu_s"], spec["cpu_s"] + 1))
resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))
MARK = spec["mark"]
def report(value):
    sys.stdout.write("\n" + MARK + json.dumps(value, default=str) + "\n")
    sys.stdout.flush()
namespace = {"__name__": "learner", "report": report, "PAYLOAD": spec["payload"]}
stage = "source"
try:
    exec(compile(spec["source"], "your_code.py", "exec"), namespace)
    stage = "harness"
    exec(compile(spec["harness"], "check.py", "exec"), namespace)
except MemoryError:
    sys.stdout.write("\n" + MARK + json.dumps({"__limit__": "memory"}) + "\n")
except BaseException as exc:
    tb = traceback.extract_tb(exc.__traceback__)
    line = next((f.lineno for f in reversed(tb) if f.filename == "your_code.py"), None)
    text = f"{type(exc).__name__}: {exc}"[:500]
    sys.stdout.write("\n" + MARK + json.dumps({"__error__": text, "line": line, "stage": stage}) + "\n")
sys.stdout.flush()
import os
os._exit(0)  # threads the code left running (a tool's timeout pool) must not keep the child alive
"""


@dataclass(frozen=True)
class CodeResult:
    """What the child process did: its last report, what it printed, and why it stopped early, if it did."""

    value: Any = None  # the harness's last report()
    printed: str = ""  # everything else the code printed (cut to MAX_OUTPUT)
    error: str = ""  # "ValueError: ..." raised by the learner's code or the harness
    error_line: int | None = None  # the line of the learner's code it was raised on
    limit: str | None = None  # "time" | "memory" | "output" when a limit stopped it

    @property
    def ok(self) -> bool:
        return not self.error and self.limit is None


def run_python(
    source: str,
    harness: str,
    payload: Any = None,
    timeout_s: float = DEFAULT_TIMEOUT_S,
    memory_mb: int = DEFAULT_MEMORY_MB,
) -> CodeResult:
    """Run the learner's source, then the harness, in a limited child process; never raises for what they do.

    `timeout_s` is CPU time (an endless loop is stopped by it); the wall clock allows several times more, so a
    machine busy with other work does not turn a correct answer into a timeout."""
    spec = {
        "source": source,
        "harness": harness,
        "payload": payload,
        "memory_mb": memory_mb,
        "cpu_s": max(1, round(timeout_s)),
        "mark": MARK,
    }
    with tempfile.TemporaryDirectory(prefix="lab-code-") as scratch:
        try:
            done = subprocess.run(
                [sys.executable, "-I", "-c", _BOOT],
                input=json.dumps(spec),
                capture_output=True,
                text=True,
                timeout=timeout_s * WALL_FACTOR + WALL_SLACK_S,  # CPU seconds are the limit; a busy machine is not
                cwd=scratch,
                env={"PYTHONPATH": str(ROOT), "PYTHONHASHSEED": "0", "PYTHONIOENCODING": "utf-8"},
                check=False,
            )
        except subprocess.TimeoutExpired as err:
            return CodeResult(printed=_text(err.stdout)[:MAX_OUTPUT], limit="time")
    return _read(done.stdout, done.stderr, done.returncode)


def _text(value: bytes | str | None) -> str:
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return value or ""


def _read(stdout: str, stderr: str, code: int) -> CodeResult:
    printed, reports = [], []
    for line in stdout.splitlines():
        (reports.append(line[len(MARK) :]) if line.startswith(MARK) else printed.append(line))
    shown = "\n".join(printed).strip()
    limit = "output" if len(shown) > MAX_OUTPUT else None
    if not reports:
        if code < 0 or "MemoryError" in stderr:  # killed by a signal (the CPU limit) or out of memory
            return CodeResult(printed=shown[:MAX_OUTPUT], limit="memory" if "MemoryError" in stderr else "time")
        return CodeResult(printed=shown[:MAX_OUTPUT], error=stderr.strip().splitlines()[-1][:500] if stderr else "")
    last = json.loads(reports[-1])
    if isinstance(last, dict) and "__limit__" in last:
        return CodeResult(printed=shown[:MAX_OUTPUT], limit=str(last["__limit__"]))
    if isinstance(last, dict) and "__error__" in last:
        return CodeResult(printed=shown[:MAX_OUTPUT], error=str(last["__error__"]), error_line=last.get("line"))
    return CodeResult(value=last, printed=shown[:MAX_OUTPUT], limit=limit)
