"""Settings page (placeholder until its issue lands)."""
import streamlit as st

st.title("Settings")
st.info("This page is not built yet. It arrives with its own issue; the Playground works today.")
