"""Charts: every figure carries titles, the expected named series and the run's own numbers."""

from __future__ import annotations

import re

import numpy as np
import pytest
from test_accounting import HAIKU, PRICING, SONNET, three_turn_run

from agent_core.cost import accounting as acc
from agent_core.cost.tokens import COMPONENT_LABELS
from agent_core.model import Run, RunConfig
from agent_core.report import charts


@pytest.fixture()
def df():
    return acc.run_table(three_turn_run(), PRICING)


def _names(fig) -> list[str]:
    return [t.name for t in fig.data]


def _trace(fig, name):
    return next(t for t in fig.data if t.name == name)


def _titled(fig) -> bool:
    layout = fig.layout
    return bool(layout.title.text and layout.xaxis.title.text and layout.yaxis.title.text)


def test_context_by_component_stacks_the_split_and_says_when_the_window_is_far(df):
    fig = charts.context_by_component(df, 200_000)
    assert _names(fig) == [COMPONENT_LABELS[c] for c in acc.COMPONENT_COLUMNS]  # the run uses all seven
    assert fig.layout.barmode == "stack" and _titled(fig)
    assert all(len(t.x) == 3 for t in fig.data)
    heights = np.sum([np.asarray(t.y) for t in fig.data], axis=0)
    assert heights.tolist() == [1050, 1120, 1300]
    # 1300 of 200,000 would be a flat strip under a window line, so the window is told in words
    assert any("200,000" in a.text and "0.65%" in a.text for a in fig.layout.annotations)
    df["tools"] = 0  # a component the run never used gets no legend entry
    assert COMPONENT_LABELS["tools"] not in _names(charts.context_by_component(df, 200_000))


def test_context_by_component_draws_a_window_it_can_reach(df):
    fig = charts.context_by_component(df, 2000)
    window = _trace(fig, charts.WINDOW_TRACE)
    assert list(window.y) == [2000, 2000, 2000]
    assert _names(fig)[-1] == charts.WINDOW_TRACE and not fig.layout.annotations
    assert charts.WINDOW_TRACE not in _names(charts.context_by_component(df, None))


def test_cost_per_turn_has_bars_and_a_running_total(df):
    fig = charts.cost_per_turn(df)
    assert _names(fig) == [charts.COST_TRACE, charts.CUM_COST_TRACE] and _titled(fig)
    assert list(_trace(fig, charts.COST_TRACE).y) == pytest.approx([0.0045, 0.00156, 0.0024])
    cumulative = _trace(fig, charts.CUM_COST_TRACE)
    assert cumulative.yaxis == "y2" and list(cumulative.y) == pytest.approx([0.0045, 0.00606, 0.00846])


def test_cost_chart_flags_an_unknown_price():
    fig = charts.cost_per_turn(acc.run_table(three_turn_run(model="llama3.2"), PRICING))
    assert acc.NO_PRICE_NOTE in _title(fig)


def test_peak_vs_billed_tells_context_from_the_bill(df):
    fig = charts.peak_vs_billed(df)
    assert _names(fig) == [charts.CONTEXT_TRACE, charts.BILLED_TRACE] and _titled(fig)
    assert list(_trace(fig, charts.CONTEXT_TRACE).y) == [1050, 1120, 1300]
    assert list(_trace(fig, charts.BILLED_TRACE).y) == [1050, 2170, 3470]
    assert "context" in charts.CONTEXT_TRACE.lower() and "billed" in charts.BILLED_TRACE.lower()


def test_projection_is_solid_then_dashed_and_quadratic(df):
    df[acc.COL_WHOLE] = [1000, 1500, 2000]
    fig = charts.projection(df, 4)
    assert _names(fig) == [
        charts.PROJ_TOKENS_ACTUAL,
        charts.PROJ_COST_ACTUAL,
        charts.PROJ_TOKENS_AHEAD,
        charts.PROJ_COST_AHEAD,
    ] and _titled(fig)
    actual, ahead = _trace(fig, charts.PROJ_TOKENS_ACTUAL), _trace(fig, charts.PROJ_TOKENS_AHEAD)
    assert len(actual.x) == 3 and len(ahead.x) == 5  # the projection starts at the last actual turn
    assert actual.line.dash == "solid" and ahead.line.dash == "dash"
    assert list(ahead.x) == [3, 4, 5, 6, 7] and ahead.y[0] == actual.y[-1]
    y = np.concatenate([actual.y, ahead.y[1:]])
    assert np.diff(y, 2).tolist() == pytest.approx([500] * 5)


def test_projection_marks_where_the_window_would_fill(df):
    df[acc.COL_WHOLE] = [1000, 1500, 2000]
    df.attrs["context_window"] = 3200
    fig = charts.projection(df, 6)
    # context per turn: 2500 (turn 4), 3000 (5), 3500 (6) is the first over 3200
    assert any("Turn 6" in a.text for a in fig.layout.annotations)


def test_price_comparison_puts_every_model_side_by_side(df):
    fig = charts.price_comparison(df, PRICING)
    assert _names(fig) == list(charts.PRICE_PARTS.values()) and _titled(fig)
    assert all(len(t.x) == len(PRICING.models) for t in fig.data)
    labels = list(fig.data[0].x)
    assert labels[PRICING.models.index(SONNET)] == SONNET + charts.THIS_RUN
    totals = np.sum([np.asarray(t.y) for t in fig.data], axis=0)
    assert totals[PRICING.models.index(SONNET)] == pytest.approx(0.00846)
    assert totals[PRICING.models.index(HAIKU)] == pytest.approx(0.00282)
    from_run = charts.price_comparison(three_turn_run(), PRICING)
    assert [list(t.y) for t in from_run.data] == [list(t.y) for t in fig.data]


def test_price_comparison_leaves_out_cache_parts_a_run_never_used(df):
    df[acc.COL_CACHE_WRITE] = 0
    df[acc.COL_CACHE_READ] = 0
    assert _names(charts.price_comparison(df, PRICING)) == ["Input", "Output"]


def test_cache_savings_shows_reads_writes_and_money(df):
    fig = charts.cache_savings(df, PRICING, SONNET)
    assert _names(fig) == [charts.CACHE_WRITE_TRACE, charts.CACHE_READ_TRACE, charts.SAVED_TRACE] and _titled(fig)
    assert list(_trace(fig, charts.CACHE_READ_TRACE).y) == [0, 1000, 1000]
    # -750, then +2700 twice (micro-dollars), accumulated
    assert list(_trace(fig, charts.SAVED_TRACE).y) == pytest.approx([-0.00075, 0.00195, 0.00465])
    assert "$0.004650" in _title(fig)
    assert acc.NO_PRICE_NOTE in _title(charts.cache_savings(df, PRICING, "mistral"))


def test_figures_survive_an_empty_run():
    empty = acc.run_table(Run(RunConfig(task="hi")), PRICING)
    for fig in (
        charts.context_by_component(empty, 200_000),
        charts.cost_per_turn(empty),
        charts.peak_vs_billed(empty),
        charts.projection(empty, 5),
        charts.price_comparison(empty, PRICING),
        charts.cache_savings(empty, PRICING, SONNET),
    ):
        assert fig.layout.title.text


def _marked(text: str) -> str:
    """A stand-in translator that makes every translated text recognisable."""
    return f"«{text}»"


def _title(fig) -> str:
    """A figure's title as one line (charts wrap long titles with <br>: plotly never wraps them itself)."""
    return fig.layout.title.text.replace("<br>", " ")


def _texts(fig) -> list[str]:
    """Every human-readable text of a figure: title, axis titles (right-hand one too), trace names, annotations."""
    layout = fig.layout.to_plotly_json()
    axes = [layout[axis]["title"]["text"] for axis in ("xaxis", "yaxis", "yaxis2") if axis in layout]
    return [_title(fig), *axes, *[t.name for t in fig.data], *[a.text for a in fig.layout.annotations]]


def test_label_translates_titles_axes_trace_names_and_annotations(df):
    df.attrs["price_known"] = False  # the unknown-price note is translated inside the title too
    figures = [
        charts.context_by_component(df, 200_000, label=_marked),
        charts.cost_per_turn(df, label=_marked),
        charts.peak_vs_billed(df, label=_marked),
        charts.projection(df, 4, label=_marked),
        charts.cache_savings(df, PRICING, SONNET, label=_marked),
    ]
    for fig in figures:
        untranslated = [text for text in _texts(fig) if not text.startswith("«")]
        assert not untranslated, (_title(fig), untranslated)
    context, cost, _, ahead, cache = figures
    assert "<sup>«" in context.layout.title.text  # the components note under the title
    assert context.data[0].name == _marked(COMPONENT_LABELS["system"])
    assert context.data[0].hovertemplate == _marked("{value} tokens").format(value="%{y:,}")
    assert _marked(acc.NO_PRICE_NOTE) in _title(cost)
    # templates are translated first, then filled in with the run's numbers
    assert _title(ahead).startswith("«If the run went on for 4 more turns»")
    assert _title(cache).startswith("«Prompt caching: $0.004650 saved so far»")
    note = context.layout.annotations[0].text
    assert note.startswith("«Context window: 200,000 tokens, far above;")
    lines = note.split("<br>")  # wrapped: plotly cuts a long one-line note at the chart's edge
    assert len(lines) > 1 and max(map(len, lines)) <= charts.ANNOTATION_WIDTH, lines


def test_label_reaches_the_price_bars_and_their_model_names(df):
    fig = charts.price_comparison(df, PRICING, label=_marked)
    assert [t.name for t in fig.data] == [_marked(n) for n in charts.PRICE_PARTS.values()]
    assert list(fig.data[0].x)[PRICING.models.index(SONNET)] == SONNET + _marked(charts.THIS_RUN)
    assert fig.layout.xaxis.title.text == _marked("Model")


def test_charts_read_in_russian_with_the_ui_tables(df):
    from lab_ui.words.i18n import translate

    def russian(text: str) -> str:
        return translate("ru", text)

    fig = charts.cost_per_turn(df, label=russian)
    assert [t.name for t in fig.data] == [russian(charts.COST_TRACE), russian(charts.CUM_COST_TRACE)]
    assert (
        fig.data[0].name != charts.COST_TRACE and fig.layout.xaxis.title.text == "Итерация"
    )  # the glossary: a turn of the loop is an итерация
    title = charts.context_by_component(df, 200_000, label=russian).layout.title.text.split("<br><sup>")[0]
    lines = title.split("<br>")  # «Из чего состоит контекст, итерация за итерацией» was cut at a half-width chart
    assert len(lines) > 1 and max(map(len, lines)) <= charts.TITLE_WIDTH, lines
    subtitle = [
        line for line in charts.cost_per_turn(df, label=russian).layout.title.text.split("<br>") if "<sup>" in line
    ]
    shown = [line.removeprefix("<sup>").removesuffix("</sup>") for line in subtitle]
    assert len(shown) > 1 and max(map(len, shown)) <= charts.SUBTITLE_WIDTH, shown  # cut at 768 px when one line
    window = charts.context_by_component(df, 200_000, label=russian).layout.annotations[0].text
    assert "200,000" in window and "0.65%" in window and "Окно контекста" in window


def test_the_window_notes_write_their_numbers_as_the_readers_language_does(df):
    from agent_core.report.numbers import number_text

    def polish(value: float, digits: int | None = None) -> str:
        return number_text(value, "pl", digits)

    note = charts.context_by_component(df, 200_000, number=polish).layout.annotations[0].text.replace("<br>", " ")
    assert "200\u00a0000 tokens" in note and "200,000" not in note
    assert re.search(r"\d,\d\d%", note), note  # a decimal comma in the share of the window
    df[acc.COL_WHOLE] = [10_000, 15_000, 20_000]
    df.attrs["context_window"] = 32_000  # crossed on turn 6 of the projection
    ahead = charts.projection(df, 6, number=polish)
    assert any("32\u00a0000-token" in a.text for a in ahead.layout.annotations), [
        a.text for a in ahead.layout.annotations
    ]
