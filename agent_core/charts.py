"""Plotly figures drawn from accounting.run_table: context, cost, growth, projection, prices and caching."""
from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

from agent_core import accounting as acc
from agent_core.model import Run
from agent_core.tokens import COMPONENT_LABELS, COMPONENTS

# Trace names: the legend the learner reads, and what the tests check.
WINDOW_TRACE = "Context window"
COST_TRACE = "Cost this turn"
CUM_COST_TRACE = "Cumulative cost"
CONTEXT_TRACE = "Context this turn (whole input)"
BILLED_TRACE = "Input billed so far (all turns)"
PROJ_TOKENS_ACTUAL = "Input billed so far (actual)"
PROJ_TOKENS_AHEAD = "Input billed so far (projected)"
PROJ_COST_ACTUAL = "Cost so far (actual)"
PROJ_COST_AHEAD = "Cost so far (projected)"
PRICE_PARTS = {"input_usd": "Input", "output_usd": "Output",
               "cache_write_usd": "Cache writes", "cache_read_usd": "Cache reads"}
CACHE_READ_TRACE = "Cache reads (tokens)"
CACHE_WRITE_TRACE = "Cache writes (tokens)"
SAVED_TRACE = "Money saved so far"
THIS_RUN = " (this run)"
TOO_SMALL = " (window too small)"

# Below this share of the window a window line would flatten the bars into a strip, so we say it in words.
WINDOW_LINE_MIN_SHARE = 0.2
_PALETTE = dict(zip(COMPONENTS, ("#636efa", "#ab63fa", "#b6a6f7", "#00cc96", "#ffa15a", "#ef553b", "#19d3f3")))
_MONEY_AXIS = {"tickprefix": "$", "exponentformat": "none", "rangemode": "tozero"}
_MONEY_HOVER = "%{y:$.6f}"


def _base(title: str, subtitle: str, x_title: str, y_title: str) -> go.Figure:
    """An empty figure with the title, subtitle and axis titles every chart carries."""
    text = f"{title}<br><sup>{subtitle}</sup>" if subtitle else title
    fig = go.Figure()
    fig.update_layout(title={"text": text}, xaxis_title=x_title, yaxis_title=y_title,
                      legend={"orientation": "h", "y": -0.2}, margin={"t": 80})
    return fig


def _turn_axis(fig: go.Figure) -> None:
    fig.update_xaxes(tickmode="linear", dtick=1)


def _money_axis2(title: str, **extra) -> dict:
    """A right-hand USD axis with round ticks of its own (overlaying axes otherwise copy the left tick count)."""
    return {**_MONEY_AXIS, "title": title, "overlaying": "y", "side": "right", "tickmode": "auto",
            "showgrid": False, **extra}


def _no_price(df: pd.DataFrame) -> str:
    return "" if df.attrs.get("price_known", True) else f" ({acc.NO_PRICE_NOTE}: shown as $0)"


def context_by_component(df: pd.DataFrame, window: int | None) -> go.Figure:
    """Stacked input tokens per turn by component, with the context window as a line or, when far above, in words."""
    fig = _base("What fills the context, turn by turn", df.attrs.get("components_note", ""), "Turn", "Input tokens")
    for name in COMPONENTS:
        if name in df and df[name].sum() > 0:
            fig.add_bar(x=df[acc.COL_TURN], y=df[name], name=COMPONENT_LABELS[name],
                        marker_color=_PALETTE[name], hovertemplate="%{y:,} tokens")
    fig.update_layout(barmode="stack")
    _turn_axis(fig)
    if not window:
        return fig
    peak = int(df[acc.COL_WHOLE].max()) if len(df) else 0
    if peak >= window * WINDOW_LINE_MIN_SHARE:
        fig.add_scatter(x=df[acc.COL_TURN], y=[window] * len(df), name=WINDOW_TRACE, mode="lines",
                        line={"color": "#d62728", "dash": "dash"}, hovertemplate="%{y:,} tokens")
    else:
        fig.add_annotation(text=f"{WINDOW_TRACE}: {window:,} tokens, far above; the largest turn used "
                                f"{peak / window:.2%} of it", xref="paper", yref="paper", x=0, y=1.06,
                           showarrow=False, xanchor="left")
    return fig


def cost_per_turn(df: pd.DataFrame) -> go.Figure:
    """Bars of what each turn cost, with the running total on a second axis."""
    fig = _base("Cost per turn and in total" + _no_price(df), "Each turn resends the whole history, so it costs more",
                "Turn", "USD this turn")
    fig.add_bar(x=df[acc.COL_TURN], y=df[acc.COL_COST], name=COST_TRACE, hovertemplate=_MONEY_HOVER)
    fig.add_scatter(x=df[acc.COL_TURN], y=df[acc.COL_CUM_COST], name=CUM_COST_TRACE, mode="lines+markers",
                    yaxis="y2", hovertemplate=_MONEY_HOVER)
    fig.update_layout(yaxis=_MONEY_AXIS, yaxis2=_money_axis2("USD so far"))
    _turn_axis(fig)
    return fig


def peak_vs_billed(df: pd.DataFrame) -> go.Figure:
    """The context size of each turn next to the input billed so far: two different things."""
    fig = _base("Context size now vs input billed so far",
                "The window limits one turn's context; the bill adds up every turn's context",
                "Turn", "Tokens")
    fig.add_scatter(x=df[acc.COL_TURN], y=df[acc.COL_WHOLE], name=CONTEXT_TRACE, mode="lines+markers",
                    hovertemplate="%{y:,} tokens")
    fig.add_scatter(x=df[acc.COL_TURN], y=df[acc.COL_CUM_INPUT], name=BILLED_TRACE, mode="lines+markers",
                    line={"dash": "dot"}, hovertemplate="%{y:,} tokens")
    fig.update_yaxes(rangemode="tozero")
    _turn_axis(fig)
    return fig


def projection(df: pd.DataFrame, extra_turns: int) -> go.Figure:
    """Cumulative tokens and cost if the run went on: the actual part solid, the projection dashed."""
    table = acc.projection_table(df, extra_turns)
    fig = _base(f"If the run went on for {extra_turns} more turns" + _no_price(df),
                "Context grows a little each turn, so the totals grow with the square of the turns",
                "Turn", "Input tokens billed so far")
    actual = table[~table[acc.COL_PROJECTED]]
    # The projected lines start at the last actual turn so the two parts join up.
    ahead = table.iloc[len(actual) - 1:] if len(table) > len(actual) else table.iloc[0:0]
    for part, names, dash in ((actual, (PROJ_TOKENS_ACTUAL, PROJ_COST_ACTUAL), "solid"),
                              (ahead, (PROJ_TOKENS_AHEAD, PROJ_COST_AHEAD), "dash")):
        fig.add_scatter(x=part[acc.COL_TURN], y=part[acc.COL_CUM_INPUT], name=names[0], mode="lines",
                        line={"dash": dash, "color": "#636efa"}, hovertemplate="%{y:,.0f} tokens")
        fig.add_scatter(x=part[acc.COL_TURN], y=part[acc.COL_CUM_COST], name=names[1], mode="lines", yaxis="y2",
                        line={"dash": dash, "color": "#ef553b"}, hovertemplate=_MONEY_HOVER)
    fig.update_layout(yaxis={"rangemode": "tozero"}, yaxis2=_money_axis2("USD so far"))
    _window_warning(fig, table, df.attrs.get("context_window"))
    return fig


def _window_warning(fig: go.Figure, table: pd.DataFrame, window: int | None) -> None:
    """Say where a projected context would no longer fit: the real run would stop there."""
    if not window:
        return
    over = table[table[acc.COL_PROJECTED] & (table[acc.COL_WHOLE] > window)]
    if len(over):
        turn = int(over[acc.COL_TURN].iloc[0])
        fig.add_vline(x=turn, line={"dash": "dot", "color": "#d62728"})
        fig.add_annotation(x=turn, y=1.02, yref="paper", showarrow=False,
                           text=f"Turn {turn}: context over the {window:,}-token window, the run would stop")


def price_comparison(run_or_df: Run | pd.DataFrame, pricing: acc.Pricing) -> go.Figure:
    """The same run priced under every model of the price list, as stacked bars per model."""
    df = acc.run_table(run_or_df, pricing) if isinstance(run_or_df, Run) else run_or_df
    table = acc.reprice(df, pricing)
    current = df.attrs.get("model")
    labels = [m + (THIS_RUN if m == current else "") + ("" if fits else TOO_SMALL)
              for m, fits in zip(table["model"], table["fits_window"])]
    fig = _base("This run's tokens priced under every model",
                "Same token counts for each model; real tokenizers and hidden tool prompts differ a little",
                "Model", "USD for the whole run")
    for column, name in PRICE_PARTS.items():
        if name in ("Input", "Output") or table[column].sum() > 0:
            fig.add_bar(x=labels, y=table[column], name=name, hovertemplate=_MONEY_HOVER)
    fig.update_layout(barmode="stack", yaxis=_MONEY_AXIS)
    return fig


def cache_savings(df: pd.DataFrame, pricing: acc.Pricing, model: str) -> go.Figure:
    """Tokens written to and read from the prompt cache per turn, and the money saved against no caching."""
    price = pricing.price_for(model)
    saved = acc.cache_saving(df, price).cumsum()
    total = float(saved.iloc[-1]) if len(saved) else 0.0
    note = f" ({acc.NO_PRICE_NOTE} for {model})" if not price.known else f": ${total:.6f} saved so far"
    fig = _base("Prompt caching" + note, "Reads cost a tenth of input; writes cost a bit more than input",
                "Turn", "Tokens")
    fig.add_bar(x=df[acc.COL_TURN], y=df[acc.COL_CACHE_WRITE], name=CACHE_WRITE_TRACE, hovertemplate="%{y:,}")
    fig.add_bar(x=df[acc.COL_TURN], y=df[acc.COL_CACHE_READ], name=CACHE_READ_TRACE, hovertemplate="%{y:,}")
    fig.add_scatter(x=df[acc.COL_TURN], y=saved, name=SAVED_TRACE, mode="lines+markers", yaxis="y2",
                    hovertemplate=_MONEY_HOVER)
    # A run that only writes the cache saves less than nothing, so this axis may go below zero.
    fig.update_layout(yaxis2=_money_axis2("USD saved so far", rangemode="normal", zeroline=True))
    _turn_axis(fig)
    return fig
