"""Predict, then reveal, in a lesson's step: the learner locks in an answer before running; the first answer is
recorded (the teacher's board counts it), then the lesson's own run shows what really happens."""

from __future__ import annotations

import json

import streamlit as st

from agent_core.loop.stepper import run_task
from agent_core.teaching.lessons import Lesson, load_lesson
from agent_core.teaching.lessons.predictions import Prediction
from agent_core.teaching.progress import ProgressStore
from lab_ui.controller.session import LabSession
from lab_ui.words.i18n import mark, t

TITLE = mark("Predict, then reveal")
LOCK = mark("Lock in my prediction")
SAID = mark("You said {guess}; the run shows {actual}.")
RIGHT = mark("Right: the run shows {actual}.")
WATCH = mark("Press **Run to end** and watch it happen on the stage.")
SEEN = mark("Your run on the stage shows it too.")


@st.cache_data(show_spinner=False, max_entries=256)
def reference_answer(folder: str, prediction_id: str, lang: str) -> int | None:
    """The option the lesson's own offline run bears out (deterministic: the same for every learner)."""
    lesson = load_lesson(folder)
    prediction = next(p for p in lesson.predictions if p.id == prediction_id)
    change = lesson.exercise(prediction.exercise).change if prediction.exercise else None
    config = lesson.scenario_config(lang, change)
    return prediction.answer(run_task(config))


def for_step(lesson: Lesson, lab: LabSession, lang: str, step: int, store: ProgressStore, learner: str) -> None:
    """The prediction boxes that belong to this (1-based) step of the narrative."""
    here = [p for p in lesson.predictions if p.step == step]
    if not here:
        return
    first = {a.question: a for a in store.answers([learner]) if a.lesson == lesson.id}
    for prediction in here:
        with st.container(border=True, key=f"predict:{lesson.id}:{prediction.id}"):
            _box(lesson, lab, lang, prediction, first.get(prediction.key), store, learner)


def _box(lesson: Lesson, lab: LabSession, lang: str, prediction: Prediction, answered, store, learner: str) -> None:
    st.markdown(f"**{t(TITLE)}** · {prediction.question[lang]}")
    options = [o.text(lang) for o in prediction.options]
    choice = st.radio(
        t("Your answer"),
        range(len(options)),
        index=None if answered is None else answered.choice,
        format_func=options.__getitem__,
        horizontal=True,
        key=f"predict:{lesson.id}:{prediction.id}:{lang}",
        disabled=answered is not None,  # the first answer counts
        label_visibility="collapsed",
    )
    if answered is None:
        if st.button(t(LOCK), key=f"predict-lock:{lesson.id}:{prediction.id}", disabled=choice is None):
            right = reference_answer(str(lesson.path), prediction.id, lang)
            store.record_answer(learner, lesson.id, prediction.key, int(choice or 0), choice == right)
            st.rerun()
        return
    right = reference_answer(str(lesson.path), prediction.id, lang)
    actual = options[right] if right is not None else "?"
    if answered.choice == right:
        st.success(t(RIGHT, actual=actual) + " " + prediction.explanation[lang])
    else:
        st.warning(t(SAID, guess=options[answered.choice], actual=actual) + " " + prediction.explanation[lang])
    own = lab.run is not None and _is_lessons_own(lesson, lab, lang, prediction)
    st.caption(t(SEEN) if own and prediction.ready(lab.run) else t(WATCH))


def _is_lessons_own(lesson: Lesson, lab: LabSession, lang: str, prediction: Prediction) -> bool:
    """Whether the stage's run is the run the prediction is about (the learner may have changed the scenario)."""
    assert lab.run is not None
    change = lesson.exercise(prediction.exercise).change if prediction.exercise else None
    wanted = lesson.scenario_config(lang, change)
    wanted.provider, wanted.base_url = lab.run.config.provider, lab.run.config.base_url
    return json.dumps(_plain(wanted), sort_keys=True, default=str) == json.dumps(
        _plain(lab.run.config), sort_keys=True, default=str
    )


def _plain(config) -> dict:
    from dataclasses import asdict

    return asdict(config)
