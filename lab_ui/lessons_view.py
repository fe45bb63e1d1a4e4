"""The Lessons page: the narrative in steps beside a playground preconfigured by the lesson's scenario."""

from __future__ import annotations

import uuid

import streamlit as st

from agent_core.lessons import LESSONS_ROOT, Lesson, LessonError, load_lessons
from agent_core.lessons.glossary import Term, load_glossary
from agent_core.progress import ProgressStore
from lab_ui import class_join, controls, goal_feedback, playground, practice, quiz_view, session
from lab_ui.i18n import t
from lab_ui.session import LabSession
from lab_ui.untrusted import md


@st.cache_data(show_spinner=False)
def _lessons() -> tuple[Lesson, ...]:
    """Lessons are read once per server; cache_data hands every session its own copy."""
    return tuple(load_lessons())


def learner_id() -> str:
    """A random learner id kept in the URL, so progress survives a reload (and a bookmark)."""
    learner = st.query_params.get("learner")
    if not learner:
        learner = uuid.uuid4().hex[:10]
        st.query_params["learner"] = learner
    return learner


def _pick(lessons: tuple[Lesson, ...], lang: str, done: dict[str, int]) -> Lesson:
    ids = [x.id for x in lessons]
    wanted = st.query_params.get("lesson")
    index = ids.index(wanted) if wanted in ids else 0

    def label(i: int) -> str:
        lesson = lessons[i]
        total = len(lesson.exercises) + len(lesson.questions)
        mark = " ✓" if total and done.get(lesson.id, 0) >= total else ""
        return f"{lesson.order}. {lesson.title[lang]}{mark}"

    chosen = st.selectbox(t("Lesson"), range(len(lessons)), index=index, format_func=label)
    st.query_params["lesson"] = ids[chosen]
    return lessons[chosen]


def _lesson_session(lesson: Lesson, lang: str) -> LabSession:
    lab = session.get(f"lesson:{lesson.id}")
    if lab.run is None and lab.scenario_lang != lang:
        lab.config = lesson.scenario_config(lang)
        lab.scenario_lang = lang
    return lab


def _narrative(lesson: Lesson, lang: str) -> None:
    steps = lesson.text(lang)
    key = f"step:{lesson.id}"
    current = min(st.session_state.get(key, 0), len(steps) - 1)
    st.caption(lesson.summary[lang])
    picked = st.segmented_control(
        t("Step"),
        list(range(len(steps))),
        default=current,
        format_func=lambda i: str(i + 1),
        key=f"seg:{lesson.id}:{lang}",
    )
    current = current if picked is None else picked
    st.session_state[key] = current
    step = steps[current]
    st.subheader(step.title)
    st.markdown(step.body)
    back, forward = st.columns(2)
    if back.button(t("◀ Previous step"), disabled=current == 0, width="stretch"):
        st.session_state[key] = current - 1
        st.rerun()
    if forward.button(t("Next step of the lesson ▶"), disabled=current >= len(steps) - 1, width="stretch"):
        st.session_state[key] = current + 1
        st.rerun()


@st.cache_data(show_spinner=False)
def _terms() -> list[Term]:
    return load_glossary(LESSONS_ROOT / "glossary.json")


def _glossary(lang: str) -> None:
    """The one glossary: turn, step, phase and the other words the lessons use, defined once."""
    with st.expander(t("Glossary"), expanded=False):
        for term in _terms():
            st.markdown(f"**{term.term[lang]}**: {term.definition[lang]}")


def _sources(lesson: Lesson) -> None:
    """Where the lesson's facts come from, with the date each was checked."""
    if not lesson.sources:
        return
    with st.expander(t("Sources"), expanded=False):
        for src in lesson.sources:
            st.markdown(f"- [{src['title']}]({src['url']}) · " + t("checked {date}", date=src["checked"]))


def _exercises(lesson: Lesson, lab: LabSession, lang: str, done: set[str], store: ProgressStore, learner: str) -> None:
    st.markdown(f"#### {t('Try this')}")
    for ex in lesson.exercises:
        passed = f"exercise:{ex.id}" in done
        with st.expander(("✅ " if passed else "🧪 ") + ex.title[lang], expanded=not passed):
            st.markdown(ex.instructions[lang])
            if st.button(t("Check my run"), key=f"check:{lesson.id}:{ex.id}"):
                run = lab.run
                if run is None or not run.turns:
                    st.warning(t("Run the loop first: press Run to end on the right."))
                    continue
                try:
                    result = lesson.check(ex.goal, run)
                except LessonError as exc:
                    st.error(str(exc))
                    continue
                if result.passed:
                    store.mark(learner, lesson.id, f"exercise:{ex.id}")
                    st.success(ex.success[lang])
                else:
                    st.error(
                        t("Not yet:") + "\n\n" + "\n".join(f"- {goal_feedback.sentence(m)}" for m in result.misses)
                    )
                    st.info(ex.hint[lang])


def render() -> None:
    lang = session.get().language
    st.title(t("Lessons"))
    try:
        lessons = _lessons()
    except LessonError as exc:
        st.error(t("A lesson could not be loaded:") + f"\n\n{exc}")
        return
    learner, store = learner_id(), ProgressStore()
    class_join.render(learner)
    progress = {x.id: len(store.done(learner, x.id)) for x in lessons}
    lesson = _pick(lessons, lang, progress)
    lab = _lesson_session(lesson, lang)
    done = store.done(learner, lesson.id)
    total = len(lesson.exercises) + len(lesson.questions)
    bar = st.empty()  # filled last, so an exercise passed in this very run already counts
    left, right = st.columns([5, 7], gap="medium")
    with left:
        _narrative(lesson, lang)
        _sources(lesson)
        _exercises(lesson, lab, lang, done, store, learner)
        practice.lesson_links(lesson.id)
        quiz_view.lesson_questions(lesson, lang, store, learner)
        quiz_view.final(lessons, lang, store, learner)
        _glossary(lang)
    with right:
        st.markdown(f"**{t('Task')}:** {md(lab.config.task)}")
        if st.button(t("Restore the lesson's scenario"), help=t("Undo your changes")):
            lab.config = lesson.scenario_config(lang)
            lab.start()
            st.rerun()
        playground.stepper_panel(lab)
        with st.expander(t("Change the run: task, tools, limits, persona…")):
            controls.render(lab)
        with st.expander(t("The loop's code")):
            playground.loop_code_panel(lab)
    playground.insights(lab.run)
    finished = len(store.done(learner, lesson.id))
    bar.progress(finished / total if total else 0.0, text=t("{done} / {total} done", done=finished, total=total))
