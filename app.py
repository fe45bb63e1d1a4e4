"""Agent Loop Lab: routes to the pages (nothing else lives here)."""

import streamlit as st

from lab_ui.frame.routing import page_frame, route
from lab_ui.words.i18n import t

page_frame(is_router=True)
pages = [
    st.Page("pages/home.py", title=t("Home"), icon=":material/home:", url_path="home", default=True),
    st.Page("pages/playground.py", title=t("Playground"), icon=":material/replay:", url_path="playground"),
    st.Page("pages/lessons.py", title=t("Lessons"), icon=":material/school:", url_path="lessons"),
    st.Page("pages/practice.py", title=t("Practice"), icon=":material/exercise:", url_path="practice"),
    st.Page("pages/runs.py", title=t("Runs"), icon=":material/folder_open:", url_path="runs"),
    st.Page("pages/teacher.py", title=t("Teacher"), icon=":material/groups:", url_path="teacher"),
    st.Page("pages/settings.py", title=t("Settings"), icon=":material/settings:", url_path="settings"),
]
route(pages)
