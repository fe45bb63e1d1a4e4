"""A lesson's "Try this" exercises under the step they belong to: the instructions, then Check my run."""

from __future__ import annotations

import streamlit as st

from agent_core.teaching.lessons import Exercise, LessonError
from lab_ui.controller import run_settings
from lab_ui.lessons import goal_feedback
from lab_ui.lessons.steps import StepView
from lab_ui.words.i18n import mark, t

# Every exercise says it: the rule of lab_ui/controller/run_settings.py (the form is the run until its first call).
RESET_FIRST = mark(
    "Until the run's first call a change applies at once; after it, press **Reset** to start a run with it."
)


def part(view: StepView) -> None:
    """The exercises of the step on screen (a lesson's exercises without a step come at its last step)."""
    mine = [ex for ex in view.lesson.exercises if view.shows(ex.step)]
    if not mine:
        return
    st.markdown(f"#### {t('Try this')}")
    for ex in mine:
        _exercise(view, ex)


def _exercise(view: StepView, ex: Exercise) -> None:
    passed = f"exercise:{ex.id}" in view.done
    icon = ":material/check_circle:" if passed else ":material/science:"
    with st.expander(ex.title[view.lang], expanded=not passed, icon=icon):
        st.markdown(ex.instructions[view.lang])
        st.container(key=f"reset-first:{view.lesson.id}:{ex.id}").caption(t(RESET_FIRST))
        if st.button(t("Check my run"), key=f"check:{view.lesson.id}:{ex.id}"):
            _check(view, ex)


def _check(view: StepView, ex: Exercise) -> None:
    run = view.lab.run
    if run is None or not run.turns:
        st.warning(t("Run the loop first: press **Run to end**."))
        return
    try:
        result = view.lesson.check(ex.goal, run)
    except LessonError as exc:
        st.error(str(exc))
        return
    if result.passed:
        view.mark_done(f"exercise:{ex.id}")
        st.success(ex.success[view.lang])
        return
    sentences = list(dict.fromkeys(goal_feedback.sentence(m) for m in result.misses))  # one line per fact
    st.error(t("Not yet:") + "\n\n" + "\n".join(f"- {line}" for line in sentences))
    st.info(ex.hint[view.lang])
    if found := run_settings.changes(view.lab.config, run):  # the check read the run, not the form
        st.warning(
            t(
                "This check read the run as it ran; the form has changed since ({changes}). "
                "Press **Reset** and run again to check the new settings.",
                changes="; ".join(c.words() for c in found),
            )
        )
