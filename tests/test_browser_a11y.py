"""Accessible to every learner, in headless Chromium with axe-core (WCAG 2.2 A+AA rules): no violation on any page in
English, Russian or Polish, `<html lang>` follows the language, and a run's turn, its charts and presenter mode at a
projector hold too. Pages change through the sidebar (one page load per language)."""

from __future__ import annotations

import pytest
from axe import AXE_JS, violations
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


def test_every_page_in_every_language_has_no_wcag_violation_and_its_own_lang(app, pages):
    found: list[str] = []
    for lang in ("en", "ru", "pl"):
        page = pages.new_page(viewport={"width": 1366, "height": 768})
        page.goto(f"{app.url}/?lang={lang}")
        _settle(page)
        for name in PAGES:
            if name != "home":
                nav_link(page, name).click()
                _settle(page)
            page.wait_for_function("(l) => document.documentElement.lang === l", arg=lang, timeout=30_000)
            found += [f"[{lang}] {name}: {v}" for v in violations(page)]
        page.close()
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
