"""Who is at this browser. On a class server: the learner of the signed identity cookie the server set (never a URL
parameter), the class they joined and the classes they teach. On a personal server: the learner id in the URL."""

from __future__ import annotations

import streamlit as st

from agent_core.serving import identity
from agent_core.serving import mode as serving
from agent_core.teaching.classes import ClassStore

_LEARNER = "who:learner"  # session_state: this session's learner id, read once from the cookie
_NO_COOKIE = "who:no-cookie"  # session_state: True when no valid cookie came (this tab only, a reload starts over)


def class_server() -> bool:
    return serving.is_class_server()


def learner_id() -> str:
    """The learner at this browser (on a class server the cookie's, checked once per session)."""
    if not class_server():
        from lab_ui.frame import url_state  # a personal server keeps today's id in the URL

        return url_state.learner_id()
    held = st.session_state.get(_LEARNER)
    if held is None:
        held = from_cookie()
        if held is None:  # cookies refused, or a client that is not a browser: this tab alone is the learner
            held = identity.new_learner_id()
            st.session_state[_NO_COOKIE] = True
        st.session_state[_LEARNER] = held
    return str(held)


def from_cookie() -> str | None:
    """The learner id of the identity cookie the websocket's handshake carried, if its signature is right."""
    return identity.verify(st.context.cookies.get(identity.COOKIE))


def without_cookie() -> bool:
    """True on a class server when this browser sent no valid identity cookie (its learner lives in this tab)."""
    learner_id()
    return bool(st.session_state.get(_NO_COOKIE))


def my_class() -> str | None:
    """The class this learner joined last, or None."""
    joined = ClassStore().joined(learner_id())
    return joined[0] if joined else None


def teaches() -> list[str]:
    """The classes this browser opened with their teacher key (class server only; newest first)."""
    return ClassStore().teaches(learner_id()) if class_server() else []


def taught_learners() -> tuple[str, ...]:
    """The learners of every class this browser teaches (whose runs it may open read-only)."""
    store = ClassStore()
    return tuple(m.learner for code in teaches() for m in store.members(code))


def may_use_server_key() -> bool:
    """On a class server: a teacher, or a learner of a class whose teacher has the server's key on (a personal
    server: always). A stranger who joined no class gets the offline model and their own key only."""
    if not class_server() or teaches():
        return True
    code = my_class()
    return code is not None and ClassStore().server_key_on(code)
