"""Classes without accounts, first quiz answers, the class report, teacher notes, and the Teacher page with 40 learners."""

import pg
import pytest
from lab_app import APP, click
from streamlit.testing.v1 import AppTest

from agent_core.teaching.class_report import build_report, load_report
from agent_core.teaching.classes import CODE_ALPHABET, CODE_LENGTH, ClassError, ClassStore, normalize_code
from agent_core.teaching.lessons import load_lessons
from agent_core.teaching.lessons.quiz import FINAL_QUIZ
from agent_core.teaching.progress import ProgressStore
from agent_core.teaching.teacher_notes import lesson_notes, notes_from


@pytest.fixture(scope="module")
def pg_admin():
    with pg.postgres_server() as url:
        yield url


@pytest.fixture(autouse=True, params=["sqlite", "postgres"])
def _own_db(request, app_env, monkeypatch):
    """Each test on the embedded SQLite file, and again on a real PostgreSQL server named by DATABASE_URL."""
    if request.param == "postgres":
        monkeypatch.setenv("DATABASE_URL", pg.fresh_database(request.getfixturevalue("pg_admin")))
    else:
        monkeypatch.delenv("DATABASE_URL", raising=False)


@pytest.fixture(scope="module")
def lessons():
    return load_lessons()


def test_a_class_gets_a_readable_code_and_learners_join_by_it():
    store = ClassStore()
    made = store.create("  Group   B ")
    assert made.name == "Group B"
    assert len(made.code) == CODE_LENGTH and set(made.code) <= set(CODE_ALPHABET)
    typed = made.code[:3].lower() + "-" + made.code[3:].lower() + " "
    assert store.find(typed) == made  # as a learner types it off the projector
    store.join(typed, "learner-1", "Ada")
    store.join(made.code, "learner-2", "Boris")
    store.join(made.code, "learner-1", "Ada L.")  # joining again renames, never duplicates
    assert [(m.learner, m.name) for m in store.members(made.code)] == [("learner-1", "Ada L."), ("learner-2", "Boris")]
    assert store.member(made.code, "learner-3") is None
    other = store.create("Group C")
    assert other.code != made.code and store.members(other.code) == []
    assert store.joined("learner-1") == [made.code] and store.joined("learner-9") == []


def test_joining_needs_a_real_class_and_a_name():
    store = ClassStore()
    made = store.create("Group B")
    with pytest.raises(ClassError):
        store.join("ZZZZZZ" if made.code != "ZZZZZZ" else "YYYYYY", "learner-1", "Ada")
    with pytest.raises(ClassError):
        store.join(made.code, "learner-1", " \n\t ")
    with pytest.raises(ClassError):
        store.create("")
    long = store.join(made.code, "learner-1", "A" * 500 + "\nsecond line")
    assert long.name == "A" * 40


def test_only_the_teacher_key_opens_the_class():
    made = ClassStore().create("Group B")
    assert made.opens_with(made.teacher_key)
    assert not made.opens_with(None) and not made.opens_with("") and not made.opens_with(made.code)
    assert normalize_code("ab c-12") == "ABC12"


def test_the_first_answer_counts_and_later_ones_do_not_overwrite_it():
    progress = ProgressStore()
    assert progress.record_answer("ada", "the-loop", "q1", 2, False) is True
    assert progress.record_answer("ada", "the-loop", "q1", 0, True) is False
    assert progress.record_answer("boris", "the-loop", "q1", 0, True) is True
    answers = {(a.learner, a.question): (a.choice, a.correct) for a in progress.answers(["ada", "boris", "nobody"])}
    assert answers == {("ada", "q1"): (2, False), ("boris", "q1"): (0, True)}
    assert progress.answers([]) == []
    assert progress.answers(["boris"])[0].learner == "boris"


def _class_of(n: int, lessons, wrong_choice_of=None):
    """A class of n learners: learner i finished the first exercise of lesson 1 when i is even, and answered
    lesson 1's first question: right when i % 3 == 0, else a wrong option."""
    classes, progress = ClassStore(), ProgressStore()
    made = classes.create("Group B")
    first = lessons[0]
    question = first.questions[0]
    right = next(i for i, o in enumerate(question.options) if o.correct)
    wrong = [i for i, o in enumerate(question.options) if not o.correct]
    for i in range(n):
        learner = f"learner-{i:02d}"
        classes.join(made.code, learner, f"Learner {i:02d}")
        if i % 2 == 0:
            progress.mark(learner, first.id, f"exercise:{first.exercises[0].id}")
        choice = right if i % 3 == 0 else wrong[0] if i % 3 == 1 else wrong[-1]
        progress.record_answer(learner, first.id, question.id, choice, question.options[choice].correct)
    return made, classes, progress


def test_the_report_shows_who_finished_what_and_the_common_wrong_answer(lessons):
    made, classes, progress = _class_of(6, lessons)
    ProgressStore().mark("outsider", lessons[0].id, f"exercise:{lessons[0].exercises[0].id}")  # not in the class
    progress.mark("learner-00", lessons[0].id, "exercise:removed-long-ago")  # an id no lesson has any more
    report = load_report(made.code, lessons, classes, progress)
    first = lessons[0]
    assert [p.member.name for p in report.learners] == [f"Learner {i:02d}" for i in range(6)]
    assert [p.exercises_done(first) for p in report.learners] == [1, 0, 1, 0, 1, 0]
    assert report.exercises_done() == 3
    stats = report.question_stats(first)[0]
    assert (stats.answered, stats.right) == (6, 2)
    wrong = [i for i, o in enumerate(first.questions[0].options) if not o.correct]
    if len(wrong) > 1:  # learners 1 and 4 picked wrong[0], 2 and 5 wrong[-1]: a tie goes to the lower index
        assert stats.common_wrong() == (wrong[0], 2)
    assert report.class_quiz_score() == (2, 6)
    assert [p.first_right(first) for p in report.learners] == [1, 0, 0, 1, 0, 0]


def test_answers_to_unknown_questions_or_options_are_ignored(lessons):
    made, classes, _ = _class_of(1, lessons)
    progress = ProgressStore()
    progress.record_answer("learner-00", lessons[0].id, "no-such-question", 0, True)
    progress.record_answer("learner-00", lessons[1].id, lessons[1].questions[0].id, 99, False)
    report = build_report(classes.members(made.code), lessons, [], progress.answers(["learner-00"]))
    assert report.class_quiz_score() == (1, 1)  # learner-00's right answer to lesson 1; the rest are not questions


def test_the_final_quiz_counts_apart_from_the_lessons(lessons):
    made, classes, progress = _class_of(2, lessons)
    last = lessons[1].questions[-1]
    right = next(i for i, o in enumerate(last.options) if o.correct)
    key = f"{lessons[1].id}/{last.id}"
    progress.record_answer("learner-00", FINAL_QUIZ, key, right, True)
    progress.record_answer("learner-01", FINAL_QUIZ, key, (right + 1) % len(last.options), False)
    progress.record_answer("learner-01", FINAL_QUIZ, "no-such/question", 0, True)
    report = load_report(made.code, lessons, classes, progress)
    assert [(p.final_right(), len(p.final)) for p in report.learners] == [(1, 1), (0, 1)]
    assert report.class_quiz_score() == (1, 2)  # the lessons' own questions only


def test_teacher_notes_are_read_as_data_and_a_lesson_without_them_has_none(lessons):
    notes = notes_from(
        {
            "minutes": 25,
            "level": "beginner",
            "objectives": {"en": ["See the loop"], "ru": ["Увидеть цикл"], "pl": ["Zobaczyć pętlę"]},
            "numbers": {"en": ["2 turns"], "ru": "2 итерации"},
            "misconceptions": {"en": ["The model runs the tools"]},
            "discussion": {},
        }
    )
    assert (notes.minutes, notes.level) == (25, "beginner")
    assert notes.items("objectives", "ru") == ["Увидеть цикл"]
    assert notes.items("numbers", "ru") == ["2 итерации"]
    assert notes.items("misconceptions", "pl") == ["The model runs the tools"]  # English until translated
    assert notes.items("discussion", "en") == []
    assert notes_from(None) is None and notes_from({}) is None
    odd = notes_from({"minutes": "ten", "level": "guru", "objectives": ["not by language"]})
    assert (odd.minutes, odd.level, odd.items("objectives", "en")) == (None, None, [])
    with_notes = [x for x in lessons if x.teacher_notes]
    assert with_notes, "the lessons carry teacher notes (issue 14)"
    for lesson in with_notes:
        found, raw = lesson_notes(lesson), lesson.teacher_notes
        assert found.minutes == raw["minutes"] and found.level == raw["level"]
        assert found.items("objectives", "ru") == raw["objectives"]["ru"]
    without = [x for x in lessons if not x.teacher_notes]
    assert all(lesson_notes(x) is None for x in without)


def _teacher_page(made) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["class"] = made.code
    at.query_params["teacher"] = made.teacher_key
    at.run()
    at.switch_page("pages/teacher.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_the_teacher_page_shows_forty_learners_progress(lessons):
    made, _, _ = _class_of(40, lessons)
    at = _teacher_page(made)
    assert at.subheader[0].value == "Group B"
    assert any(made.code in m.value for m in at.markdown)
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Learners"] == "40"
    assert metrics["Exercises finished"] == "20"
    assert metrics["Right at the first answer"] == "14 / 40"
    overview, by_exercise = (df.value for df in at.dataframe)
    quiz = at.table[0].value  # a static table, so long questions and answers wrap on a projector
    assert len(overview) == 40 and overview["Learner"].iloc[39] == "Learner 39"
    first = lessons[0]
    assert list(by_exercise[first.exercises[0].title["en"]]).count("✓") == 20
    assert quiz["Answered"].iloc[0] == 40 and quiz["Right first time"].iloc[0] == 14
    assert quiz["Chosen by"].iloc[0] in (13, 26)  # one wrong option or two (learners 1, 4, … and 2, 5, …)


def test_the_teacher_page_needs_the_teacher_key(lessons):
    made, _, _ = _class_of(2, lessons)
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["class"] = made.code
    at.query_params["teacher"] = "not-the-key"
    at.run()
    at.switch_page("pages/teacher.py").run()
    assert not at.exception
    assert not at.dataframe and not at.metric  # nobody's progress without the key
    assert any(made.code in i.value for i in at.info)


def test_a_teacher_creates_a_class_from_the_page():
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.switch_page("pages/teacher.py").run()
    at.text_input(key="teacher:class-name").input("Group B")
    click(at, "teacher:create-class")
    code = at.query_params["class"][0] if isinstance(at.query_params["class"], list) else at.query_params["class"]
    assert ClassStore().find(code).name == "Group B"
    assert any("No learner has joined yet" in i.value for i in at.info)


def test_a_learner_who_joined_sees_their_class_even_on_a_link_without_it():
    classes = ClassStore()
    made = classes.create("Group B")
    classes.join(made.code, "learner-ada", "Ada")
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["learner"] = "learner-ada"
    at.run()
    at.switch_page("pages/lessons.py").run()
    assert not at.exception, [e.value for e in at.exception]
    assert any("Group B" in c.value and "Ada" in c.value for c in at.caption)


def test_the_lesson_pickers_counts_are_each_learners_own(lessons):
    """One query gives every lesson's count of finished items (the picker's ✓), for this learner only."""
    store = ProgressStore()
    first, second = lessons[0], lessons[1]
    store.mark("ann", first.id, "exercise:a")
    store.mark("ann", first.id, "question:b")
    store.mark("ann", first.id, "question:b")  # done twice is done once
    store.mark("ann", second.id, "exercise:c")
    store.mark("bob", second.id, "exercise:c")
    assert store.counts("ann") == {first.id: 2, second.id: 1}
    assert store.counts("bob") == {second.id: 1}
    assert store.counts("cleo") == {}
