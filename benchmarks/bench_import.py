"""Import cost of the loop: `import agent_core.loop` versus `import anthropic` alone, each in a fresh interpreter.

Prints both times, the difference and the ratio (target: the loop costs at most 150 ms more than the SDK it wraps,
with neither pandas nor plotly loaded). The two alternate, PAIRS times, so a busy machine slows both alike; the
figures are the medians. The first pair only warms the file cache and is dropped.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).parents[1]
PAIRS = 7
TARGET_EXTRA_MS = 150


def import_seconds(module: str) -> float:
    """Wall time of a fresh interpreter that imports `module` (interpreter start-up included)."""
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", f"import {module}"], cwd=ROOT, check=True)
    return time.perf_counter() - started


def main() -> None:
    floor, sdk, loop = [], [], []
    for i in range(PAIRS + 1):
        times = import_seconds("sys"), import_seconds("anthropic"), import_seconds("agent_core.loop")
        if i:
            for bucket, value in zip((floor, sdk, loop), times, strict=True):
                bucket.append(value)
    base = statistics.median(floor)
    sdk_ms = (statistics.median(sdk) - base) * 1000
    loop_ms = (statistics.median(loop) - base) * 1000
    print(f"bare interpreter            {base * 1000:8.1f} ms (subtracted below)")
    print(f"import anthropic            {sdk_ms:8.1f} ms")
    print(f"import agent_core.loop      {loop_ms:8.1f} ms")
    print(f"extra for the loop          {loop_ms - sdk_ms:8.1f} ms (target <= {TARGET_EXTRA_MS} ms)")
    print(f"ratio loop / anthropic      {loop_ms / sdk_ms:8.2f}x")


if __name__ == "__main__":
    main()
