"""A teacher at a projector (1920x1080 at 125%) in headless Chromium: presenter mode from the URL, big JSON, code and
chart text, step buttons that stay in view, the arrow keys, the answer under the stop banner, the loop's exit lit."""

import re

import pytest
from browser import button, by_key, nav_link, needs_chromium, open_tab, shot, wait_idle, wait_layout
from keys import NEXT_PHASE, RUN_TO_END, TURN_TABS

from lab_ui.playground.turn import TABS

pytestmark = [pytest.mark.browser, needs_chromium]
MIN_PX = 20


def font_px(page, selector: str) -> float:
    """The smallest computed font size among the visible elements matching `selector`."""
    sizes = page.evaluate(
        """(sel) => [...document.querySelectorAll(sel)].filter(e => e.offsetParent !== null && e.textContent.trim())
              .map(e => parseFloat(getComputedStyle(e).fontSize))""",
        selector,
    )
    assert sizes, f"nothing visible matches {selector}"
    return min(sizes)


def test_presenter_mode_at_a_projector(app, pages):
    url = app.url
    page = pages.new_context(viewport={"width": 1536, "height": 864}, device_scale_factor=1.25).new_page()
    page.goto(f"{url}/playground?present=1")
    button(page, NEXT_PHASE).wait_for(timeout=180_000)
    wait_idle(page)
    assert by_key(page, "presenter").get_by_role("switch").is_checked()

    page.keyboard.press("Shift+ArrowRight")  # a whole turn
    wait_idle(page)
    page.get_by_role("heading", name=re.compile("Turn 1")).wait_for(timeout=30_000)
    page.keyboard.press("ArrowRight")  # one phase: the next request is built
    wait_idle(page)
    page.get_by_role("heading", name=re.compile("Turn 2")).wait_for(timeout=30_000)
    page.keyboard.press("ArrowLeft")  # back to turn 1
    wait_idle(page)
    page.get_by_role("heading", name=re.compile("Turn 1")).wait_for(timeout=30_000)
    assert "present=1" in page.url

    assert font_px(page, ".lab-code .lab-line") >= MIN_PX
    open_tab(page, TURN_TABS, TABS.index("Raw JSON"))
    wait_idle(page)
    page.locator("[data-testid='stCode']:visible code").first.wait_for()  # highlighted once its code has loaded
    assert font_px(page, "[data-testid='stCode'] code") >= MIN_PX
    raw_box = page.locator("[data-testid='stCode']:visible").first.bounding_box()
    assert raw_box["height"] > 320, "a taller raw JSON box"
    open_tab(page, TURN_TABS, TABS.index("Request"))
    wait_idle(page)
    assert font_px(page, "[data-testid='stJson'] span") >= MIN_PX

    page.mouse.move(1000, 500)
    page.mouse.wheel(0, 2500)  # far down the page, the step buttons are still in view
    wait_layout(page)
    top = button(page, RUN_TO_END).bounding_box()["y"]
    assert 0 <= top < 200, top
    shot(page, "presenter-scrolled-sticky")
    button(page, RUN_TO_END).click()
    wait_idle(page)
    page.mouse.wheel(0, -5000)
    wait_layout(page)

    banner = page.locator("[data-testid='stAlertContentSuccess']").filter(has_text="Loop stopped").first
    answer = page.locator(".st-key-final-answer")
    assert "65536" in answer.inner_text() or "65,536" in answer.inner_text()
    assert answer.bounding_box()["y"] > banner.bounding_box()["y"], "the answer sits under the stop banner"
    lit = page.locator(".lab-done").all_inner_texts()
    assert any("break" in line for line in lit) and any("print(" in line for line in lit), lit
    page.screenshot(path=str(shot(page, "presenter-stopped")).replace(".png", "-view.png"))

    open_tab(page, "insights", 2)  # Answer, Sequence, Context & cost
    wait_idle(page)
    page.locator(".js-plotly-plot .xtick text").first.wait_for(timeout=30_000)
    wait_layout(page)
    assert font_px(page, ".js-plotly-plot .xtick text, .js-plotly-plot .ytick text") >= MIN_PX
    assert font_px(page, ".js-plotly-plot .gtitle tspan") >= MIN_PX, "the title and its subtitle"
    shot(page, "presenter-charts")

    nav_link(page, "lessons").click()  # another page keeps the mode
    wait_idle(page)
    assert "present=1" in page.url
    assert by_key(page, "presenter").get_by_role("switch").is_checked()
