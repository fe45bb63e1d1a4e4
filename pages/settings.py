"""Settings page: a thin shell over lab_ui.settings.page."""

from lab_ui.controller import session
from lab_ui.frame.routing import page_frame
from lab_ui.settings import page as settings_view

page_frame()  # draws the shared frame only when Streamlit ran this page without app.py
settings_view.render(session.get())
