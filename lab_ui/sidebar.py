"""What every page shows in the sidebar: the language switch and which model is running."""

from __future__ import annotations

import streamlit as st

from lab_ui import session
from lab_ui.i18n import LANGUAGES, t


def render() -> None:
    lab = session.get()
    with st.sidebar:
        lab.language = st.selectbox(
            ":material/translate: Language / Язык / Język",
            list(LANGUAGES),
            format_func=LANGUAGES.get,
            index=list(LANGUAGES).index(lab.language),
        )
        st.caption(t("Model: **{model}**", model=lab.model_label))
