"""Keeps app.py the only router, even on a fresh server whose first visitor opens a page URL directly."""
from __future__ import annotations

import streamlit as st


def use_app_router() -> None:
    """Leave Streamlit's legacy `pages/` mode before anything is drawn.

    Streamlit treats a `pages/` folder beside the entrypoint as the legacy page list until some session has
    called st.navigation; until then a first visit straight to /playground would run the page without app.py
    (no routing, no wide layout, no language switch). Switching the flag and rerunning hands control to app.py.
    """
    from streamlit.runtime.pages_manager import PagesManager

    if PagesManager.uses_pages_directory:
        PagesManager.uses_pages_directory = False
        st.rerun()
