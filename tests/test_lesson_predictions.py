"""Predict, then reveal, in every lesson: each prediction's options are such that exactly one is borne out by the
lesson's own run in every language; the first answer is recorded and counts on the teacher's board as a
first-attempt score; the Lessons page locks an answer in and reveals it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from lesson_runs import FOLDERS
from lesson_runs import lesson as _lesson
from lesson_runs import run as _run

from agent_core.teaching.class_report import build_report
from agent_core.teaching.classes import Member
from agent_core.teaching.lessons import LANGUAGES, LESSONS_ROOT, LessonError, load_lesson, load_lessons
from agent_core.teaching.progress import QuizAnswer


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda f: f.name)
def test_every_lesson_that_runs_the_loop_asks_for_a_prediction_first(folder: Path):
    lesson = _lesson(folder)
    assert lesson.predictions, "every lesson runs the loop: give it a prediction step"
    for p in lesson.predictions:
        assert 1 <= p.step <= len(lesson.text("en"))
        for lang in LANGUAGES:
            assert p.question[lang] and p.explanation[lang] and all(o.text(lang) for o in p.options)


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda f: f.name)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_exactly_one_option_is_what_the_run_shows(folder: Path, lang: str):
    for p in _lesson(folder).predictions:
        run = _run(folder, lang, p.exercise)
        held = [n for n, o in enumerate(p.options) if o.holds(p.measured(run))]
        assert len(held) == 1, f"{p.id}: the run shows {p.measured(run)!r}, options {p.options}"
        assert p.ready(run)


def test_a_broken_prediction_is_reported(tmp_path: Path):
    import shutil

    folder = tmp_path / "lessons" / "01-the-loop"
    shutil.copytree(LESSONS_ROOT / "01-the-loop", folder)
    path = folder / "lesson.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["predictions"][0].update(measure="turnz", step=99)
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(LessonError) as caught:
        load_lesson(folder)
    assert "predictions[0].measure" in str(caught.value) and "predictions[0].step" in str(caught.value)


def test_first_predictions_count_on_the_board_apart_from_the_quiz():
    lessons = load_lessons()
    first = lessons[0]
    key = first.predictions[0].key
    members = [Member("ann", "Ann", 0.0), Member("bob", "Bob", 0.0)]
    answers = [
        QuizAnswer("ann", first.id, key, 2, True, 1.0),
        QuizAnswer("bob", first.id, key, 0, False, 1.0),
        QuizAnswer("bob", first.id, "predict:no-such", 0, True, 1.0),  # a removed prediction is ignored
        QuizAnswer("bob", first.id, first.questions[0].id, 0, True, 1.0),
    ]
    report = build_report(members, lessons, [], answers)
    ann, bob = report.learners
    assert (ann.predicted_right(first), ann.predicted(first)) == (1, 1)
    assert (bob.predicted_right(), bob.predicted()) == (0, 1)
    assert bob.first_right(first) == 1 and ann.answered(first) == 0  # the quiz score is its own


def test_the_lessons_page_locks_a_prediction_in_and_reveals_it(app_env):
    from lab_app import ok, open_page, texts

    from agent_core.teaching.progress import ProgressStore

    lesson = load_lesson(LESSONS_ROOT / "01-the-loop")
    prediction = lesson.predictions[0]
    at = open_page("pages/lessons.py")
    radio = at.radio(key=f"predict:{lesson.id}:{prediction.id}:en")
    radio.set_value(0).run()  # "1 turn": wrong, the run takes three
    at.button(key=f"predict-lock:{lesson.id}:{prediction.id}").click().run()
    ok(at)
    assert "the run shows 3" in texts(at.warning)
    answers = ProgressStore().answers([_learner(at)])
    assert [(a.question, a.choice, a.correct) for a in answers] == [(prediction.key, 0, False)]
    assert at.radio(key=f"predict:{lesson.id}:{prediction.id}:en").disabled  # the first answer counts


def _learner(at) -> str:
    from agent_core.teaching.progress import ProgressStore

    store = ProgressStore()
    with store._connect() as conn:  # the one learner this test's fresh database has seen
        return str(conn.execute("SELECT learner FROM quiz_answers").fetchone()[0])
