"""The Teacher page on a class server: the key leaves the address bar once this browser opened the class with
it, and the teacher manages the board (rename, remove a learner) and the server's key for the class."""

from __future__ import annotations

import streamlit as st

from agent_core.teaching.classes import ClassError, ClassStore, SchoolClass
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


def manage(store: ClassStore, opened: SchoolClass) -> None:
    """The server's key for this class, and a learner renamed or taken off the board."""
    on = store.server_key_on(opened.code)
    wanted = st.toggle(
        t("Learners of this class may use the server's key"),
        value=on,
        key="teacher:server-key",
        help=t("Off: they use the offline model, or a key of their own typed on Settings."),
    )
    if wanted != on:
        store.set_server_key(opened.code, wanted)
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
