"""A learner in headless Chromium does lesson 1's hands-on parts by the controls on screen: locks in a prediction,
then assembles the loop line by line in the Parsons puzzle's dropdowns, checks it, and reads the result.

AppTest (tests/test_lesson_predictions.py, tests/test_lesson_puzzles_page.py) already drives both widgets; what only
a browser shows is that the puzzle's expander stays open through the reruns that "Check and run my program" starts
(AppTest keeps it open whatever the page does; Chromium drew it closed, the verdict hidden, once the solved puzzle's
icon changed), that the lines are picked from real dropdowns inside a form, and that the run lands on the stage."""

import pytest
from browser import (
    button,
    by_key,
    click_key,
    needs_chromium,
    open_select,
    option,
    pick,
    shot,
    toggle_expander,
    wait_idle,
)
from keys import RUN_TO_END

from agent_core.loop.stepper import run_task
from agent_core.teaching.lessons import LESSONS_ROOT, load_lesson
from agent_core.teaching.lessons.parsons import solution
from agent_core.teaching.lessons.quiz import lesson_quiz

pytestmark = [pytest.mark.browser, needs_chromium]
LESSON = load_lesson(LESSONS_ROOT / "01-the-loop")
PUZZLE = LESSON.puzzle("assemble-the-loop")
KEY = f"parsons:{LESSON.id}:{PUZZLE.id}"


def _pick(page, key: str, index: int) -> None:
    """Open the dropdown keyed `key` and click its option `index` (in the code's order)."""
    pick(page, key, index)


def _pick_line(page, key: str, label: str) -> None:
    """Pick a line as a learner does in a long list (the menu draws only the options in view): type it, click it."""
    open_select(page, key)
    page.keyboard.type(label)
    page.get_by_role("option").first.click()


def test_predict_then_assemble_the_loop_by_the_controls_a_learner_uses(app, pages):
    page = pages.new_page(viewport={"width": 1366, "height": 768})
    page.goto(f"{app.url}/lessons?lesson={LESSON.id}")
    button(page, RUN_TO_END).wait_for(timeout=180_000)  # a cold start on a busy machine

    prediction = LESSON.predictions[0]
    right = prediction.answer(run_task(LESSON.scenario_config("en")))
    assert right is not None
    option(page, f"seg:{LESSON.id}", prediction.step - 1).click()
    wait_idle(page)
    option(page, f"predict:{LESSON.id}:{prediction.id}:en", right).click()
    wait_idle(page)
    click_key(page, f"predict-lock:{LESSON.id}:{prediction.id}")
    box = by_key(page, f"predict:{LESSON.id}:{prediction.id}")
    box.locator("[data-testid='stAlertContentSuccess']").wait_for(timeout=30_000)
    assert prediction.options[right].text("en") in box.inner_text()
    assert box.get_by_role("radio").first.is_disabled()  # the first answer counts

    option(page, f"seg:{LESSON.id}", len(LESSON.text("en")) - 1).click()  # the puzzles close the lesson's script
    wait_idle(page)
    toggle_expander(page, f"{KEY}:open")
    wait_idle(page, rerun=True)
    labels = {p.id: f"{chr(65 + n)}  {p.text.strip()}" for n, p in enumerate(PUZZLE.pieces("python"))}  # as shown
    for n, (line, indent) in enumerate(solution(PUZZLE, "python")):
        _pick_line(page, f"{KEY}:python:line:{n}", labels[line])
        _pick(page, f"{KEY}:python:indent:{n}", indent)
    click_key(page, f"{KEY}:python:check")
    wait_idle(page, 60_000)

    puzzle = by_key(page, f"{KEY}:open")
    done = puzzle.locator("[data-testid='stAlertContentSuccess']")
    done.wait_for(timeout=60_000)  # still open after the check's reruns (its icon now a tick), with the verdict
    assert PUZZLE.success["en"].split(":")[0] in done.inner_text()
    assert "Your program is on the stage now" in done.inner_text()
    shot(page, "lesson-puzzle-assembled")

    # The program's run is the lesson's own loop, so the prediction made before it is borne out on the stage.
    option(page, f"seg:{LESSON.id}", prediction.step - 1).click()
    wait_idle(page)
    box.get_by_text("Your run on the stage shows it too.").wait_for(timeout=30_000)


def test_an_answered_check_question_shows_the_answer_given_in_readable_text(app, pages):
    """After the first answer the radio is disabled: it showed no choice at all (its key's state was gone after the
    rerun) and greyed every option to 40 % opacity, so the learner could not see or read what they had answered."""
    item = next(i for i in lesson_quiz(LESSON) if i.question.step is None)  # under the script's last step
    page = pages.new_page(viewport={"width": 1366, "height": 768})
    page.goto(f"{app.url}/lessons?lesson={LESSON.id}&step={len(LESSON.text('en'))}")
    key = f"q:{LESSON.id}:{item.key}:en"
    option(page, key, 1).wait_for(timeout=180_000)
    wait_idle(page)
    option(page, key, 1).click()
    wait_idle(page, rerun=True)
    answered = by_key(page, f"{key}:answered")
    answered.wait_for(timeout=30_000)
    radios = answered.get_by_role("radio")
    assert radios.nth(1).is_checked() and radios.nth(1).is_disabled(), "the answer given, kept and locked"
    alpha = answered.locator("[data-testid='stRadioOption'] p").first.evaluate(
        "e => { const c = getComputedStyle(e).color.match(/[\\d.]+/g).map(Number);"
        " return (c.length > 3 ? c[3] : 1) * Number(getComputedStyle(e.closest('label')).opacity); }"
    )
    assert alpha >= 0.99, f"the options are drawn at {alpha:.0%} opacity"
    shot(page, "lesson-check-question-answered")
