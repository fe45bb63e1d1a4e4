"""Runs in headless Chromium: a reload keeps the run and the selected turn; the Runs page replays, re-runs, compares."""

import json
import re
from pathlib import Path

import pytest
from browser import browser, needs_chromium, running_app, shot, wait_idle

from agent_core.model import SCHEMA_VERSION

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


def reload(page) -> None:
    page.reload()
    page.get_by_role("button", name="Next step").wait_for(timeout=30_000)
    settle(page)


def test_a_reload_keeps_the_run_and_the_selected_turn(tmp_path):
    with running_app(tmp_path / "runs.db") as url, browser() as b:
        page = b.new_page(viewport={"width": 1600, "height": 1100})
        page.goto(f"{url}/playground")
        page.get_by_role("button", name="Run to end").wait_for(timeout=30_000)
        page.get_by_role("button", name="Run to end").click()
        page.get_by_text("Loop stopped").first.wait_for(timeout=30_000)  # the click reruns once more when it stops
        settle(page)
        run_id = url_params(page)["run"]
        last = page.get_by_role("heading", name=re.compile(r"^Turn \d+")).first.inner_text().split()[1]
        reload(page)
        assert url_params(page)["run"] == run_id
        assert heading(page, f"Turn {last}").first.is_visible(), "the newest turn is shown again"
        assert page.get_by_text("Loop stopped").first.is_visible(), "the run is the finished one, not a new run"
        shot(page, "runs-reload-last-turn")
        while page.get_by_role("button", name="◀ Back").is_enabled():
            page.get_by_role("button", name="◀ Back").click()
            wait_idle(page)
        assert heading(page, "Turn 1").first.is_visible() and url_params(page).get("turn") == "1"
        reload(page)
        # the run and turn, besides what every page keeps (the language)
        assert url_params(page) == {"run": run_id, "turn": "1", "lang": "en"}
        assert heading(page, "Turn 1").first.is_visible(), "still turn 1 after the reload"
        assert page.get_by_text("Loop stopped").first.is_visible()
        shot(page, "runs-reload-turn1")


def test_the_runs_page_replays_reruns_and_compares(tmp_path):
    with running_app(tmp_path / "runs.db") as url, browser() as b:
        page = b.new_page(viewport={"width": 1600, "height": 1100})
        page.goto(f"{url}/runs")
        page.get_by_role("radio", name="Import & examples").wait_for(timeout=30_000)
        page.get_by_role("radio", name="Import & examples").click()
        wait_idle(page)
        page.get_by_role("button", name="Import", exact=True).first.click()
        wait_idle(page)
        shot(page, "runs-import-examples")
        page.get_by_role("radio", name="Saved runs").click()
        wait_idle(page)
        page.get_by_role("button", name="Download JSON").wait_for(timeout=10_000)
        picked = page.get_by_role("combobox", name="Run").input_value()
        assert "example-" in picked, "the imported example is listed and picked"
        shot(page, "runs-list")
        with page.expect_download(timeout=30_000) as download:  # the bytes are built on this click
            page.get_by_role("button", name="Download JSON").click()
        exported = json.loads(Path(download.value.path()).read_bytes())
        assert exported["schema_version"] == SCHEMA_VERSION and exported["run"]["id"] in picked
        shot(page, "runs-list")
        with page.expect_download(timeout=30_000) as download:  # the bytes are built on this click
            page.get_by_role("button", name="Download JSON").click()
        exported = json.loads(Path(download.value.path()).read_bytes())
        assert exported["schema_version"] == SCHEMA_VERSION and exported["run"]["id"] in picked
        page.get_by_role("button", name="Open as replay").click()
        page.get_by_role("button", name="Next step").wait_for(timeout=30_000)
        settle(page)
        assert url_params(page).get("mode") == "replay"
        assert page.get_by_text("replay", exact=False).first.is_visible()
        assert page.get_by_role("button", name="Next step").is_disabled()
        shot(page, "runs-replay")
        reload(page)
        assert url_params(page).get("mode") == "replay" and page.get_by_role("button", name="Next step").is_disabled()
        page.goto(f"{url}/runs")
        page.get_by_role("button", name="Re-run from turn…").wait_for(timeout=30_000)
        page.get_by_role("button", name="Re-run from turn…").click()
        page.get_by_role("button", name="Start the re-run").click()
        page.get_by_role("button", name="Next step").wait_for(timeout=30_000)
        wait_idle(page)
        assert "mode" not in url_params(page) and page.get_by_role("button", name="Next step").is_enabled()
        page.get_by_role("button", name="Run to end").click()
        settle(page)
        shot(page, "runs-rerun")
        page.goto(f"{url}/runs")
        page.get_by_role("radio", name="Compare").wait_for(timeout=30_000)
        page.get_by_role("radio", name="Compare").click()
        wait_idle(page)
        page.locator(".js-plotly-plot").first.wait_for(timeout=30_000)
        settle(page)
        assert page.locator(".js-plotly-plot").count() == 3
        assert "A forks from B at turn" in page.get_by_test_id("stMain").inner_text()
        page.set_viewport_size({"width": 1600, "height": 2600})  # the page scrolls inside: show all of it
        settle(page)
        shot(page, "runs-compare")
