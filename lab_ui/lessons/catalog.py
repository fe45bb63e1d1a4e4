"""The lessons a session shows: read once per server, copied once per session."""

from __future__ import annotations

import streamlit as st

from agent_core.teaching.lessons import Lesson, load_lessons

_KEY = "lessons:catalog"  # session_state: this session's own copy


@st.cache_data(show_spinner=False)
def _read() -> tuple[Lesson, ...]:
    """cache_data hands every caller its own copy (a Lesson holds dicts and lists: nothing is shared)."""
    return tuple(load_lessons())


def lessons() -> tuple[Lesson, ...]:
    """The lessons, kept by the session: a rerun would otherwise unpickle every lesson again (several times per
    rerun of the Teacher page, which the live class board reruns every few seconds)."""
    if _KEY not in st.session_state:
        st.session_state[_KEY] = _read()
    return st.session_state[_KEY]
