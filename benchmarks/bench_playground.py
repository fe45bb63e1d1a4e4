"""Playground responsiveness: median time from a click on "Next step" to the new turn being visible.

Drives the real app in headless Chromium (Debian's chromium), offline, no simulated latency, at turn 1 and at
turn 50 of a runaway run. Targets: 300 ms and 600 ms. Prints the figures; asserts nothing.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from browser import browser, running_app, wait_idle  # noqa: E402

from agent_core.loop.stepper import Stepper  # noqa: E402
from agent_core.model import Limits, Run, RunConfig, SimSettings  # noqa: E402
from agent_core.storage.store import RunStore  # noqa: E402
from agent_core.tools.catalog import default_specs  # noqa: E402

REPEATS = 7  # the machine is often shared: enough clicks for a median that means something


def runaway(turns: int) -> Run:
    """A stubborn run stopped after `turns` turns and reopened with no limit, so it can go on."""
    config = RunConfig(
        task="What is the stock price of ACME?",
        tools=default_specs(["get_stock_price"]),
        limits=Limits(max_steps=turns),
        sim=SimSettings(persona="stubborn"),
    )
    run = Run(config=config)
    if turns:
        Stepper(run).run_to_end()
    run.stop, run.phase = None, "build_request"
    run.config.limits.max_steps = None
    return run


def time_clicks(page, url: str, run_id: str, start_turn: int) -> list[float]:
    page.goto(f"{url}/playground?run={run_id}")
    page.get_by_role("button", name="Next step").wait_for(timeout=60_000)
    wait_idle(page)
    times = []
    for i in range(REPEATS):
        target = start_turn + i + 1
        started = time.perf_counter()
        page.get_by_role("button", name="Next step").click()
        page.get_by_role("heading", name=f"Turn {target}", exact=False).first.wait_for(timeout=60_000)
        times.append((time.perf_counter() - started) * 1000)
        wait_idle(page)
    return times


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "runs.db"
        store = RunStore(db)
        fresh, long = runaway(0), runaway(49)
        store.save_run(fresh)
        store.save_run(long)
        with running_app(db) as url, browser() as b:
            page = b.new_page(viewport={"width": 1600, "height": 1000})
            early = time_clicks(page, url, fresh.id, 0)
            late = time_clicks(page, url, long.id, 49)
    print(f"click 'Next step' -> new turn visible, median of {REPEATS}:")
    for label, times, target in (("at turn 1: ", early, 300), ("at turn 50:", late, 600)):
        print(
            f"  {label} {statistics.median(times):6.0f} ms  (target {target} ms)  fastest {min(times):.0f} ms  "
            f"all: {[round(t) for t in times]}"
        )


if __name__ == "__main__":
    main()
