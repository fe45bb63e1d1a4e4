"""Home: what Agent Loop Lab is, and a 30-second tour."""
from lab_ui.routing import use_app_router

use_app_router()  # before anything else: app.py is the router
import streamlit as st

st.title("🔁 Agent Loop Lab")
st.markdown("""
An **AI agent is a loop**. Your program sends a Messages API request; the model answers, maybe asking for tools;
your program runs them, appends the results to the history and sends **everything** again, until the model stops
asking for tools (or your program's limits stop it).

Here you run that real loop one phase at a time, look at the exact JSON that crossed the wire, change one thing and
compare. It works offline out of the box with a simulated model that speaks the real API; with a key it runs real
Claude.
""")
st.subheader("The 30-second tour")
st.markdown("""
1. Open the **Playground** and press **Next phase** a few times: watch the loop's code light up, line by line.
2. Press **Next step** until the run ends: each turn is one API call plus the tools it asked for.
3. Open **Raw JSON** and **Diff**: every request resends the whole history. The server remembers nothing.
4. Open **Context & cost**: context grows every turn, and the total cost grows roughly with the square of the turns.
5. Then take the **Lessons**: break the loop on purpose, and fix it.
""")
c1, c2 = st.columns(2)
c1.page_link("pages/playground.py", label="Open the Playground", icon="🔁")
c2.page_link("pages/lessons.py", label="Start the lessons", icon="🎓")
