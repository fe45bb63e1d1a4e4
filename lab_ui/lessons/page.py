"""The Lessons page: the narrative in steps beside a playground preconfigured by the lesson's scenario."""

from __future__ import annotations

import streamlit as st

from agent_core.teaching.lessons import LESSONS_ROOT, Lesson, LessonError, load_lessons
from agent_core.teaching.lessons.cheatsheet import cheat_sheet_html
from agent_core.teaching.lessons.glossary import Term, load_glossary
from agent_core.teaching.progress import ProgressStore
from lab_ui.controller import run_settings, session
from lab_ui.controller.session import LabSession
from lab_ui.frame import url_state
from lab_ui.frame.untrusted import md
from lab_ui.lessons import class_join, code, goal_feedback, parsons, predictions
from lab_ui.lessons import quiz as quiz_view
from lab_ui.playground import controls, stage
from lab_ui.playground import page as playground
from lab_ui.practice import page as practice
from lab_ui.serving import who
from lab_ui.words.i18n import mark, t


@st.cache_data(show_spinner=False)
def _lessons() -> tuple[Lesson, ...]:
    """Lessons are read once per server; cache_data hands every session its own copy."""
    return tuple(load_lessons())


# Every exercise says it: the rule of lab_ui/run_settings.py (the form is the run until its first call).
RESET_FIRST = mark(
    "Until the run's first call a change applies at once; after it, press **Reset** to start a run with it."
)
_LESSON = "lessons:lesson"  # session_state: the lesson last open in this tab (the URL loses it on a page change)


def _pick(lessons: tuple[Lesson, ...], lang: str, done: dict[str, int]) -> Lesson:
    ids = [x.id for x in lessons]
    wanted = st.query_params.get("lesson") or st.session_state.get(_LESSON)
    index = ids.index(wanted) if wanted in ids else 0

    def label(i: int) -> str:
        lesson = lessons[i]
        total = len(lesson.exercises) + len(lesson.puzzles) + len(lesson.code) + len(lesson.questions)
        mark = " ✓" if total and done.get(lesson.id, 0) >= total else ""
        return f"{lesson.order}. {lesson.title[lang]}{mark}"

    # keyed container, keyless selectbox: a lesson named by the URL must still move it
    chosen = st.container(key="lesson-picker").selectbox(
        t("Lesson"), range(len(lessons)), index=index, format_func=label
    )
    before = st.session_state.get(_LESSON)
    if ids[chosen] != before:
        st.session_state[_LESSON] = ids[chosen]
        if before is not None:
            url_state.put("step", None)  # another lesson opens at the step last shown in it
    url_state.put("lesson", ids[chosen])
    return lessons[chosen]


def _lesson_session(lesson: Lesson, lang: str) -> LabSession:
    lab = session.get(f"lesson:{lesson.id}")
    if lab.run is None and lab.scenario_lang != lang:
        lab.config = lesson.scenario_config(lang)
        lab.scenario_lang = lang
    return lab


def _start_step(lesson_id: str, count: int) -> int:
    """The step to show first: ?step= (1-based, from a reload or a link), else the one last shown in this tab."""
    wanted = st.query_params.get("step")
    if wanted and wanted.isdigit():
        return min(max(int(wanted) - 1, 0), count - 1)
    return min(st.session_state.get(f"step:{lesson_id}", 0), count - 1)


def _go(seg_key: str, step_key: str, step: int) -> None:
    """A Previous/Next click: move the numbered control itself, so its own state does not undo the move."""
    st.session_state[seg_key] = st.session_state[step_key] = step


def _keep_a_step(seg_key: str, step_key: str) -> None:
    """Clicking the selected number would unselect it; keep showing that step instead."""
    if st.session_state.get(seg_key) is None:
        st.session_state[seg_key] = st.session_state.get(step_key, 0)


def _narrative(lesson: Lesson, lang: str) -> int:
    """The lesson's steps, one at a time; returns the (1-based) step shown."""
    steps = lesson.text(lang)
    step_key, seg_key = f"step:{lesson.id}", f"seg:{lesson.id}"
    if seg_key not in st.session_state or st.session_state[seg_key] is None:
        st.session_state[seg_key] = _start_step(lesson.id, len(steps))
    st.caption(lesson.summary[lang])
    current = st.segmented_control(
        t("Step"),
        list(range(len(steps))),
        format_func=lambda i: str(i + 1),
        key=seg_key,
        on_change=_keep_a_step,
        args=(seg_key, step_key),
    )
    current = min(current if current is not None else 0, len(steps) - 1)
    st.session_state[step_key] = current
    url_state.put("step", str(current + 1))
    step = steps[current]
    st.subheader(step.title)
    st.markdown(step.body)
    if step.depth and st.toggle(t("In depth"), key=f"depth:{lesson.id}", help=t("Simply, or in depth")):
        st.markdown(step.depth)
    back, forward = st.columns(2)
    back.button(
        t("◀ Previous step"),
        disabled=current == 0,
        width="stretch",
        on_click=_go,
        args=(seg_key, step_key, current - 1),
        key=f"prev:{lesson.id}",
    )
    forward.button(
        t("Next step of the lesson ▶"),
        disabled=current >= len(steps) - 1,
        width="stretch",
        on_click=_go,
        args=(seg_key, step_key, current + 1),
        key=f"next:{lesson.id}",
    )
    return current + 1


@st.cache_data(show_spinner=False)
def _terms() -> list[Term]:
    return load_glossary(LESSONS_ROOT / "glossary.json")


def _glossary(lang: str) -> None:
    """The one glossary: turn, step, phase and the other words the lessons use, defined once."""
    with st.expander(t("Glossary"), expanded=False):
        for term in _terms():
            st.markdown(f"**{term.term[lang]}**: {term.definition[lang]}")


def _cheat_sheet(lang: str) -> None:
    """The printable one-page cheat sheet in the learner's language (open the file and print it)."""
    with st.expander(t("Cheat sheet (one page, printable)"), expanded=False):
        st.caption(t("The loop, the stop_reason table, common mistakes and the glossary on one page."))
        st.download_button(
            t("Download the cheat sheet (HTML, print it from the browser)"),
            cheat_sheet_html(lang, LESSONS_ROOT),
            file_name=f"agent-loop-cheat-sheet-{lang}.html",
            mime="text/html",
        )


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
            st.container(key=f"reset-first:{lesson.id}:{ex.id}").caption(t(RESET_FIRST))
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
                    if found := run_settings.changes(lab.config, run):  # the check read the run, not the form
                        st.warning(
                            t(
                                "This check read the run as it ran; the form has changed since ({changes}). "
                                "Press **Reset** and run again to check the new settings.",
                                changes="; ".join(c.words() for c in found),
                            )
                        )


def render() -> None:
    lang = session.get().language
    st.title(t("Lessons"))
    try:
        lessons = _lessons()
    except LessonError as exc:
        st.error(t("A lesson could not be loaded:") + f"\n\n{exc}")
        return
    learner, store = who.learner_id(), ProgressStore()
    class_join.render(learner)
    progress = {x.id: len(store.done(learner, x.id)) for x in lessons}
    lesson = _pick(lessons, lang, progress)
    lab = _lesson_session(lesson, lang)
    playground.restore_draft(lab, f"lesson:{lesson.id}")
    done = store.done(learner, lesson.id)
    total = len(lesson.exercises) + len(lesson.puzzles) + len(lesson.code) + len(lesson.questions)
    bar = st.empty()  # filled last, so an exercise passed in this very run already counts
    left, right = st.columns([5, 7], gap="medium")
    insights = st.container()  # below both columns; the stage fragment fills it (lab_ui/playground/stage.py)
    with left:
        step = _narrative(lesson, lang)
        predictions.for_step(lesson, lab, lang, step, store, learner)
        _sources(lesson)
        _exercises(lesson, lab, lang, done, store, learner)
        parsons.lesson_puzzles(lesson, lab, lang, done, store, learner)
        code.lesson_code(lesson, lang, done, store, learner)
        practice.lesson_links(lesson.id)
        quiz_view.lesson_questions(lesson, lang, store, learner)
        quiz_view.final(lessons, lang, store, learner)
        _glossary(lang)
        _cheat_sheet(lang)
    with right:
        st.markdown(f"**{t('Task')}:** {md(lab.config.task)}")
        if st.button(t("Restore the lesson's scenario"), help=t("Undo your changes")):
            lab.config = lesson.scenario_config(lang)
            lab.start()
            st.rerun()
        # Above the stepper and keyed: a run growing below it neither moves nor folds it.
        with st.expander(
            t("Change the run: task, tools, limits, persona…"), key=f"change:{lesson.id}", on_change="rerun"
        ):
            controls.render(lab)
            playground.keep_draft(lab, lesson.scenario_config(lang).task)
        stage.panel(lab, stage.Slots(insights=insights, code_below=True))
    finished = len(store.done(learner, lesson.id))
    bar.progress(finished / total if total else 0.0, text=t("{done} / {total} done", done=finished, total=total))
