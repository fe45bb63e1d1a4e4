"""The timeline: one row per turn with its stop_reason badge, tools, tokens and cost; back and forward over it."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from agent_core.model import Run
from agent_core.wire.providers import is_priced
from lab_ui.controller.session import LabSession
from lab_ui.frame.untrusted import md_cell
from lab_ui.playground.turn import badge
from lab_ui.words.i18n import mark, t

RECENT = 8  # turns drawn as a light table; the full timeline sits in an expander below it
# Column headers as the learner reads them (stop_reason is the API's own name and stays as it is).
HEADERS = {
    "turn": mark("turn"),
    "tools": mark("tools"),
    "tokens in": mark("tokens in"),
    "tokens out": mark("tokens out"),
    "cost $": mark("cost $"),
}


def table(run: Run) -> pd.DataFrame:
    rows = []
    for turn in run.turns:
        _, _, label = badge(turn.stop_reason, turn.error is not None)  # a data grid draws no icon font: words only
        rows.append(
            {
                "turn": turn.index,
                "stop_reason": label,
                "tools": ", ".join(t.name + (" (is_error)" if t.is_error else "") for t in turn.tools) or "—",
                "tokens in": turn.usage.whole_input if turn.usage else None,
                "tokens out": turn.usage.output_tokens if turn.usage else None,
                "cost $": round(turn.cost_usd, 6),
            }
        )
    table = pd.DataFrame(rows)
    if not is_priced(run.config.provider):  # a local or unknown server has no price: no $ column at all
        table = table.drop(columns="cost $", errors="ignore")
    if not table.empty:  # whole numbers, blank while a turn is still in progress
        table = table.astype({"tokens in": "Int64", "tokens out": "Int64"})
    return table


def render(lab: LabSession) -> int:
    """Draw the timeline and the navigation; returns the selected turn number (1-based)."""
    run = lab.active_run
    count = len(run.turns)
    current = lab.selected or count
    # One row (a horizontal container is one element where three columns are four: a click pays per element).
    with st.container(horizontal=True, vertical_alignment="center"):
        back = st.button(t("◀ Back"), disabled=current <= 1, key="tl-back")
        picker = st.empty()
        forward = st.button(t("Forward ▶"), disabled=current >= count)
    current += forward - back
    if count > 1:
        label = t("Turn {n}")  # the template, looked up once rather than once per turn the slider labels
        current = picker.select_slider(
            t("Turn"),
            options=list(range(1, count + 1)),
            value=current,
            format_func=lambda n: label.format(n=n),
            label_visibility="collapsed",
            width="stretch",
        )
    else:
        picker.caption(t("Turn {n}", n=1), width="stretch")
    st.markdown(recent_rows(run, current))
    if count > RECENT:
        # Lazy: the full table (a pandas frame of every turn, rebuilt on every click) only while it is open.
        full = st.expander(t("Timeline · {n} turn(s)", n=count), key="timeline-all", on_change="rerun")
        if full.open:
            with full:
                st.dataframe(
                    table(run).rename(columns={k: t(v) for k, v in HEADERS.items()}),
                    hide_index=True,
                    height=min(38 * (count + 1) + 4, 300),
                )
    return current


def recent_rows(run: Run, selected: int) -> str:
    """The latest turns as a light Markdown table with coloured badges (cheaper to draw than a data grid)."""
    head = [
        t(HEADERS["turn"]),
        "stop_reason",
        t(HEADERS["tools"]),
        t(HEADERS["tokens in"]),
        t(HEADERS["tokens out"]),
    ]
    priced = is_priced(run.config.provider)
    head += [t(HEADERS["cost $"])] if priced else []
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for turn in run.turns[-RECENT:]:
        icon, colour, label = badge(turn.stop_reason, turn.error is not None)
        number = f"**▶ {turn.index}**" if turn.index == selected else str(turn.index)
        tools = ", ".join(md_cell(x.name) + (" :material/warning:" if x.is_error else "") for x in turn.tools) or "—"
        used = turn.usage
        lines.append(
            f"| {number} | :{colour}-badge[{icon} {md_cell(label)}] | {tools} | "
            f"{used.whole_input if used else ''} | {used.output_tokens if used else ''} | "
            + (f"{turn.cost_usd:.4f} |" if priced else "")
        )
    return "\n".join(lines)
