"""Lessons page: a thin shell over lab_ui.lessons_view."""
from lab_ui import lessons_view
from lab_ui.routing import use_app_router

use_app_router()  # before anything else: app.py is the router
lessons_view.render()
