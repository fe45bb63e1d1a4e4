"""Two saved runs side by side: totals, overlaid context, cost and message charts, and the diff of their histories."""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from agent_core.model import Run
from agent_core.report import compare
from agent_core.storage.store import RunStore, RunSummary
from agent_core.wire.providers import is_priced
from lab_ui.controller import spend
from lab_ui.frame import presenter
from lab_ui.frame.untrusted import md
from lab_ui.words.i18n import mark, money, number, t

A_KEY, B_KEY = "runs:compare_a", "runs:compare_b"
PICKED_KEY = "runs:picked"  # the run picked in Saved runs (lab_ui.runs.page) is the first default
# compare.side_by_side names its columns "turn" and "<A or B> <what>"; these are the headers the learner reads.
HEADERS = {
    "messages": mark("{run} messages"),
    "context": mark("{run} context"),
    "cost so far $": mark("{run} cost so far $"),
}


def _defaults(runs: list[RunSummary]) -> tuple[str, str]:
    """A: the run picked in Saved runs (else the newest); B: its parent if it is a fork, else the next run."""
    ids = [r.id for r in runs]
    picked = st.session_state.get(PICKED_KEY)
    a = picked if isinstance(picked, str) and picked in ids else ids[0]
    parent = next(r.parent_id for r in runs if r.id == a)
    b = parent if parent is not None and parent in ids else next(i for i in ids if i != a)
    return a, b


def _label(r: RunSummary) -> str:
    text = " ".join(r.label.split())
    return f"{text[:60] + '…' if len(text) > 60 else text} · {r.id} · " + t("{n} turn(s)", n=r.turns)


def _pickers(runs: list[RunSummary]) -> tuple[str, str]:
    by_id = {r.id: r for r in runs}
    a, b = _defaults(runs)
    for key, default in ((A_KEY, a), (B_KEY, b)):
        if st.session_state.get(key) not in by_id:
            st.session_state[key] = default
    # Labels are made now, in this run's language: AppTest calls format_func after the run has ended.
    labels = {i: _label(r) for i, r in by_id.items()}
    left, right = st.columns(2)
    a = left.selectbox(t("Run A"), list(by_id), key=A_KEY, format_func=labels.__getitem__)
    b = right.selectbox(t("Run B"), list(by_id), key=B_KEY, format_func=labels.__getitem__)
    return a, b


def _totals(run: Run, where, priced: bool) -> None:
    # Every field of a recorded run is data: through md(), so a markdown image in it is shown, never fetched.
    fork = " · " + t("fork of {run} at turn {n}", run=md(run.parent_id), n=run.parent_turn) if run.parent_id else ""
    stop = str(run.stop.kind).replace("`", "'") if run.stop else t("not finished")  # stays in its code span
    title = md(" ".join((run.title or run.config.task).split())[:90])
    where.caption(
        f"**{title}**  \n{md(run.id)} · {md(run.config.model)} · {md(run.config.provider)}{fork} · "
        + t("stopped by `{cause}`", cause=stop)
    )
    cols = where.columns(3)
    cols[0].metric(t("Turns"), len(run.turns))
    cols[1].metric(t("Tokens"), number(run.total_tokens))
    cols[2].metric(t("Cost"), money(run.total_cost_usd, 4) if priced else t(spend.NO_PRICE))


def header(column: str) -> str:
    """A side_by_side column name in the tab's language."""
    if column == "turn":
        return t("turn")
    run, _, what = column.partition(" ")
    return t(HEADERS[what], run=run) if what in HEADERS else column


NO_TURN = mark("no such turn in this run")


def _cell(column: str, value: Any) -> str:
    """One figure as text; a turn one run does not have says so instead of 'None'."""
    if value is None:
        return t(NO_TURN)
    if column.endswith("$"):
        return number(value, 6)
    return number(value) if isinstance(value, int) else str(value)


def turn_rows(c: compare.Comparison, unpriced: tuple[str, ...] = ()) -> list[dict[str, str]]:
    """compare.side_by_side as the learner reads it: translated headers, figures as text, missing turns in words.
    The cost columns of runs named in `unpriced` (a local server's) are left out: no price is not $0."""
    return [
        {header(k): v if k == "turn" else _cell(k, v) for k, v in row.items() if not _unpriced_cost(k, unpriced)}
        for row in compare.side_by_side(c)
    ]


def _unpriced_cost(column: str, unpriced: tuple[str, ...]) -> bool:
    return column.endswith("$") and column.partition(" ")[0] in unpriced


def render(runs_db: RunStore) -> None:
    """The compare view (needs at least two saved runs)."""
    runs = runs_db.list_runs()
    if len(runs) < 2:
        st.info(
            t("Compare needs two saved runs: run the Playground twice, re-run one from a turn, or import an example.")
        )
        return
    a_id, b_id = _pickers(runs)
    a, b = runs_db.load(a_id), runs_db.load(b_id)
    if a is None or b is None:
        st.warning(t("One of the two runs is not in the runs database any more."))
        return
    if a_id == b_id:
        st.info(t("Run A and run B are the same run: pick two different ones."))
    c = compare.compare(a, b)
    unpriced = tuple(s.name for s, run in ((c.a, a), (c.b, b)) if not is_priced(run.config.provider))
    left, right = st.columns(2)
    _totals(a, left.container(border=True), priced=c.a.name not in unpriced)
    _totals(b, right.container(border=True), priced=c.b.name not in unpriced)
    _shared(c, a, b)
    left, right = st.columns(2)
    left.plotly_chart(presenter.scale(compare.context_figure(c, label=t)), key="compare-context")
    if len(unpriced) < 2:
        right.plotly_chart(presenter.scale(compare.cost_figure(c, label=t, unpriced=unpriced)), key="compare-cost")
    else:
        right.info(spend.tokens_only())
    left, right = st.columns(2)
    left.plotly_chart(presenter.scale(compare.messages_figure(c, label=t)), key="compare-messages")
    right.caption(t("Turn by turn"))
    right.dataframe(pd.DataFrame(turn_rows(c, unpriced)), hide_index=True)
    with st.expander(t("Unified diff of the final message lists"), expanded=True):
        long = c.diff.count("\n") > 30  # a long diff scrolls in its own box; a short one takes its own height
        st.code(
            c.diff or t("(the two message lists are identical)"), language="diff", height=480 if long else "content"
        )


def _shared(c: compare.Comparison, a: Run, b: Run) -> None:
    count = c.shared_messages
    where = (
        t("A forks from B at turn {n}.", n=c.fork_turn) + " "
        if a.parent_id == b.id
        else (t("B forks from A at turn {n}.", n=c.fork_turn) + " " if c.fork_turn else "")
    )
    if count == len(a.messages) == len(b.messages):
        st.success(where + t("Both final message lists are the same {n} message(s).", n=count))
        return
    st.markdown(
        where
        + t(
            "Final message lists: A has **{a}**, B has **{b}**; they share the first **{shared}** and "
            "differ from message **{first}** on.",
            a=len(a.messages),
            b=len(b.messages),
            shared=count,
            first=count + 1,
        )
    )
