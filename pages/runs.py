"""Runs page: a thin shell over lab_ui.runs.page."""

from lab_ui.controller import session
from lab_ui.frame.routing import page_frame
from lab_ui.runs import page as runs_view

page_frame()  # draws the shared frame only when Streamlit ran this page without app.py
runs_view.render(session.get())
