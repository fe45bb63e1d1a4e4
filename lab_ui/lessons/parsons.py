"""Assemble the loop, on the Lessons page: the shuffled lines, a slot per line of the program (which line, how deep),
then the assembled program runs on the lesson's stage, a correct one as the lesson's loop, a known wrong one with
the deliberate bug it stands for (agent_core/teaching/lessons/parsons.py)."""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from agent_core.teaching.lessons import Lesson
from agent_core.teaching.lessons.parsons import CODE_LANGUAGES, Puzzle, Verdict, assembled, judge, run_patch
from agent_core.teaching.progress import ProgressStore
from lab_ui.controller.click import Action
from lab_ui.controller.session import LabSession
from lab_ui.playground import step_bar
from lab_ui.words.i18n import mark, t

EMPTY = ""  # a slot left empty
CODE_NAMES = {"python": "Python", "typescript": "TypeScript"}
INDENTS = (0, 1, 2, 3)
WRONG = mark("Not yet: line {n} is not what the loop needs there (its line or its indent).")
SHORT = mark("Not yet: the program stops after line {n}; a line is missing.")
RAN = mark("Your program is on the stage now: read the run there (HTTP attempts, Sequence, Tools).")
NOT_RUN = mark(
    "No run for this one: the lab has no deliberate bug that behaves like it, and the API's answer is above."
)


@dataclass
class Attempt:
    """The learner's last checked arrangement of one puzzle, kept for this tab."""

    code: str
    arrangement: list[tuple[str, int]]
    verdict: Verdict


def lesson_puzzles(lesson: Lesson, lab: LabSession, lang: str, done: set[str], store: ProgressStore, learner: str):
    """Every "assemble the loop" exercise of the lesson, each in its own expander."""
    for puzzle in lesson.puzzles:
        solved = f"puzzle:{puzzle.id}" in done
        key = f"parsons:{lesson.id}:{puzzle.id}"
        if st.session_state.pop(f"{key}:reopen", False):
            # A check just ran the program: the expander (its icon now a tick) must stay open on the verdict, which a
            # browser would otherwise draw closed, as a new expander.
            st.session_state[f"{key}:open"] = True
        box = st.expander(
            puzzle.title[lang],
            icon=":material/check_circle:" if solved else ":material/extension:",  # emoji need an emoji font
            key=f"{key}:open",
            on_change="rerun",
        )
        if box.open:  # dozens of widgets: built only while the learner has it open
            with box:
                _puzzle(lesson, puzzle, lab, lang, key, store, learner)


def _puzzle(lesson: Lesson, puzzle: Puzzle, lab: LabSession, lang: str, key: str, store, learner: str) -> None:
    st.markdown(puzzle.instructions[lang])
    last = st.session_state.get(key)
    code = st.radio(
        t("Code language"),
        CODE_LANGUAGES,
        index=CODE_LANGUAGES.index(last.code) if isinstance(last, Attempt) else 0,  # the last checked one
        format_func=CODE_NAMES.__getitem__,
        horizontal=True,
        key=f"{key}:code",
    )
    with st.expander(t("The lines above the loop (given)"), expanded=False):
        st.code(puzzle.program.prelude[code], language=code, wrap_lines=True)
    pieces = puzzle.pieces(code)
    st.caption(t("The lines, shuffled (some do not belong):"))
    lettered = "\n".join(f"{chr(65 + n)}  {p.text.strip()}" for n, p in enumerate(pieces))
    st.code(lettered, language=code, wrap_lines=True)
    labels = {p.id: f"{chr(65 + n)}  {p.text.strip()}" for n, p in enumerate(pieces)}
    slots = len(puzzle.program.solutions[code][0]) + 1
    with st.form(key=f"{key}:{code}:form", border=False):
        arrangement = []
        for n in range(slots):
            left, right = st.columns([5, 2])  # room for the indent the learner picked
            line = left.selectbox(
                t("Line {n}", n=n + 1),
                [EMPTY, *labels],
                format_func=lambda i: t("(empty)") if i == EMPTY else labels[i],
                key=f"{key}:{code}:line:{n}",
            )
            depth = right.selectbox(t("Indent"), INDENTS, key=f"{key}:{code}:indent:{n}")
            if line != EMPTY:
                arrangement.append((line, int(depth)))
        checked = st.form_submit_button(t("Check and run my program"), type="primary", key=f"{key}:{code}:check")
    if checked:
        new = Attempt(code, arrangement, judge(puzzle, code, arrangement))
        st.session_state[key] = new
        st.session_state[f"{key}:reopen"] = True
        if new.verdict.kind == "correct":
            store.mark(learner, lesson.id, f"puzzle:{puzzle.id}")
        _run_on_stage(lesson, puzzle, lab, lang, new.verdict)
    shown = st.session_state.get(key)
    if isinstance(shown, Attempt) and shown.code == code:
        _show(puzzle, shown, lang)


def _show(puzzle: Puzzle, attempt: Attempt, lang: str) -> None:
    verdict = attempt.verdict
    st.code(assembled(puzzle, attempt.code, attempt.arrangement), language=attempt.code, wrap_lines=True)
    if verdict.kind == "correct":
        st.success(puzzle.success[lang] + "\n\n" + t(RAN))
    elif verdict.kind == "fault" and verdict.fault is not None:
        st.warning(verdict.fault.explain[lang] + "\n\n" + t(RAN if verdict.fault.patch is not None else NOT_RUN))
    else:
        where = verdict.first_wrong or 1
        st.error(t(SHORT, n=where - 1) if where > verdict.placed else t(WRONG, n=where))
        st.info(puzzle.hint[lang])


def _run_on_stage(lesson: Lesson, puzzle: Puzzle, lab: LabSession, lang: str, verdict: Verdict) -> None:
    """Load the program's run onto the lesson's stage and run it to the end (a wrong order runs nothing)."""
    patch = run_patch(puzzle, verdict)
    if patch is None:
        return
    config = lesson.scenario_config(lang, patch)
    config.provider, config.base_url = lab.config.provider, lab.config.base_url  # the learner's model, as set
    lab.config = config
    lab.start()
    step_bar.click(lab, Action.END)  # offline: runs now; a real model: handed to a full rerun with its Cancel
    st.rerun()
