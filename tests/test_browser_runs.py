"""Runs in headless Chromium: a reload keeps the run and the selected turn; the Runs page replays, re-runs, compares."""

import json
import re
from pathlib import Path

import pytest
from browser import button, click_key, field, needs_chromium, option, shot, wait_idle
from keys import BACK, NEXT_STEP, RUN_TO_END

from agent_core.examples import list_examples
from agent_core.model import SCHEMA_VERSION
from lab_ui.runs.page import VIEWS

pytestmark = [pytest.mark.browser, needs_chromium]


def url_params(page) -> dict[str, str]:
    query = page.url.partition("?")[2]
    return dict(part.split("=", 1) for part in query.split("&") if "=" in part)


def heading(page, text: str):
    return page.get_by_role("heading", name=text, exact=False)


def settle(page) -> None:
    """Wait for the rerun to finish and for every placeholder to be painted, so a screenshot shows the page."""
    wait_idle(page)
    page.wait_for_selector("[data-testid='stSkeleton']", state="detached", timeout=10_000)


def view(page, name: str) -> None:
    """Pick one of the Runs page's views (Saved runs, Compare, Import & examples)."""
    option(page, "runs:view", VIEWS.index(name)).wait_for(timeout=180_000)  # a cold start on a busy machine
    option(page, "runs:view", VIEWS.index(name)).click()
    wait_idle(page)


def reload(page) -> None:
    page.reload()
    button(page, NEXT_STEP).wait_for(timeout=30_000)
    settle(page)


def test_a_reload_keeps_the_run_and_the_selected_turn(app, pages):
    url = app.url
    page = pages.new_page(viewport={"width": 1600, "height": 1100})
    page.goto(f"{url}/playground")
    button(page, RUN_TO_END).wait_for(timeout=180_000)  # a cold start on a busy machine
    button(page, RUN_TO_END).click()
    page.get_by_text("Loop stopped").first.wait_for(timeout=30_000)  # the click reruns once more when it stops
    settle(page)
    run_id = url_params(page)["run"]
    last = page.get_by_role("heading", name=re.compile(r"^Turn \d+")).first.inner_text().split()[1]
    reload(page)
    assert url_params(page)["run"] == run_id
    assert heading(page, f"Turn {last}").first.is_visible(), "the newest turn is shown again"
    assert page.get_by_text("Loop stopped").first.is_visible(), "the run is the finished one, not a new run"
    shot(page, "runs-reload-last-turn")
    while button(page, BACK).is_enabled():
        click_key(page, BACK)
    assert heading(page, "Turn 1").first.is_visible() and url_params(page).get("turn") == "1"
    reload(page)
    # the run and turn, besides what every page keeps (the language)
    assert url_params(page) == {"run": run_id, "turn": "1", "lang": "en"}
    assert heading(page, "Turn 1").first.is_visible(), "still turn 1 after the reload"
    assert page.get_by_text("Loop stopped").first.is_visible()
    shot(page, "runs-reload-turn1")


def test_the_runs_page_replays_reruns_and_compares(own_app, pages):
    url = own_app.url  # an empty database: the example is not imported yet, and the newest run is the one picked
    page = pages.new_page(viewport={"width": 1600, "height": 1100})
    page.goto(f"{url}/runs")
    view(page, "Import & examples")
    click_key(page, f"runs:example:{list_examples()[0][0]}")
    shot(page, "runs-import-examples")
    view(page, "Saved runs")
    button(page, "runs:json").wait_for(timeout=10_000)
    picked = field(page, "runs:picked").input_value()
    assert "example-" in picked, "the imported example is listed and picked"
    shot(page, "runs-list")
    with page.expect_download(timeout=30_000) as download:  # the bytes are built on this click
        button(page, "runs:json").click()
    exported = json.loads(Path(download.value.path()).read_bytes())
    assert exported["schema_version"] == SCHEMA_VERSION and exported["run"]["id"] in picked
    button(page, "runs:replay").click()
    button(page, NEXT_STEP).wait_for(timeout=30_000)
    settle(page)
    assert url_params(page).get("mode") == "replay"
    assert page.get_by_text("replay", exact=False).first.is_visible()
    assert button(page, NEXT_STEP).is_disabled()
    shot(page, "runs-replay")
    reload(page)
    assert url_params(page).get("mode") == "replay" and button(page, NEXT_STEP).is_disabled()
    page.goto(f"{url}/runs")
    button(page, "runs:rerun").wait_for(timeout=30_000)
    button(page, "runs:rerun").click()
    button(page, "runs:fork").click()
    button(page, NEXT_STEP).wait_for(timeout=30_000)
    wait_idle(page)
    assert "mode" not in url_params(page) and button(page, NEXT_STEP).is_enabled()
    button(page, RUN_TO_END).click()
    settle(page)
    shot(page, "runs-rerun")
    page.goto(f"{url}/runs")
    view(page, "Compare")
    page.locator(".js-plotly-plot").first.wait_for(timeout=60_000)
    settle(page)
    assert page.locator(".js-plotly-plot").count() == 3
    assert "A forks from B at turn" in page.get_by_test_id("stMain").inner_text()
    page.set_viewport_size({"width": 1600, "height": 2600})  # the page scrolls inside: show all of it
    settle(page)
    shot(page, "runs-compare")
