"""Settings page: a thin shell over lab_ui.settings_view."""
from lab_ui.routing import use_app_router

use_app_router()  # before anything else: app.py is the router
from lab_ui import session, settings_view

settings_view.render(session.get())
