"""Links to a page of this same server (for a class's join link, a teacher's link, a shared run)."""

from __future__ import annotations

from urllib.parse import urlencode, urlsplit, urlunsplit

import streamlit as st

# The url_path of every page app.py routes to: the last part of the current URL when it is one of these.
PAGE_PATHS = ("home", "playground", "lessons", "runs", "settings", "teacher")


def app_link(page: str, **params: str) -> str:
    """An absolute link to `page` (a url_path) with query parameters; a path-only link outside a browser."""
    query = urlencode({k: v for k, v in params.items() if v})
    current = st.context.url
    if not current:
        return f"/{page}?{query}" if query else f"/{page}"
    parts = urlsplit(current)
    path = parts.path.rstrip("/")
    last = path.rsplit("/", 1)[-1]
    if last in PAGE_PATHS:
        path = path[: -len(last) - 1]
    return urlunsplit((parts.scheme, parts.netloc, f"{path}/{page}", query, ""))
