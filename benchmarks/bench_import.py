"""Import cost of the loop: `import agent_core.loop.stepper` on top of `import anthropic`, each in fresh interpreters.

Two figures (target: the loop costs at most 150 ms more than the SDK it wraps, with neither pandas nor plotly
loaded):
- direct: inside an interpreter that has already imported anthropic, the time of `import agent_core.loop.stepper` alone;
  the median over PAIRS fresh interpreters. This is the figure to judge by.
- subtraction: wall time of a fresh `import agent_core.loop.stepper` minus that of a fresh `import anthropic`. It is kept
  for continuity, but it is noisy: anthropic alone takes seconds on a busy machine, and the loop's share is the
  small difference of two large numbers.
The runs alternate, so a busy machine slows all of them alike. Bytecode is cached in a private folder (as an
installed app caches it after its first start, even where PYTHONDONTWRITEBYTECODE is set); the first round
only warms that cache and the file cache, and is dropped.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).parents[1]
PAIRS = 7
TARGET_EXTRA_MS = 150
DIRECT = (
    "import time, anthropic; started = time.perf_counter(); import agent_core.loop.stepper; "
    "print(time.perf_counter() - started)"
)


def _env(pycache: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = pycache
    return env


def import_seconds(module: str, env: dict[str, str]) -> float:
    """Wall time of a fresh interpreter that imports `module` (interpreter start-up included)."""
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", f"import {module}"], cwd=ROOT, env=env, check=True)
    return time.perf_counter() - started


def direct_seconds(env: dict[str, str]) -> float:
    """`import agent_core.loop.stepper` timed inside a fresh interpreter that has already imported anthropic."""
    out = subprocess.run([sys.executable, "-c", DIRECT], cwd=ROOT, env=env, check=True, capture_output=True, text=True)
    return float(out.stdout.strip().splitlines()[-1])


def main() -> None:
    floor, sdk, loop, direct = [], [], [], []
    with tempfile.TemporaryDirectory(prefix="bench-import-pycache-") as pycache:
        env = _env(pycache)
        for i in range(PAIRS + 1):
            times = (
                import_seconds("sys", env),
                import_seconds("anthropic", env),
                import_seconds("agent_core.loop.stepper", env),
                direct_seconds(env),
            )
            if i:
                for bucket, value in zip((floor, sdk, loop, direct), times, strict=True):
                    bucket.append(value)
    base = statistics.median(floor)
    sdk_ms = (statistics.median(sdk) - base) * 1000
    loop_ms = (statistics.median(loop) - base) * 1000
    direct_ms = statistics.median(direct) * 1000
    spread = f"{min(direct) * 1000:.1f}-{max(direct) * 1000:.1f}"
    print(f"bare interpreter            {base * 1000:8.1f} ms (subtracted below)")
    print(f"import anthropic            {sdk_ms:8.1f} ms")
    print(f"import agent_core.loop.stepper      {loop_ms:8.1f} ms")
    print(f"loop extra (direct)         {direct_ms:8.1f} ms (range {spread}; target <= {TARGET_EXTRA_MS} ms)")
    print(f"loop extra (subtraction)    {loop_ms - sdk_ms:8.1f} ms (noisy: see the module docstring)")
    print(f"ratio loop / anthropic      {loop_ms / sdk_ms:8.2f}x")


if __name__ == "__main__":
    main()
