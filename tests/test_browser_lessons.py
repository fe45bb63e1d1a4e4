"""A learner in headless Chromium: break the loop, watch the ceiling stop it, add a guard, pass the exercise."""

import re

import pytest
from browser import (
    button,
    by_key,
    by_key_prefix,
    click_key,
    field,
    needs_chromium,
    option,
    pick,
    shot,
    toggle_expander,
    wait_idle,
)
from keys import RESET, RUN_TO_END

from agent_core.teaching.lessons import load_lessons

pytestmark = [pytest.mark.browser, needs_chromium]
LESSON = "break-the-loop"


def test_break_the_loop_then_add_a_step_limit(app, pages):
    url = app.url
    page = pages.new_page(viewport={"width": 1600, "height": 1100})
    page.goto(f"{url}/lessons")
    button(page, RUN_TO_END).wait_for(timeout=180_000)  # a cold start on a busy machine
    pick(page, "lesson-picker", [x.id for x in load_lessons()].index(LESSON))
    button(page, RUN_TO_END).click()
    wait_idle(page, 180_000)
    # the stop banner (the collapsed "change the run" panel above it warns about the ceiling too)
    page.locator("[data-testid='stAlert']").filter(has_text="hard ceiling of 100 steps").first.wait_for(timeout=60_000)
    cost = page.locator("[data-testid='stMetric']").filter(has_text="Cost so far").inner_text()
    assert float(re.search(r"\$([\d.]+)", cost).group(1)) > 0.1  # the money pit, made visible
    shot(page, "lesson-break-the-loop-ceiling")

    # As lesson 07 says it: press Reset, then untick "No step limit", set Max steps to 5, Run to end. A change made
    # after Reset, before the first call, is the run (issue 25: it used to wait for the next Reset).
    click_key(page, RESET)
    toggle_expander(page, f"change:{LESSON}")
    toggle_expander(page, "cfg-limits-panel")
    by_key(page, "cfg-no-step-limit").locator("label").click()
    wait_idle(page)
    steps = field(page, "cfg-max-steps")
    steps.fill("5")
    steps.press("Enter")
    wait_idle(page)
    button(page, RUN_TO_END).click()
    wait_idle(page, 60_000)
    page.get_by_text("step limit 5 reached").first.wait_for(timeout=60_000)
    option(page, f"seg:{LESSON}", 2).click()  # step 3, "Guard 1: a step limit", holds its exercise
    wait_idle(page)
    by_key_prefix(page, f"check:{LESSON}:").locator("button").first.click()
    wait_idle(page)
    page.locator("[data-testid='stAlertContentSuccess']").first.wait_for(timeout=30_000)
    shot(page, "lesson-break-the-loop-guarded")
