"""The Lessons page as a stage with a script: the lesson's text one step at a time beside the stage (the lesson's own
run, every panel in the stage's tab row); under the step, the parts that belong to it (PARTS: exercises, check
questions, …); the glossary and the cheat sheet in the sidebar's drawer; "Next lesson" at the end."""

from __future__ import annotations

import streamlit as st

from agent_core.teaching.lessons import LESSONS_ROOT, Lesson, LessonError
from agent_core.teaching.lessons.cheatsheet import cheat_sheet_html
from agent_core.teaching.lessons.glossary import Term, load_glossary
from agent_core.teaching.progress import ProgressStore
from lab_ui.controller import session
from lab_ui.controller.session import LabSession
from lab_ui.frame import url_state
from lab_ui.frame.untrusted import md
from lab_ui.lessons import catalog, class_join, code, follow, parsons, predictions
from lab_ui.lessons import exercises as lesson_exercises
from lab_ui.lessons import quiz as quiz_view
from lab_ui.lessons.steps import Part, StepView
from lab_ui.playground import controls, stage
from lab_ui.playground import page as playground
from lab_ui.practice import page as practice
from lab_ui.serving import who
from lab_ui.words.i18n import t

_LESSON = "lessons:lesson"  # session_state: the lesson last open in this tab (the URL loses it on a page change)


def _pick(lessons: tuple[Lesson, ...], lang: str, done: dict[str, int]) -> Lesson:
    ids = [x.id for x in lessons]
    wanted = st.query_params.get("lesson") or st.session_state.get(_LESSON)
    index = ids.index(wanted) if wanted in ids else 0

    def label(i: int) -> str:
        lesson = lessons[i]
        total = len(lesson.exercises) + len(lesson.puzzles) + len(lesson.code) + len(lesson.questions)
        mark = " ✓" if total and done.get(lesson.id, 0) >= total else ""
        return f"{lesson.heading(lang)}{mark}"

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
    """The step picker, the step's text and Previous/Next; returns the step on screen (0-based)."""
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
    return current


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


def _next_lesson(view: StepView) -> None:
    """At the end of a lesson's script: the next lesson, one click away (or the end of the course)."""
    if not view.last:
        return
    ids = [x.id for x in view.lessons]
    index = ids.index(view.lesson.id)
    if index + 1 >= len(view.lessons):
        st.success(t("That was the last lesson. Take the final quiz above, or go on in the Playground."))
        return
    following = view.lessons[index + 1]
    st.button(
        t("Next lesson: {n}. {title} ▶", n=following.order, title=following.title[view.lang]),
        type="primary",
        key="next-lesson",
        on_click=open_lesson,
        args=(following.id,),
        width="stretch",
    )


def open_lesson(lesson_id: str, step: int | None = None) -> None:
    """Show another lesson (at its first step, or `step`, 1-based): a click's callback, before the page runs."""
    st.session_state[_LESSON] = lesson_id
    st.query_params["lesson"] = lesson_id
    st.session_state.pop(f"seg:{lesson_id}", None)
    st.session_state[f"step:{lesson_id}"] = (step or 1) - 1
    st.query_params["step"] = str(step or 1)


def _puzzles(view: StepView) -> None:
    """The lesson's "assemble the loop" puzzles, at the end of its script (lab_ui/lessons/parsons.py)."""
    if view.last:
        parsons.lesson_puzzles(view.lesson, view.lab, view.lang, view.done, view.store, view.learner)


# What comes under the step's text, in order; each part draws only what belongs to the step on screen.
PARTS: list[Part] = [
    lambda view: predictions.for_step(view.lesson, view.lab, view.lang, view.step + 1, view.store, view.learner),
    lesson_exercises.part,
    _puzzles,
    lambda view: code.lesson_code(view.lesson, view.lang, view.done, view.store, view.learner) if view.last else None,
    quiz_view.questions_part,
    lambda view: practice.lesson_links(view.lesson.id) if view.last else None,
    quiz_view.final_part,
    _next_lesson,
]


def _drawer(lesson: Lesson, lang: str) -> None:
    """The glossary, the cheat sheet and the sources, in the sidebar: at hand, and out of the script's way."""
    with st.sidebar:
        st.markdown(f"**{t('Lesson drawer')}**")
        _glossary(lang)
        _cheat_sheet(lang)
        _sources(lesson)


def render() -> None:
    lang = session.get().language
    st.title(t("Lessons"))
    try:
        lessons = catalog.lessons()
    except LessonError as exc:
        st.error(t("A lesson could not be loaded:") + f"\n\n{exc}")
        return
    learner, store = who.learner_id(), ProgressStore()
    class_join.render(learner)
    counts = store.counts(learner)
    progress = {x.id: counts.get(x.id, 0) for x in lessons}
    lesson = _pick(lessons, lang, progress)
    lab = _lesson_session(lesson, lang)
    playground.restore_draft(lab, f"lesson:{lesson.id}")
    done = store.done(learner, lesson.id)
    total = len(lesson.exercises) + len(lesson.puzzles) + len(lesson.code) + len(lesson.questions)
    bar = st.empty()  # filled last, so an exercise passed in this very run already counts
    teacher = st.container()  # where the teacher sent the class (filled once the step on screen is known)
    _drawer(lesson, lang)
    script, right = st.columns([5, 7], gap="medium")
    with script.container(key="lesson-script"):
        current = _narrative(lesson, lang)
    view = StepView(lesson, lessons, current, len(lesson.text(lang)), lab, lang, learner, store, set(done))
    follow.record(learner, lesson.id, current + 1)
    with teacher:
        follow.banner(learner, lessons, (lesson.id, current + 1), open_lesson)
    with script.container(key="lesson-practice"):  # below the stage at 768 px (lab_ui/frame/presenter.py)
        for part in PARTS:
            part(view)
    with right.container(key="lesson-stage"):
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
        stage.panel(lab, stage.Slots(code_below=True, insights_in_tabs=True))
    finished = len(store.done(learner, lesson.id))
    bar.progress(finished / total if total else 0.0, text=t("{done} / {total} done", done=finished, total=total))
