"""Following the teacher on the Lessons page: where the class was sent, a learner who follows goes there, and each
learner's lesson and step is recorded for the teacher's board (agent_core/teaching/class_lead.py)."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from agent_core.teaching.class_lead import ClassLead, Place
from agent_core.teaching.classes import ClassStore
from agent_core.teaching.lessons import Lesson
from lab_ui.frame.draw_queue import QUEUE
from lab_ui.words.i18n import t

CHECK_SECONDS = 5  # how soon a learner who follows sees the teacher's "send the class there"
_SEEN = "follow:seen"  # session_state: the (lesson, step) last recorded for this tab, so a rerun writes nothing new
_APPLIED = "follow:applied"  # session_state: sent_at of the teacher's last move this tab has followed
FOLLOW = "follow:on"  # the learner's switch (on by default)

Go = Callable[[str, int], None]  # open lesson id at step (1-based)


def record(learner: str, lesson_id: str, step: int) -> None:
    """This learner has `lesson_id`, step `step` (1-based) on screen: the teacher's board shows it."""
    if st.session_state.get(_SEEN) == (learner, lesson_id, step):
        return
    ClassLead().seen(learner, lesson_id, step)
    st.session_state[_SEEN] = (learner, lesson_id, step)


def class_of(learner: str) -> str | None:
    joined = ClassStore().joined(learner)
    return joined[0] if joined else None


def banner(learner: str, lessons: tuple[Lesson, ...], here: tuple[str, int], go: Go) -> None:
    """Above the lesson: where the teacher sent the class, a Go there, and the Follow switch (in a class only)."""
    code = class_of(learner)
    if code is None:
        return
    _watch(code, lessons, here, go)


@st.fragment(run_every=CHECK_SECONDS)
@QUEUE  # a fragment's own rerun queues like a page (lab_ui/frame/draw_queue.py)
def _watch(code: str, lessons: tuple[Lesson, ...], here: tuple[str, int], go: Go) -> None:
    focus = ClassLead().focus(code)
    if focus is None or all(x.id != focus.lesson for x in lessons):
        return
    st.session_state.setdefault(FOLLOW, True)
    follows = bool(st.session_state[FOLLOW])
    if follows and focus.at > st.session_state.get(_APPLIED, 0.0):
        st.session_state[_APPLIED] = focus.at
        if (focus.lesson, focus.step) != here:
            go(focus.lesson, focus.step)
            st.rerun()  # the whole page: another lesson or step
    lesson = next(x for x in lessons if x.id == focus.lesson)
    with st.container(horizontal=True, vertical_alignment="center", key="follow-teacher"):
        st.info(_words(lesson, focus), width="stretch")
        if (focus.lesson, focus.step) != here:
            st.button(t("Go there"), key="follow-go", on_click=_go_now, args=(go, focus))
        st.toggle(t("Follow my teacher"), key=FOLLOW)


def _go_now(go: Go, focus: Place) -> None:
    st.session_state[_APPLIED] = focus.at
    go(focus.lesson, focus.step)


def _words(lesson: Lesson, focus: Place) -> str:
    from lab_ui.words.i18n import current_language

    return t(
        "Your teacher sent the class to lesson {n}, {title}, step {step}.",
        n=lesson.order,
        title=lesson.title[current_language()],
        step=focus.step,
    )
