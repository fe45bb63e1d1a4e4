"""Runs store speed: save a whole run, save one turn, load, list, export and import, at turn 10 and turn 50.

Uses a stubborn runaway recorded with the real loop and the offline model. The playground saves after every
click, so save_run at turn 50 should stay well under the 600 ms click budget (target: 100 ms). The last figure shows
why a page should keep one RunStore: closing the last connection checkpoints the WAL with an fsync. Prints figures only.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from agent_core.files.export import export_json, import_json
from agent_core.loop.stepper import Stepper
from agent_core.model import Limits, Run, RunConfig, SimSettings
from agent_core.storage.store import RunStore
from agent_core.tools.catalog import default_specs

REPEATS = 7


def runaway(turns: int) -> Run:
    """A stubborn run that calls a failing tool until the step limit."""
    config = RunConfig(
        task="What is the stock price of ACME?",
        tools=default_specs(["get_stock_price"]),
        limits=Limits(max_steps=turns),
        sim=SimSettings(persona="stubborn"),
    )
    return Stepper(Run(config=config)).run_to_end()


def median_ms(action: Callable[[], object]) -> float:
    times = []
    for _ in range(REPEATS):
        started = time.perf_counter()
        action()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        store = RunStore(Path(tmp) / "runs.db")
        for turns in (10, 50):
            run = runaway(turns)
            data = export_json(run)
            store.save_run(run)
            figures = {
                "save_run": median_ms(lambda: store.save_run(run)),
                "save_turn": median_ms(lambda: store.save_turn(run, run.turns[-1])),
                "load": median_ms(lambda: store.load(run.id)),
                "list_runs": median_ms(lambda: store.list_runs()),
                "export_json": median_ms(lambda: export_json(run)),
                "import_json": median_ms(lambda: import_json(data)),
            }
            store.close()  # now each fresh instance holds the last connection, as a page that does not cache one
            figures["RunStore(path).save_run, fresh instance each time"] = median_ms(
                lambda: RunStore(store.path).save_run(run)
            )
            print(f"turn {turns} ({len(data) / 1e6:.2f} MB exported), median of {REPEATS}:")
            for name, ms in figures.items():
                print(f"  {name:<52} {ms:7.1f} ms")


if __name__ == "__main__":
    main()
