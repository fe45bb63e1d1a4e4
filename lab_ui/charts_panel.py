"""Context & cost: the per-turn table and the charts that make the money pit visible."""

from __future__ import annotations

import streamlit as st

from agent_core import accounting, charts
from agent_core.model import Run
from lab_ui import presenter
from lab_ui.i18n import mark, t

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
    """Charts for a run (needs at least one answered turn)."""
    pricing = accounting.load_pricing()
    df = accounting.run_table(run, pricing)
    if df.empty:
        st.info(t("The charts appear after the first model call."))
        return
    st.caption(t(accounting.components_note(run.config.provider)))  # in charts.BORROWED_TEXTS
    window = accounting.context_window(run, pricing)
    left, right = _pair()
    left.plotly_chart(presenter.scale(charts.context_by_component(df, window, label=t)), key=f"{key}-context")
    right.plotly_chart(presenter.scale(charts.cost_per_turn(df, label=t)), key=f"{key}-cost")
    left, right = _pair()
    left.plotly_chart(presenter.scale(charts.peak_vs_billed(df, label=t)), key=f"{key}-peak")
    extra = right.slider(t("If this run went on for N more turns…"), 1, 100, 20, key=f"{key}-n")
    right.plotly_chart(presenter.scale(charts.projection(df, extra, label=t)), key=f"{key}-projection")
    left, right = _pair()
    left.plotly_chart(presenter.scale(charts.price_comparison(run, pricing, label=t)), key=f"{key}-prices")
    if (df[accounting.COL_CACHE_WRITE] > 0).any() or (df[accounting.COL_CACHE_READ] > 0).any():
        chart = charts.cache_savings(df, pricing, run.config.model, label=t)
        right.plotly_chart(presenter.scale(chart), key=f"{key}-cache")
    elif not run.config.cache_prompt:  # an empty chart from -1 to 1 would only puzzle
        right.info(t(CACHE_OFF))
    else:
        right.info(t(CACHE_UNUSED))
    with st.expander(t("Per-turn table")):
        st.dataframe(df, hide_index=True)
        st.download_button(
            t("Download CSV"),
            accounting.table_csv(df),
            file_name=f"run-{run.id}-turns.csv",
            mime="text/csv",
            key=f"{key}-csv",
        )
