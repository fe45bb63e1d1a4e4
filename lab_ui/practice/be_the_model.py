"""You are the model: write the assistant's reply and watch the real loop, tools and server handle it."""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field

import streamlit as st

from agent_core.model import Limits, Run, RunConfig
from agent_core.teaching.learn import human
from agent_core.teaching.learn.human import HumanReply, ReplyError, Verdict
from agent_core.tools.catalog import default_specs
from agent_core.vocab import StopKind
from lab_ui.frame.untrusted import code_span, md
from lab_ui.words.catalogue import stop_text
from lab_ui.words.i18n import current_language, mark, t
from lab_ui.words.learn_text import say

KEY = "practice:model"
TOOLS = ["get_weather", "calculate"]
TASK = mark("What's the weather in Oslo, and what is 2 to the power of 16?")
AS_THE_API = mark("as the API would")
EXAMPLE = HumanReply(
    [
        {"type": "text", "text": "Let me look that up."},
        {"type": "tool_use", "name": "get_weather", "input": {"city": "Oslo"}},
    ]
)


@dataclass
class ModelGame:
    """The run the learner answers as the model, the runs before each reply (for undo), the server's verdict."""

    run: Run
    before: list[Run] = field(default_factory=list)
    verdict: Verdict | None = None


def new_game(task: str | None = None) -> ModelGame:
    config = RunConfig(
        task=task or t(TASK), tools=default_specs(TOOLS), limits=Limits(max_steps=6), language=current_language()
    )
    return ModelGame(Run(config=config))


def _game() -> ModelGame:
    if KEY not in st.session_state:
        st.session_state[KEY] = new_game()
    return st.session_state[KEY]


def render() -> None:
    game = _game()
    st.markdown(
        t(
            "You play the model. Read what the program sends, write the assistant's reply, and watch the real "
            "loop run it: stop_reason, the tools, the tool_result blocks, and the server's verdict on the next "
            "request."
        )
    )
    with st.expander(t("The task and the tools")):
        task = st.text_input(t("Task"), value=game.run.config.task, key="model-task")
        st.caption(t("Tools offered: {tools}", tools=", ".join(TOOLS)))
        if st.button(t("Start over"), key="model-restart"):
            st.session_state[KEY] = new_game(task)
            st.rerun()
    _history(game)
    run = game.run
    if run.stop is not None:
        _stopped(game)
        return
    _verdict(game.verdict)
    _editor(game)


def _history(game: ModelGame) -> None:
    run = game.run
    st.subheader(t("What the model receives"))
    request = run.turns[-1].request if run.turns and run.turns[-1].request else None
    messages = request["messages"] if request else run.messages
    st.caption(t("{n} message(s) in the request; each turn the whole history is sent again.", n=len(messages)))
    st.json(messages, expanded=3)
    for turn in run.turns:
        if not turn.response:
            continue
        with st.container(border=True):
            st.markdown(t("**Turn {n}**: stop_reason `{reason}`", n=turn.index, reason=turn.stop_reason))
            for tool in turn.tools:
                flag = " · :orange[is_error]" if tool.is_error else ""
                call = code_span(f"{tool.name}({json.dumps(tool.input, ensure_ascii=False)})")
                st.markdown(f"{call} → {md(tool.output)}{flag}")


def _stopped(game: ModelGame) -> None:
    run = game.run
    kind = run.stop.kind if run.stop else None  # called once the run has stopped
    if kind == StopKind.API_ERROR:
        st.error(t("The server rejected the request: {message}", message=md(stop_text(run))))
        st.caption(t("The API checks the whole history on every call, your earlier replies included."))
    elif kind == StopKind.INVALID_REPLY:
        st.error(t("The loop stopped before running any tool: your reply breaks a rule the API enforces."))
        _verdict(game.verdict)
    else:
        st.success(t("**Loop stopped** ({kind}).", kind=kind))
        if run.final_text:
            st.markdown(md(run.final_text))
    if game.before and st.button(t("Take back my last reply"), key="model-undo"):
        game.run, game.verdict = game.before.pop(), None
        st.rerun()


def _verdict(verdict: Verdict | None) -> None:
    if verdict is None:
        return
    if verdict.ok:
        st.success(t("The server accepts the next request ({n} input tokens).", n=verdict.input_tokens))
    else:
        st.error(
            t(
                "The server rejects the next request: {status} {message}",
                status=verdict.status,
                message=md(verdict.message),
            )
        )


def _editor(game: ModelGame) -> None:
    st.subheader(t("Your reply"))
    way = st.segmented_control(
        t("Write it as"),
        ["form", "json"],
        default="form",
        key="model-way",
        format_func={"form": t("a form"), "json": "JSON"}.__getitem__,
    )
    try:
        if way == "json":
            text = st.text_area("JSON", value=EXAMPLE.to_json(), height=260, key="model-json")
            ready = st.button(t("Send my reply"), type="primary", key="model-send-json")
            reply = human.from_json(text) if ready else None
        else:
            reply = _form()
    except ReplyError as exc:
        st.error(say(exc.problem))
        return
    if reply is not None:
        game.before.append(copy.deepcopy(game.run))
        human.play(game.run, reply)
        game.verdict = human.referee(game.run)
        st.rerun()


def _form() -> HumanReply | None:
    text = st.text_area(t("Text (optional)"), key="model-text", height=80)
    count = st.number_input(t("Tool calls"), min_value=0, max_value=3, value=1, key="model-count")
    calls = []
    for i in range(int(count)):
        cols = st.columns([2, 3, 2])
        name = cols[0].text_input(t("Tool {n}: name", n=i + 1), value=TOOLS[i % len(TOOLS)], key=f"model-name-{i}")
        given = '{"city": "Oslo"}' if i == 0 else '{"expression": "2**16"}'
        tool_input = cols[1].text_input(t("Input (JSON)"), value=given, key=f"model-input-{i}")
        tool_id = cols[2].text_input(t("id (optional)"), key=f"model-id-{i}", placeholder="toolu_…")
        calls.append((name, tool_input, tool_id))
    stop = st.selectbox(
        "stop_reason",
        [AS_THE_API, *human.STOP_REASONS],
        key="model-stop",
        format_func=lambda s: t(AS_THE_API) if s == AS_THE_API else s,
    )
    if not st.button(t("Send my reply"), type="primary", key="model-send-form"):
        return None
    return human.from_form(text, calls, None if stop == AS_THE_API else stop)
