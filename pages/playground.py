"""Playground page: a thin shell over lab_ui.playground."""
from lab_ui import playground, session
from lab_ui.routing import use_app_router

use_app_router()  # before anything else: app.py is the router
playground.render(session.get())
