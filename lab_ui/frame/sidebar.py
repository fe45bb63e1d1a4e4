"""What every page shows in the sidebar: the language switch and which model is running."""

from __future__ import annotations

import streamlit as st

from lab_ui.controller import session
from lab_ui.frame import presenter, url_state
from lab_ui.frame.untrusted import md
from lab_ui.words.i18n import LANGUAGES, t


def render() -> None:
    lab = session.get()
    linked = url_state.get("lang")  # a link or an edited URL may name another language than the tab had
    if linked in LANGUAGES and linked != lab.language:
        lab.language = linked
    with st.sidebar:
        # A keyed container, not a keyed widget: a language a link names must still move the switch.
        lab.language = st.container(key="language").selectbox(
            ":material/translate: Language / Язык / Język",
            list(LANGUAGES),
            format_func=LANGUAGES.__getitem__,
            index=list(LANGUAGES).index(lab.language),
        )
        url_state.remember_language(lab.language)
        lab.follow_language()
        presenter.toggle()
        st.caption(t("Model: **{model}**", model=md(lab.model_label)))  # a recorded run's model name is data
