"""Agent Loop Lab: routes to the pages (nothing else lives here)."""
import streamlit as st

st.set_page_config(page_title="Agent Loop Lab", layout="wide")
st.title("Agent Loop Lab")
st.write("Pages are coming.")
