"""Figures a learner reads in a sentence or a table (a spend cap's stop, Compare's cost cells, the Playground's
per-turn table) are written as the tab's language writes numbers: $0,0123 and 12 345 in Russian and Polish."""

from __future__ import annotations

import re

import pytest
from lab_app import open_page, widget
from streamlit import dataframe_util

from agent_core.cost import accounting
from agent_core.loop.stepper import Stepper
from agent_core.model import Run, RunConfig, StopCause
from agent_core.report import compare
from agent_core.tools.catalog import default_specs
from agent_core.vocab import StopKind
from lab_ui.runs.compare import turn_rows
from lab_ui.words import i18n
from lab_ui.words.catalogue import stop_words

COMMA_DECIMAL = {"en": ".", "ru": ",", "pl": ","}


@pytest.fixture(params=["en", "ru", "pl"])
def lang(request, monkeypatch) -> str:
    """The tab's language, as a page run in that language would see it."""
    monkeypatch.setattr(i18n, "current_language", lambda: request.param)
    return request.param


@pytest.mark.parametrize(
    "cause, figures",
    [
        (StopCause(StopKind.SPEND_CAP, {"session": True, "cap_usd": 2.5, "spent_usd": 2.5123}), ("2{}50", "2{}5123")),
        (StopCause(StopKind.SPEND_CAP, {"daily": "learner", "cap_usd": 0.5, "spent_usd": 0.5007}), ("0{}50",)),
        (StopCause(StopKind.COST_BUDGET, {"budget_usd": 0.01, "spent_usd": 0.0123}), ("0{}0100", "0{}0123")),
        (StopCause(StopKind.TIMEOUT, {"limit_s": 30.0, "spent_s": 31.25}), ("31{}2",)),
    ],
)
def test_a_guards_stop_writes_its_figures_in_the_learners_language(lang, cause, figures):
    words = stop_words(cause, tr=lambda text, **values: i18n.translate(lang, text, **values))
    for figure in figures:
        assert figure.format(COMMA_DECIMAL[lang]) in words, words
    if lang != "en":
        assert not re.search(r"\d\.\d", words), f"an English decimal point in {lang}: {words}"


def test_compares_cost_cells_use_the_learners_decimal_mark(lang):
    runs = []
    for _ in range(2):
        run = Run(RunConfig(task="What's the weather in Oslo?", tools=default_specs(["get_weather"])))
        Stepper(run).run_to_end()
        runs.append(run)
    rows = turn_rows(compare.compare(*runs))
    costs = [v for r in rows for k, v in r.items() if k.endswith("$")]
    assert costs and all(re.fullmatch(rf"\d+\{COMMA_DECIMAL[lang]}\d{{6}}", c) for c in costs), costs


@pytest.mark.parametrize("lang, mark", [("en", "."), ("pl", ",")])
def test_the_playgrounds_per_turn_table_shows_figures_in_the_learners_language(app_env, lang, mark):
    at = open_page(lang=lang)
    widget(at, "btn-end").click().run()
    at.session_state["insights"] = at.get_by_key("insights").tabs[-1].label  # the charts' tab, built when opened
    at.run()
    table = next(d for d in at.dataframe if accounting.COL_COST in d.value.columns)
    shown = _display_values(table.proto.arrow_data)
    cost = shown[accounting.COL_COST].iloc[0]
    assert re.fullmatch(rf"\$0\{mark}\d{{6}}", cost), cost
    assert table.value[accounting.COL_COST].dtype.kind == "f", "the grid sorts by the number, not the text"


def _display_values(arrow):
    """The text the grid draws in each cell (the Styler's display values), by column name."""
    return dataframe_util.convert_arrow_bytes_to_pandas_df(arrow.styler.display_values)
