"""Agent Loop Lab: routes to the pages (nothing else lives here)."""
import streamlit as st

from lab_ui.routing import page_frame

page_frame(is_router=True)
pages = [
    st.Page("pages/home.py", title="Home", icon=":material/home:", url_path="home", default=True),
    st.Page("pages/playground.py", title="Playground", icon=":material/replay:", url_path="playground"),
    st.Page("pages/lessons.py", title="Lessons", icon=":material/school:", url_path="lessons"),
    st.Page("pages/runs.py", title="Runs", icon=":material/folder_open:", url_path="runs"),
    st.Page("pages/settings.py", title="Settings", icon=":material/settings:", url_path="settings"),
]
st.navigation(pages).run()
