"""Teacher page: a thin shell over lab_ui.teacher_view."""

from lab_ui import teacher_view
from lab_ui.frame.routing import page_frame

page_frame()  # draws the shared frame only when Streamlit ran this page without app.py
teacher_view.render()
