"""Presenter mode for the whole page, at a projector's 1920x1080 and 1280x720: prose, tabs, metrics and the sidebar
grow with the JSON; the keys are listed on screen; at every scroll position nothing paints over the sticky step bar
and the bar sits below the app's header; a control the keyboard reaches is never hidden under the bar."""

from __future__ import annotations

import pytest
from browser import button, by_key, needs_chromium, shot, wait_idle
from keys import RUN_TO_END

pytestmark = [pytest.mark.browser, needs_chromium]

SIZES_JS = """() => {
  const px = (sel) => [...document.querySelectorAll(sel)].filter(e => e.offsetParent !== null && e.innerText.trim())
    .map(e => parseFloat(getComputedStyle(e).fontSize));
  const middle = (sel) => { const v = px(sel).sort((a, b) => a - b); return v.length ? v[v.length >> 1] : 0; };
  // Prose is the page's text (markdown, notices, the answer), not the words on its controls, measured apart.
  const control = "[role='tab'], [data-testid='stWidgetLabel'], button, summary";
  const prose = [...document.querySelectorAll("[data-testid='stMain'] [data-testid='stMarkdownContainer'] p")]
    .filter(e => !e.closest(control) && e.offsetParent !== null && e.innerText.trim())
    .map(e => parseFloat(getComputedStyle(e).fontSize)).sort((a, b) => a - b);
  return {prose: prose.length ? prose[prose.length >> 1] : 0,
          controls: middle("[data-testid='stMain'] button p, [data-testid='stMain'] [data-testid='stWidgetLabel'] p"),
          tabs: middle("[role='tab'] p"), sidebar: middle("[data-testid='stSidebarNavItems'] a"),
          metric: middle("[data-testid='stMetricLabel']")};
}"""
# For points across the stuck bar: the element painted there belongs to the bar. The bar's top below the header.
OVER_BAR_JS = """() => {
  const bar = document.querySelector("[data-testid='stLayoutWrapper']:has(> .st-key-stepbar)");
  const header = document.querySelector("header[data-testid='stHeader']");
  const r = bar.getBoundingClientRect();
  const covered = [];
  for (const fx of [0.05, 0.3, 0.6, 0.95]) for (const fy of [0.2, 0.5, 0.8]) {
    const x = r.left + r.width * fx, y = r.top + r.height * fy;
    if (y < 0 || y > innerHeight) continue;
    const hit = document.elementFromPoint(x, y);
    if (hit && !bar.contains(hit)) covered.push(`${Math.round(x)},${Math.round(y)}: ${hit.tagName}.${hit.className}`);
  }
  const below = header ? r.top >= header.getBoundingClientRect().bottom - 1 : true;
  return {covered, below, top: r.top, bottom: r.bottom};
}"""
FOCUS_JS = """() => {
  const bar = document.querySelector("[data-testid='stLayoutWrapper']:has(> .st-key-stepbar)");
  const el = document.activeElement;
  if (!el || !bar || bar.contains(el) || el.contains(bar) || !document.querySelector("[data-testid='stMain']").contains(el)) return null;
  const r = el.getBoundingClientRect(), b = bar.getBoundingClientRect();
  // some of it behind the bar: the boxes cross both ways (the code panel beside the bar is not under it)
  const under = r.height > 0 && r.top < b.bottom - 1 && r.bottom > b.top + 1 && r.left < b.right - 1 && r.right > b.left + 1;
  return under ? (el.innerText || el.tagName).slice(0, 40) : "";
}"""


@pytest.mark.parametrize("size", [(1920, 1080), (1280, 720)])
def test_presenter_mode_grows_the_whole_page_and_nothing_covers_the_step_bar(app, pages, size):
    width, height = size
    page = pages.new_page(viewport={"width": width, "height": height})
    page.goto(f"{app.url}/playground?present=1&lang=ru")
    button(page, RUN_TO_END).wait_for(timeout=120_000)
    wait_idle(page)
    button(page, RUN_TO_END).click()
    wait_idle(page)
    by_key(page, "final-answer").wait_for()
    page.get_by_test_id("stMetricLabel").first.wait_for()  # Streamlit loads the metric's code on first use
    sizes = page.evaluate(SIZES_JS)
    assert sizes["prose"] >= 20 and sizes["tabs"] >= 20 and sizes["controls"] >= 20, sizes
    assert sizes["sidebar"] >= 17 and sizes["metric"] >= 16, sizes
    keys = page.get_by_test_id("stSidebar").get_by_text("Shift+→")
    assert keys.first.is_visible(), "the keyboard shortcuts are listed on screen"
    main = page.get_by_test_id("stMain")
    total = main.evaluate("m => m.scrollHeight")
    for fraction in (0.1, 0.3, 0.5, 0.7, 0.9):
        main.evaluate("(m, y) => m.scrollTo(0, y)", total * fraction)
        page.wait_for_function("() => true")  # one frame
        found = page.evaluate(OVER_BAR_JS)
        assert not found["covered"] and found["below"], (fraction, found)
    shot(page, f"presenter-page-{width}x{height}")
    main.evaluate("m => m.scrollTo(0, 0)")
    hidden = []
    for _ in range(40):  # Tab through the stage: each focused control shows below the bar
        page.keyboard.press("Tab")
        under = page.evaluate(FOCUS_JS)
        if under:
            hidden.append(under)
    assert not hidden, f"focused but under the sticky step bar: {hidden}"
