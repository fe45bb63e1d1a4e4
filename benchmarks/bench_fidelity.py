"""Fidelity of the offline model, on two corpora run with fake tools in a whole loop:

- the public corpus (tests/fidelity/loops): whole loops on tools and questions as public tutorials, docs and
  reference servers define them, run with the official SDK; pass % by kind and language (goal: >= 90% overall and
  >= 80% in every kind);
- the regression corpus (tests/fidelity): the project's own 168 tutorial-style tasks (goal >= 95%).

`--failures` lists every failing case with a one-line reason; `--sources` adds the figure of each source file;
`--only TEXT` runs the public cases whose id holds TEXT; `--show ID` prints one case's whole loop (calls, results,
answers, problems); `--record` writes the public corpus's figures and failing cases to its record.json
(tests/test_fidelity_loops.py then fails when a figure drops below it or another case fails). tests/test_fidelity.py holds the regression corpus's recorded figure.
"""

from __future__ import annotations

import datetime
import json
import sys
from pathlib import Path

# This checkout's own agent_core first: run from a worktree, an installed or another checkout's copy must not answer.
_ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(_ROOT), str(_ROOT / "tests")]

from fidelity.harness import breakdown as old_breakdown  # noqa: E402
from fidelity.harness import run_corpus as run_old_corpus  # noqa: E402
from fidelity.loops.corpus import RECORD, breakdown, percent, run_corpus  # noqa: E402

GOAL, KIND_GOAL, OLD_GOAL = 90.0, 80.0, 95.0


def _argument(flag: str) -> str | None:
    return sys.argv[sys.argv.index(flag) + 1] if flag in sys.argv[:-1] else None


def public(show_failures: bool) -> tuple[dict[str, dict[str, float]], list[str]]:
    outcomes = run_corpus(_argument("--only"))
    figures = breakdown(outcomes)
    overall = figures["overall"]
    below = [k for k, f in figures.items() if k.startswith("kind:") and f["percent"] < KIND_GOAL]
    verdict = "OK" if overall["percent"] >= GOAL and not below else "BELOW GOAL"
    print(
        f"bench_fidelity public: {overall['cases']} whole loops, {overall['percent']:.1f}% pass "
        f"(goal >= {GOAL:.0f}% overall, >= {KIND_GOAL:.0f}% per kind) {verdict}"
    )
    for key, figure in figures.items():
        if key != "overall":
            print(f"  {key:<22} {figure['percent']:5.1f}%  ({figure['cases']} cases)")
    if "--sources" in sys.argv:
        by_file: dict[str, list] = {}
        for outcome in outcomes:
            by_file.setdefault(outcome.case["file"], []).append(outcome)
        for stem, group in sorted(by_file.items()):
            print(f"  source:{stem:<40} {percent([o.passed for o in group]):5.1f}%  ({len(group)} cases)")
    if show_failures:
        for outcome in outcomes:
            if not outcome.passed:
                print(f"FAIL {outcome.reason()}")
    return figures, sorted(o.case["id"] for o in outcomes if not o.passed)


def regression(show_failures: bool) -> None:
    outcomes = run_old_corpus()
    figures = old_breakdown(outcomes)
    overall = figures.pop("overall")
    verdict = "OK" if overall["percent"] >= OLD_GOAL else "BELOW GOAL"
    print(
        f"bench_fidelity regression: {overall['tasks']} tasks, {overall['percent']:.1f}% pass "
        f"(goal >= {OLD_GOAL:.0f}%) {verdict}"
    )
    for key, figure in figures.items():
        print(f"  {key:<22} {figure['percent']:5.1f}%  ({figure['tasks']} tasks)")
    if show_failures:
        for outcome in outcomes:
            if not outcome.passed:
                print(f"FAIL {outcome.task['id']}: {'; '.join(outcome.problems)}")


def record(figures: dict[str, dict[str, float]], failing: list[str]) -> None:
    data = {
        "_about": "The public corpus's last recorded pass figures and failing cases (benchmarks/bench_fidelity.py "
        "--record). tests/test_fidelity_loops.py fails when a figure drops below, or a case not listed as failing "
        "fails; record again when the model improves.",
        "recorded": datetime.date.today().isoformat(),
        "overall": figures["overall"],
        "figures": {k: f["percent"] for k, f in figures.items()},
        "failing": failing,
    }
    RECORD.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    print(f"recorded {RECORD}")


def transcript(case_id: str) -> None:
    """Every call (input, result) and every turn's final text of one case, for working on it."""
    for outcome in run_corpus(case_id):
        if outcome.case["id"] != case_id:
            continue
        print(f"{case_id} ({outcome.case['source']}): {'PASS' if outcome.passed else 'FAIL'}")
        for turn, text in enumerate(outcome.case["user"], start=1):
            print(f"  user {turn}: {text}")
            for call in (c for c in outcome.run.calls if c.turn == turn):
                flag = " [error]" if call.answer.is_error else ""
                print(f"    request {call.request}: {call.name}({call.input}) ->{flag} {call.answer.text[:300]!r}")
            if turn <= len(outcome.run.texts):
                print(f"  answer {turn}: {outcome.run.texts[turn - 1]!r}")
        if outcome.run.output is not None:
            print(f"  structured result: {outcome.run.output}")
        for problem in outcome.problems:
            print(f"  - {problem}")


def main() -> None:
    if _argument("--show"):
        transcript(str(_argument("--show")))
        return
    show = "--failures" in sys.argv
    figures, failing = public(show)
    if "--record" in sys.argv:
        if _argument("--only"):
            sys.exit("--record needs the whole corpus (drop --only)")
        record(figures, failing)
    if not _argument("--only"):
        regression(show)


if __name__ == "__main__":
    main()
