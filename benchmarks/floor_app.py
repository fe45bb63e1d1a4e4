"""The floor for bench_click: a minimal Streamlit page (a button, a 16 KB st.json, a plotly chart, a turn heading)."""

import plotly.graph_objects as go
import streamlit as st

if "turn" not in st.session_state:
    st.session_state.turn = 0
if st.button("Next step", key="btn-turn"):  # the Playground's key: the benchmark finds both alike
    st.session_state.turn += 1
turn = st.session_state.turn
st.subheader(f"Turn {turn}")
st.json({"messages": [{"role": "user", "content": "x" * 150, "n": i} for i in range(turn % 3, 100)]})
st.plotly_chart(go.Figure(go.Bar(x=list(range(turn + 1)), y=[i * i for i in range(turn + 1)])))
