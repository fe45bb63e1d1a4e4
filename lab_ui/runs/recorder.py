"""The recorder on the Runs page: a switch that records another program's loop, and its runs arriving live.

The recording server belongs to this browser tab (its session state) and stops with the switch. Its runs go to
the runs store through `recorder_store`, the one place class mode decides whose they are."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import pandas as pd
import streamlit as st

from agent_core.recorder import Recorder, RecorderConfig, start_recorder
from agent_core.serving.mode import is_class_server
from agent_core.storage.store import RunStore
from agent_core.vocab import Provider
from lab_ui.controller import session
from lab_ui.words.i18n import mark, t

RUNNING_KEY = "recorder:running"
DEFAULT_PORT = 8766  # `make serve` holds 8765
UPSTREAMS = {
    Provider.OFFLINE: mark("the offline model"),
    Provider.ANTHROPIC: mark("Anthropic (the program's own key, passed on, never stored)"),
    Provider.COMPATIBLE: mark("a compatible server"),
}
REFRESH_S = 2.0


@dataclass
class Running:
    """This tab's recording server (held in its session state, never shared)."""

    server: Any
    url: str
    recorder: Recorder
    store: RunStore
    started: float

    def stop(self) -> None:
        self.server.shutdown()
        self.recorder.close()
        self.store.close()


def recorder_store() -> RunStore:
    """Where this tab's recorder saves: a store of its own (the server's threads write while the tab reads) for
    the same database and the same owner as the tab's, so on a class server the runs are the learner's."""
    mine = session.run_store()
    owner = getattr(mine, "owner", None)
    return RunStore(mine.path, owner=owner) if owner is not None else RunStore(mine.path)


def running() -> Running | None:
    held = st.session_state.get(RUNNING_KEY)
    return held if isinstance(held, Running) else None


def start(upstream: str, port: int) -> Running:
    """Start this tab's recorder on loopback; raises OSError when the port is taken."""
    store = recorder_store()
    owner = getattr(store, "owner", None)
    try:
        server, url, recorder = start_recorder(RecorderConfig(upstream, owner=owner), port=port, save=store.save_turn)
    except BaseException:
        store.close()
        raise
    held = Running(server, url, recorder, store, time.time())
    st.session_state[RUNNING_KEY] = held
    return held


def stop() -> None:
    held = running()
    if held is not None:
        held.stop()
    st.session_state.pop(RUNNING_KEY, None)


def recipe(url: str, upstream: str) -> str:
    """The three lines a learner types: point the program at the recorder, run it, open the Runs page."""
    key = "any-value" if upstream == Provider.OFFLINE else "$ANTHROPIC_API_KEY  # your own key: passed on, never stored"
    return f"export ANTHROPIC_BASE_URL={url}\nexport ANTHROPIC_API_KEY={key}\npython your_agent.py"


def _upstream_choice() -> str | None:
    # A class server reaches only the addresses its guard allows: its learners record offline or through Anthropic.
    kinds = [k for k in UPSTREAMS if not (k == Provider.COMPATIBLE and is_class_server())]
    kind = st.radio(
        t("Who answers the program"),
        kinds,
        format_func={k: t(v) for k, v in UPSTREAMS.items()}.__getitem__,  # words fixed now: AppTest calls it later
        key="recorder:upstream",
        horizontal=True,
    )
    if kind != Provider.COMPATIBLE:
        return str(kind)
    url = st.text_input(
        t("Base URL of the compatible server"), key="recorder:url", placeholder="http://localhost:11434"
    )
    url = url.strip()
    if not url.startswith(("http://", "https://")):
        st.caption(t("Write the server's base URL, starting with http:// or https://."))
        return None
    return url


def _controls() -> None:
    held = running()
    if held is None and is_class_server():
        # A learner's recorder would listen on the class server itself: any free port (a restarting worker's too)
        # and a thread each. Recording is done on the learner's own computer (the caption above says how).
        return
    if held is None:
        upstream = _upstream_choice()
        port = st.number_input(t("Port"), 1024, 65535, DEFAULT_PORT, key="recorder:port")
        if st.button(t("Start recording"), type="primary", key="recorder:start", disabled=upstream is None):
            try:
                start(str(upstream), int(port))
            except OSError as exc:
                st.error(t("The recorder could not listen on port {port}: {error}", port=int(port), error=exc))
                return
            st.rerun()
        return
    upstream = held.recorder.config.upstream
    st.success(t("Recording at {url}: point your program there.", url=held.url))
    st.code(recipe(held.url, upstream), language="bash")
    if st.button(t("Stop recording"), key="recorder:stop"):
        stop()
        st.rerun()


@st.fragment(run_every=REFRESH_S)
def _live() -> None:
    held = running()
    if held is None:
        return
    calls = list(held.recorder.calls)[-10:]
    runs = list(held.recorder.runs.values())
    st.caption(
        t(
            "{runs} run(s) recorded, {calls} call(s) answered since the start.",
            runs=len(runs),
            calls=len(held.recorder.calls),
        )
    )
    for problem in held.recorder.problems:
        st.warning(t("A recorded turn could not be saved: {error}", error=problem))
    if calls:
        st.dataframe(
            pd.DataFrame(
                [
                    {
                        t("time"): time.strftime("%H:%M:%S", time.localtime(c.at)),
                        t("call"): f"{c.method} {c.path}",
                        t("status"): "—" if c.status is None else str(c.status),
                        t("program"): c.client,
                        t("run"): c.run_id or "",
                    }
                    for c in reversed(calls)
                ]
            ),
            hide_index=True,
            key="recorder:calls",
        )


def render() -> None:
    """The recorder panel: what it does, the switch, the recipe, and the calls arriving."""
    with st.expander(t("Record a program you did not write"), expanded=running() is not None):
        st.caption(
            t(
                "Start the recorder, point any program that speaks the Messages API at it (the anthropic SDK, "
                "LangGraph, pydantic-ai, Claude Code...), and each of its loops appears below as a run recorded "
                "from a program: every request and reply as it crossed the wire, turn by turn."
            )
        )
        if is_class_server():
            st.caption(
                t(
                    "On a class server the recorder listens on the server itself, and what it records is yours "
                    "alone. A program on your own computer records with `python -m agent_core serve --record`; "
                    "export its runs there and import them here."
                )
            )
        _controls()
        _live()
