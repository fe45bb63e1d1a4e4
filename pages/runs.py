"""Runs page (placeholder until its issue lands)."""
from lab_ui.routing import page_frame

page_frame()  # draws the shared frame only when Streamlit ran this page without app.py
import streamlit as st

st.title("Runs")
st.info("This page is not built yet. It arrives with its own issue; the Playground works today.")
