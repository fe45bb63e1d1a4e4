"""Compare's turn-by-turn table says in words that a run has no such turn, instead of showing None."""

from __future__ import annotations

from agent_core.loop.stepper import Stepper
from agent_core.model import Limits, Run, RunConfig
from agent_core.report import compare
from agent_core.tools.catalog import default_specs
from lab_ui.runs.compare import NO_TURN, turn_rows
from lab_ui.words.i18n import translate

TASK = "What's the weather in Oslo, and what is 2 to the power of 16?"


def _run(max_steps: int) -> Run:
    run = Run(RunConfig(task=TASK, tools=default_specs(None), limits=Limits(max_steps=max_steps)))
    with Stepper(run) as stepper:
        stepper.run_to_end()
    return run


def test_a_turn_only_one_run_has_is_said_in_words():
    short, full = _run(1), _run(10)
    assert len(short.turns) == 1 < len(full.turns)
    rows = turn_rows(compare.compare(short, full))
    assert [r["turn"] for r in rows] == list(range(1, len(full.turns) + 1))
    cells = [v for r in rows for v in r.values()]
    assert None not in cells and "None" not in cells
    assert rows[1]["A context"] == NO_TURN and rows[1]["B context"] != NO_TURN
    assert rows[0]["A context"] == rows[0]["B context"] != NO_TURN, "both runs sent the same first request"
    assert translate("ru", NO_TURN) != NO_TURN and translate("pl", NO_TURN) != NO_TURN
