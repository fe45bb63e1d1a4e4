"""What a tab keeps in its URL (language, learner, lesson, step, presenter mode, an unsent task) and a language cookie.

Streamlit clears the query string when the learner changes pages; every page run writes the sticky values back from
the session, so a reload, a bookmark or a second tab opened on the same URL finds them again."""

from __future__ import annotations

import json
import re
import uuid

import streamlit as st

from agent_core.serving.mode import is_class_server

COOKIE = "agent_loop_lab_lang"
# A learner id from a link is data: letters, digits, - and _ only (it names rows and sits in URLs), at most 40.
LEARNER_ID = re.compile(r"[A-Za-z0-9_-]{1,40}")
STICKY = ("lang", "learner", "present", "class")  # kept on every page (a class: the teacher's or the learner's)
_HELD = "url:held"  # session_state: {name: value} of the sticky values this tab holds
_COOKIE_SET = "url:cookie"  # session_state: the language the cookie was last set to by this tab
MAX_DRAFT = 1500  # characters of an unsent task the URL keeps; longer drafts stay in the tab only


def held() -> dict[str, str]:
    """This tab's sticky values, first read from the URL (a reload or a shared link)."""
    if _HELD not in st.session_state:
        st.session_state[_HELD] = {k: st.query_params[k] for k in STICKY if st.query_params.get(k)}
    return st.session_state[_HELD]


def get(name: str) -> str | None:
    return held().get(name) if name in STICKY else st.query_params.get(name)


def put(name: str, value: str | None) -> None:
    """Set (or, with None, remove) a value in the URL; sticky ones are remembered for the next page too."""
    if name in STICKY:
        if value is None:
            held().pop(name, None)
        else:
            held()[name] = value
    if value is None:
        if name in st.query_params:
            del st.query_params[name]
    elif st.query_params.get(name) != value:
        st.query_params[name] = value


def restore_sticky() -> None:
    """Adopt sticky values a link or an edited URL brings; write the held ones back where the URL lost them
    (Streamlit drops the query string on a page change). On a class server a learner is the identity cookie's,
    so a ?learner= in a link is dropped unread."""
    mine = held()
    if is_class_server():
        mine.pop("learner", None)
        if "learner" in st.query_params:
            del st.query_params["learner"]
    for name in STICKY:
        if name == "learner" and is_class_server():
            continue
        value = st.query_params.get(name)
        if value and value != mine.get(name):
            mine[name] = value
    for name, value in mine.items():
        if st.query_params.get(name) != value:
            st.query_params[name] = value


def remember_language(lang: str) -> None:
    """The language goes into the URL, and into a cookie for the next visit (set by a script of the app's own)."""
    put("lang", lang)
    # The cookie header is read only on a session's first run: after that the session knows what it set.
    known = st.session_state[_COOKIE_SET] if _COOKIE_SET in st.session_state else st.context.cookies.get(COOKIE)
    if known == lang:
        return
    st.session_state[_COOKIE_SET] = lang
    script = f"document.cookie = {json.dumps(f'{COOKIE}={lang}; path=/; max-age=31536000; samesite=lax')};"
    st.html(f"<script>{script}</script>", unsafe_allow_javascript=True)


def learner_id() -> str:
    """A random learner id kept in the URL and the session, so progress survives reloads and page changes."""
    learner = get("learner")
    if not learner or not LEARNER_ID.fullmatch(learner):
        learner = uuid.uuid4().hex[:10]
        put("learner", learner)
    return learner


def keep_draft(task: str, sent: str) -> bool:
    """An unsent task edit rides in the URL (?draft=), so a reload brings it back; False if it is too long to."""
    if task == sent:
        put("draft", None)
    elif len(task) <= MAX_DRAFT:
        put("draft", task)
    else:
        put("draft", None)
        return False
    return True


def draft() -> str | None:
    return st.query_params.get("draft")
