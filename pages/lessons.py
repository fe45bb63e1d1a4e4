"""Lessons page (placeholder until its issue lands)."""
from lab_ui.routing import use_app_router

use_app_router()  # before anything else: app.py is the router
import streamlit as st

st.title("Lessons")
st.info("This page is not built yet. It arrives with its own issue; the Playground works today.")
