"""Retake the README's Playground, charts and lesson screenshots from the current app (offline model), 1366x768.

Run from the repository's root: `.venv/bin/python docs/take_screenshots.py` (needs Debian's chromium).
presenter.png and teacher.png are taken by their own browser tests' scenarios and are not retaken here."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from browser import browser, running_app, wait_idle  # noqa: E402  (the tests' own helpers)

SIZE = {"width": 1366, "height": 768}
TASK = "What's the weather in Oslo, and what is 2 to the power of 16?"


def _click(page, key: str) -> None:
    page.locator(f".st-key-{key} button").first.click()
    wait_idle(page)


def _to_top(locator) -> None:
    """Scroll the page so this element sits at the top of the picture."""
    locator.evaluate("el => el.scrollIntoView({block: 'start'})")
    locator.page.wait_for_timeout(500)


def _settle(page) -> None:
    wait_idle(page)
    page.wait_for_selector("[data-testid='stSkeleton']", state="detached", timeout=30_000)
    page.mouse.move(0, SIZE["height"] - 1)  # no tooltip from the last click in the picture
    page.wait_for_timeout(800)


def playground(page, url: str) -> None:
    """Turn 2's request built: the loop's code lit, the timeline, and the Diff tab with what turn 2 appended."""
    page.goto(f"{url}/playground?lang=en")
    page.locator(".st-key-btn-turn button").wait_for(timeout=180_000)
    _click(page, "btn-turn")
    _click(page, "btn-phase")
    page.get_by_role("tab", name="Diff").click()
    _settle(page)
    _to_top(page.locator(".st-key-stepbar").first)
    page.screenshot(path=str(ROOT / "docs" / "playground.png"))


def charts(page, url: str) -> None:
    """A finished run's context and cost charts."""
    _click(page, "btn-end")
    page.get_by_role("tab", name="Context & cost").click()
    page.locator(".js-plotly-plot").first.wait_for(timeout=60_000)
    _settle(page)
    _to_top(page.get_by_role("tab", name="Context & cost"))
    page.screenshot(path=str(ROOT / "docs" / "charts.png"))


def lesson(page, url: str) -> None:
    """The break-the-loop lesson after its runaway run hit the hard ceiling."""
    page.goto(f"{url}/lessons?lang=en&lesson=break-the-loop")
    page.locator(".st-key-btn-end button").wait_for(timeout=180_000)
    _click(page, "btn-end")
    _settle(page)
    page.screenshot(path=str(ROOT / "docs" / "lessons.png"))


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp, running_app(Path(tmp) / "runs.db") as url, browser() as b:
        page = b.new_page(viewport=SIZE)
        page.set_default_timeout(120_000)
        playground(page, url)
        charts(page, url)
        lesson(page, url)


if __name__ == "__main__":
    main()
