"""Practice page: a thin shell over lab_ui.practice.page."""

from lab_ui.frame.routing import page_frame
from lab_ui.practice import page as practice

page_frame()  # draws the shared frame only when Streamlit ran this page without app.py
practice.render()
