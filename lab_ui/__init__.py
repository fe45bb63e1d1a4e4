"""Streamlit-side helpers: per-session state, translations and the Playground's building blocks."""
