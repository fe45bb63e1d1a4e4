"""axe-core (the npm package in tests/node) injected into a page: the WCAG 2.2 A and AA rules, run in the browser."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from playwright.sync_api import TimeoutError as PlaywrightTimeout

AXE_JS = Path(__file__).resolve().parent / "node" / "node_modules" / "axe-core" / "axe.min.js"
WCAG_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
# The app's own styles (lab_ui/frame/presenter.py LAYOUT_CSS) come in an st.html element, whose code Streamlit loads
# on first use: on a page's first load the sidebar's caption is drawn a moment before its contrast rule arrives (at
# Streamlit's 3.5:1). axe looks at the page as it stays (clean-clone CI once caught "[en] home" in between).
STYLED = "() => [...document.querySelectorAll('style')].some((s) => s.textContent.includes('stCaptionContainer'))"
# The app's focus script (lab_ui/frame/presenter.py FOCUS_JS) marks each code box with tabindex as it is drawn; a box
# the script never marks (a selector it does not know) is waited for a while, then left for axe to report.
_UNMARKED = "() => !document.querySelector(\"[data-testid='stCode'] pre:not([tabindex])\")"


@cache
def _source() -> str:
    return AXE_JS.read_text(encoding="utf-8")


def violations(page) -> list[str]:
    """Every WCAG 2.2 AA violation axe finds on the page as it is now, one line per element ("" when none)."""
    page.wait_for_function(STYLED, timeout=30_000)
    try:
        page.wait_for_function(_UNMARKED, timeout=15_000, polling=100)
    except PlaywrightTimeout:
        pass  # a box the script never marks is what axe reports below
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.add_script_tag(content=_source())
    found = page.evaluate(
        """async (tags) => {
             const r = await axe.run(document, {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']});
             return r.violations.flatMap(v => v.nodes.map(n =>
               `${v.id} (${v.impact}): ${n.target.join(' ')}: ${(n.failureSummary || '').split('\\n').slice(1, 2)}`));
           }""",
        WCAG_AA,
    )
    return list(found)
