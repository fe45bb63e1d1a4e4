"""The Runs page: saved runs (search, replay, re-run, export, delete), two runs compared, files and examples in."""

from __future__ import annotations

import datetime as dt

import pandas as pd
import streamlit as st

from agent_core.examples import list_examples, load_example, load_scenarios
from agent_core.files import export
from agent_core.model import Run
from agent_core.storage.store import NotYours, RunStore, RunSummary, StoreError
from agent_core.wire.providers import is_priced
from lab_ui.controller import session
from lab_ui.controller.click import Level, Notice, show
from lab_ui.controller.session import LabSession
from lab_ui.frame.untrusted import md
from lab_ui.runs import actions as run_actions
from lab_ui.runs import compare as compare_view
from lab_ui.runs import recorder as recorder_view
from lab_ui.runs.actions import flash, run_label, show_flash, shown_title
from lab_ui.serving import who
from lab_ui.words.i18n import mark, money, number, t

VIEWS = (mark("Saved runs"), mark("Compare"), mark("Import & examples"))
# Session-state keys (not under agent_loop_lab:, which holds LabSessions only).
PICKED_KEY = "runs:picked"
IDS_KEY = "runs:ids"
IMPORTED_KEY = "runs:imported"  # file_id -> (level, text): each uploaded file is imported once


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
    "from": mark("from"),
}


def summaries_table(runs: list[RunSummary]) -> pd.DataFrame:
    """One row per saved run, as the list shows it (a fork names its parent and the turn it branched at)."""
    rows = [
        {
            "run": r.id,
            "task": shown_title(r),
            "provider": r.provider,
            "model": r.model,
            "turns": r.turns,
            "tokens": r.tokens,
            "cost $": r.cost_usd if is_priced(r.provider) else None,  # a local server has no price: blank, not $0
            "stopped by": r.stop_kind or t("not finished"),
            "date": _date(r.created_at),
            "fork of": t("{run} at turn {n}", run=r.parent_id, n=r.parent_turn) if r.parent_id else "",
            "from": t("recorded from a program: {client}", client=r.origin) if r.recorded else t("the Lab"),
        }
        for r in runs
    ]
    # The numbers a learner compares come first after the task: at 768 px the grid scrolls sideways past the rest.
    columns = ["run", "task", "turns", "tokens", "cost $", "stopped by", "model", "provider", "from", "date", "fork of"]
    return pd.DataFrame(rows, columns=columns)


def _date(stamp: float) -> str:
    """A saved run's date; a stamp no calendar can show (from a damaged or hand-made row) shows as a dash."""
    try:
        return dt.datetime.fromtimestamp(stamp).strftime("%Y-%m-%d %H:%M")
    except (OverflowError, OSError, ValueError):
        return "—"


def _picked_from_table() -> None:
    """A click on a table row picks that run in the selector below it."""
    rows = st.session_state["runs:table"].selection.rows
    ids = st.session_state.get(IDS_KEY, [])
    if rows and rows[0] < len(ids):
        st.session_state[PICKED_KEY] = ids[rows[0]]


def _saved_runs(lab: LabSession, runs_db: RunStore) -> None:
    recorder_view.render()
    search = st.text_input(
        t("Search"), key="runs:search", placeholder=t("words of the task, a model, a stop cause or a run id")
    )
    learners = who.taught_learners()
    # A class server lists the learner's own runs; their teacher may look at the class's, read-only.
    of_class = bool(learners) and st.toggle(t("Runs of my class's learners (read-only)"), key="runs:of-class")
    runs = runs_db.list_runs(search, owners=learners) if of_class else runs_db.list_runs(search)
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
    # Display values in the tab's language (1 345, $0,003538 in Polish); the grid still sorts by the numbers under them.
    table = (
        summaries_table(runs)
        .rename(columns=headers)
        .style.format({headers["tokens"]: number, headers["cost $"]: lambda v: money(v, 6)}, na_rep="—")
    )
    st.dataframe(
        table,
        hide_index=True,
        key="runs:table",
        on_select=_picked_from_table,
        selection_mode="single-row",
        height=min(35 * (len(runs) + 1) + 3, 400),
        placeholder="—",  # a blank cost (a local server's run) would read "None", an English word in every language
        column_config={
            headers["task"]: st.column_config.TextColumn(width="medium"),
            headers["turns"]: st.column_config.NumberColumn(width="small"),
        },
    )
    by_id = {r.id: r for r in runs}
    if st.session_state.get(PICKED_KEY) not in by_id:
        st.session_state[PICKED_KEY] = runs[0].id
    picked = st.selectbox(
        t("Run"),
        list(by_id),
        key=PICKED_KEY,
        # Labels made now, in this run's language: a format_func called later (AppTest calls it outside the run)
        # would find no language and write a shipped recording's title in English
        format_func={i: run_label(r) for i, r in by_id.items()}.__getitem__,
        help=t("Or click a row of the table."),
    )
    run_actions.render(lab, runs_db, by_id[picked], read_only=of_class)


# -- import ---------------------------------------------------------------------------------------
def import_bytes(runs_db: RunStore, data: bytes) -> Run:
    """Validate and save an uploaded export; raises RunImportError or StoreError with a message for the learner."""
    run = export.import_json(data, max_bytes=export.MAX_IMPORT_BYTES)
    save_as_mine(runs_db, run)
    return run


def save_as_mine(runs_db: RunStore, run: Run) -> None:
    """Save a run from a file or the examples; on a class server, an id someone else's run has gets a new one
    (a file must never overwrite another learner's run)."""
    try:
        runs_db.save_run(run)
    except NotYours:
        run.id = Run(config=run.config).id
        runs_db.save_run(run)


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
    show(done[uploaded.file_id])


def _import_one(runs_db: RunStore, name: str, data: bytes) -> Notice:
    try:
        run = import_bytes(runs_db, data)
    except export.RunImportError as exc:
        return Notice(Level.ERROR, t("**{file}** was not imported. {error}", file=md(name), error=md(exc)))
    except StoreError as exc:
        error = t("**{file}** is a valid run but could not be saved: {error}", file=md(name), error=md(exc))
        return Notice(Level.ERROR, error)
    st.session_state[PICKED_KEY] = run.id
    return Notice(
        Level.SUCCESS,
        t(
            "Imported **{file}** as run {run} ({n} turn(s)); it is in **Saved runs**, picked.",
            file=md(name),
            run=run.id,
            n=len(run.turns),
        ),
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
        # The shipped scenario table's words: the catalogue translates them (lab_ui/words/locales/teacher).
        title, lesson = t(meta.get("title", name)), t(meta["lesson"]) if meta.get("lesson") else ""
        text.markdown(f"**{title}** · {stops}  \n{lesson}")
        if button.button(
            t("Imported ✓") if have else t("Import"), key=f"runs:example:{name}", disabled=have, width="stretch"
        ):
            try:
                example = load_example(name)
                save_as_mine(runs_db, example)
                run_id = example.id
            except (export.RunImportError, StoreError) as exc:
                st.error(t("The example {name} could not be imported: {error}", name=name, error=exc))
                return
            st.session_state[PICKED_KEY] = run_id
            flash(
                Notice(
                    Level.SUCCESS,
                    t("Imported the example “{title}” as run {run}.", title=meta.get("title", name), run=run_id),
                )
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
    show_flash()
    view = st.segmented_control(
        t("View"),
        VIEWS,
        default=VIEWS[0],
        required=True,
        key="runs:view",
        format_func={v: t(v) for v in VIEWS}.__getitem__,
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
