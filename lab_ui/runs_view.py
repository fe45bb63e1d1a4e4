"""The Runs page: saved runs (search, replay, re-run, export, delete), two runs compared, files and examples in."""

from __future__ import annotations

import datetime as dt
from functools import partial
from pathlib import Path

import pandas as pd
import streamlit as st

from agent_core import export
from agent_core.examples import list_examples, load_example, load_scenarios
from agent_core.model import Run
from agent_core.store import RunStore, RunSummary, StoreError
from lab_ui import compare as compare_view
from lab_ui import session, turn_view
from lab_ui.i18n import mark, t
from lab_ui.session import LabSession
from lab_ui.untrusted import md

PLAYGROUND = "pages/playground.py"
VIEWS = (mark("Saved runs"), mark("Compare"), mark("Import & examples"))
# Session-state keys (not under agent_loop_lab:, which holds LabSessions only).
FLASH_KEY = "runs:flash"
PICKED_KEY = "runs:picked"
IDS_KEY = "runs:ids"
IMPORTED_KEY = "runs:imported"  # file_id -> (level, text): each uploaded file is imported once


def flash(level: str, text: str) -> None:
    """A message shown once at the top of the page, after the rerun an action causes."""
    st.session_state[FLASH_KEY] = (level, text)


def _show_flash() -> None:
    if FLASH_KEY in st.session_state:
        level, text = st.session_state.pop(FLASH_KEY)
        getattr(st, level)(text)


# -- the list -------------------------------------------------------------------------------------
# Column headers as the learner reads them; the table itself keeps the English names (tests and config use them).
HEADERS = {
    "run": mark("run"),
    "task": mark("task"),
    "provider": mark("provider"),
    "model": mark("model"),
    "turns": mark("turns"),
    "tokens": mark("tokens"),
    "cost $": mark("cost $"),
    "stopped by": mark("stopped by"),
    "date": mark("date"),
    "fork of": mark("fork of"),
}


def summaries_table(runs: list[RunSummary]) -> pd.DataFrame:
    """One row per saved run, as the list shows it (a fork names its parent and the turn it branched at)."""
    rows = [
        {
            "run": r.id,
            "task": r.title or r.task,
            "provider": r.provider,
            "model": r.model,
            "turns": r.turns,
            "tokens": r.tokens,
            "cost $": r.cost_usd,
            "stopped by": r.stop_kind or t("not finished"),
            "date": _date(r.created_at),
            "fork of": t("{run} at turn {n}", run=r.parent_id, n=r.parent_turn) if r.parent_id else "",
        }
        for r in runs
    ]
    return pd.DataFrame(
        rows, columns=["run", "task", "provider", "model", "turns", "tokens", "cost $", "stopped by", "date", "fork of"]
    )


def _date(stamp: float) -> str:
    """A saved run's date; a stamp no calendar can show (from a damaged or hand-made row) shows as a dash."""
    try:
        return dt.datetime.fromtimestamp(stamp).strftime("%Y-%m-%d %H:%M")
    except (OverflowError, OSError, ValueError):
        return "—"


def run_label(r: RunSummary) -> str:
    text = " ".join(r.label.split())
    return f"{text[:70] + '…' if len(text) > 70 else text} · {r.id}"


def _picked_from_table() -> None:
    """A click on a table row picks that run in the selector below it."""
    rows = st.session_state["runs:table"].selection.rows
    ids = st.session_state.get(IDS_KEY, [])
    if rows and rows[0] < len(ids):
        st.session_state[PICKED_KEY] = ids[rows[0]]


def _saved_runs(lab: LabSession, runs_db: RunStore) -> None:
    search = st.text_input(
        t("Search"), key="runs:search", placeholder=t("words of the task, a model, a stop cause or a run id")
    )
    runs = runs_db.list_runs(search)
    if not runs:
        st.info(
            t("No saved run matches your search.")
            if search.strip()
            else t(
                "No saved runs yet. Every run of the Playground is saved here; you can also import a file or one "
                "of the example recordings (**Import & examples** above)."
            )
        )
        return
    st.session_state[IDS_KEY] = [r.id for r in runs]
    headers = {k: t(v) for k, v in HEADERS.items()}
    st.dataframe(
        summaries_table(runs).rename(columns=headers),
        hide_index=True,
        key="runs:table",
        on_select=_picked_from_table,
        selection_mode="single-row",
        height=min(35 * (len(runs) + 1) + 3, 400),
        column_config={
            headers["cost $"]: st.column_config.NumberColumn(format="$%.6f"),
            headers["tokens"]: st.column_config.NumberColumn(format="localized"),
        },
    )
    by_id = {r.id: r for r in runs}
    if st.session_state.get(PICKED_KEY) not in by_id:
        st.session_state[PICKED_KEY] = runs[0].id
    picked = st.selectbox(
        t("Run"),
        list(by_id),
        key=PICKED_KEY,
        format_func=lambda i: run_label(by_id[i]),
        help=t("Or click a row of the table."),
    )
    _actions(lab, runs_db, by_id[picked])


# -- what one run can do ----------------------------------------------------------------------------
def _load(runs_db: RunStore, run_id: str) -> Run | None:
    try:
        run = runs_db.load(run_id)
    except StoreError as exc:
        st.error(str(exc))
        return None
    if run is None:
        st.warning(t("Run {run} is not in the runs database any more.", run=md(run_id)))
    return run


def _actions(lab: LabSession, runs_db: RunStore, summary: RunSummary) -> None:
    if summary.parent_id:
        st.caption(
            t(
                "A re-run of {run} from its turn {n}: the turns before it are copies of the parent's.",
                run=md(summary.parent_id),
                n=summary.parent_turn,
            )
        )
    cols = st.columns(4)
    if cols[0].button(
        t("Open as replay"),
        type="primary",
        width="stretch",
        help=t("View it in the Playground, step by step; a replay never calls the model."),
    ):
        _open(lab, runs_db, summary.id, replay=True)
    unfinished = summary.stop_kind is None
    if cols[1].button(
        t("Continue live"),
        disabled=not unfinished,
        width="stretch",
        help=t("Open it in the Playground to go on stepping it.")
        if unfinished
        else t("This run has stopped; re-run it from a turn instead."),
    ):
        _open(lab, runs_db, summary.id, replay=False)
    with cols[2].popover(t("Re-run from turn…"), disabled=summary.turns == 0, width="stretch"):
        _rerun(lab, runs_db, summary)
    with cols[3].popover(t("Delete…"), width="stretch"):
        _delete(lab, runs_db, summary)
    _downloads(runs_db.path, summary)
    if st.toggle(
        t("Show a turn in OpenAI form"),
        key="runs:openai",
        help=t("The same request and reply as OpenAI Chat Completions would carry them."),
    ):
        _openai(runs_db, summary)


def _open(lab: LabSession, runs_db: RunStore, run_id: str, replay: bool) -> None:
    run = _load(runs_db, run_id)
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
    run = _load(runs_db, summary.id)
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
    lab.message = (
        "success",
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
        "success" if deleted else "info",
        t("Deleted run {run}.", run=summary.id) if deleted else t("Run {run} was already gone.", run=summary.id),
    )
    st.rerun()


def export_bytes(path: str | Path, run_id: str, kind: str) -> bytes:
    """A saved run as a download: "json" (the versioned export) or "python" (a runnable SDK script)."""
    with RunStore(path) as own:  # runs on Streamlit's download thread, so it opens its own connection
        run = own.load(run_id)
    if run is None:
        return b""
    return export.export_json(run) if kind == "json" else export.to_python_script(run).encode("utf-8")


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
    run = _load(runs_db, summary.id)
    if run is None or not run.turns:
        st.info(t("This run has no turns yet."))
        return
    index = st.selectbox(
        t("Turn"),
        range(1, len(run.turns) + 1),
        index=len(run.turns) - 1,
        key=f"runs:openai_turn:{run.id}",
        format_func={i: t("Turn {n}", n=i) for i in range(1, len(run.turns) + 1)}.get,
    )
    turn_view.openai_form(run.turns[index - 1])


# -- import ---------------------------------------------------------------------------------------
def import_bytes(runs_db: RunStore, data: bytes) -> Run:
    """Validate and save an uploaded export; raises RunImportError or StoreError with a message for the learner."""
    run = export.import_json(data, max_bytes=export.MAX_IMPORT_BYTES)
    runs_db.save_run(run)
    return run


def _import(runs_db: RunStore) -> None:
    st.subheader(t("Import a run"))
    uploaded = st.file_uploader(
        t("A run exported as JSON (**Download JSON** under Saved runs, here or elsewhere)"),
        type=["json"],
        key="runs:upload",
        max_upload_size=max(1, -(-export.MAX_IMPORT_BYTES // 1_000_000)),
    )
    if uploaded is None:
        return
    done = st.session_state.setdefault(IMPORTED_KEY, {})
    if uploaded.file_id not in done:  # every rerun sees the same upload: import it once
        done[uploaded.file_id] = _import_one(runs_db, uploaded.name, uploaded.getvalue())
    level, text = done[uploaded.file_id]
    getattr(st, level)(text)


def _import_one(runs_db: RunStore, name: str, data: bytes) -> tuple[str, str]:
    try:
        run = import_bytes(runs_db, data)
    except export.RunImportError as exc:
        return "error", t("**{file}** was not imported. {error}", file=md(name), error=md(exc))
    except StoreError as exc:
        return "error", t("**{file}** is a valid run but could not be saved: {error}", file=md(name), error=md(exc))
    st.session_state[PICKED_KEY] = run.id
    return "success", t(
        "Imported **{file}** as run {run} ({n} turn(s)); it is in **Saved runs**, picked.",
        file=md(name),
        run=run.id,
        n=len(run.turns),
    )


def _examples(runs_db: RunStore) -> None:
    st.subheader(t("Example recordings"))
    st.caption(t("Real runs of the loop against the offline model, shipped for classes. Import one to replay it."))
    scenarios = load_scenarios()
    for name, _path in list_examples():
        meta = scenarios.get(name, {})
        run_id = f"example-{name}"
        have = any(r.id == run_id for r in runs_db.list_runs(run_id))
        text, button = st.columns([5, 1], vertical_alignment="center")
        stops = t("stops with `{cause}`", cause=meta.get("expect_stop", "?"))
        text.markdown(f"**{meta.get('title', name)}** · {stops}  \n{meta.get('lesson', '')}")
        if button.button(
            t("Imported ✓") if have else t("Import"), key=f"runs:example:{name}", disabled=have, width="stretch"
        ):
            try:
                runs_db.save_run(load_example(name))
            except (export.RunImportError, StoreError) as exc:
                st.error(t("The example {name} could not be imported: {error}", name=name, error=exc))
                return
            st.session_state[PICKED_KEY] = run_id
            flash(
                "success", t("Imported the example “{title}” as run {run}.", title=meta.get("title", name), run=run_id)
            )
            st.rerun()


# -- the page -------------------------------------------------------------------------------------
def render(lab: LabSession) -> None:
    st.title(t("Runs"))
    st.caption(
        t(
            "Every run of the Playground is saved here. Replay one, re-run it from any turn, compare two, or "
            "move runs between computers as files."
        )
    )
    try:
        runs_db = session.run_store()
    except StoreError as exc:
        st.error(t("The runs database cannot be opened: {error}", error=exc))
        return
    _show_flash()
    view = st.segmented_control(
        t("View"),
        VIEWS,
        default=VIEWS[0],
        required=True,
        key="runs:view",
        format_func={v: t(v) for v in VIEWS}.get,
        label_visibility="collapsed",
    )
    try:
        if view == "Compare":
            compare_view.render(runs_db)
        elif view == "Import & examples":
            _import(runs_db)
            _examples(runs_db)
        else:
            _saved_runs(lab, runs_db)
    except StoreError as exc:
        st.error(t("The runs database cannot be read: {error}", error=exc))
