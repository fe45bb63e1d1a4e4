"""Playground page: a thin shell over lab_ui.playground."""
from lab_ui.routing import use_app_router

use_app_router()  # before anything else: app.py is the router
from lab_ui import playground, session

playground.render(session.get())
