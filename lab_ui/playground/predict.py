"""Predict, then reveal: a small form above the Playground's steps, and the scored reveal once the turn is done."""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from agent_core.teaching.learn import predict
from agent_core.teaching.learn.predict import Appended, Prediction, Reveal
from lab_ui.controller.session import LabSession
from lab_ui.words.i18n import mark, t
from lab_ui.words.learn_text import say

NO_GUESS = "—"
APPENDED_WORDS = {
    Appended.REPLY_AND_RESULTS: mark("the reply, then one user message with the tool results"),
    Appended.REPLY_ONLY: mark("only the reply"),
    Appended.NOTHING: mark("nothing"),
}
PART_WORDS = {"stop_reason": "stop_reason", "tool": mark("tool"), "appended": mark("appended")}


@dataclass
class Held:
    """One workspace's prediction (locked before the steps) and its latest reveal."""

    run_id: str | None
    prediction: Prediction | None = None
    reveal: Reveal | None = None


def _held(lab: LabSession) -> Held:
    key = f"predict:{id(lab)}"
    run_id = lab.run.id if lab.run else None
    held = st.session_state.get(key)
    if held is None or (held.run_id is not None and run_id is not None and held.run_id != run_id):
        held = st.session_state[key] = Held(run_id)  # a new run (Reset, a fork, a reopened run): start afresh
    held.run_id = held.run_id or run_id  # a prediction made before the first click belongs to the run it started
    return held


def panel(lab: LabSession) -> None:
    """Reveal a finished prediction, then offer to predict the next model call."""
    held = _held(lab)
    run = lab.run
    if held.prediction is not None and run is not None and predict.ready(run, held.prediction):
        held.reveal, held.prediction = predict.reveal(run, held.prediction), None
    if held.reveal is not None:
        _show_reveal(held.reveal)
    halted = bool(run and (run.stop or run.done)) or lab.replay
    if halted:
        return
    box = st.expander(
        t("Predict, then reveal"), expanded=held.prediction is not None, key="predict-panel", on_change="rerun"
    )
    if box.open:  # built only while open: it is redrawn on every click, and most learners keep it closed
        with box:
            _form(lab, held)


def _form(lab: LabSession, held: Held) -> None:
    turn = predict.target_turn(lab.run)
    if held.prediction is not None:
        st.caption(t("Your prediction for turn {n} is locked in. Step on to see it scored.", n=held.prediction.turn))
        return
    st.caption(t("Before you step: what will the model's call in turn {n} bring?", n=turn))
    cfg = lab.run.config if lab.run else lab.config
    tools = [NO_GUESS, predict.NO_TOOL, *[tool.name for tool in cfg.tools]]
    with st.form(key=f"predict-form-{id(lab)}", border=False):
        cols = st.columns(3)
        # Keyed containers (tests find the boxes by key); keyless boxes start over when their options change.
        stop = (
            cols[0]
            .container(key="predict-stop")
            .selectbox("stop_reason", [NO_GUESS, *predict.PREDICTABLE_STOP_REASONS])
        )
        tool = (
            cols[1]
            .container(key="predict-tool")
            .selectbox(
                t("Which tool"), tools, format_func=lambda name: t("no tool") if name == predict.NO_TOOL else name
            )
        )
        appended = (
            cols[2]
            .container(key="predict-appended")
            .selectbox(
                t("What gets appended"),
                [NO_GUESS, *APPENDED_WORDS],
                format_func=lambda value: value if value == NO_GUESS else t(APPENDED_WORDS[value]),
            )
        )
        if st.form_submit_button(t("Lock in my prediction"), key="predict-lock"):
            held.prediction = Prediction(
                turn,
                None if stop == NO_GUESS else stop,
                None if tool == NO_GUESS else tool,
                None if appended == NO_GUESS else Appended(appended),
            )
            held.reveal = None
            st.rerun()


def _show_reveal(reveal: Reveal) -> None:
    if reveal.unscored is not None:
        st.info(say(reveal.unscored))
        return
    if not reveal.verdicts:
        return
    lines = [t("**Turn {n}: {score} of {total} right**", n=reveal.turn, score=reveal.score, total=len(reveal.verdicts))]
    for verdict in reveal.verdicts:
        mark_ = ":green[✓]" if verdict.correct else ":red[✗]"
        part = PART_WORDS[verdict.part]
        guess, actual = _word(verdict.part, verdict.guessed), _word(verdict.part, verdict.actual)
        said = (
            t("you said {guess}.", guess=guess)
            if verdict.correct
            else t("you said {guess}, it was {actual}.", guess=guess, actual=actual)
        )
        lines.append(f"- {mark_} {t(part) if part != 'stop_reason' else part}: {said} {say(verdict.why)}")
    box = st.success if reveal.score == len(reveal.verdicts) else st.warning
    box("\n".join(lines))


def _word(part: str, value: str) -> str:
    if part == "tool" and value == predict.NO_TOOL:
        return t("no tool")
    if part == "appended":
        words = {**APPENDED_WORDS, Appended.SOMETHING_ELSE: mark("something else")}
        return t(words[Appended(value)])
    return f"`{value}`"
