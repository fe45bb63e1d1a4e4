"""Practice page: a thin shell over lab_ui.practice."""

from lab_ui import practice
from lab_ui.frame.routing import page_frame

page_frame()  # draws the shared frame only when Streamlit ran this page without app.py
practice.render()
