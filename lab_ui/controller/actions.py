"""What a click on the step bar does: the call (spinner, timer, Cancel), saving the run, and keeping the URL in step.

Where a click runs (see lab_ui/playground/stage.py for the fragment): a call that cannot wait (the offline model, no simulated
latency) runs in the stage fragment's rerun, so only the run's panels are redrawn. A call that may wait (any
server, or simulated latency) runs in a full app rerun, in the main script's slot below the step bar: a click
inside a running fragment never stops that run (Streamlit queues it until the run ends), so the call's Cancel
(lab_ui/playground/call_watch.py) works only there.
"""

from __future__ import annotations

import logging

import streamlit as st
from streamlit.delta_generator import DeltaGenerator
from streamlit.errors import StreamlitAPIException

from agent_core.secrets import scrub_secrets
from agent_core.storage.store import StoreError
from agent_core.vocab import Provider
from lab_ui.controller import session
from lab_ui.controller.session import LabSession
from lab_ui.frame.draw_queue import QUEUE
from lab_ui.frame.untrusted import md
from lab_ui.playground import call_watch
from lab_ui.words.i18n import mark, t

log = logging.getLogger(__name__)

RESET_HELP = mark(
    "Start a new run with the task and settings as they are now (a change applies only from the next run)."
)
CALLS = ("phase", "turn", "end", "retry")  # the actions that may call the model


def buttons(lab: LabSession, place: DeltaGenerator) -> str | None:
    """The step bar, in a new row of `place`; returns the action clicked ("phase", "turn", "end", "reset") or None."""
    halted = halted_now(lab)
    clicked = None
    # One row that wraps when narrow: a horizontal container is one element, st.columns(4) is five, and every
    # element is a message a click costs (about 0.3 ms of server CPU each, benchmarks/bench_click.py).
    with place.container(horizontal=True):
        if st.button(t("Next phase"), type="primary", disabled=halted, width="stretch", key="btn-phase"):
            clicked = "phase"
        if st.button(t("Next step"), disabled=halted, width="stretch", key="btn-turn"):
            clicked = "turn"
        if st.button(t("Run to end"), disabled=halted, width="stretch", key="btn-end"):
            clicked = "end"
        if st.button(t("Reset"), width="stretch", key="btn-reset", help=t(RESET_HELP)):
            clicked = "reset"
    return clicked


def handle(lab: LabSession, clicked: str) -> None:
    """Do what the step bar's click asked, in the stage fragment's run (drawn just below the bar)."""
    if clicked == "reset":
        lab.start()
        save(lab)
        st.rerun()  # a new run: the header, the draft in the URL and every panel change
    halted = halted_now(lab)
    request(lab, clicked)
    if halted_now(lab) != halted:
        rerun_stage()  # the bar above was drawn for the run as it was before the click: draw it again


def request(lab: LabSession, action: str) -> None:
    """Run a call here, or hand it to a full app rerun when it may wait (so that its Cancel can stop it)."""
    if may_wait(lab):
        lab.pending = action
        st.rerun()
    perform(lab, action)


def run_pending(lab: LabSession) -> None:
    """In the main script, below the step bar: the call a click handed over (full app reruns only)."""
    action, lab.pending = lab.pending, None  # first: a Cancel that stops this run must not start the call again
    if action is not None:
        perform(lab, action)


def may_wait(lab: LabSession) -> bool:
    """Whether a call can take long enough to want a Cancel: anything but the offline model without latency."""
    config = lab.run.config if lab.run else lab.config
    return config.provider != Provider.OFFLINE or bool(config.sim.latency_ms)


def halted_now(lab: LabSession) -> bool:
    """The run has stopped or ended, or is a replay (which never calls the model)."""
    return bool(lab.run and (lab.run.stop or lab.run.done)) or lab.replay


def rerun_stage() -> None:
    """Rerun only the stage fragment; in a full app run (AppTest's clicks) that is not allowed: rerun the app."""
    try:
        st.rerun(scope="fragment")
    except StreamlitAPIException:
        st.rerun()


def perform(lab: LabSession, action: str) -> None:
    """One action with its spinner; a failure is kept for the stage to show; then save.

    A call that may wait is watched (lab_ui/playground/call_watch.py: its seconds and a Cancel); this runs only in a full app
    run, where a Cancel click stops the script. An instant call runs as it is: a Cancel drawn in the stage
    fragment could not stop it, and such a call is over before the watch's first look at it."""
    lab.on_turn_saved = lambda: _save_turn(lab)  # Run to end: each turn saved as it completes
    try:
        # The model call and the tools run outside the draw queue: a server's wait never holds up the class.
        with st.spinner(t("Working…")), QUEUE.released():  # a watched call's line says how long it has waited
            if may_wait(lab):
                with call_watch.watched(lab, after_cancel=lambda: save(lab)):  # the seconds and a Cancel per call
                    lab.act(action)
            else:
                lab.act(action)
    except Exception as exc:  # the run so far must survive anything a click can cause
        # Logged without the traceback's values and with the key scrubbed: a log must never hold a key.
        log.warning("%s failed: %s", action, scrub_secrets(f"{type(exc).__name__}: {exc}", [lab.api_key or ""]))
        lab.failure = t(
            "Something went wrong: {error}. The run so far is kept.", error=md(f"{type(exc).__name__}: {exc}")
        )
    save(lab)


def show_failure(lab: LabSession) -> None:
    """The last action's failure, once, right below the step bar (kept in the session: a full app rerun may
    have run the action, and the stage fragment's later reruns must not show it again)."""
    if lab.failure:
        st.error(lab.failure)
        lab.failure = None


def save(lab: LabSession) -> None:
    """Every action is saved, and the run id and turn go into the URL, so a reload loses nothing."""
    if lab.run is None:
        return
    try:
        if not lab.replay:
            _save_unless_changed_elsewhere(lab)
    except StoreError as exc:
        st.warning(t("This run could not be saved: {error}. It is still here in this tab.", error=exc))
    sync_url(lab)


def _save_unless_changed_elsewhere(lab: LabSession) -> None:
    """Save the run; if another tab saved it since this tab loaded it, go on as a linked copy instead."""
    store = session.run_store()
    stored = store.version(lab.active_run.id)
    # None: this tab never read a stored version (a new run, or one this tab saved itself elsewhere).
    if lab.saved_version is not None and stored is not None and stored != lab.saved_version:
        original = lab.active_run.id
        lab.fork_away()
        lab.message = (
            "warning",
            t(
                "Another tab changed run {run} after this tab opened it. So that neither tab overwrites the other, "
                "this tab goes on as a new run {copy}, linked to it.",
                run=original,
                copy=lab.active_run.id,
            ),
        )
    store.save_run(lab.active_run, from_turn=lab.unsaved_from())  # a forked copy has no saved turns: saved whole
    lab.mark_saved()
    lab.saved_version = store.version(lab.active_run.id)


def _save_turn(lab: LabSession) -> None:
    """One turn of a Run to end, saved as it completes (a worker that dies mid-run loses at most that turn).
    A failure here is said by the save after the action."""
    if lab.run is None or lab.replay:
        return
    store = session.run_store()
    try:
        store.save_run(lab.active_run, from_turn=lab.unsaved_from())
    except StoreError:
        return
    lab.mark_saved()
    lab.saved_version = store.version(lab.active_run.id)


def sync_url(lab: LabSession) -> None:
    """Keep ?run=ID&turn=N (and mode=replay for a replay) in step with what is shown, so a reload reopens it."""
    if lab.run is None:
        return
    wanted = {
        "run": lab.run.id,
        "turn": str(lab.selected) if lab.selected else None,
        "mode": "replay" if lab.replay else None,
    }
    for name, value in wanted.items():
        if value is None and name in st.query_params:
            del st.query_params[name]
        elif value is not None and st.query_params.get(name) != value:
            st.query_params[name] = value
