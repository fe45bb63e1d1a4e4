"""Teacher page: a thin shell over lab_ui.teacher.page."""

from lab_ui.frame.routing import page_frame
from lab_ui.teacher import page as teacher_view

page_frame()  # draws the shared frame only when Streamlit ran this page without app.py
teacher_view.render()
