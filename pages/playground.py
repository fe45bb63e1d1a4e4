"""Playground page: a thin shell over lab_ui.playground.page."""

from lab_ui.controller import session
from lab_ui.frame.routing import page_frame
from lab_ui.playground import page as playground

page_frame()  # draws the shared frame only when Streamlit ran this page without app.py
playground.render(session.get())
