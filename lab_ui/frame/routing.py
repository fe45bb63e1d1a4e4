"""Keeps app.py the router, even on a fresh server whose first visitor opens a page URL directly (public APIs only)."""

from __future__ import annotations

import inspect
from pathlib import Path

import streamlit as st

from lab_ui.frame import presenter, sidebar, url_state
from lab_ui.frame.draw_queue import QUEUE
from lab_ui.frame.startup import freeze_startup_heap

FRAMED = "agent_loop_lab:framed"  # this session has had its first run
ROUTED = "agent_loop_lab:routed"  # set while app.py runs the page: the frame is drawn already
PENDING = "agent_loop_lab:pending_page"  # (page path, query params) a first direct visit asked for
ROUTER = "app.py"


def _frame() -> None:
    st.set_page_config(page_title="Agent Loop Lab", page_icon=":material/replay:", layout="wide")
    url_state.restore_sticky()
    sidebar.render()
    presenter.style()


def page_frame(is_router: bool = False) -> None:
    """The frame every page shares (wide layout, sidebar); drawn by app.py, or by a page run on its own.

    Streamlit treats a `pages/` folder beside the entrypoint as the legacy page list until some session has
    called st.navigation; until then a first visit straight to /playground runs the page without app.py.
    Such a session's very first run hands over to app.py (st.switch_page), which then switches to the page
    asked for, query parameters and all; a later one (Streamlit's AppTest runs every script this way) draws
    the frame itself, so no click is lost.
    """
    freeze_startup_heap()
    first_run = FRAMED not in st.session_state
    st.session_state[FRAMED] = True
    if is_router:
        _frame()
        return
    if st.session_state.get(ROUTED):
        return
    if first_run:
        page = Path(inspect.stack()[1].filename)
        st.session_state[PENDING] = (f"{page.parent.name}/{page.name}", st.query_params.to_dict())
        st.switch_page(ROUTER)
    _frame()


def route(pages: list) -> None:
    """app.py's navigation: run the chosen page inside the frame (or first the page a direct visit asked for)."""
    page = st.navigation(pages)
    pending = st.session_state.pop(PENDING, None)
    if pending:
        path, params = pending
        st.switch_page(path, query_params=params)
    st.session_state[ROUTED] = True
    try:
        with QUEUE:  # one page drawn at a time per process (lab_ui/frame/draw_queue.py)
            page.run()
    finally:
        st.session_state.pop(ROUTED, None)
