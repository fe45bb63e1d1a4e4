"""The Practice page: ways of learning the loop by doing, each one picked by ?mode= so a lesson can link to it."""

from __future__ import annotations

import logging

import streamlit as st
from streamlit.errors import StreamlitAPIException

from agent_core.secrets import scrub_secrets
from lab_ui.practice import be_the_loop as practice_loop
from lab_ui.practice import be_the_model as practice_model
from lab_ui.practice import exercises as practice_exercises
from lab_ui.words.i18n import mark, t

log = logging.getLogger(__name__)

MODES = {
    "model": (mark("You are the model"), practice_model.render),
    "loop": (mark("You are the loop"), practice_loop.render),
    "order": (mark("Order the loop"), practice_exercises.render_order),
    "tool": (mark("Write a tool"), practice_exercises.render_tool),
    "fill": (mark("Fill a tool_result"), practice_exercises.render_fill),
}
DEFAULT_MODE = "model"
# Lessons whose idea a Practice mode lets the learner do by hand (lesson id -> modes); shown under the exercises.
FOR_LESSON = {
    "the-loop": ("order", "model"),
    "stop-reasons": ("model",),
    "tool-results": ("fill", "loop"),
    "stateless-server": ("loop",),
    "break-the-loop": ("loop", "model"),
    "tool-descriptions": ("tool",),
    "parallel-calls": ("loop",),
}


def render() -> None:
    st.title(t("Practice"))
    wanted = st.query_params.get("mode")
    # A link (from a lesson, or shared) picks the mode; after that the switch below does, and the URL follows it.
    if wanted in MODES and wanted != st.session_state.get("practice-url-mode"):
        st.session_state["practice-mode"] = wanted
    elif "practice-mode" not in st.session_state:
        st.session_state["practice-mode"] = DEFAULT_MODE
    mode = st.segmented_control(
        t("Mode"),
        list(MODES),
        format_func=lambda m: t(MODES[m][0]),
        key="practice-mode",
        label_visibility="collapsed",
    )
    mode = mode if mode in MODES else DEFAULT_MODE
    if st.query_params.get("mode") != mode:
        st.query_params["mode"] = mode  # a link or a reload opens the same mode
    st.session_state["practice-url-mode"] = mode
    st.divider()
    try:
        MODES[mode][1]()
    except Exception as exc:  # whatever a learner types, the page and what they did so far survive it
        log.warning("practice mode %s failed: %s", mode, scrub_secrets(f"{type(exc).__name__}: {exc}"))
        st.error(t("Something went wrong: {error}. The run so far is kept.", error=f"{type(exc).__name__}: {exc}"))


def lesson_links(lesson_id: str) -> None:
    """ "Practise it by hand" links from a lesson to the Practice modes that fit it."""
    modes = FOR_LESSON.get(lesson_id, ())
    if not modes:
        return
    st.markdown(t("**Practise it by hand**"))
    for mode in modes:
        label = t(MODES[mode][0])
        try:  # a page link keeps this tab's session (language, runs); it needs the app's page list
            st.page_link("pages/practice.py", label=label, icon=":material/exercise:", query_params={"mode": mode})
        except StreamlitAPIException:  # the lessons page run on its own, without app.py's navigation
            st.markdown(f"[{label}](practice?mode={mode})")
