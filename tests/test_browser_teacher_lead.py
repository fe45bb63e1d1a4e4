"""A teacher at a projector (1920x1080, presenter mode) in headless Chromium: the join screen shows the big code, the
join address and a QR code, and the teacher key is nowhere (not in the text, the attributes, nor the address bar);
the board's lesson columns fit the screen, and axe-core finds nothing to fix."""

from __future__ import annotations

import pytest
from axe import AXE_JS, violations
from browser import by_key, needs_chromium, shot, wait_idle

from agent_core.teaching.classes import ClassStore

pytestmark = [pytest.mark.browser, needs_chromium]


@pytest.mark.skipif(not AXE_JS.exists(), reason="axe-core is not installed")
def test_the_projected_join_screen_has_no_key_and_the_board_fits(app, pages):
    store = ClassStore(app.db.with_name(app.db.stem + "-progress.db"))
    made = store.create("Group P")
    for n in range(3):
        store.join(made.code, f"proj-learner-{n}", f"Learner {n}")
    page = pages.new_page(viewport={"width": 1920, "height": 1080})
    page.goto(f"{app.url}/teacher?class={made.code}&teacher={made.teacher_key}&present=1&lang=pl")
    by_key(page, "join-screen").wait_for(timeout=120_000)
    # The page takes the key out of the address by a rerun of its own, which rebuilds the page and its styles.
    page.wait_for_function("() => !location.search.includes('teacher=')", timeout=60_000)
    wait_idle(page)
    # Streamlit loads an element's code (st.html's styles, a select box) on first use, a skeleton until then.
    page.wait_for_function("() => !document.querySelector(\"[data-testid='stSkeleton']\")", timeout=60_000)
    code = page.locator(".lab-join-code")
    assert code.inner_text().strip() == made.code
    size = code.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
    assert size >= 96, f"readable from the back row: {size} px"
    qr = page.locator("img.lab-join-qr").first
    assert qr.evaluate("img => img.complete && img.naturalWidth > 100")
    assert f"lessons?class={made.code}" in page.locator(".lab-join-url").inner_text()
    everything = page.evaluate("() => document.documentElement.outerHTML") + page.url
    assert made.teacher_key not in everything, "the key is nowhere on the projected page"
    board = page.locator("[data-testid='stDataFrame']").first
    board.wait_for()
    box = board.bounding_box()
    assert box["x"] + box["width"] <= 1920, "the board fits the screen"
    shot(page, "teacher-join-presenter-pl")
    assert not violations(page), violations(page)
