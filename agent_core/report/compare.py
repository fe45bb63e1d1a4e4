"""Two runs side by side as plain data and plotly figures: per-turn context, cost and messages, and the history diff."""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass
from typing import Any

import plotly.graph_objects as go

from agent_core.model import Run
from agent_core.report.charts import Label, bottom_legend, label_text, tokens_hover

# Series names end in these, after the run's name: the legend the learner reads, and what the tests check.
CONTEXT_SUFFIX = label_text(": context (whole input)")
COST_SUFFIX = label_text(": cost so far")
MESSAGES_SUFFIX = label_text(": messages sent")
_COLOURS = ("#636efa", "#ef553b")
# B is drawn dotted over a wider A, so two runs that agree still show both lines.
_LINES: tuple[dict[str, Any], ...] = ({"width": 4}, {"width": 2, "dash": "dot"})
_MONEY_HOVER = "%{y:$.6f}"


@dataclass
class RunSeries:
    """One run's per-turn numbers, one entry per turn that sent a request."""

    name: str
    turns: list[int]
    context_tokens: list[int | None]  # whole input as reported; None when the call failed
    output_tokens: list[int | None]
    cumulative_cost: list[float]
    request_messages: list[int]  # how many messages that turn's request carried


@dataclass
class Comparison:
    """Two runs lined up: their series, where their final message lists part, and the diff of those lists."""

    a: RunSeries
    b: RunSeries
    shared_messages: int  # leading messages that are identical in both final lists
    diff: str  # unified diff of the two final message lists (pretty JSON)
    fork_turn: int | None  # one run was forked from the other at this turn


def series(run: Run, name: str) -> RunSeries:
    """The per-turn numbers the compare charts plot (costs as the loop recorded them)."""
    turns = [t for t in run.turns if t.request is not None]
    cost, running = [], 0.0
    for turn in turns:
        running += turn.cost_usd
        cost.append(running)
    return RunSeries(
        name=name,
        turns=[t.index for t in turns],
        context_tokens=[t.usage.whole_input if t.usage else None for t in turns],
        output_tokens=[t.usage.output_tokens if t.usage else None for t in turns],
        cumulative_cost=cost,
        request_messages=[len((t.request or {}).get("messages") or []) for t in turns],
    )


def shared_prefix(a: list[Any], b: list[Any]) -> int:
    """How many leading items two lists have in common."""
    count = 0
    while count < min(len(a), len(b)) and a[count] == b[count]:
        count += 1
    return count


def message_diff(a: list[dict[str, Any]], b: list[dict[str, Any]], names: tuple[str, str] = ("A", "B")) -> str:
    """Unified diff of two message lists, each message as pretty JSON under a '# message N (role)' line."""
    return "\n".join(difflib.unified_diff(_lines(a), _lines(b), names[0], names[1], n=3, lineterm=""))


def _lines(messages: list[dict[str, Any]]) -> list[str]:
    out: list[str] = []
    for number, message in enumerate(messages, 1):
        # A header per message keeps hunks readable and anchors the diff on message boundaries.
        out.append(f"# message {number} ({message.get('role', '?')})")
        out.extend(json.dumps(message, indent=2, ensure_ascii=False).splitlines())
    return out


def fork_turn(a: Run, b: Run) -> int | None:
    """The turn at which one of the two runs was forked from the other, if it was."""
    if b.parent_id == a.id:
        return b.parent_turn
    if a.parent_id == b.id:
        return a.parent_turn
    return None


def compare(a: Run, b: Run, names: tuple[str, str] = ("A", "B")) -> Comparison:
    """Everything the compare view shows about two runs."""
    return Comparison(
        a=series(a, names[0]),
        b=series(b, names[1]),
        shared_messages=shared_prefix(a.messages, b.messages),
        diff=message_diff(a.messages, b.messages, names),
        fork_turn=fork_turn(a, b),
    )


def side_by_side(c: Comparison) -> list[dict[str, Any]]:
    """One row per turn number with both runs' messages sent, context and cost so far (None where a run has none)."""
    rows = []
    for turn in sorted(set(c.a.turns) | set(c.b.turns)):
        row: dict[str, Any] = {"turn": turn}
        for s in (c.a, c.b):
            i = s.turns.index(turn) if turn in s.turns else None
            row[f"{s.name} messages"] = None if i is None else s.request_messages[i]
            row[f"{s.name} context"] = None if i is None else s.context_tokens[i]
            row[f"{s.name} cost so far $"] = None if i is None else round(s.cumulative_cost[i], 6)
        rows.append(row)
    return rows


# -- figures --------------------------------------------------------------------------------------
# Every figure takes `label` (str by default): the UI passes its translator, so agent_core stays language-free.
def _figure(c: Comparison, title: str, subtitle: str, y_title: str, label: Label) -> go.Figure:
    fig = go.Figure()
    fig.update_layout(
        title={"text": f"{title}<br><sup>{subtitle}</sup>"},
        xaxis_title=label("Turn"),
        yaxis_title=y_title,
        legend=bottom_legend(),
        margin={"t": 80},
    )
    fig.update_xaxes(tickmode="linear", dtick=1)
    fig.update_yaxes(rangemode="tozero")
    if c.fork_turn:
        fig.add_vline(x=c.fork_turn, line={"dash": "dot", "color": "#888"})
        fig.add_annotation(
            x=c.fork_turn,
            y=1.02,
            yref="paper",
            showarrow=False,
            xanchor="right",
            text=label("fork at turn {n}").format(n=c.fork_turn) + " ",
        )
    return fig


def context_figure(c: Comparison, label: Label = str) -> go.Figure:
    """Each run's context per turn, overlaid: the line that climbs faster is the one resending more."""
    fig = _figure(
        c,
        label("Context per turn"),
        label("Whole input each request carried; every turn resends the history"),
        label("Input tokens"),
        label,
    )
    for s, colour, line in zip((c.a, c.b), _COLOURS, _LINES, strict=False):
        fig.add_scatter(
            x=s.turns,
            y=s.context_tokens,
            name=s.name + label(CONTEXT_SUFFIX),
            mode="lines+markers",
            line={"color": colour, **line},
            hovertemplate=tokens_hover(label),
        )
    return fig


def cost_figure(c: Comparison, label: Label = str, unpriced: tuple[str, ...] = ()) -> go.Figure:
    """Each run's cost so far, overlaid; a run named in `unpriced` (a local server's) has no price and no line."""
    fig = _figure(c, label("Cost so far"), label("What the run had cost after each turn"), label("USD so far"), label)
    for s, colour, line in zip((c.a, c.b), _COLOURS, _LINES, strict=False):
        if s.name in unpriced:
            continue
        fig.add_scatter(
            x=s.turns,
            y=s.cumulative_cost,
            name=s.name + label(COST_SUFFIX),
            mode="lines+markers",
            line={"color": colour, **line},
            hovertemplate=_MONEY_HOVER,
        )
    fig.update_yaxes(tickprefix="$", exponentformat="none")
    return fig


def messages_figure(c: Comparison, label: Label = str) -> go.Figure:
    """How many messages each turn's request carried, side by side: the history both runs resend."""
    fig = _figure(
        c,
        label("Messages sent per turn"),
        label("The message list grows by the reply and the tool results each turn"),
        label("Messages in the request"),
        label,
    )
    for s, colour in zip((c.a, c.b), _COLOURS, strict=False):
        fig.add_bar(x=s.turns, y=s.request_messages, name=s.name + label(MESSAGES_SUFFIX), marker_color=colour)
    fig.update_layout(barmode="group")
    return fig
