"""Code exercises on the Lessons page: the learner writes Python, the lab runs it in a child process with a time and
memory limit and shows each of the lesson's tests; on a class server, a download of the script and its check."""

from __future__ import annotations

import streamlit as st

from agent_core.serving.mode import is_class_server
from agent_core.teaching.lessons import Lesson
from agent_core.teaching.lessons.code import CodeCheck, CodeExercise, check, download
from agent_core.teaching.progress import ProgressStore
from lab_ui.frame.untrusted import md
from lab_ui.words.i18n import mark, t

RUN = mark("Run the checks")
CLASS_OFF = mark(
    "On a class server the lab runs no learner's code: code from one learner must never run beside another's. "
    "Download the exercise, run it on your own computer with `python FILE.py`, and it checks itself."
)
LIMITS = {
    "time": mark("Your code ran out of time (an endless loop?): it was stopped."),
    "memory": mark("Your code used too much memory: it was stopped."),
    "output": mark("Your code printed too much: the output was cut."),
}
RAISED = mark("Your code raised an error on line {line}: {error}")
RAISED_SOMEWHERE = mark("Your code raised an error: {error}")
CASE = {
    "agent": mark("As the tool of a real loop, the model's answer:"),
    "lines": mark("Log lines for the model calls:"),
}
ITERATION = mark("Iteration {n}, logged as:")
# Code reads as code: a fixed-width font, lines not wrapped (the editor scrolls sideways instead).
EDITOR_CSS = """<style>
[class*="st-key-code-editor-"] textarea {font-family: "Source Code Pro", ui-monospace, monospace;
  white-space: pre; overflow-x: auto; font-size: 0.85rem; tab-size: 4;}
</style>"""


def lesson_code(lesson: Lesson, lang: str, done: set[str], store: ProgressStore, learner: str) -> None:
    """Every code exercise of the lesson, each in its own expander."""
    for exercise in lesson.code:
        solved = exercise.key in done
        key = f"code:{lesson.id}:{exercise.id}"
        icon = ":material/check_circle:" if solved else ":material/code:"
        box = st.expander(exercise.title[lang], icon=icon, key=f"{key}:open", on_change="rerun")
        if box.open:
            with box:
                _exercise(lesson, exercise, lang, key, store, learner)


def _exercise(lesson: Lesson, exercise: CodeExercise, lang: str, key: str, store, learner: str) -> None:
    st.markdown(exercise.instructions[lang])
    st.html(EDITOR_CSS)
    editor = st.container(key=f"code-editor-{exercise.id}")
    source = editor.text_area(t("Your code"), exercise.starter, height=360, key=f"{key}:source")
    if is_class_server():
        st.info(t(CLASS_OFF))
        st.download_button(
            t("Download the exercise and its check"),
            download(exercise, lang, source),
            file_name=f"{exercise.id}.py",
            mime="text/x-python",
            key=f"{key}:download",
        )
        return
    if st.button(t(RUN), type="primary", key=f"{key}:run"):
        with st.spinner(t("Working…")):
            fresh = check(exercise, source, lang)
        st.session_state[key] = fresh
        if fresh.passed:
            store.mark(learner, lesson.id, exercise.key)
    shown = st.session_state.get(key)
    if isinstance(shown, CodeCheck):
        _show(exercise, shown, lang)


def _show(exercise: CodeExercise, verdict: CodeCheck, lang: str) -> None:
    if verdict.limit:
        st.error(t(LIMITS[verdict.limit]))
    elif verdict.error:
        line = verdict.error_line
        st.error(
            t(RAISED, line=line, error=md(verdict.error)) if line else t(RAISED_SOMEWHERE, error=md(verdict.error))
        )
    lines = []
    for case in verdict.cases:
        sign = ":green[✓]" if case.ok else ":red[✗]"
        if case.label in CASE:
            label = t(CASE[case.label])
        elif case.label.isdigit():
            label = t(ITERATION, n=case.label)
        else:
            label = f"`{md(case.label)}`"
        lines.append(f"- {sign} {label} {md(case.got) if case.got else '—'}")
    if lines:
        st.markdown("\n".join(lines))
    if verdict.printed:
        st.code(verdict.printed[:4000], language="text")
    if verdict.passed:
        st.success(exercise.success[lang])
    elif verdict.cases or verdict.error:
        st.info(exercise.hint[lang])
