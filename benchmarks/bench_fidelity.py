"""Fidelity of the offline model on a corpus of tutorial-style tool-use tasks (tests/fidelity): pass % by category
and language (goal >= 95%). Each task runs in a loop with fake tools; it passes when the expected tools are called
with the expected arguments and the final answer quotes what it must. Prints figures; --failures lists what failed.
tests/test_fidelity.py asserts the figure never drops below the one recorded in tests/fidelity/record.json.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from fidelity.harness import breakdown, run_corpus  # noqa: E402

GOAL = 95.0


def main() -> None:
    outcomes = run_corpus()
    figures = breakdown(outcomes)
    overall = figures.pop("overall")
    verdict = "OK" if overall["percent"] >= GOAL else "BELOW GOAL"
    print(f"bench_fidelity: {overall['tasks']} tasks, {overall['percent']:.1f}% pass (goal >= {GOAL:.0f}%) {verdict}")
    for key, figure in figures.items():
        print(f"  {key:<22} {figure['percent']:5.1f}%  ({figure['tasks']} tasks)")
    if "--failures" in sys.argv:
        for outcome in outcomes:
            if not outcome.passed:
                print(f"FAIL {outcome.task['id']}: {'; '.join(outcome.problems)}")
                print(f"     calls={outcome.calls} answer={outcome.answer[:200]!r}")


if __name__ == "__main__":
    main()
