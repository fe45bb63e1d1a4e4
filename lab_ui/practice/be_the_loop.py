"""You are the loop: build the next request from the model's reply; the offline server checks it by the real rules."""

from __future__ import annotations

import json

import streamlit as st

from agent_core.model import Limits, RunConfig
from agent_core.teaching.learn import loop_player
from agent_core.teaching.learn.loop_player import LoopGame, Move, ResultRow
from agent_core.tools.catalog import default_specs
from lab_ui.frame.untrusted import code_span, md
from lab_ui.words.i18n import current_language, mark, t
from lab_ui.words.learn_text import say

KEY = "practice:loop"
TASK = mark("What's the weather in Oslo, and what is 2 to the power of 16?")
MADE_UP_ID = "toolu_made_up"
EMPTY = mark("(empty)")


def new_game() -> LoopGame:
    tools = default_specs(["get_weather", "calculate"])
    # The built-in tools answer in the learner's language, as in the Playground.
    config = RunConfig(task=t(TASK), tools=tools, limits=Limits(max_steps=6), language=current_language())
    return loop_player.start(config)


def _game() -> LoopGame:
    if KEY not in st.session_state:
        st.session_state[KEY] = new_game()
    return st.session_state[KEY]


def render() -> None:
    game = _game()
    st.markdown(
        t(
            "You play the loop. The model answered; the program ran the tools. Now build the next request: "
            "what to append, which tool_result goes under which id, in which order, and whether it is an error. "
            "The offline server checks it with the real API's rules."
        )
    )
    if st.button(t("Start over"), key="loop-restart"):
        st.session_state[KEY] = new_game()
        st.rerun()
    _last_outcome(game)
    st.subheader(t("The model's reply"))
    st.json((game.reply or {}).get("content") or [], expanded=2)
    if game.finished:
        reply = game.reply or {}  # a finished game has the reply that ended it
        st.success(t("stop_reason is {reason}: the loop is over. The model's answer:", reason=reply["stop_reason"]))
        st.markdown(md("".join(b.get("text", "") for b in reply["content"] if b.get("type") == "text")))
        return
    _tool_outputs(game)
    move = _move_form(game)
    with st.expander(t("The messages your request will send")):
        st.json(loop_player.build_messages(game, move), expanded=2)
    send, show = st.columns(2)
    if send.button(t("Send this request"), type="primary", key="loop-send", width="stretch"):
        loop_player.play(game, move)
        st.rerun()
    # A callback: it sets the widgets' values before they are drawn again.
    show.button(t("Fill in the right answer"), key="loop-show", width="stretch", on_click=_fill_right, args=(game,))


def _last_outcome(game: LoopGame) -> None:
    if not game.history:
        return
    last = game.history[-1]
    if not last.accepted:
        st.error(t("The server rejected your request: {status} {message}", status=last.status, message=md(last.error)))
        return
    st.success(t("The server accepted your request; the model answered."))
    for note in last.notes:
        st.warning(say(note))


def _tool_outputs(game: LoopGame) -> None:
    st.subheader(t("What the tools returned"))
    for run in game.tool_runs:
        flag = " · :orange[is_error]" if run.is_error else ""
        call = code_span(f"{run.name}({json.dumps(run.input, ensure_ascii=False)})")
        st.markdown(f"{code_span(run.tool_use_id)} · {call} → {md(run.output)}{flag}")


def _move_form(game: LoopGame) -> Move:
    st.subheader(t("Your next request"))
    include = st.checkbox(t("Append the model's reply (role assistant)"), value=True, key=_key(game, "include"))
    ids = [r.tool_use_id for r in game.tool_runs] + [MADE_UP_ID]
    outputs = [EMPTY] + [r.output for r in game.tool_runs]
    count = st.number_input(
        t("tool_result blocks"),
        min_value=0,
        max_value=len(game.tool_runs) + 1,
        value=len(game.tool_runs),
        key=_key(game, "n"),
    )
    rows = []
    for i in range(int(count)):
        cols = st.columns([3, 5, 2], vertical_alignment="bottom")
        tool_id = cols[0].selectbox(
            t("Block {n}: tool_use_id", n=i + 1), ids, index=min(i, len(ids) - 1), key=_key(game, f"id-{i}")
        )
        content = cols[1].selectbox(
            t("content"), outputs, key=_key(game, f"content-{i}"), format_func=lambda o: t(EMPTY) if o == EMPTY else o
        )
        is_error = cols[2].checkbox("is_error", key=_key(game, f"err-{i}"))
        rows.append(ResultRow(tool_id, "" if content == EMPTY else content, is_error))
    text = st.text_input(t("Text to add in the same message (optional)"), key=_key(game, "text"))
    text_first = st.checkbox(t("Put the text before the tool results"), key=_key(game, "text-first"))
    split = st.checkbox(t("Send each tool_result in its own user message"), key=_key(game, "split"))
    prefill = st.text_input(
        t("Start the model's next reply for it (a prefill, optional)"),
        key=_key(game, "prefill"),
        help=t("Sent as a last assistant message; newer models refuse it."),
    )
    return Move(include, rows, text, text_first, split, prefill)


def _fill_right(game: LoopGame) -> None:
    right = loop_player.suggested(game)
    st.session_state[_key(game, "include")] = True
    st.session_state[_key(game, "n")] = len(right.results)
    for i, row in enumerate(right.results):
        st.session_state[_key(game, f"id-{i}")] = row.tool_use_id
        st.session_state[_key(game, f"content-{i}")] = row.content
        st.session_state[_key(game, f"err-{i}")] = row.is_error
    for name, value in (("text", ""), ("text-first", False), ("split", False), ("prefill", "")):
        st.session_state[_key(game, name)] = value


def _key(game: LoopGame, name: str) -> str:
    # Keys follow the conversation, so a widget never keeps a choice made for an earlier reply.
    return f"loop-{len(game.messages)}-{name}"
