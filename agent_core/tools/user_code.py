"""Run code a learner wrote (a tool's function, a lesson's exercise) in a child Python process with a time and a
memory limit, and hand back what it printed and returned; the app itself never executes it.

In personal mode the person at the keyboard is trusted with their own machine, but a typo must not hang or swell
the app, so the child gets a CPU and an address-space limit, a wall-clock timeout, no file writes, a bounded
output, a scratch folder as its working directory, its own process group and an empty environment. On a class
server it also shuts itself in first (agent_core/tools/confine.py: no network, no files beyond Python's own, no
new process), and runs nothing if it cannot; callers decide whether a class server runs learner code at all.

The child runs `source` as a module, then `harness` in the same namespace; the harness reads `PAYLOAD` and calls
`report(value)` with a JSON-able result. Only the last report counts.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import platform
import signal
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from agent_core.serving.mode import is_class_server
from agent_core.tools.confine import CHILD as CONFINE

ROOT = Path(__file__).resolve().parents[2]  # the repository: a harness may import agent_core (the offline model)
MARK = "@@lab-code-report@@"
DEFAULT_TIMEOUT_S = 5.0  # seconds of CPU time (RLIMIT_CPU); the wall clock allows for a busy machine
WALL_FACTOR, WALL_SLACK_S = 4, 30.0
DEFAULT_MEMORY_MB = 768
MAX_OUTPUT = 64_000
MAX_STREAM = 4_000_000  # bytes of stdout (prints and the report) read before the child is stopped as too chatty

_BOOT = (
    CONFINE
    + r"""
import json, resource, sys, traceback
spec = json.loads(sys.stdin.read())
limit = spec["memory_mb"] * 1024 * 1024
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
resource.setrlimit(resource.RLIMIT_CPU, (spec["cpu_s"], spec["cpu_s"] + 1))
resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))
MARK = spec["mark"]
if spec["confine"]:
    try:
        _confine()
    except BaseException as exc:  # fail closed: unconfined, the learner's code does not run
        sys.stdout.write("\n" + MARK + json.dumps({"__limit__": "confine", "why": str(exc)}) + "\n")
        sys.stdout.flush()
        import os
        os._exit(0)
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
)


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
    wall_s: float | None = None,
    confine: bool = False,
) -> CodeResult:
    """Run the learner's source, then the harness, in a limited child process; never raises for what they do.

    `timeout_s` is CPU time (an endless loop is stopped by it); the wall clock (`wall_s`) allows several times
    more by default, so a machine busy with other work does not turn a correct answer into a timeout. A class
    server always confines the child."""
    spec = {
        "source": source,
        "harness": harness,
        "payload": payload,
        "memory_mb": memory_mb,
        "cpu_s": max(1, round(timeout_s)),
        "mark": MARK,
        "confine": confine or is_class_server(),
    }
    wall = wall_s if wall_s is not None else timeout_s * WALL_FACTOR + WALL_SLACK_S
    with tempfile.TemporaryDirectory(prefix="lab-code-") as scratch:
        child = subprocess.Popen(
            [sys.executable, "-I", "-c", _BOOT],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=scratch,
            env={"PYTHONPATH": str(ROOT), "PYTHONHASHSEED": "0", "PYTHONIOENCODING": "utf-8"},
            start_new_session=True,  # its own process group: a timeout stops whatever it started too
        )
        out, err = _Capped(child, child.stdout, MAX_STREAM), _Capped(child, child.stderr, MAX_OUTPUT)
        try:
            assert child.stdin is not None
            child.stdin.write(json.dumps(spec).encode())
            child.stdin.close()
        except BrokenPipeError:  # it died before reading (it could not start)
            pass
        try:
            code = child.wait(timeout=wall)
        except subprocess.TimeoutExpired:
            _stop(child)
            return CodeResult(printed=out.text()[:MAX_OUTPUT], limit="time")
        stdout, stderr = out.text(), err.text()
    if out.overflow:
        return CodeResult(printed=stdout[:MAX_OUTPUT], limit="output")
    return _read(stdout, stderr, code)


class _Capped:
    """Reads one of the child's pipes in a thread, keeping at most `cap` bytes; past it, stops the child (a print
    loop must not fill the app's memory)."""

    def __init__(self, child: subprocess.Popen[bytes], pipe: IO[bytes] | None, cap: int) -> None:
        self._child, self._pipe, self._cap = child, pipe, cap
        self._chunks: list[bytes] = []
        self.overflow = False
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        size = 0
        assert self._pipe is not None
        while chunk := os.read(self._pipe.fileno(), 65536):
            if size < self._cap:
                self._chunks.append(chunk[: self._cap - size])
            size += len(chunk)
            if size > self._cap and not self.overflow:
                self.overflow = True
                _stop(self._child)

    def text(self) -> str:
        self._thread.join(timeout=5)
        return b"".join(self._chunks).decode("utf-8", "replace")


def _stop(child: subprocess.Popen[bytes]) -> None:
    """Kill the child's process group while the child is still unreaped (its pid cannot belong to anyone else)."""
    if child.returncode is None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(child.pid, signal.SIGKILL)
    child.wait()


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


@functools.cache  # a fact about this machine's kernel, the same for every session
def can_confine() -> bool:
    """Whether this machine can shut learner code in (a child confines itself, then runs a trivial function)."""
    if platform.system() != "Linux" or platform.machine() != "x86_64":
        return False
    result = run_python("def probe():\n    return 'confined'\n", "report(probe())", confine=True)
    return result.ok and result.value == "confined"
