"""Share a run by link on this server: others see it read-only, and "Make my copy" continues it as their own."""

from __future__ import annotations

import copy

import streamlit as st

from agent_core.files.share import SHARED_VIEW, own_copy
from agent_core.model import Run
from agent_core.serving.mode import is_class_server
from agent_core.storage.store import StoreError
from lab_ui.controller import session
from lab_ui.controller.session import LabSession
from lab_ui.frame.links import app_link
from lab_ui.words.i18n import t

VIEW_PARAM = "view"
VIEWING_KEY = "share:viewing"  # the id of the shared run this tab is looking at
GRANTED_KEY = "share:granted"  # the run ids this tab's owner shared (class server)


def opens_shared() -> bool:
    """True when the URL asks for the read-only view of a shared run."""
    return st.query_params.get(VIEW_PARAM) == SHARED_VIEW


def open_shared(lab: LabSession, run: Run) -> None:
    """Show a shared run as a replay; the viewer's own settings stay theirs (the run's are never adopted)."""
    mine = copy.deepcopy(lab.config)
    mine.task = run.config.task  # the Task box shows the run on screen (text only: it chooses nothing)
    lab.open(run, replay=True)
    lab.config = mine
    st.session_state[VIEWING_KEY] = run.id


def viewing(lab: LabSession) -> bool:
    """True while this tab shows a run that someone shared (read-only)."""
    return bool(lab.replay and lab.run and st.session_state.get(VIEWING_KEY) == lab.run.id)


def banner(lab: LabSession) -> None:
    """The read-only notice over a shared run, with the one way to continue it: a copy of one's own."""
    if not viewing(lab):
        if opens_shared() and lab.run is not None and lab.run.id == st.query_params.get("run"):
            del st.query_params[VIEW_PARAM]  # a run of one's own (after Reset or a copy) reloads as one's own
        return
    st.info(
        t(
            "**A run shared with you**, read-only. Its settings (provider, server, sandbox, approvals) are not "
            "used here. **Make my copy** to continue it with your own settings."
        )
    )
    if st.button(t("Make my copy"), type="primary", key="share:copy"):
        make_copy(lab)


def make_copy(lab: LabSession) -> None:
    mine, unreviewed = own_copy(lab.active_run, lab.config)
    lab.open(mine, replay=False)
    lab.unreviewed_tools = unreviewed  # offered for review, as for any recorded run's own tools
    st.session_state.pop(VIEWING_KEY, None)
    try:
        session.run_store().save_run(mine)
    except StoreError as exc:
        st.warning(t("This run could not be saved: {error}. It is still here in this tab.", error=exc))
    del st.query_params[VIEW_PARAM]
    st.query_params["run"] = mine.id
    st.query_params.pop("mode", None)
    st.rerun()


def shared_run(lab: LabSession) -> str | None:
    """The run a share button links to: the open run once it has a turn (it is saved by then), else None."""
    return lab.run.id if lab.run is not None and lab.run.turns else None


def share_button(lab: LabSession) -> None:
    """A popover with this run's read-only link (only for a run with turns: it is saved by then)."""
    run_id = shared_run(lab)
    if run_id is None:
        return
    with st.popover(t("Share"), icon=":material/link:", key="share"):
        st.caption(
            t(
                "Anyone who opens this link on this server sees the run read-only and can make their own copy "
                "to continue it. Your key and your settings are not shared."
            )
        )
        if is_class_server() and not _granted(run_id):
            # A class server's runs are private: the link opens for others only once its owner says so.
            if st.button(t("Share this run"), key="share:grant", type="primary"):
                try:
                    session.run_store().share(run_id)
                except StoreError as exc:
                    st.error(str(exc))
                    return
                st.session_state.setdefault(GRANTED_KEY, set()).add(run_id)
            else:
                return
        st.code(app_link("playground", run=run_id, **{VIEW_PARAM: SHARED_VIEW}), language=None)


def _granted(run_id: str) -> bool:
    return run_id in st.session_state.get(GRANTED_KEY, set())
