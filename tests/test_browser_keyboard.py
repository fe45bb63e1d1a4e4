"""A lesson walked by keyboard only, in headless Chromium at 1366x768: Tab reaches every control of the page and
Enter or Space works it: the steps of the script, Run to end, the turn's tabs (arrow keys), an exercise's check,
a check question, and Next lesson at the end."""

from __future__ import annotations

import pytest
from browser import by_key, needs_chromium, wait_idle

from agent_core.teaching.lessons import load_lessons

pytestmark = [pytest.mark.browser, needs_chromium]
LESSON = load_lessons()[0]
# The controls a learner can work in the main area: every one must take focus from Tab.
CONTROLS = "[data-testid='stMain'] :is(button, input, textarea, select, summary, a[href], [role='tab'], [tabindex='0'])"
# Only what a learner can see: checkVisibility() is false inside a closed expander (its content is
# content-visibility: hidden, which offsetParent and computed visibility miss). A radio group (st.radio, a segmented
# control) is one Tab stop whose options the arrow keys move between (the ARIA radio group pattern): one control.
MARK_JS = """(sel) => { document.querySelectorAll('[data-kbd]').forEach(e => delete e.dataset.kbd);
  const all = [...document.querySelectorAll(sel)].filter(e => e.checkVisibility({visibilityProperty: true})
    && !e.disabled && e.getAttribute('tabindex') !== '-1');
  const groups = new Map();
  all.forEach((e, i) => { const group = e.closest("[role='radiogroup']");
    if (group && !groups.has(group)) groups.set(group, String(i));
    e.dataset.kbd = group ? groups.get(group) : String(i); });
  return new Set(all.map(e => e.dataset.kbd)).size; }"""


# What keeps a control out of the count: how many there are, and whether each is visible, enabled and focusable.
STATE_JS = """(sels) => sels.map(sel => [...document.querySelectorAll(sel)].map(e => ({sel, visible:
  e.checkVisibility({visibilityProperty: true}), disabled: e.disabled, tabindex: e.getAttribute('tabindex'),
  marked: e.dataset.kbd ?? null})))"""


def _focused(page, css: str) -> bool:
    return page.evaluate("(css) => !!document.activeElement && document.activeElement.matches(css)", css)


def tab_to(page, css: str, limit: int = 250) -> None:
    """Press Tab until the focused element matches `css` (a learner without a mouse does the same)."""
    for _ in range(limit):
        if _focused(page, css):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {css}")


def press(page, key: str) -> None:
    page.keyboard.press(key)
    wait_idle(page)


def _mark_controls(page) -> int:
    """Mark every control of the settled page and count them. The page writes its state into the address (step=1)
    by a rerun of its own, which can rebuild the stage after it first showed: marks set before that are lost, so
    mark again until they hold across an idle page."""
    counted = page.locator(f".st-key-btn-end button[data-kbd], .st-key-next-{LESSON.id} button[data-kbd]")
    for _ in range(5):
        by_key(page, "btn-end").wait_for(timeout=120_000)
        by_key(page, f"next-{LESSON.id}").wait_for(timeout=60_000)
        wait_idle(page)
        total = page.evaluate(MARK_JS, CONTROLS)
        wait_idle(page)
        if counted.count() == 2:  # Run to end and the script's Next are among the controls counted
            return total
    state = page.evaluate(STATE_JS, [".st-key-btn-end button", f".st-key-next-{LESSON.id} button"])
    raise AssertionError(f"the lesson page never settled: {state}")


def test_a_lesson_by_keyboard_only(app, pages):
    page = pages.new_page(viewport={"width": 1366, "height": 768})
    page.goto(f"{app.url}/lessons?lesson={LESSON.id}")
    total = _mark_controls(page)

    # Every control of the page takes focus from Tab, in one pass through it.
    reached: set[str] = set()
    for _ in range(total * 3 + 20):
        page.keyboard.press("Tab")
        mark = page.evaluate("() => document.activeElement && document.activeElement.dataset.kbd")
        if mark is not None:
            reached.add(mark)
        if len(reached) == total:
            break
    missed = page.evaluate(
        "(seen) => [...document.querySelectorAll('[data-kbd]')].filter(e => !seen.includes(e.dataset.kbd))"
        ".map(e => e.tagName + ' ' + (e.innerText || e.getAttribute('aria-label') || '').slice(0, 40))",
        sorted(reached),
    )
    assert not missed, f"{len(missed)} of {total} controls Tab never reaches: {missed}"

    # In a radio group the arrow keys move between the options: the script's step picker.
    tab_to(page, f".st-key-seg-{LESSON.id} [role='radio'][aria-checked='true']")
    press(page, "ArrowRight")
    assert _focused(page, f".st-key-seg-{LESSON.id} [role='radio']:nth-of-type(2)"), "ArrowRight moves to step 2"
    press(page, "ArrowLeft")
    assert page.locator(f".st-key-seg-{LESSON.id} [role='radio']").first.get_attribute("aria-checked") == "true"

    # The script, step by step, then the run, the tabs, the exercise, a question and the next lesson.
    steps = len(LESSON.text("en"))
    for _ in range(steps - 1):
        tab_to(page, f".st-key-next-{LESSON.id} button")
        press(page, "Enter")
    assert page.url.endswith(f"step={steps}") or f"step={steps}&" in page.url, page.url
    tab_to(page, ".st-key-btn-end button")
    press(page, "Enter")
    by_key(page, "final-answer").wait_for(timeout=60_000)
    tab_to(page, ".st-key-turn-tabs [role='tab'][aria-selected='true']")
    press(page, "ArrowRight")  # the next tab, by arrow key as a tab list is worked
    press(page, "Enter")
    assert page.locator(".st-key-turn-tabs [role='tab']").nth(1).get_attribute("aria-selected") == "true"
    check = f".st-key-check-{LESSON.id}-{LESSON.exercises[0].id} button"
    tab_to(page, check)
    press(page, "Enter")
    page.locator("[data-testid='stAlert']").first.wait_for(timeout=30_000)  # the check's verdict
    question = LESSON.questions[0]
    tab_to(page, f"[class*='st-key-q-{LESSON.id}-{question.id}'] input[type='radio']")
    press(page, "Space")  # the first answer counts: it is recorded and explained
    page.locator("[data-testid='stAlertContentSuccess'], [data-testid='stAlertContentError']").first.wait_for(
        timeout=30_000
    )
    tab_to(page, ".st-key-next-lesson button")
    press(page, "Enter")
    following = load_lessons()[1]
    page.wait_for_function("(id) => location.search.includes('lesson=' + id)", arg=following.id, timeout=30_000)
