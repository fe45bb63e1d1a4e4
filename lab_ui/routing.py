"""Keeps app.py the router, even on a fresh server whose first visitor opens a page URL directly."""
from __future__ import annotations

import streamlit as st

from lab_ui import sidebar


def page_frame(is_router: bool = False) -> None:
    """The frame every page shares (wide layout, sidebar); drawn by app.py, or by a page run on its own.

    Streamlit treats a `pages/` folder beside the entrypoint as the legacy page list until some session has
    called st.navigation; until then a first visit straight to /playground runs the page without app.py.
    Such a page draws the frame itself once, and clearing the flag hands every later run to app.py.
    """
    from streamlit.runtime.pages_manager import PagesManager

    if is_router or PagesManager.uses_pages_directory:
        PagesManager.uses_pages_directory = False
        st.set_page_config(page_title="Agent Loop Lab", page_icon=":material/replay:", layout="wide")
        sidebar.render()
