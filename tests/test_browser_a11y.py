"""Accessible to every learner, in headless Chromium with axe-core (WCAG 2.2 A+AA rules): no violation on any page in
English, Russian or Polish, `<html lang>` follows the language, and a run's turn, its charts and presenter mode at a
projector hold too. Pages change through the sidebar (one page load per language)."""

from __future__ import annotations

import pytest
from axe import AXE_JS, STYLED, violations
from browser import button, by_key, nav_link, needs_chromium, open_tab, wait_idle
from keys import RUN_TO_END, TURN_TABS

from lab_ui.playground.turn import TABS

pytestmark = [
    pytest.mark.browser,
    needs_chromium,
    pytest.mark.skipif(
        not AXE_JS.exists(), reason="axe-core is not installed (make tests/node/node_modules/.installed)"
    ),
]
PAGES = ["home", "playground", "lessons", "practice", "runs", "teacher", "settings"]


def _settle(page) -> None:
    wait_idle(page)
    page.get_by_test_id("stMain").wait_for()


@pytest.mark.parametrize("lang", ["en", "ru", "pl"])  # one test each, so that three processes can share them
def test_every_page_in_every_language_has_no_wcag_violation_and_its_own_lang(app, pages, lang):
    found: list[str] = []
    page = pages.new_page(viewport={"width": 1366, "height": 768})
    page.goto(f"{app.url}/?lang={lang}")
    _settle(page)
    for name in PAGES:
        if name != "home":
            nav_link(page, name).click()
            _settle(page)
        page.wait_for_function("(l) => document.documentElement.lang === l", arg=lang, timeout=30_000)
        found += [f"[{lang}] {name}: {v}" for v in violations(page)]
    assert not found, "\n".join(found)


def test_a_finished_run_its_tabs_and_charts_and_presenter_mode_have_no_violation(app, pages):
    found: list[str] = []
    page = pages.new_page(viewport={"width": 1920, "height": 1080})
    page.goto(f"{app.url}/playground?lang=ru&present=1")
    button(page, RUN_TO_END).wait_for(timeout=120_000)
    _settle(page)
    button(page, RUN_TO_END).click()
    _settle(page)
    by_key(page, "final-answer").wait_for()
    for index, name in enumerate(TABS):
        open_tab(page, TURN_TABS, index)
        found += [f"turn tab {name}: {v}" for v in violations(page)]
    for index, name in enumerate(("answer", "sequence", "context & cost")):
        open_tab(page, "insights", index)
        if index == 2:
            page.locator(".js-plotly-plot").first.wait_for()
        found += [f"insights {name}: {v}" for v in violations(page)]
    assert not found, "\n".join(found)


# Every caption's contrast from the moment it is put on the page (a MutationObserver runs before the browser paints),
# its colour blended over the background it is drawn on, as axe judges it. The app's own styles arrive later, in an
# st.html element whose code Streamlit loads on first use, so what a caption looks like before them is the theme's.
CAPTIONS_JS = """
(() => {
  if (window.__labCaptions) return;
  const low = window.__labCaptions = [];
  const rgba = (text) => (text.match(/[\\d.]+/g) || []).map(Number);
  const over = (fg, bg, alpha) => [0, 1, 2].map((i) => fg[i] * alpha + bg[i] * (1 - alpha));
  const backdrop = (el) => {
    const layers = [];
    for (let e = el; e; e = e.parentElement) {
      const c = rgba(getComputedStyle(e).backgroundColor);
      const alpha = c.length > 3 ? c[3] : 1;
      if (c.length >= 3 && alpha > 0) layers.push([c, alpha]);
      if (c.length >= 3 && alpha >= 1) break;
    }
    return layers.reverse().reduce((bg, [c, alpha]) => over(c, bg, alpha), [255, 255, 255]);
  };
  const lum = (c) => {
    const [r, g, b] = c.map((v) => (v / 255 <= 0.03928 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const measure = () => {
    for (const el of document.querySelectorAll("[data-testid='stCaptionContainer']")) {
      const text = (el.innerText || "").trim();
      if (!text || !el.getClientRects().length) continue;
      const c = rgba(getComputedStyle(el).color);
      let alpha = c.length > 3 ? c[3] : 1;
      for (let e = el; e; e = e.parentElement) alpha *= Number(getComputedStyle(e).opacity);
      const bg = backdrop(el);
      const [a, b] = [lum(over(c, bg, alpha)), lum(bg)].sort((x, y) => y - x);
      const ratio = (a + 0.05) / (b + 0.05);
      if (ratio < 4.5) low.push(`${ratio.toFixed(2)}:1 ${el.closest("[data-testid='stSidebar']") ? "sidebar" : "main"} ${text.slice(0, 40)}`);
    }
  };
  new MutationObserver(measure).observe(document, {subtree: true, childList: true, characterData: true});
})();
"""


# A code box drawn while the page is busy (a long task: axe itself, a loaded machine) is focusable before anything
# else runs: the app's focus script marks it in the observer's callback, a microtask of the task that drew it.
BUSY_DRAW_JS = """
async () => {
  const holder = document.createElement("div");
  holder.setAttribute("data-testid", "stCode");
  holder.innerHTML = "<pre><code>{}</code></pre>";
  document.querySelector("[data-testid='stMain']").appendChild(holder);
  await null;  // the observer's callback was queued by the append: it has run now; no frame, no timer has
  const marked = holder.querySelector("pre").getAttribute("tabindex");
  holder.remove();
  return marked;
}
"""


def test_a_code_box_is_focusable_as_soon_as_it_is_drawn(app, pages):
    page = pages.new_page(viewport={"width": 1366, "height": 768})
    page.goto(f"{app.url}/playground")
    _settle(page)
    page.wait_for_function("() => window.__labFocus === true", timeout=30_000)
    assert page.evaluate(BUSY_DRAW_JS) == "0"


def test_no_caption_is_ever_drawn_below_aa_contrast_on_a_pages_first_load(app, pages):
    """The sidebar's caption was drawn at 3.5:1 (the main area's at 3.7:1) on a page's first load, until the app's
    contrast rule arrived a moment later: axe, which looks once the page has settled, never saw it. A caption's
    colours do not depend on the language (the rule is the app's CSS), so one language, the one with the longest
    captions, stands for all three (each page in every language is checked settled, above)."""
    found: list[str] = []
    lang = "ru"
    for name in PAGES:
        context = pages.new_context(viewport={"width": 1366, "height": 768})
        context.add_init_script(CAPTIONS_JS)
        page = context.new_page()
        page.goto(f"{app.url}/{'' if name == 'home' else name}?lang={lang}")
        _settle(page)
        page.wait_for_function(STYLED, timeout=30_000)
        found += [f"{name}: {low}" for low in dict.fromkeys(page.evaluate("window.__labCaptions"))]
        context.close()
    assert not found, "\n".join(found)
