"""The step bar: its buttons return the Action clicked; `click` hands it to LabSession.step and redraws what changed.

Where a click runs (see lab_ui/playground/stage.py for the fragment): a call that cannot wait (the offline model, no
simulated latency) runs in the stage fragment's rerun, so only the run's panels are redrawn. A call that may wait (any
server, or simulated latency) runs in a full app rerun, in the main script's slot below the step bar: a click
inside a running fragment never stops that run (Streamlit queues it until the run ends), so the call's Cancel
(lab_ui/playground/call_watch.py) works only there.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import streamlit as st
from streamlit.delta_generator import DeltaGenerator
from streamlit.errors import StreamlitAPIException

from agent_core.vocab import Provider
from lab_ui.controller.click import Action, show
from lab_ui.controller.session import LabSession
from lab_ui.frame.draw_queue import QUEUE
from lab_ui.playground import call_watch
from lab_ui.words.i18n import mark, t

RESET_HELP = mark(
    "Start a new run with the task and settings as they are now (until a run's first call, a change applies at once)."
)


def buttons(lab: LabSession, place: DeltaGenerator) -> Action | None:
    """The step bar, in a new row of `place`; returns the Action clicked, or None."""
    halted = lab.halted
    clicked = None
    # One row that wraps when narrow: a horizontal container is one element, st.columns(4) is five, and every
    # element is a message a click costs (about 0.3 ms of server CPU each, benchmarks/bench_click.py).
    with place.container(horizontal=True):
        if st.button(t("Next phase"), type="primary", disabled=halted, width="stretch", key="btn-phase"):
            clicked = Action.PHASE
        if st.button(t("Next step"), disabled=halted, width="stretch", key="btn-turn"):
            clicked = Action.TURN
        if st.button(t("Run to end"), disabled=halted, width="stretch", key="btn-end"):
            clicked = Action.END
        if st.button(t("Reset"), width="stretch", key="btn-reset", help=t(RESET_HELP)):
            clicked = Action.RESET
    return clicked


def click(lab: LabSession, action: Action) -> None:
    """Do what a click asked, in the stage fragment's run (drawn just below the bar), or hand a call that may wait
    to a full app rerun (so that its Cancel can stop it)."""
    if action.calls_model and may_wait(lab):
        lab.pending = action
        st.rerun()
    outcome = lab.step(action, around=lambda: _watched(lab))
    if outcome.new_run:
        st.rerun()  # a new run: the header, the draft in the URL and every panel change
    if outcome.halted_changed:
        rerun_stage()  # the bar above was drawn for the run as it was before the click: draw it again


def run_pending(lab: LabSession) -> bool:
    """In the main script, below the step bar: the call a click handed over (full app reruns only)."""
    action, lab.pending = lab.pending, None  # first: a Cancel that stops this run must not start the call again
    if action is None:
        return False
    lab.step(action, around=lambda: _watched(lab))
    return True


@contextmanager
def _watched(lab: LabSession) -> Iterator[None]:
    """Around a click's model calls: a spinner, and outside the draw queue (a server's wait holds up no other
    learner). A call that may wait is watched (its seconds and a Cancel; this runs only in a full app run, where a
    Cancel click stops the script); an instant call is over before the watch's first look at it."""
    with st.spinner(t("Working…")), QUEUE.released():
        if may_wait(lab):
            with call_watch.watched(lab, after_cancel=lab.save):  # the turns before the cancelled call are kept
                yield
        else:
            yield


def may_wait(lab: LabSession) -> bool:
    """Whether a call can take long enough to want a Cancel: anything but the offline model without latency."""
    config = lab.run.config if lab.run else lab.config
    return config.provider != Provider.OFFLINE or bool(config.sim.latency_ms)


def rerun_stage() -> None:
    """Rerun only the stage fragment; in a full app run (AppTest's clicks) that is not allowed: rerun the app."""
    try:
        st.rerun(scope="fragment")
    except StreamlitAPIException:
        st.rerun()


def show_notices(lab: LabSession) -> None:
    """What the last clicks said, once, right below the step bar (kept in the session: a full app rerun may have
    run the click, and the stage fragment's later reruns must not show it again)."""
    for notice in lab.take_notices():
        show(notice)
