"""Context & cost: the per-turn table and the charts that make the money pit visible."""

from __future__ import annotations

import streamlit as st

from agent_core.cost import accounting
from agent_core.model import Run
from agent_core.report import charts
from agent_core.wire.providers import is_priced
from lab_ui.controller.spend import NO_PRICE
from lab_ui.frame import presenter
from lab_ui.words.i18n import mark, money, number, t

CACHE_OFF = mark(
    "Prompt caching is off in this run, so nothing was cached. Turn on 'Prompt caching' in the run's settings, "
    "then Reset, to see what it saves."
)
CACHE_UNUSED = mark(
    "Caching is on, but this run wrote nothing to the prompt cache and read nothing from it (the prompt may be "
    "shorter than the model's minimum cacheable length)."
)


def _pair() -> tuple:
    """Two charts side by side; one above the other in presenter mode, where their text is big."""
    if presenter.on():
        return st.container(), st.container()
    return tuple(st.columns(2))


def render(run: Run, key: str = "charts") -> None:
    """Charts for a run (needs at least one answered turn); a local or unknown server's run has no $ in them."""
    pricing = accounting.load_pricing()
    df = accounting.run_table(run, pricing)
    priced = is_priced(run.config.provider)
    if df.empty:
        st.info(t("The charts appear after the first model call."))
        return
    st.caption(t(accounting.components_note(run.config.provider)))  # in charts.BORROWED_TEXTS
    window = accounting.context_window(run, pricing)
    left, right = _pair()
    left.plotly_chart(
        presenter.scale(charts.context_by_component(df, window, label=t, number=number)), key=f"{key}-context"
    )
    if priced:
        right.plotly_chart(presenter.scale(charts.cost_per_turn(df, label=t)), key=f"{key}-cost")
    else:
        right.info(t("Cost per turn: {no_price}. The tokens are in the charts and the table.", no_price=t(NO_PRICE)))
    left, right = _pair()
    left.plotly_chart(presenter.scale(charts.peak_vs_billed(df, label=t)), key=f"{key}-peak")
    extra = right.slider(t("If this run went on for N more turns…"), 1, 100, 20, key=f"{key}-n")
    right.plotly_chart(
        presenter.scale(charts.projection(df, extra, label=t, priced=priced, number=number)), key=f"{key}-projection"
    )
    if priced:  # each model's price for this run, and what caching saved: price lists, so not for a local server
        _prices_and_caching(run, df, pricing, key)
    with st.expander(t("Per-turn table")):
        if not priced:
            df = df.drop(columns=[accounting.COL_COST, accounting.COL_CUM_COST])
        st.dataframe(_in_language(df), hide_index=True)
        st.download_button(
            t("Download CSV"),
            accounting.table_csv(df),
            file_name=f"run-{run.id}-turns.csv",
            mime="text/csv",
            key=f"{key}-csv",
        )


def _prices_and_caching(run: Run, df, pricing, key: str) -> None:
    left, right = _pair()
    left.plotly_chart(presenter.scale(charts.price_comparison(run, pricing, label=t)), key=f"{key}-prices")
    if (df[accounting.COL_CACHE_WRITE] > 0).any() or (df[accounting.COL_CACHE_READ] > 0).any():
        chart = charts.cache_savings(df, pricing, run.config.model, label=t)
        right.plotly_chart(presenter.scale(chart), key=f"{key}-cache")
    elif not run.config.cache_prompt:  # an empty chart from -1 to 1 would only puzzle
        right.info(t(CACHE_OFF))
    else:
        right.info(t(CACHE_UNUSED))


def _in_language(df):
    """The per-turn table's figures as the tab's language writes them (12 345, $0,003538 in Polish); the grid still
    sorts by the numbers under them, and the CSV download keeps plain numbers."""
    figures = [c for c in df.columns if c != accounting.COL_TURN and df[c].dtype.kind in "if"]
    return df.style.format({c: _figure_format(c) for c in figures}, na_rep="—")


def _figure_format(column: str):
    if column in (accounting.COL_COST, accounting.COL_CUM_COST):
        return lambda v: money(v, 6)
    if column == accounting.COL_WINDOW_SHARE:
        return lambda v: number(v, 3)
    return number
