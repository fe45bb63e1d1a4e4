"""Context & cost: the per-turn table and the charts that make the money pit visible."""

from __future__ import annotations

import streamlit as st

from agent_core import accounting, charts
from agent_core.model import Run
from lab_ui.i18n import t


def render(run: Run, key: str = "charts") -> None:
    """Charts for a run (needs at least one answered turn)."""
    pricing = accounting.load_pricing()
    df = accounting.run_table(run, pricing)
    if df.empty:
        st.info(t("The charts appear after the first model call."))
        return
    st.caption(t(accounting.components_note(run.config.provider)))  # in charts.BORROWED_TEXTS
    window = accounting.context_window(run, pricing)
    left, right = st.columns(2)
    left.plotly_chart(charts.context_by_component(df, window, label=t), key=f"{key}-context")
    right.plotly_chart(charts.cost_per_turn(df, label=t), key=f"{key}-cost")
    left, right = st.columns(2)
    left.plotly_chart(charts.peak_vs_billed(df, label=t), key=f"{key}-peak")
    extra = right.slider(t("If this run went on for N more turns…"), 1, 100, 20, key=f"{key}-n")
    right.plotly_chart(charts.projection(df, extra, label=t), key=f"{key}-projection")
    left, right = st.columns(2)
    left.plotly_chart(charts.price_comparison(run, pricing, label=t), key=f"{key}-prices")
    right.plotly_chart(charts.cache_savings(df, pricing, run.config.model, label=t), key=f"{key}-cache")
    with st.expander(t("Per-turn table")):
        st.dataframe(df, hide_index=True)
        st.download_button(
            t("Download CSV"),
            accounting.table_csv(df),
            file_name=f"run-{run.id}-turns.csv",
            mime="text/csv",
            key=f"{key}-csv",
        )
