"""A learner in headless Chromium: break the loop, watch the ceiling stop it, add a guard, pass the exercise."""

import re

import pytest
from browser import browser, needs_chromium, running_app, shot, wait_idle

pytestmark = [pytest.mark.browser, needs_chromium]


def test_break_the_loop_then_add_a_step_limit(tmp_path):
    with running_app(tmp_path / "runs.db") as url, browser() as b:
        page = b.new_page(viewport={"width": 1600, "height": 1100})
        page.goto(f"{url}/lessons")
        page.get_by_role("button", name="Run to end").wait_for(timeout=180_000)  # a cold start on a busy machine
        page.get_by_role("combobox", name="Lesson").click()
        page.get_by_role("option", name=re.compile("Break the loop")).click()
        wait_idle(page)
        page.get_by_role("button", name="Run to end").click()
        wait_idle(page, 180_000)
        # the stop banner (the collapsed "change the run" panel above it warns about the ceiling too)
        page.locator("[data-testid='stAlert']").filter(has_text="hard ceiling of 100 steps").first.wait_for(
            timeout=60_000
        )
        cost = page.locator("[data-testid='stMetric']").filter(has_text="Cost so far").inner_text()
        assert float(re.search(r"\$([\d.]+)", cost).group(1)) > 0.1  # the money pit, made visible
        shot(page, "lesson-break-the-loop-ceiling")

        page.get_by_text("Change the run: task, tools, limits").click()
        page.get_by_text("Limits", exact=True).click()
        page.get_by_text("No step limit", exact=True).click()
        wait_idle(page)
        steps = page.get_by_label("Max steps")
        steps.fill("5")
        steps.press("Enter")
        wait_idle(page)
        page.get_by_role("button", name="Reset").click()
        wait_idle(page)
        page.get_by_role("button", name="Run to end").click()
        wait_idle(page, 60_000)
        page.get_by_text("step limit 5 reached").first.wait_for(timeout=60_000)
        page.get_by_role("button", name="Check my run").first.click()
        wait_idle(page)
        page.locator("[data-testid='stAlertContentSuccess']").first.wait_for(timeout=30_000)
        shot(page, "lesson-break-the-loop-guarded")
