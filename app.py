"""Agent Loop Lab: routes to the pages (nothing else lives here)."""
import streamlit as st

from lab_ui import sidebar

st.set_page_config(page_title="Agent Loop Lab", page_icon="🔁", layout="wide")
pages = [
    st.Page("pages/home.py", title="Home", icon="🏠", url_path="home", default=True),
    st.Page("pages/playground.py", title="Playground", icon="🔁", url_path="playground"),
    st.Page("pages/lessons.py", title="Lessons", icon="🎓", url_path="lessons"),
    st.Page("pages/runs.py", title="Runs", icon="🗂️", url_path="runs"),
    st.Page("pages/settings.py", title="Settings", icon="⚙️", url_path="settings"),
]
page = st.navigation(pages)
sidebar.render()
page.run()
