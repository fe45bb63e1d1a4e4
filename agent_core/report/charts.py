"""Plotly figures drawn from accounting.run_table: context, cost, growth, projection, prices and caching."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from typing import Any

import pandas as pd
import plotly.graph_objects as go

from agent_core.cost import accounting as acc
from agent_core.cost.tokens import COMPONENT_LABELS, COMPONENTS
from agent_core.model import Run

Label = Callable[[str], str]  # turns an English chart text (or template) into the reader's language; str by default
Number = Callable[..., str]  # writes a figure as the reader's language does: (value, digits=None) -> "12 345,5"


def english_number(value: float, digits: int | None = None) -> str:
    return f"{value:,.{digits}f}" if digits else f"{value:,}"


def label_text(text: str) -> str:
    """Mark an English constant as a chart text for the translation tables; a figure passes it through `label`."""
    return text


# Trace names: the legend the learner reads, and what the tests check.
WINDOW_TRACE = label_text("Context window")
TITLE_WIDTH = 40  # characters a title line, at the title's size
SUBTITLE_WIDTH = 58  # characters a subtitle line, at <sup>'s smaller size
ANNOTATION_WIDTH = 48  # characters a line: fits half a 1366 px screen and a 768 px one
COST_TRACE = label_text("Cost this turn")
CUM_COST_TRACE = label_text("Cumulative cost")
CONTEXT_TRACE = label_text("Context this turn (whole input)")
BILLED_TRACE = label_text("Input billed so far (all turns)")
PROJ_TOKENS_ACTUAL = label_text("Input billed so far (actual)")
PROJ_TOKENS_AHEAD = label_text("Input billed so far (projected)")
PROJ_COST_ACTUAL = label_text("Cost so far (actual)")
PROJ_COST_AHEAD = label_text("Cost so far (projected)")
PRICE_PARTS = {
    "input_usd": label_text("Input"),
    "output_usd": label_text("Output"),
    "cache_write_usd": label_text("Cache writes"),
    "cache_read_usd": label_text("Cache reads"),
}
CACHE_READ_TRACE = label_text("Cache reads (tokens)")
CACHE_WRITE_TRACE = label_text("Cache writes (tokens)")
SAVED_TRACE = label_text("Money saved so far")
THIS_RUN = label_text(" (this run)")
TOO_SMALL = label_text(" (window too small)")
# Texts other modules own that reach `label` here (the translation tables' scanner reads this as well).
BORROWED_TEXTS = (*COMPONENT_LABELS.values(), acc.NOTE_SCALED, acc.NOTE_OFFLINE, acc.NO_PRICE_NOTE)

# Below this share of the window a window line would flatten the bars into a strip, so we say it in words.
WINDOW_LINE_MIN_SHARE = 0.2
_PALETTE = dict(
    zip(COMPONENTS, ("#636efa", "#ab63fa", "#b6a6f7", "#00cc96", "#ffa15a", "#ef553b", "#19d3f3"), strict=True)
)
_MONEY_AXIS = {"tickprefix": "$", "exponentformat": "none", "rangemode": "tozero"}
_MONEY_HOVER = "%{y:$.6f}"


# Under the chart, at the figure's bottom edge: the margin grows to fit it. Placed in the plot's own units (y=-0.2)
# it overlapped the x-axis title once it wrapped to several rows in a narrow chart (the plot shrinks, the offset too).
def bottom_legend() -> dict[str, Any]:
    """A fresh dict each time: no module-level mutable state."""
    return {"orientation": "h", "yref": "container", "y": 0, "yanchor": "bottom"}


def _wrap(text: str, width: int) -> list[str]:
    """Lines of at most `width` characters, broken between words only (plotly wraps no title or note itself)."""
    return textwrap.wrap(text, width=width, break_long_words=False, break_on_hyphens=False) or [text]


def _base(title: str, subtitle: str, x_title: str, y_title: str) -> go.Figure:
    """An empty figure with the title, subtitle and axis titles every chart carries (all already in the language)."""
    # Plotly never wraps a title: a long one (Russian and Polish ones are) was cut at a half-width chart's edge.
    lines = _wrap(title, TITLE_WIDTH)
    under = _wrap(subtitle, SUBTITLE_WIDTH) if subtitle else []  # cut at 768 px as the title was, so wrapped too
    text = "<br>".join(lines + [f"<sup>{line}</sup>" for line in under])
    fig = go.Figure()
    fig.update_layout(
        # Under the toolbar, at the top however tall the margin grows (by default it centres in the margin).
        title={"text": text, "yref": "container", "y": 1, "yanchor": "top", "pad": {"t": 40}},
        xaxis_title=x_title,
        yaxis_title=y_title,
        # Whole numbers, not plotly's SI "30k": the "k" is English, and the separators already write 30 000.
        yaxis_exponentformat="none",
        legend=bottom_legend(),
        margin={"t": 96 + 22 * (len(lines) - 1) + 14 * max(len(under) - 1, 0)},
    )
    return fig


def tokens_hover(label: Label = str, value: str = "%{y:,}") -> str:
    """A hover template such as '%{y:,} tokens', with the word in the reader's language."""
    return label("{value} tokens").format(value=value)


NICE_STEPS = (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000)
MAX_TURN_TICKS = 15  # more labels than this overlap on a half-width chart


def _turn_axis(fig: go.Figure) -> None:
    """Whole turn numbers on the x axis: every turn on short runs, a round step on long ones (no overlap)."""
    highest = max((max(trace.x) for trace in fig.data if trace.x is not None and len(trace.x)), default=1)
    step = next((n for n in NICE_STEPS if highest / n <= MAX_TURN_TICKS), NICE_STEPS[-1])
    fig.update_xaxes(tickmode="linear", tick0=0 if step > 1 else 1, dtick=step)


def _money_axis2(title: str, **extra: Any) -> dict[str, Any]:
    """A right-hand USD axis with round ticks of its own (overlaying axes otherwise copy the left tick count)."""
    return {
        **_MONEY_AXIS,
        "title": title,
        "overlaying": "y",
        "side": "right",
        "tickmode": "auto",
        "showgrid": False,
        **extra,
    }


def _no_price(df: pd.DataFrame, label: Label) -> str:
    if df.attrs.get("price_known", True):
        return ""
    return " (" + label("{note}: shown as $0").format(note=label(acc.NO_PRICE_NOTE)) + ")"


def context_by_component(
    df: pd.DataFrame, window: int | None, label: Label = str, number: Number = english_number
) -> go.Figure:
    """Stacked input tokens per turn by component, with the context window as a line or, when far above, in words."""
    note = df.attrs.get("components_note", "")
    fig = _base(
        label("What fills the context, turn by turn"), label(note) if note else "", label("Turn"), label("Input tokens")
    )
    hover = tokens_hover(label)
    for name in COMPONENTS:
        if name in df and df[name].sum() > 0:
            fig.add_bar(
                x=df[acc.COL_TURN],
                y=df[name],
                name=label(COMPONENT_LABELS[name]),
                marker_color=_PALETTE[name],
                hovertemplate=hover,
            )
    fig.update_layout(barmode="stack")
    _turn_axis(fig)
    if not window:
        return fig
    peak = int(df[acc.COL_WHOLE].max()) if len(df) else 0
    if peak >= window * WINDOW_LINE_MIN_SHARE:
        fig.add_scatter(
            x=df[acc.COL_TURN],
            y=[window] * len(df),
            name=label(WINDOW_TRACE),
            mode="lines",
            line={"color": "#d62728", "dash": "dash"},
            hovertemplate=hover,
        )
    else:
        text = label("Context window: {window} tokens, far above; the largest turn used {share} of it")
        # Plotly never wraps an annotation: a one-line note was cut at the chart's right edge on a laptop.
        note = _wrap(text.format(window=number(window), share=number(100 * peak / window, 2) + "%"), ANNOTATION_WIDTH)
        fig.add_annotation(
            text="<br>".join(note),
            xref="paper",
            yref="paper",
            x=0,
            y=1.01,
            showarrow=False,
            xanchor="left",
            yanchor="bottom",
            align="left",
        )
        fig.update_layout(margin={"t": fig.layout.margin.t + 16 * len(note)})  # room above the bars, under the subtitle
    return fig


def cost_per_turn(df: pd.DataFrame, label: Label = str) -> go.Figure:
    """Bars of what each turn cost, with the running total on a second axis."""
    fig = _base(
        label("Cost per turn and in total") + _no_price(df, label),
        label("Each turn resends the whole history, so it costs more"),
        label("Turn"),
        label("USD this turn"),
    )
    fig.add_bar(x=df[acc.COL_TURN], y=df[acc.COL_COST], name=label(COST_TRACE), hovertemplate=_MONEY_HOVER)
    fig.add_scatter(
        x=df[acc.COL_TURN],
        y=df[acc.COL_CUM_COST],
        name=label(CUM_COST_TRACE),
        mode="lines+markers",
        yaxis="y2",
        hovertemplate=_MONEY_HOVER,
    )
    fig.update_layout(yaxis=_MONEY_AXIS, yaxis2=_money_axis2(label("USD so far")))
    _turn_axis(fig)
    return fig


def peak_vs_billed(df: pd.DataFrame, label: Label = str) -> go.Figure:
    """The context size of each turn next to the input billed so far: two different things."""
    fig = _base(
        label("Context size now vs input billed so far"),
        label("The window limits one turn's context; the bill adds up every turn's context"),
        label("Turn"),
        label("Tokens"),
    )
    hover = tokens_hover(label)
    fig.add_scatter(
        x=df[acc.COL_TURN], y=df[acc.COL_WHOLE], name=label(CONTEXT_TRACE), mode="lines+markers", hovertemplate=hover
    )
    fig.add_scatter(
        x=df[acc.COL_TURN],
        y=df[acc.COL_CUM_INPUT],
        name=label(BILLED_TRACE),
        mode="lines+markers",
        line={"dash": "dot"},
        hovertemplate=hover,
    )
    fig.update_yaxes(rangemode="tozero")
    _turn_axis(fig)
    return fig


def projection(
    df: pd.DataFrame, extra_turns: int, label: Label = str, priced: bool = True, number: Number = english_number
) -> go.Figure:
    """Cumulative tokens and cost if the run went on: the actual part solid, the projection dashed.

    `priced=False` (a local or unknown server): tokens only, no $ axis."""
    table = acc.projection_table(df, extra_turns)
    fig = _base(
        label("If the run went on for {n} more turns").format(n=extra_turns) + (_no_price(df, label) if priced else ""),
        label("Context grows a little each turn, so the totals grow with the square of the turns"),
        label("Turn"),
        label("Input tokens billed so far"),
    )
    actual = table[~table[acc.COL_PROJECTED]]
    # The projected lines start at the last actual turn so the two parts join up.
    ahead = table.iloc[len(actual) - 1 :] if len(table) > len(actual) else table.iloc[0:0]
    hover = tokens_hover(label, "%{y:,.0f}")
    for part, names, dash in (
        (actual, (PROJ_TOKENS_ACTUAL, PROJ_COST_ACTUAL), "solid"),
        (ahead, (PROJ_TOKENS_AHEAD, PROJ_COST_AHEAD), "dash"),
    ):
        fig.add_scatter(
            x=part[acc.COL_TURN],
            y=part[acc.COL_CUM_INPUT],
            name=label(names[0]),
            mode="lines",
            line={"dash": dash, "color": "#636efa"},
            hovertemplate=hover,
        )
        if not priced:
            continue
        fig.add_scatter(
            x=part[acc.COL_TURN],
            y=part[acc.COL_CUM_COST],
            name=label(names[1]),
            mode="lines",
            yaxis="y2",
            line={"dash": dash, "color": "#ef553b"},
            hovertemplate=_MONEY_HOVER,
        )
    fig.update_layout(yaxis={"rangemode": "tozero"})
    if priced:
        fig.update_layout(yaxis2=_money_axis2(label("USD so far")))
    _window_warning(fig, table, df.attrs.get("context_window"), label, number)
    return fig


def _window_warning(fig: go.Figure, table: pd.DataFrame, window: int | None, label: Label, number: Number) -> None:
    """Say where a projected context would no longer fit: the real run would stop there."""
    if not window:
        return
    over = table[table[acc.COL_PROJECTED] & (table[acc.COL_WHOLE] > window)]
    if len(over):
        turn = int(over[acc.COL_TURN].iloc[0])
        text = label("Turn {n}: context over the {window}-token window, the run would stop")
        fig.add_vline(x=turn, line={"dash": "dot", "color": "#d62728"})
        fig.add_annotation(
            x=turn, y=1.02, yref="paper", showarrow=False, text=text.format(n=turn, window=number(window))
        )


def price_comparison(run_or_df: Run | pd.DataFrame, pricing: acc.Pricing, label: Label = str) -> go.Figure:
    """The same run priced under every model of the price list, as stacked bars per model."""
    df = acc.run_table(run_or_df, pricing) if isinstance(run_or_df, Run) else run_or_df
    table = acc.reprice(df, pricing)
    current = df.attrs.get("model")
    labels = [
        m + (label(THIS_RUN) if m == current else "") + ("" if fits else label(TOO_SMALL))
        for m, fits in zip(table["model"], table["fits_window"], strict=True)
    ]
    fig = _base(
        label("This run's tokens priced under every model"),
        label("Same token counts for each model; real tokenizers and hidden tool prompts differ a little"),
        label("Model"),
        label("USD for the whole run"),
    )
    for column, name in PRICE_PARTS.items():
        if column in ("input_usd", "output_usd") or table[column].sum() > 0:
            fig.add_bar(x=labels, y=table[column], name=label(name), hovertemplate=_MONEY_HOVER)
    # Rotated model names reach below the plot, where a bottom legend would hide some of them.
    fig.update_layout(
        barmode="stack",
        yaxis=_MONEY_AXIS,
        legend={"orientation": "v", "x": 1.02, "yref": "paper", "y": 1, "yanchor": "top"},
    )
    return fig


def cache_savings(df: pd.DataFrame, pricing: acc.Pricing, model: str, label: Label = str) -> go.Figure:
    """Tokens written to and read from the prompt cache per turn, and the money saved against no caching."""
    price = pricing.price_for(model)
    saved = acc.cache_saving(df, price).cumsum()
    total = float(saved.iloc[-1]) if len(saved) else 0.0
    title = (
        label("Prompt caching: ${total} saved so far").format(total=f"{total:.6f}")
        if price.known
        else label("Prompt caching ({note} for {model})").format(note=label(acc.NO_PRICE_NOTE), model=model)
    )
    fig = _base(
        title, label("Reads cost a tenth of input; writes cost a bit more than input"), label("Turn"), label("Tokens")
    )
    fig.add_bar(x=df[acc.COL_TURN], y=df[acc.COL_CACHE_WRITE], name=label(CACHE_WRITE_TRACE), hovertemplate="%{y:,}")
    fig.add_bar(x=df[acc.COL_TURN], y=df[acc.COL_CACHE_READ], name=label(CACHE_READ_TRACE), hovertemplate="%{y:,}")
    fig.add_scatter(
        x=df[acc.COL_TURN],
        y=saved,
        name=label(SAVED_TRACE),
        mode="lines+markers",
        yaxis="y2",
        hovertemplate=_MONEY_HOVER,
    )
    # A run that only writes the cache saves less than nothing, so this axis may go below zero.
    fig.update_layout(yaxis2=_money_axis2(label("USD saved so far"), rangemode="normal", zeroline=True))
    _turn_axis(fig)
    return fig
