"""The class server's entry: app.py (the router, unchanged) behind the identity cookie, plus /resume.

    AGENT_LOOP_LAB_MODE=class streamlit run deploy/class_app.py      (deploy/serve_class.py runs this per worker)

`streamlit run` finds the st.App below and serves it with the same server it uses for app.py (uvicorn), so the
only addition per request is IdentityCookie (agent_core/serving/identity.py), a few microseconds on page loads.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from agent_core.serving import identity
from agent_core.teaching.classes import ClassStore

ROUTER = Path(__file__).resolve().parent.parent / "app.py"


def resume(request: Request) -> Response:
    """A learner's resume code, typed on another device: that browser becomes the learner (and goes to Lessons)."""
    learner = ClassStore().learner_of(request.query_params.get("code", ""))
    if learner is None:
        return RedirectResponse("/lessons?resume=unknown", status_code=303)
    response = RedirectResponse("/lessons", status_code=303)
    response.headers.append("set-cookie", identity.cookie_header(learner, request.url.scheme == "https").decode())
    return response


app = st.App(
    ROUTER,
    middleware=[Middleware(identity.IdentityCookie)],
    routes=[Route(identity.RESUME_PATH, resume, methods=["GET"])],
)
