"""The Playground in headless Chromium: step a two-tool run to its end, read the raw JSON, go back to turn 1."""

from urllib.parse import parse_qs, urlparse

import pytest
from browser import button, click_key, field, needs_chromium, open_tab, shot, wait_idle
from keys import BACK, NEXT_STEP, RESET, TASK, TURN_TABS

from agent_core.storage.store import RunStore
from lab_ui.playground.turn import TABS

pytestmark = [pytest.mark.browser, needs_chromium]
QUESTION = "What's the weather in Oslo, and what is 2 to the power of 16?"


def raw_request(page) -> str:
    """Open the Raw JSON tab of the selected turn and read the raw request body shown there."""
    open_tab(page, TURN_TABS, TABS.index("Raw JSON"))
    wait_idle(page)  # the turn's tabs are lazy: a click reruns the page to build the one it opens
    code = page.locator("[data-testid='stCode']:visible").first
    code.wait_for(timeout=10_000)
    return code.inner_text()


def run_in_url(page) -> str:
    return parse_qs(urlparse(page.url).query)["run"][0]


def share_links_to_the_open_run(page) -> None:
    """The header's Share popover holds a read-only link to the run named in the page's URL."""
    run_id = run_in_url(page)
    button(page, "share").click()
    link = page.locator("[data-testid='stPopoverBody'] [data-testid='stCode']")
    link.wait_for(timeout=10_000)
    assert f"run={run_id}" in link.inner_text() and "view=shared" in link.inner_text()
    page.keyboard.press("Escape")


def test_step_a_two_tool_run_and_go_back(app, pages):
    url = app.url
    page = pages.new_page(viewport={"width": 1600, "height": 1100})
    page.goto(f"{url}/playground")
    button(page, NEXT_STEP).wait_for(timeout=180_000)  # a cold start on a busy machine
    task = field(page, TASK)
    task.fill(QUESTION)
    task.press("Control+Enter")
    wait_idle(page)
    step = button(page, NEXT_STEP)
    assert not button(page, "share").count(), "no run saved yet: nothing to share"
    step.click()
    wait_idle(page)
    share_links_to_the_open_run(page)  # the first turn reruns the page: the header's link appears
    for _ in range(8):
        if page.get_by_text("Loop stopped").count() or step.is_disabled():
            break
        step.click()
        wait_idle(page)
    assert page.get_by_text("end_turn").first.is_visible()
    shot(page, "playground-end")
    raw = raw_request(page)
    assert '"tools"' in raw and '"tool_result"' in raw
    shot(page, "playground-raw")
    while button(page, BACK).is_enabled():
        click_key(page, BACK)
    assert page.get_by_role("heading", name="Turn 1").is_visible()
    first = raw_request(page)
    assert QUESTION in first and '"tool_result"' not in first
    shot(page, "playground-turn1")
    before = run_in_url(page)
    click_key(page, "fork-open")  # Re-run from turn 1: a dialog, then a new run linked to this one
    dialog = page.get_by_role("dialog")
    dialog.get_by_text("Use the settings as edited on the left").wait_for(timeout=10_000)
    shot(page, "playground-rerun-dialog")
    click_key(page, "fork")
    dialog.wait_for(state="detached", timeout=30_000)
    forked = run_in_url(page)
    with RunStore(app.db) as store:
        child = store.load(forked)
    assert forked != before and child.parent_id == before and child.parent_turn == 1
    before = forked
    click_key(page, RESET)
    step.click()
    wait_idle(page)
    share_links_to_the_open_run(page)  # a new run's first turn: the link follows it
    assert run_in_url(page) != before
