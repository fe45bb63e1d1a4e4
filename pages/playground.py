"""Playground page: a thin shell over lab_ui.playground."""
from lab_ui import playground, session

playground.render(session.get())
