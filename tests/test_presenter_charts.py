"""Presenter mode's charts (lab_ui.frame.presenter.scale): every text of a chart at least the projector's size."""

from __future__ import annotations

import pytest

from agent_core.cost import accounting
from agent_core.examples import load_example
from agent_core.report import charts
from lab_ui.frame import presenter


@pytest.fixture
def presenting(monkeypatch):
    monkeypatch.setattr(presenter, "on", lambda: True)


def test_a_charts_subtitle_is_drawn_at_the_projectors_size_not_as_a_small_superscript(presenting):
    run = load_example("stubborn_runaway")
    df = accounting.run_table(run, accounting.load_pricing())
    figure = presenter.scale(charts.cost_per_turn(df))
    title = figure.layout.title.text
    assert "<sup>" not in title and f"font-size:{presenter.PRESENTER_FONT_PX}px" in title
    assert "so it costs more" in title, "the subtitle is still there"


def test_outside_presenter_mode_a_chart_is_left_as_it_is(monkeypatch):
    monkeypatch.setattr(presenter, "on", lambda: False)
    run = load_example("stubborn_runaway")
    figure = charts.cost_per_turn(accounting.run_table(run, accounting.load_pricing()))
    before = figure.layout.title.text
    assert "<sup>" in before and presenter.scale(figure).layout.title.text == before
