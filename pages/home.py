"""Home: what Agent Loop Lab is, and a 30-second tour (the text lives in lab_ui/content/home.*.md)."""

from pathlib import Path

import streamlit as st

from lab_ui.frame.routing import page_frame
from lab_ui.words import ui_names
from lab_ui.words.i18n import current_language, t

page_frame()  # draws the shared frame only when Streamlit ran this page without app.py
content = Path(__file__).resolve().parent.parent / "lab_ui" / "content"
text = content / f"home.{current_language()}.md"
st.title(":material/replay: Agent Loop Lab")  # the name stays the same in every language (an icon font, not emoji)
st.markdown(ui_names.fill((text if text.exists() else content / "home.en.md").read_text(encoding="utf-8")))
c1, c2 = st.columns(2)
c1.page_link("pages/playground.py", label=t("Open the Playground"), icon=":material/replay:")
c2.page_link("pages/lessons.py", label=t("Start the lessons"), icon=":material/school:")
