"""Runs page: a thin shell over lab_ui.runs_view."""

from lab_ui import runs_view
from lab_ui.controller import session
from lab_ui.frame.routing import page_frame

page_frame()  # draws the shared frame only when Streamlit ran this page without app.py
runs_view.render(session.get())
