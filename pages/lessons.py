"""Lessons page: a thin shell over lab_ui.lessons_view."""

from lab_ui import lessons_view
from lab_ui.frame.routing import page_frame

page_frame()  # draws the shared frame only when Streamlit ran this page without app.py
lessons_view.render()
