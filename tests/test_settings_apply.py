"""The form is the run until its first call; after it, the stage names each change and that it waits for Reset.

Lesson 07 says "press Reset, untick No step limit, set Max steps to 5, Run to end": the run must stop at 5 steps."""

from __future__ import annotations

import keys
from lab_app import click, lab_of, ok, open_page, widget

from agent_core.vocab import StopKind

CHANGED = "changed-settings"


def _notice(at) -> str:
    """The stage's "Changed: …" line and its button, as text ("" when there is none)."""
    try:
        box = at.get_by_key(CHANGED)
    except KeyError:
        return ""
    return " ".join(str(getattr(e, "value", "")) + " " + str(getattr(e, "label", "")) for e in box)


def _set_steps(at, n: int | None) -> None:
    widget(at, "cfg-no-step-limit").set_value(n is None).run()
    ok(at)
    if n is not None:
        widget(at, "cfg-max-steps").set_value(n).run()
        ok(at)


def test_a_change_after_reset_and_before_the_first_call_is_the_run(app_env):
    at = open_page()
    _set_steps(at, None)
    click(at, keys.RESET)
    _set_steps(at, 1)  # after Reset, before any call: the run takes it
    assert not _notice(at), "nothing waits: the run has not called the model"
    click(at, keys.RUN_TO_END)
    run = lab_of(at).run
    assert run.config.limits.max_steps == 1
    assert run.stop.kind == StopKind.STEP_LIMIT and len(run.turns) == 1, run.stop


def test_a_change_after_the_first_call_is_named_on_the_stage_with_reset_beside_it(app_env):
    at = open_page()
    click(at, keys.NEXT_STEP)  # one turn: the run has called the model
    _set_steps(at, 1)
    shown = _notice(at)
    assert "max steps 10 → 1" in shown and "Reset" in shown, shown
    assert lab_of(at).run.config.limits.max_steps == 10, "a run that has called the model keeps its settings"
    click(at, "changed-reset")
    lab = lab_of(at)
    assert lab.run.config.limits.max_steps == 1 and not lab.run.turns
    assert not _notice(at)
    click(at, keys.RUN_TO_END)
    assert lab_of(at).run.stop.kind == StopKind.STEP_LIMIT and len(lab_of(at).run.turns) == 1


def test_the_notice_speaks_the_learners_language(app_env):
    at = open_page()
    widget(at, keys.LANGUAGE).set_value("ru").run()
    click(at, keys.NEXT_STEP)
    _set_steps(at, 3)
    shown = _notice(at)
    assert "Изменено: максимум шагов 10 → 3" in shown and "Сброс" in shown, shown
