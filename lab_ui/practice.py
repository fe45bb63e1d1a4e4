"""The Practice page: ways of learning the loop by doing, each one picked by ?mode= so a lesson can link to it."""

from __future__ import annotations

import streamlit as st

from lab_ui import practice_exercises, practice_loop, practice_model
from lab_ui.i18n import mark, t

MODES = {
    "model": (mark("You are the model"), practice_model.render),
    "loop": (mark("You are the loop"), practice_loop.render),
    "order": (mark("Order the loop"), practice_exercises.render_order),
    "tool": (mark("Write a tool"), practice_exercises.render_tool),
    "fill": (mark("Fill a tool_result"), practice_exercises.render_fill),
}
DEFAULT_MODE = "model"


def render() -> None:
    st.title(t("Practice"))
    wanted = st.query_params.get("mode")
    if "practice-mode" not in st.session_state:
        st.session_state["practice-mode"] = wanted if wanted in MODES else DEFAULT_MODE
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
    st.divider()
    try:
        MODES[mode][1]()
    except Exception as exc:  # whatever a learner types, the page and what they did so far survive it
        st.error(t("Something went wrong: {error}. The run so far is kept.", error=f"{type(exc).__name__}: {exc}"))
