"""Lessons page: a thin shell over lab_ui.lessons.page."""

from lab_ui.frame.routing import page_frame
from lab_ui.lessons import page as lessons_view

page_frame()  # draws the shared frame only when Streamlit ran this page without app.py
lessons_view.render()
