"""The Teacher page: create or open a class, then watch its progress live and read each lesson's teacher notes."""

from __future__ import annotations

import datetime as dt

import pandas as pd
import streamlit as st

from agent_core.serving.mode import is_class_server
from agent_core.teaching.class_lead import ClassLead, Place
from agent_core.teaching.class_report import ClassReport, load_report
from agent_core.teaching.classes import ClassError, ClassStore, SchoolClass, normalize_code
from agent_core.teaching.lessons import Lesson, LessonError
from agent_core.teaching.progress import ProgressStore
from agent_core.teaching.teacher_notes import SECTIONS, lesson_notes
from lab_ui.controller import session
from lab_ui.frame import presenter
from lab_ui.frame.draw_queue import QUEUE
from lab_ui.frame.links import app_link
from lab_ui.lessons import catalog
from lab_ui.lessons.class_join import plain
from lab_ui.serving import board
from lab_ui.teacher import lead
from lab_ui.words.i18n import mark, t

REFRESH_SECONDS = 5  # how often the live part redraws; learners' clicks show up within this
CLASS_PARAM, KEY_PARAM = "class", "teacher"
KEYS = "teacher:keys"  # session_state: {class code: teacher key} of the classes this tab opened
SECTION_TITLES = {
    "objectives": mark("Objectives"),
    "numbers": mark("Numbers the class will see"),
    "misconceptions": mark("Common misconceptions"),
    "discussion": mark("Discussion questions"),
}
LEVEL_WORDS = {"beginner": mark("beginner"), "intermediate": mark("intermediate"), "advanced": mark("advanced")}


def render() -> None:
    st.title(t("Teacher"))
    try:
        catalog.lessons()  # a broken lesson is said plainly here, before any class is opened
    except LessonError as exc:
        st.error(t("A lesson could not be loaded:") + f"\n\n{exc}")
        return
    store = ClassStore()
    opened = _opened_class(store)
    if opened is None:
        _start(store)
        return
    _header(opened)
    if is_class_server():
        board.manage(store, opened)
    live_progress(opened.code)


# -- opening a class ---------------------------------------------------------------------------------
def _opened_class(store: ClassStore) -> SchoolClass | None:
    """The class named in the URL, if the URL also carries its teacher key."""
    code = st.query_params.get(CLASS_PARAM)
    if not code:
        return None
    found = store.find(code)
    if found is None:
        st.warning(t("There is no class with the code {code}.", code=normalize_code(code)))
    elif is_class_server() and board.opens(store, found, st.query_params.get(KEY_PARAM)):
        return found  # this browser is the class's teacher: the key has left the address bar
    elif not found.opens_with(_teacher_key(found.code)):
        st.info(t("Class {code} is open to its teacher only: enter its teacher key below.", code=found.code))
    else:
        return found
    return None


def _start(store: ClassStore) -> None:
    new, existing = st.columns(2, gap="large")
    with new, st.form("teacher:create"):
        st.subheader(t("Create a class"))
        st.caption(t("No accounts: learners join with a short code, and only you get the teacher key."))
        name = st.text_input(t("Class name"), placeholder=t("e.g. Group B, Tuesday"), key="teacher:class-name")
        if st.form_submit_button(t("Create the class"), type="primary", key="teacher:create-class"):
            try:
                made = store.create(name)
            except ClassError:
                st.error(t("Give the class a name first."))
            else:
                _go(made)
    with existing, st.form("teacher:open"):
        st.subheader(t("Open a class"))
        code = st.text_input(t("Class code"), value=st.query_params.get(CLASS_PARAM, ""))
        key = st.text_input(t("Teacher key"), type="password")
        if st.form_submit_button(t("Open")):
            found = store.find(code)
            if found is None or not found.opens_with(key.strip()):
                st.error(t("That code and key do not open a class."))
            else:
                _go(found)


def _teacher_key(code: str) -> str | None:
    """The key in the URL, else the one this tab opened the class with: the class code stays in every page's URL,
    the key only on this page's (a projected Lessons page must not show it)."""
    key = st.query_params.get(KEY_PARAM) or st.session_state.get(KEYS, {}).get(code)
    if key and presenter.on():  # a projected page shows its address bar: the tab holds the key, the URL not
        st.session_state.setdefault(KEYS, {})[code] = key
        st.query_params.pop(KEY_PARAM, None)
    elif key and st.query_params.get(KEY_PARAM) != key:
        st.query_params[KEY_PARAM] = key
    return key


def _go(opened: SchoolClass) -> None:
    st.session_state.setdefault(KEYS, {})[opened.code] = opened.teacher_key
    st.query_params[CLASS_PARAM] = opened.code
    if is_class_server():
        board.bind(ClassStore(), opened)  # this browser opens the class from now on; no key in the address bar
    else:
        st.query_params[KEY_PARAM] = opened.teacher_key
    st.rerun()


def _header(opened: SchoolClass) -> None:
    st.subheader(plain(opened.name))
    lead.join_screen(opened)
    lead.send_panel(opened, list(catalog.lessons()))
    lead.plan(opened, list(catalog.lessons()))
    if presenter.on():  # on the projector: the teacher key is nowhere on screen (the URL lost it too)
        return
    with st.expander(t("Your teacher link (keep it; do not show it to the class)")):
        st.code(app_link("teacher", **{CLASS_PARAM: opened.code, KEY_PARAM: opened.teacher_key}), language=None)
        st.caption(t("It is the only way back to this page: the class has no account and no password reset."))


# -- the live part ------------------------------------------------------------------------------------
@st.fragment(run_every=REFRESH_SECONDS)
@QUEUE  # a fragment's own rerun queues like a page (lab_ui/frame/draw_queue.py)
def live_progress(code: str) -> None:
    """Redrawn every few seconds on its own: a learner's finished exercise or answer appears without a click.
    Picking a lesson redraws only this part too."""
    lessons = list(catalog.lessons())
    report = load_report(code, lessons, ClassStore(), ProgressStore())
    right, answered = report.class_quiz_score()
    cols = st.columns(3)
    cols[0].metric(t("Learners"), len(report.learners))
    cols[1].metric(t("Exercises finished"), report.exercises_done())
    cols[2].metric(t("Right at the first answer"), f"{right} / {answered}")
    st.caption(
        t("Updated {time}; refreshes every {n} s.", time=dt.datetime.now().strftime("%H:%M:%S"), n=REFRESH_SECONDS)
    )
    if report.learners:
        st.markdown(f"#### {t('Progress in every lesson')}")
        st.caption(t("Each lesson: exercises finished / exercises; ✓ = all of them."))
        st.dataframe(
            overview_table(report),
            hide_index=True,
            height=_height(len(report.learners)),
            column_config=lesson_columns(report.lessons, session.get().language),
        )
    else:
        st.info(t("No learner has joined yet. Show them the join code."))
    lang = session.get().language
    index = st.selectbox(
        t("Lesson"),
        range(len(lessons)),
        format_func=lambda i: lessons[i].heading(lang),
        key="teacher:lesson",
    )
    lesson = lessons[index]
    if report.learners:
        _lesson_detail(report, lesson)
    notes(lesson, lang)


def _lesson_detail(report: ClassReport, lesson: Lesson) -> None:
    st.markdown(f"#### {t('Lesson {n}: who finished which exercise', n=lesson.order)}")
    st.dataframe(lesson_table(report, lesson), hide_index=True, height=_height(len(report.learners)))
    st.markdown(f"#### {t('Lesson {n}: first answers to the quiz', n=lesson.order)}")
    # A static table: its text wraps, so the wrong answer stays in view beside a long question (a data grid
    # scrolled that column out of sight in Russian and Polish, and on a narrow screen).
    st.table(quiz_table(report, lesson).set_index(t("Question")))


def _height(rows: int) -> int:
    return min(35 * (rows + 1) + 3, 560)


def overview_table(report: ClassReport) -> pd.DataFrame:
    """One row per learner: totals, then one column per lesson ("2/3", "✓", or empty)."""
    lang = session.get().language
    total_ex = sum(len(x.exercises) for x in report.lessons)
    places = ClassLead().places([p.member.learner for p in report.learners])
    rows = []
    for p in report.learners:
        row = {
            t("Learner"): p.member.name,
            t("Exercises"): f"{sum(p.exercises_done(x) for x in report.lessons)} / {total_ex}",
            t("Quiz: right first time"): _score(
                sum(p.first_right(x) for x in report.lessons), sum(p.answered(x) for x in report.lessons)
            ),
            t("Final quiz"): _score(p.final_right(), len(p.final)),
            t("Predictions: right first time"): _score(p.predicted_right(), p.predicted()),
            t("Now at"): _now_at(places.get(p.member.learner), report.lessons),
        }
        for lesson in report.lessons:
            done, total = p.exercises_done(lesson), len(lesson.exercises)
            row[_lesson_column(lesson, lang)] = "✓" if total and done == total else (f"{done}/{total}" if done else "")
        rows.append(row)
    return pd.DataFrame(rows)


def lesson_table(report: ClassReport, lesson: Lesson) -> pd.DataFrame:
    """One row per learner: ✓ under each exercise of the lesson they finished, and their first-answer score."""
    lang = session.get().language
    rows = []
    for p in report.learners:
        done = p.exercises.get(lesson.id, set())
        row = {t("Learner"): p.member.name}
        row |= {ex.title[lang]: "✓" if ex.id in done else "" for ex in lesson.exercises}
        row[t("Quiz: right first time")] = _score(p.first_right(lesson), p.answered(lesson), len(lesson.questions))
        if lesson.predictions:
            row[t("Predictions: right first time")] = _score(p.predicted_right(lesson), p.predicted(lesson))
        rows.append(row)
    return pd.DataFrame(rows)


def quiz_table(report: ClassReport, lesson: Lesson) -> pd.DataFrame:
    """One row per question: how many answered, how many were right the first time, the most common wrong pick."""
    lang = session.get().language
    rows = []
    for question, stats in zip(lesson.questions, report.question_stats(lesson), strict=True):
        wrong = stats.common_wrong()
        rows.append(
            {
                t("Question"): question.question[lang],
                t("Answered"): stats.answered,
                t("Right first time"): stats.right,
                t("Most common wrong answer"): question.options[wrong[0]].text[lang] if wrong else "",
                t("Chosen by"): wrong[1] if wrong else 0,
            }
        )
    return pd.DataFrame(rows)


def _score(right: int, answered: int, total: int | None = None) -> str:
    if not answered:
        return ""
    out = f"{right}/{answered}"
    return out if total is None or answered == total else t("{score} (of {total} questions)", score=out, total=total)


def _lesson_column(lesson: Lesson, lang: str) -> str:
    """A lesson's column is its number (18 titles never fit a projector's width); its title is the column's help."""
    return t("L{n}", n=lesson.order)


def lesson_columns(lessons: list[Lesson], lang: str) -> dict:
    """Narrow lesson columns whose header says the whole title on hover (and to a screen reader)."""
    return {_lesson_column(x, lang): st.column_config.TextColumn(help=x.heading(lang), width="small") for x in lessons}


def _now_at(place: Place | None, lessons: list[Lesson]) -> str:
    """Where a learner is: "L3 · 2" (lesson 3, step 2), or empty when never seen on a lesson."""
    lesson = next((x for x in lessons if place and x.id == place.lesson), None)
    return t("L{n} · step {step}", n=lesson.order, step=place.step) if lesson and place else ""


# -- teacher notes --------------------------------------------------------------------------------------
def notes(lesson: Lesson, lang: str) -> None:
    """The lesson's teacher notes in the page's language, or a plain line when it has none yet."""
    st.markdown(f"#### {t('Teacher notes: lesson {n}', n=lesson.order)}")
    found = lesson_notes(lesson)
    if found is None:
        st.caption(t("No teacher notes for this lesson yet."))
        return
    facts = []
    if found.minutes:
        facts.append(t("{n} minutes", n=found.minutes))
    if found.level:
        facts.append(t("level: {level}", level=t(LEVEL_WORDS[found.level])))
    if facts:
        st.markdown(" · ".join(facts))
    for section in SECTIONS:
        items = found.items(section, lang)
        if items:
            st.markdown(f"**{t(SECTION_TITLES[section])}**")
            st.markdown("\n".join(f"- {_no_formula(item)}" for item in items))


def _no_formula(text: str) -> str:
    """Markdown with "$" escaped: two in one item ("$0.03 ... $0.02") would turn the text between them into maths."""
    return text.replace("$", "\\$")
