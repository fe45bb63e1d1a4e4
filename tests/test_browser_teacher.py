"""A class in headless Chromium, in Russian and Polish at 1366x768 and 768 px: the teacher creates it, a
learner joins and answers, and the Teacher page shows it without a reload; and a run shared by link opens read-only
for someone else, who makes their own copy."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit

import pytest
from browser import button, by_key, click_key, field, needs_chromium, option, pick, shot, wait_idle, wait_layout
from keys import LANGUAGE, RUN_TO_END, STEP_BUTTONS

from agent_core.teaching.lessons import load_lessons
from agent_core.teaching.lessons.quiz import lesson_quiz
from agent_core.teaching.teacher_notes import lesson_notes
from lab_ui.words.i18n import LANGUAGES, translate

pytestmark = [pytest.mark.browser, needs_chromium]
WIDE, NARROW = {"width": 1366, "height": 768}, {"width": 768, "height": 1024}
# Each walk runs in the languages and at the sizes it can differ by: the class walk in Russian and Polish (its words,
# the learner's wrong answer, both widths for each side; English is the catalogue's source), the shared-run walk once
# (its read-only view and copy are the same code in every language; test_language reads that view's words in each).
CLASS_CASES = [("ru", NARROW, WIDE), ("pl", WIDE, NARROW)]
SHARE_CASES = [("en", WIDE, NARROW)]
NAMES = {"en": "Ada Lovelace", "ru": "Ада Лавлейс", "pl": "Ada Lovelace-Nowak"}


@pytest.fixture
def site(app, pages):
    """The shared app and this test's browser sessions (`pages` closes them after the test: a Teacher page left open
    would keep redrawing every few seconds)."""
    return app.url, pages


def _open(b, url: str, lang: str, size: dict):
    """A new browser session (its own Streamlit session) at `url`, switched to `lang`, then resized to `size`."""
    page = b.new_context(viewport=WIDE).new_page()  # wide first: the sidebar with the language switch is open
    page.set_default_navigation_timeout(120_000)  # a shared, busy machine can take long to serve the first load
    page.goto(url)
    by_key(page, LANGUAGE).wait_for(timeout=180_000)
    wait_idle(page)
    if lang != "en":
        pick(page, LANGUAGE, list(LANGUAGES).index(lang))
    page.set_viewport_size(size)
    wait_layout(page)
    return page


def _param(page, name: str) -> str:
    return parse_qs(urlsplit(page.url).query)[name][0]


def _metric(page, label: str) -> str:
    return (
        page.locator("[data-testid='stMetric']")
        .filter(has_text=label)
        .locator("[data-testid='stMetricValue']")
        .inner_text()
    )


@pytest.mark.parametrize(("lang", "teacher_size", "learner_size"), CLASS_CASES)
def test_a_learner_joins_answers_and_the_teacher_sees_it_live(site, lang, teacher_size, learner_size):
    url, b = site
    tr = lambda text, **values: translate(lang, text, **values)  # noqa: E731 - the page's words, as the test reads them
    lesson = load_lessons()[0]
    question = lesson.questions[0]
    wrong_index = next(i for i, o in enumerate(question.options) if not o.correct)
    wrong = question.options[wrong_index].text[lang]

    teacher = _open(b, f"{url}/teacher", lang, teacher_size)
    field(teacher, "teacher:class-name").fill(f"Group {lang}")
    button(teacher, "teacher:create-class").click()
    teacher.get_by_text(tr("No learner has joined yet. Show them the join code.")).wait_for(timeout=30_000)
    code = _param(teacher, "class")
    assert re.fullmatch(r"[A-Z2-9]{6}", code) and teacher.locator(".lab-join-code").inner_text().strip() == code
    assert _param(teacher, "teacher")  # the teacher's way back is in their URL only

    last = len(lesson.text(lang))  # the check questions sit under the lesson's last step
    learner = _open(b, f"{url}/lessons?class={code.lower()}&step={last}", lang, learner_size)  # typed off the projector
    field(learner, "class:learner-name").fill(NAMES[lang])
    click_key(learner, "class:join-button")
    learner.get_by_text(NAMES[lang]).first.wait_for(timeout=30_000)
    assert _param(learner, "class") == code
    quiz_key = f"q:{lesson.id}:{lesson_quiz(lesson)[0].key}:{lang}"
    option(learner, quiz_key, wrong_index).click()  # an unanswered question stands open
    wait_idle(learner)
    shot(learner, f"class-learner-{lang}-{learner_size['width']}")

    # No click on the teacher's page: its live part redraws on its own within a few seconds.
    teacher.wait_for_function(
        "([label, want]) => [...document.querySelectorAll(\"[data-testid='stMetric']\")].some("
        "m => m.innerText.includes(label) && m.innerText.includes(want))",
        arg=[tr("Right at the first answer"), "0 / 1"],
        timeout=30_000,
    )
    assert _metric(teacher, tr("Learners")) == "1"
    cells = teacher.locator("[data-testid='stDataFrame'] td")
    cells.filter(has_text=NAMES[lang]).first.wait_for(state="attached", timeout=30_000)
    quiz_cells = teacher.locator("[data-testid='stTable'] td")
    # the common wrong answer, in the learner's language (the live part draws its pieces one after another)
    quiz_cells.filter(has_text=wrong).first.wait_for(state="attached", timeout=30_000)
    notes = lesson_notes(lesson)
    if notes is None:
        teacher.get_by_text(tr("No teacher notes for this lesson yet.")).wait_for()
    else:
        teacher.get_by_text(tr("Teacher notes: lesson {n}", n=lesson.order)).wait_for()
        teacher.get_by_text(notes.items("objectives", lang)[0]).first.wait_for()
    for english in ("Join code", "Learners", "Progress in every lesson", "Most common wrong answer"):
        assert teacher.get_by_text(english, exact=True).count() == 0, english
    shot(teacher, f"class-teacher-{lang}-{teacher_size['width']}")


@pytest.mark.parametrize(("lang", "owner_size", "viewer_size"), SHARE_CASES)
def test_a_shared_run_opens_read_only_and_becomes_my_copy(site, lang, owner_size, viewer_size):
    url, b = site
    owner = _open(b, f"{url}/playground", lang, owner_size)
    button(owner, RUN_TO_END).click()
    wait_idle(owner, 120_000)
    button(owner, "share").click()
    link = owner.locator("[data-testid='stPopoverBody'] code").inner_text().strip()
    run_id = _param(owner, "run")
    assert parse_qs(urlsplit(link).query) == {"run": [run_id], "view": ["shared"]}

    viewer = _open(b, link, lang, viewer_size)
    button(viewer, "share:copy").wait_for(timeout=30_000)
    for key in STEP_BUTTONS:
        assert button(viewer, key).is_disabled()  # read-only
    shot(viewer, f"shared-run-{lang}-{viewer_size['width']}")
    click_key(viewer, "share:copy")
    button(viewer, "share:copy").wait_for(state="detached", timeout=30_000)
    mine = _param(viewer, "run")
    assert mine != run_id and "view" not in parse_qs(urlsplit(viewer.url).query)
    owner.reload()
    wait_idle(owner)
    assert _param(owner, "run") == run_id  # the owner's run is still theirs
