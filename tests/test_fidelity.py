"""The fidelity corpus (tests/fidelity): tutorial-style tasks in three languages never score below the recorded figure."""

from __future__ import annotations

import json
from collections import Counter

from fidelity.harness import CATEGORIES, HERE, LANGS, breakdown, load_tasks, python_eval, run_corpus


def test_the_corpus_covers_every_category_in_every_language():
    tasks = load_tasks()
    assert len(tasks) >= 150
    counts = Counter((t["lang"], t["category"]) for t in tasks)
    assert all(counts[(lang, category)] >= 3 for lang in LANGS for category in CATEGORIES), counts
    assert len({t["id"] for t in tasks}) == len(tasks)


def test_the_fake_eval_calculator_behaves_like_python():
    assert python_eval("2 ** 16") == "65536" and python_eval("2 ^ 16") == "18"


def test_the_corpus_never_scores_below_the_recorded_figure():
    record = json.loads((HERE / "record.json").read_text(encoding="utf-8"))
    outcomes = run_corpus()
    figures = breakdown(outcomes)
    failures = [f"{o.task['id']}: {'; '.join(o.problems)}" for o in outcomes if not o.passed]
    assert figures["overall"]["percent"] >= record["percent"], "\n".join(failures)
    assert record["percent"] >= 95.0
