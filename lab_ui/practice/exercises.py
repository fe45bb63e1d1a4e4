"""Three exercises checked in the browser, with no code of the learner's run: order, design a tool, fill a result."""

from __future__ import annotations

import json
import random

import streamlit as st

from agent_core.teaching.learn import exercises as ex
from lab_ui.controller.session import get as lab_session
from lab_ui.frame.untrusted import code_span, md
from lab_ui.words.i18n import mark, t
from lab_ui.words.learn_text import say

# The task as the learner reads it (the check itself sends agent_core's English one; the rules do not care).
FILL_TASK = mark("What's the weather in Olso?")
TOOL_NAME = "get_stock_price"
TOOL_DESCRIPTION = mark("Gets a stock price.")  # a weak start, in the learner's language
TOOL_SCHEMA = json.dumps({"type": "object", "properties": {"ticker": {"type": "string"}}}, indent=2)


def render_order() -> None:
    st.markdown(
        t(
            "Click the loop's lines in the order the program runs them. The check says which line is out of "
            "place and why."
        )
    )
    shuffled = [line_id for line_id, _ in ex.LOOP_LINES]
    random.Random(7).shuffle(shuffled)  # the same puzzle for everyone: a class can discuss it together
    order = st.multiselect(
        t("Lines, in order"), shuffled, format_func=lambda i: ex.line_text(i).strip(), key="order-lines"
    )
    if order:
        st.code("\n".join(ex.line_text(i) for i in order), language="python")
    if st.button(t("Check the order"), type="primary", key="order-check"):
        result = ex.check_order(order)
        if result.correct:
            st.success(t("Right: this is the loop."))
        elif result.position is None:
            st.warning(say(result.why) if result.why else "")
        else:
            why = say(result.why) if result.why else ""
            st.warning(t("Line {n} is not right yet.", n=result.position) + " " + why)


def render_tool() -> None:
    lang = lab_session().language
    question = ex.TARGET_QUESTIONS.get(lang, ex.TARGET_QUESTIONS["en"])
    st.markdown(
        t(
            "Write a tool the model will pick for the question below. It is checked: a valid JSON Schema of type "
            "object, a description that says what the tool does, when to use it and what each parameter means, "
            "and then the simulated model is asked the question with your tool and two others."
        )
    )
    st.info(t("Target question: {question}", question=question))
    name = st.text_input(t("Tool name"), value=TOOL_NAME, key="tool-name")
    description = st.text_area(t("Description"), value=t(TOOL_DESCRIPTION), height=110, key="tool-description")
    schema = st.text_area("input_schema (JSON Schema)", value=TOOL_SCHEMA, height=180, key="tool-schema")
    if st.button(t("Check my tool"), type="primary", key="tool-check"):
        result = ex.check_tool(name, description, schema, lang)
        _checklist(result.checks)
        if result.picked_input is not None:
            st.caption(
                t(
                    "The model called {tool} with {input}.",
                    tool=code_span(result.picked),
                    input=code_span(json.dumps(result.picked_input, ensure_ascii=False)),
                )
            )
        (st.success if result.passed else st.warning)(
            t("All checks pass.") if result.passed else t("Not yet: fix the checks marked ✗.")
        )


def render_fill() -> None:
    st.markdown(
        t(
            "The model asked for a tool, and the tool failed. Write the content of the next user message (a JSON "
            "list of blocks) that reports the result. The offline server checks it with the API's rules; then the "
            "id, the content and is_error are checked."
        )
    )
    st.caption(t("The task: {task}", task=t(FILL_TASK)))
    st.markdown(t("**The model's reply**"))
    st.json(ex.FILL_REPLY["content"])
    st.markdown(t("**What get_weather returned** (it failed):") + " " + code_span(ex.FILL_OUTPUT))
    text = st.text_area(t("The user message's content (JSON)"), value=ex.FILL_TEMPLATE, height=200, key="fill-json")
    if st.button(t("Check my tool_result"), type="primary", key="fill-check"):
        result = ex.check_fill(text)
        if result.server_error:
            st.error(t("The server rejects it: 400 {message}", message=md(result.server_error)))
            return
        _checklist(result.checks)
        (st.success if result.passed else st.warning)(
            t("All checks pass.") if result.passed else t("Not yet: fix the checks marked ✗.")
        )


def _checklist(checks) -> None:
    st.markdown("\n".join(f"- {':green[✓]' if ok else ':red[✗]'} {say(item)}" for item, ok in checks))
