"""The Playground page: step the real loop, one phase or one turn per click, and look at everything it did."""

from __future__ import annotations

import streamlit as st

from agent_core.storage.store import NOT_SHARED, SHARED, TEACHER
from agent_core.vocab import Provider
from lab_ui.controller import session
from lab_ui.controller.session import LabSession
from lab_ui.frame import url_state
from lab_ui.frame.untrusted import md
from lab_ui.playground import controls, stage
from lab_ui.playground import share as share_view
from lab_ui.serving import who
from lab_ui.words.i18n import t


def restore_from_url(lab: LabSession) -> None:
    """Reopen the run named in the URL (a reload or a shared link) at the same turn."""
    run_id = st.query_params.get("run")
    if not run_id or (lab.run and lab.run.id == run_id):
        return
    store = session.run_store()
    access = store.access(run_id, who.taught_learners())  # a class server's runs are their owners'
    if access == NOT_SHARED:
        st.warning(t("Run {run} is not shared with you.", run=md(run_id)))
        return
    version = store.version(run_id)  # read first: a save in between then shows up as a change, never hides one
    run = store.load(run_id)
    if run is None:
        st.warning(t("Run {run} is not in the runs database any more.", run=md(run_id)))
        return
    if access in (SHARED, TEACHER) or share_view.opens_shared():
        share_view.open_shared(lab, run)  # someone else's run: read-only, never with its settings
    else:  # a replay link reopens as a replay (never calls the model); any other link reopens the run live
        lab.open(run, replay=st.query_params.get("mode") == "replay", version=version)
    turn = st.query_params.get("turn")
    if turn and turn.isdigit() and 1 <= int(turn) <= len(run.turns):
        lab.selected = int(turn)


def restore_draft(lab: LabSession, page: str) -> None:
    """An unsent task edit from the URL (?draft=), taken once per tab and page, after the run it belongs to."""
    flag = f"draft-restored:{page}"
    if flag not in st.session_state:
        st.session_state[flag] = True
        if (typed := url_state.draft()) is not None:
            lab.config.task = typed


def keep_draft(lab: LabSession, default_task: str) -> None:
    """Put the task into the URL while it differs from what was last run (or the default, before any run)."""
    if not url_state.keep_draft(lab.config.task, lab.run.config.task if lab.run else default_task):
        st.caption(
            ":material/warning: "
            + t("This task is too long to keep in the page's address: a reload before Reset loses the edit.")
        )


def upstream_words(upstream: str) -> str:
    """Who answered a recorded program, in the learner's words (a compatible server by its URL)."""
    named: dict[str, str] = {Provider.OFFLINE: t("the offline model"), Provider.ANTHROPIC: "Anthropic"}
    return named.get(upstream, upstream)


def recorded_banner(lab: LabSession) -> None:
    """A run recorded from another program says so: what ran it, who answered, that it is read-only."""
    origin = lab.run.origin if lab.run is not None else None
    if not origin:
        return
    st.info(
        t(
            "Recorded from a program: **{client}**, answered by {upstream}. It is shown as it came, read-only: "
            "each turn is one request the program sent. **Make my copy** on the Runs page goes on from it in the "
            "Lab's own loop.",
            client=md(str(origin.get("client") or "?")),
            upstream=md(upstream_words(str(origin.get("upstream") or "?"))),
        )
    )


def render(lab: LabSession) -> None:
    restore_from_url(lab)
    restore_draft(lab, "playground")
    head, badge_col = st.columns([3, 2])
    head.title(t("Playground"))
    mode = " · " + t("replay") if lab.replay else ""
    badge_col.markdown(f"#### :violet-badge[{md(lab.model_label)}{mode}]")  # a recorded run's model is data
    with badge_col:
        share_view.share_button(lab)
    share_view.banner(lab)
    recorded_banner(lab)
    left, right = st.columns([9, 11], gap="small")
    slots = stage.Slots(
        share=True, shared_run=share_view.shared_run(lab), code=left.container(), insights=st.container()
    )
    with left:
        controls.render(lab)
        keep_draft(lab, t(session.DEFAULT_TASK))
    with right:
        stage.panel(lab, slots)
