"""A learner joins a class on the Lessons page: the code comes from the URL (?class=CODE) or is typed once."""

from __future__ import annotations

from urllib.parse import urlencode

import streamlit as st

from agent_core.serving.identity import RESUME_PATH
from agent_core.serving.mode import is_class_server
from agent_core.teaching.classes import ClassError, ClassStore, normalize_code
from lab_ui.serving import who
from lab_ui.words.i18n import t

CLASS_PARAM = "class"
MARKDOWN_SPECIALS = set("\\`*_{}[]()<>#+-.!|~$:")


def plain(text: str) -> str:
    """A name typed by someone, shown in markdown as the letters they typed (no links, images or HTML)."""
    return "".join("\\" + ch if ch in MARKDOWN_SPECIALS else ch for ch in text)


def render(learner: str) -> None:
    """Show which class this learner is in, or let them join the one in the URL (or one they type)."""
    store = ClassStore()
    if is_class_server():
        resume_notice()
        if who.without_cookie():
            st.warning(
                t(
                    "This browser did not keep the class server's cookie, so a reload or a new tab starts you over "
                    "as a new learner. Allow cookies for this site to keep your progress."
                )
            )
    code = st.query_params.get(CLASS_PARAM)
    if not code and (mine := store.joined(learner)):
        code = st.query_params[CLASS_PARAM] = mine[0]  # a link without ?class= still shows the learner's class
    if not code:
        with st.expander(t("Join a class")):
            _join_form(store, learner, "")
        if is_class_server():
            _continue_here(store)
        return
    found = store.find(code)
    if found is None:
        st.warning(t("There is no class with the code {code}.", code=normalize_code(code)))
        with st.expander(t("Join a class")):
            _join_form(store, learner, "")
        return
    if found.code != code:
        st.query_params[CLASS_PARAM] = found.code  # as typed ("abc-123") -> as stored ("ABC123")
    member = store.member(found.code, learner)
    if member is not None:
        st.caption(
            t(
                "Class **{name}** ({code}): you are **{me}**; your teacher sees your exercises and quiz answers.",
                name=plain(found.name),
                code=found.code,
                me=plain(member.name),
            )
        )
        if is_class_server():
            _resume_code(store, learner)
        return
    st.info(
        t(
            "Join class **{name}** ({code}): your teacher will see your progress under this name.",
            name=plain(found.name),
            code=found.code,
        )
    )
    _join_form(store, learner, found.code)


def _join_form(store: ClassStore, learner: str, code: str) -> None:
    if is_class_server() and who.without_cookie():
        return  # a learner who cannot come back is no row for the board (and no script joins by the dozen)
    with st.form("class:join", border=False):
        typed = code or st.text_input(t("Class code"), max_chars=12)
        name = st.text_input(t("Your name (as your teacher should see it)"), max_chars=40, key="class:learner-name")
        if not st.form_submit_button(t("Join"), key="class:join-button"):
            return
    if not name.strip():
        st.error(t("Type your name first."))
        return
    try:
        store.join(typed, learner, name)
    except ClassError:
        st.error(t("There is no class with the code {code}.", code=normalize_code(typed)))
        return
    st.query_params[CLASS_PARAM] = normalize_code(typed)
    st.rerun()


# -- a class server's identity on another device -------------------------------------------------------------
def resume_notice() -> None:
    """After /resume with a code nobody has: said once, and the parameter leaves the URL."""
    if st.query_params.get("resume") == "unknown":
        del st.query_params["resume"]
        st.warning(t("That resume code belongs to nobody on this server. Check it with your other device."))


def _resume_code(store: ClassStore, learner: str) -> None:
    code = store.resume_code(learner)
    shown = f"{code[:4]}-{code[4:]}"
    st.caption(
        t(
            "On another device, open **Lessons** and type your resume code **{code}** under **Continue on this "
            "device**: it will be you there too. Keep it to yourself.",
            code=shown,
        )
    )


def _continue_here(store: ClassStore) -> None:
    """A learner who joined on another device types their resume code: this browser becomes them."""
    with st.expander(t("Continue on this device")):
        typed = st.text_input(t("Your resume code"), max_chars=12, key="class:resume-code")
        if not typed.strip():
            return
        if store.learner_of(typed) is None:
            st.error(t("That resume code belongs to nobody on this server. Check it with your other device."))
            return
        target = f"{RESUME_PATH}?{urlencode({'code': normalize_code(typed)})}"
        st.link_button(t("Continue as yourself on this device"), target, type="primary")
