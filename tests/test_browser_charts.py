"""After a 5-turn offline run the Playground shows the stacked context chart and the cost chart."""

import re

import pytest
from browser import needs_chromium, open_tab, shot, tab, wait_idle

from agent_core.loop.stepper import run_task
from agent_core.model import Limits, RunConfig, SimSettings
from agent_core.storage.store import RunStore
from agent_core.tools.catalog import default_specs

pytestmark = [pytest.mark.browser, needs_chromium]


def test_context_and_cost_charts_after_five_turns(app, pages):
    db = app.db
    run = run_task(
        RunConfig(
            task="What is the share price of ACME right now?",
            tools=default_specs(["get_stock_price"]),
            limits=Limits(max_steps=5),
            sim=SimSettings(persona="stubborn"),
        )
    )
    assert len(run.turns) == 5
    RunStore(db).save_run(run)
    url = app.url
    page = pages.new_page(viewport={"width": 1600, "height": 1200})
    page.goto(f"{url}/playground?run={run.id}")
    tab(page, "insights", 2).wait_for(timeout=180_000)  # Answer, Sequence, Context & cost
    open_tab(page, "insights", 2)
    wait_idle(page)
    charts = page.locator("[data-testid='stPlotlyChart']:visible")
    charts.first.wait_for(timeout=20_000)
    titles = " | ".join(charts.all_inner_texts())
    assert "What fills the context, turn by turn" in titles and "Cost per turn and in total" in titles, titles
    charts.first.scroll_into_view_if_needed()
    shot(page, "playground-context-and-cost")


# Pairs (legend, x-axis title) of the charts on the page whose boxes overlap, as text; plotly draws both in SVG.
OVERLAPS = """() => [...document.querySelectorAll("[data-testid='stPlotlyChart']")].flatMap(chart => {
    const legend = chart.querySelector("g.legend"), axis = chart.querySelector("text.xtitle");
    if (!legend || !axis) return [];
    const a = legend.getBoundingClientRect(), b = axis.getBoundingClientRect();
    const apart = a.bottom <= b.top || b.bottom <= a.top || a.right <= b.left || b.right <= a.left;
    return apart ? [] : [axis.textContent + " under " + chart.querySelector(".gtitle")?.textContent];
})"""


# A title or subtitle line wider than its chart: plotly never wraps one, it runs past the chart's edge and is cut.
CUT_TITLES = """() => [...document.querySelectorAll("[data-testid='stPlotlyChart']")].flatMap(chart => {
    const box = chart.getBoundingClientRect();
    return [...chart.querySelectorAll(".gtitle tspan.line, .gtitle")].filter(line => {
        const r = line.getBoundingClientRect();
        return r.width > 0 && (r.left < box.left - 1 || r.right > box.right + 1);
    }).map(line => line.textContent);
})"""


def test_a_legend_never_covers_the_axis_title_in_a_narrow_chart(app, pages):
    """At 768 px the charts stand two abreast, about 360 px each, and the Russian legend wraps to seven rows."""
    db = app.db
    run = run_task(RunConfig(task="What's the weather in Oslo?", tools=default_specs(["get_weather"])))
    RunStore(db).save_run(run)
    url = app.url
    page = pages.new_page(viewport={"width": 768, "height": 1024})
    page.goto(f"{url}/playground?run={run.id}&lang=ru")
    tab(page, "insights", 2).wait_for(timeout=180_000)
    open_tab(page, "insights", 2)
    wait_idle(page)
    charts = page.locator("[data-testid='stPlotlyChart']:visible")
    charts.first.wait_for(timeout=20_000)
    page.wait_for_function("() => document.querySelectorAll('[data-testid=stPlotlyChart] g.legend').length >= 4")
    charts.first.scroll_into_view_if_needed()
    shot(page, "charts-narrow-ru")
    assert page.evaluate(OVERLAPS) == []
    assert page.evaluate(CUT_TITLES) == [], "a title or subtitle line runs past its chart's edge"
    ticks = page.evaluate(
        "() => [...document.querySelectorAll('[data-testid=stPlotlyChart] .ytick text')].map(t => t.textContent)"
    )
    assert ticks and not [tick for tick in ticks if re.search(r"\d[kMG]$", tick)], ticks  # plotly's SI "30k" is English
