"""The Teacher page on a class server: the key leaves the address bar once this browser opened the class with
it, and the teacher manages the board (rename, remove a learner), the server's key and learners' own code for
the class."""

from __future__ import annotations

import streamlit as st

from agent_core.teaching.classes import ClassError, ClassStore, SchoolClass
from agent_core.tools.user_code import can_confine
from lab_ui.serving import who
from lab_ui.words.i18n import t

KEY_PARAM = "teacher"


def bind(store: ClassStore, opened: SchoolClass) -> None:
    store.bind_teacher(opened.code, who.learner_id())


def opens(store: ClassStore, found: SchoolClass, key: str | None) -> bool:
    """True if this browser teaches the class: it opened it before, or the URL's key is right now (then the
    browser is bound to the class and the key removed from the URL, so the board can be projected)."""
    if key is not None:
        del st.query_params[KEY_PARAM]
        if found.opens_with(key):
            bind(store, found)
            return True
    return found.code in store.teaches(who.learner_id())


def _own_code(store: ClassStore, opened: SchoolClass) -> None:
    """Whether this class's learners may run their own tool code: only shut in, so only where the server can."""
    can = can_confine()
    on = store.own_code_on(opened.code)
    wanted = st.toggle(
        t("Learners of this class may run their own tool code"),
        value=on and can,
        disabled=not can,
        key="teacher:own-code",
        help=t(
            "Their Python runs shut in on this server: no network, no files beyond Python's own, no other "
            "programs, with a time and a memory limit. Off: their tools run the app's built-in functions."
        )
        if can
        else t("This server cannot shut code in (it needs Linux with Landlock, on x86_64), so it stays off."),
    )
    if can and wanted != on:
        store.set_own_code(opened.code, wanted)


def manage(store: ClassStore, opened: SchoolClass) -> None:
    """The server's key and own code for this class, and a learner renamed or taken off the board."""
    on = store.server_key_on(opened.code)
    wanted = st.toggle(
        t("Learners of this class may use the server's key"),
        value=on,
        key="teacher:server-key",
        help=t("Off: they use the offline model, or a key of their own typed on Settings."),
    )
    if wanted != on:
        store.set_server_key(opened.code, wanted)
    _own_code(store, opened)
    members = store.members(opened.code)
    if not members:
        return
    with st.expander(t("Rename or remove a learner")):
        names = {m.learner: m.name for m in members}
        picked = st.selectbox(t("Learner"), list(names), format_func=names.__getitem__, key="teacher:member")
        new_name = st.text_input(t("New name"), key="teacher:new-name", max_chars=40)
        rename, remove = st.columns(2)
        if rename.button(t("Rename"), key="teacher:rename", width="stretch"):
            try:
                store.rename(opened.code, picked, new_name)
            except ClassError:
                st.error(t("Type the new name first."))
            else:
                st.rerun()
        if remove.button(t("Remove from the board"), key="teacher:remove", width="stretch"):
            store.remove(opened.code, picked)
            st.rerun()
