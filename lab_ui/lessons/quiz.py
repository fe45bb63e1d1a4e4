"""Check questions and the final quiz: the first answer is recorded and counts; the explanation comes after it."""

from __future__ import annotations

import streamlit as st

from agent_core.teaching.lessons import Lesson
from agent_core.teaching.lessons.quiz import FINAL_QUIZ, QuizItem, final_quiz, first_answers, lesson_quiz, score
from agent_core.teaching.progress import ProgressStore
from lab_ui.lessons.steps import StepView
from lab_ui.words.i18n import t

ICONS = {None: ":material/help:", True: ":material/check_circle:", False: ":material/cancel:"}


def _item(item: QuizItem, quiz_id: str, lang: str, recorded, store: ProgressStore, learner: str) -> None:
    q = item.question
    options = [o.text[lang] for o in q.options]
    first = recorded.get(item.key)
    just = f"q-answered:{quiz_id}:{item.key}"  # answered in this tab: stays open on the explanation
    icon = ICONS[None if first is None else first.correct]
    with st.expander(q.question[lang], expanded=first is None or just in st.session_state, icon=icon):
        choice = st.radio(
            t("Your answer"),
            range(len(options)),
            index=None if first is None else first.choice,
            format_func=options.__getitem__,
            # Answered, a widget of its own: the open one's state (its click, cleared by the rerun) showed no
            # choice at all, so the learner could not see which answer they had given.
            key=f"q:{quiz_id}:{item.key}:{lang}" + ("" if first is None else ":answered"),
            disabled=first is not None,  # the first answer counts; it cannot be changed after the explanation
        )
        if first is None and choice is not None:
            correct = q.options[choice].correct
            store.record_answer(learner, quiz_id, item.key, choice, correct)
            st.session_state[just] = True
            st.rerun()
        if first is None:
            return
        right = next(i for i, o in enumerate(q.options) if o.correct)
        if first.correct:
            st.success(t("Correct.") + " " + q.explanation[lang])
        else:
            st.error(t("Not quite. The right answer: {answer}", answer=options[right]) + "\n\n" + q.explanation[lang])


def _quiz(items: list[QuizItem], quiz_id: str, lang: str, store: ProgressStore, learner: str) -> None:
    recorded = first_answers(store.answers([learner]), quiz_id)
    result = score(items, recorded)
    st.caption(
        t("Score (first answers only): {right} of {total}", right=result.right, total=result.total)
        + (
            " · " + t("{left} still to answer", left=result.total - result.answered)
            if result.answered < result.total
            else ""
        )
    )
    for item in items:
        _item(item, quiz_id, lang, recorded, store, learner)


def lesson_questions(
    lesson: Lesson, lang: str, store: ProgressStore, learner: str, step: StepView | None = None
) -> None:
    """A lesson's check questions with its score (only the step's own, under a step of the script)."""
    items = [i for i in lesson_quiz(lesson) if step is None or step.shows(i.question.step)]
    if not items:
        return
    st.markdown(f"#### {t('Check questions')}")
    _quiz(items, lesson.id, lang, store, learner)
    answered = first_answers(store.answers([learner]), lesson.id)
    for key in answered:  # the lesson's "done" count: a question answered (right or wrong) is done
        store.mark(learner, lesson.id, f"question:{key}")
        if step is not None:
            step.done.add(f"question:{key}")


def questions_part(view: StepView) -> None:
    """The check questions of the step on screen (a lesson's questions without a step come at its last step)."""
    lesson_questions(view.lesson, view.lang, view.store, view.learner, view)


def final(lessons: tuple[Lesson, ...], lang: str, store: ProgressStore, learner: str) -> None:
    """The cumulative final quiz: one question from every lesson."""
    with st.expander(t("Final quiz: one question from every lesson"), expanded=False):
        _quiz(final_quiz(lessons), FINAL_QUIZ, lang, store, learner)


def final_part(view: StepView) -> None:
    """The final quiz, at the end of every lesson's script."""
    if view.last:
        final(view.lessons, view.lang, view.store, view.learner)
