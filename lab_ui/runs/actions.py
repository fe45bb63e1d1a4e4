"""What one saved run can do on the Runs page: replay, continue live, re-run from a turn, delete, export."""

from __future__ import annotations

from functools import cache, partial
from pathlib import Path

import streamlit as st

from agent_core.examples import load_scenarios
from agent_core.files import export, export_script
from agent_core.model import Run
from agent_core.storage.store import RunStore, RunSummary, StoreError
from lab_ui.controller.click import Level, Notice, show
from lab_ui.controller.session import LabSession
from lab_ui.frame.untrusted import md
from lab_ui.playground import turn as turn_view
from lab_ui.words.i18n import t

PLAYGROUND = "pages/playground.py"
FLASH_KEY = "runs:flash"  # session state: the message the next rerun shows once


def flash(notice: Notice) -> None:
    """A notice shown once at the top of the page, after the rerun an action causes."""
    st.session_state[FLASH_KEY] = notice


def show_flash() -> None:
    """The message an action left for this rerun, if any (shown once)."""
    if FLASH_KEY in st.session_state:
        show(st.session_state.pop(FLASH_KEY))


@cache
def _example_titles() -> frozenset[tuple[str, str]]:
    """(run id, title) of every shipped recording as imported: frozen, so the one copy is shared safely."""
    return frozenset((f"example-{name}", meta["title"]) for name, meta in load_scenarios().items() if "title" in meta)


def shown_title(r: RunSummary) -> str:
    """A run's title or task; a shipped recording's own title in the tab's language (the catalogue has it), while a
    learner's own words stay as they were typed."""
    return t(r.title) if (r.id, r.title) in _example_titles() else r.label


def run_label(r: RunSummary) -> str:
    """A saved run as one line: its title or task, cut at 70 characters, and its id."""
    text = " ".join(shown_title(r).split())
    mark_recorded = f" · {t('recorded from a program')}" if r.recorded else ""
    return f"{text[:70] + '…' if len(text) > 70 else text} · {r.id}{mark_recorded}"


def load(runs_db: RunStore, run_id: str) -> Run | None:
    """The saved run, or None after telling the learner why it cannot be loaded."""
    try:
        run = runs_db.load(run_id)
    except StoreError as exc:
        st.error(str(exc))
        return None
    if run is None:
        st.warning(t("Run {run} is not in the runs database any more.", run=md(run_id)))
    return run


def render(lab: LabSession, runs_db: RunStore, summary: RunSummary, read_only: bool = False) -> None:
    """The buttons under the picked run, and what each one opens (a learner's run their teacher looks at: only
    the replay; continuing, re-running, exporting and deleting are the owner's)."""
    if summary.parent_id:
        st.caption(
            t(
                "A re-run of {run} from its turn {n}: the turns before it are copies of the parent's.",
                run=md(summary.parent_id),
                n=summary.parent_turn,
            )
        )
    # A row that wraps, each button as wide as its label: fixed columns gave each a share of the row, and with the
    # sidebar open at 768 px (300 px of it) 'Re-run from turn…' and 'Delete…' were ellipsised, in Russian and Polish
    # (labels twice as long) every one of the four.
    row = st.container(horizontal=True, key="runs:actions")
    if row.button(
        t("Open as replay"),
        key="runs:replay",
        type="primary",
        width="content",
        # What a replay does: it moves turn by turn (its phases were not recorded one by one).
        help=t("View it in the Playground turn by turn with ◀ Back and Forward ▶; a replay never calls the model."),
    ):
        _open(lab, runs_db, summary.id, replay=True)
    if read_only:
        return
    unfinished = summary.stop_kind is None
    if summary.recorded:
        st.caption(
            t(
                "Recorded from a program ({client}): it opens read-only, as it came. **Make my copy** goes on from "
                "its last turn in the Lab's own loop, with your provider and settings.",
                client=md(summary.origin),
            )
        )
        if row.button(t("Make my copy"), key="runs:copy", width="content", disabled=summary.turns == 0):
            _copy(lab, runs_db, summary)
    elif row.button(
        t("Continue live"),
        key="runs:live",
        disabled=not unfinished,
        width="content",
        help=t("Open it in the Playground to go on stepping it.")
        if unfinished
        else t("This run has stopped; re-run it from a turn instead."),
    ):
        _open(lab, runs_db, summary.id, replay=False)
    with row.popover(t("Re-run from turn…"), key="runs:rerun", disabled=summary.turns == 0, width="content"):
        _rerun(lab, runs_db, summary)
    with row.popover(t("Delete…"), key="runs:delete-menu", width="content"):
        _delete(lab, runs_db, summary)
    _downloads(runs_db.path, summary)
    if st.toggle(
        t("Show a turn in OpenAI form"),
        key="runs:openai",
        help=t("The same request and reply as OpenAI Chat Completions would carry them."),
    ):
        _openai(runs_db, summary)


def _copy(lab: LabSession, runs_db: RunStore, summary: RunSummary) -> None:
    """A recorded run as the learner's own: a new linked run that calls the model again from its last turn."""
    run = load(runs_db, summary.id)
    if run is None:
        return
    lab.open(run, replay=True)
    child = lab.fork(len(run.turns), with_current_settings=False)
    try:
        runs_db.save_run(child)
        lab.saved_version = runs_db.version(child.id)
    except StoreError as exc:
        st.error(t("The copy could not be saved: {error}", error=exc))
        return
    st.switch_page(PLAYGROUND, query_params={"run": child.id})


def _open(lab: LabSession, runs_db: RunStore, run_id: str, replay: bool) -> None:
    run = load(runs_db, run_id)
    if run is None:
        return
    lab.open(run, replay=replay, version=runs_db.version(run.id))
    params = {"run": run.id, **({"mode": "replay"} if replay else {})}
    st.switch_page(PLAYGROUND, query_params=params)


def _rerun(lab: LabSession, runs_db: RunStore, summary: RunSummary) -> None:
    st.caption(
        t(
            "Keeps the turns before it, then calls the model again from there, as a new run linked to this one. "
            "It opens live in the Playground with your own provider, key and settings: a recorded run never "
            "chooses them."
        )
    )
    turn = st.number_input(
        t("Re-run from turn"),
        min_value=1,
        max_value=max(1, summary.turns),
        value=max(1, summary.turns),
        step=1,
        key=f"runs:from:{summary.id}",
    )
    if not st.button(t("Start the re-run"), key="runs:fork"):
        return
    run = load(runs_db, summary.id)
    if run is None:
        return
    lab.open(run, replay=True)
    child = lab.fork(int(turn), with_current_settings=False)
    try:
        runs_db.save_run(child)
        lab.saved_version = runs_db.version(child.id)  # this tab's own save: not another tab's change
    except StoreError as exc:
        st.error(t("The re-run could not be saved: {error}", error=exc))
        return
    lab.tell(
        Level.SUCCESS,
        t(
            "Run {child} re-runs {run} from turn {n}: the {copied} turn(s) before it are copied. "
            "Press **Next step** to call the model.",
            child=child.id,
            run=md(run.id),
            n=child.parent_turn,
            copied=len(child.turns),
        ),
    )
    st.switch_page(PLAYGROUND, query_params={"run": child.id})


def _delete(lab: LabSession, runs_db: RunStore, summary: RunSummary) -> None:
    st.warning(
        t(
            "Delete **{run}** and its {n} turn(s)? This cannot be undone; runs forked from it keep their own copy.",
            run=md(run_label(summary)),
            n=summary.turns,
        )
    )
    if not st.button(t("Yes, delete it"), type="primary", key="runs:delete"):
        return
    try:
        deleted = runs_db.delete(summary.id)
    except StoreError as exc:
        st.error(str(exc))
        return
    if lab.run is not None and lab.run.id == summary.id:
        # Otherwise the Playground's next click would save the deleted run again.
        lab.run, lab.selected, lab.replay = None, None, False
    flash(
        Notice(
            Level.SUCCESS if deleted else Level.INFO,
            t("Deleted run {run}.", run=summary.id) if deleted else t("Run {run} was already gone.", run=summary.id),
        )
    )
    st.rerun()


def export_bytes(path: str | Path, run_id: str, kind: str) -> bytes:
    """A saved run as a download: "json" (the versioned export) or "python" (a runnable SDK script)."""
    with RunStore(path) as own:  # runs on Streamlit's download thread, so it opens its own connection
        run = own.load(run_id)
    if run is None:
        return b""
    return export.export_json(run) if kind == "json" else export_script.to_python_script(run).encode("utf-8")


def _downloads(path: str | Path, summary: RunSummary) -> None:
    """Export buttons whose bytes are built only when clicked (a long run takes ~100 ms to export)."""
    left, right = st.columns(2)
    left.download_button(
        t("Download JSON"),
        partial(export_bytes, path, summary.id, "json"),
        file_name=f"run-{summary.id}.json",
        mime="application/json",
        key="runs:json",
        width="stretch",
        on_click="ignore",
        help=t("The run in the versioned format: import it here, or share it with a class."),
    )
    right.download_button(
        t("Download Python script"),
        partial(export_bytes, path, summary.id, "python"),
        file_name=f"run-{summary.id}.py",
        mime="text/x-python",
        key="runs:python",
        width="stretch",
        on_click="ignore",
        help=t("A runnable program with the official SDK that makes the same requests."),
    )


def _openai(runs_db: RunStore, summary: RunSummary) -> None:
    run = load(runs_db, summary.id)
    if run is None or not run.turns:
        st.info(t("This run has no turns yet."))
        return
    index = st.selectbox(
        t("Turn"),
        range(1, len(run.turns) + 1),
        index=len(run.turns) - 1,
        key=f"runs:openai_turn:{run.id}",
        format_func={i: t("Turn {n}", n=i) for i in range(1, len(run.turns) + 1)}.__getitem__,
    )
    turn_view.openai_form(run.turns[index - 1])
