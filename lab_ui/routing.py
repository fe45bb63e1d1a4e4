"""Keeps app.py the router, even on a fresh server whose first visitor opens a page URL directly."""

from __future__ import annotations

import streamlit as st

from lab_ui import sidebar
from lab_ui.startup import freeze_startup_heap

FRAMED = "agent_loop_lab:framed"


def page_frame(is_router: bool = False) -> None:
    """The frame every page shares (wide layout, sidebar); drawn by app.py, or by a page run on its own.

    Streamlit treats a `pages/` folder beside the entrypoint as the legacy page list until some session has
    called st.navigation; until then a first visit straight to /playground runs the page without app.py.
    Clearing the flag hands later runs to app.py: a session's very first run starts over at once; a later
    one (Streamlit's AppTest runs every script this way) draws the frame itself, so no click is lost.
    """
    from streamlit.runtime.pages_manager import PagesManager

    freeze_startup_heap()
    first_run = FRAMED not in st.session_state
    st.session_state[FRAMED] = True
    if is_router or PagesManager.uses_pages_directory:
        PagesManager.uses_pages_directory = False
        if first_run and not is_router:
            st.rerun()
        st.set_page_config(page_title="Agent Loop Lab", page_icon=":material/replay:", layout="wide")
        sidebar.render()
