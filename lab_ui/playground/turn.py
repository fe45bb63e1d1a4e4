"""The selected turn: request and response (pretty and raw), HTTP attempts, tools, decision and diff."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence

import streamlit as st

from agent_core.model import Exchange, Run, Turn
from agent_core.report.explain import request_diff
from agent_core.vocab import STOP_TABLE, UNKNOWN_STOP_ICON
from agent_core.wire.openai_form import to_openai_messages, to_openai_response
from lab_ui.frame import presenter
from lab_ui.frame.untrusted import code_span, md, model_words_md
from lab_ui.words.catalogue import decision_text, error_markdown
from lab_ui.words.i18n import mark, t

# Material icons (the font Streamlit ships), not agent_core's emoji: without an emoji font those are empty boxes.
ICONS = {
    "tool_use": ":material/build:",
    "end_turn": ":material/check_circle:",
    "max_tokens": ":material/content_cut:",
    "stop_sequence": ":material/stop_circle:",
    "pause_turn": ":material/pause_circle:",
    "refusal": ":material/block:",
    "model_context_window_exceeded": ":material/data_usage:",
}
BADGES = {reason: (ICONS.get(reason, ":material/help:"), info.colour) for reason, info in STOP_TABLE.items()}


TABS = (
    mark("Request"),
    mark("Response"),
    mark("Raw JSON"),
    mark("HTTP attempts"),
    mark("Tools"),
    mark("Diff"),
    mark("OpenAI form"),
)


def badge(stop_reason: str | None, error: bool = False) -> tuple[str, str, str]:
    """(icon, colour, label) for a stop_reason badge."""
    if error:
        return ":material/warning:", "red", t("API error")
    if stop_reason is None:
        return "…", "gray", t("in progress")
    icon, colour = BADGES.get(stop_reason, (":material/help:", UNKNOWN_STOP_ICON[1]))
    return icon, colour, md(stop_reason) if stop_reason not in BADGES else stop_reason


def pretty_body(body: bytes) -> str:
    """The exact bytes, pretty-printed when they are JSON (server-sent events and text stay as they are)."""
    text = body.decode("utf-8", errors="replace")
    try:
        return json.dumps(json.loads(text), indent=2, ensure_ascii=False)
    except ValueError:
        return text


def _exchange(x: Exchange, n: int) -> None:
    status = x.status if x.status is not None else t("no response")
    label = t(
        "Attempt {n} · retry #{retry} · HTTP {status} · {ms} ms",
        n=n,
        retry=x.retry,
        status=status,
        ms=f"{x.duration_ms:.0f}",
    )
    if x.request_id:
        label += f" · {x.request_id}"
    with st.expander(label, expanded=False):
        if x.error:
            st.error(md(x.error))
        st.markdown(f"**{md(x.method)}** {code_span(x.url)}")
        c1, c2 = st.columns(2)
        c1.caption(t("Request headers (keys redacted)"))
        c1.json(x.request_headers, expanded=False)
        c2.caption(t("Response headers"))
        c2.json(x.response_headers, expanded=False)


def _request(turn: Turn) -> None:
    body = turn.request or {}
    st.caption(
        t(
            "{messages} messages · {tools} tools · the whole history is sent every turn",
            messages=len(body.get("messages", [])),
            tools=len(body.get("tools", [])),
        )
    )
    st.json(body, expanded=2)


def _response(turn: Turn) -> None:
    if turn.error:
        st.error(error_markdown(turn.error))
        if turn.error.body:
            st.code(pretty_body(turn.error.body.encode()), language="json")
        return
    if turn.response is None:
        st.info(t("No response yet: click **Next phase** to call the model."))
        return
    for block in turn.response.get("content", []):
        kind = block.get("type")
        if kind == "text":
            st.markdown(f"> {md(block['text'])}" if block.get("text") else "> *" + t("(empty text)") + "*")
        elif kind == "tool_use":
            st.markdown(
                f":material/build: **tool_use** {code_span(block.get('name'))} · id {code_span(block.get('id'))}"
            )
            st.json(block.get("input", {}))
        elif kind == "thinking":
            st.caption(t("thinking (sent back unchanged, signature and all)"))
            # The model's own words (data, in whatever language it thinks in): marked for the language walk.
            st.markdown(model_words_md(block.get("thinking", "")), unsafe_allow_html=True)
        else:
            st.json(block)
    st.json(turn.response, expanded=1)


def _raw(turn: Turn) -> None:
    if not turn.exchanges:
        st.info(t("Nothing has crossed the wire for this turn yet."))
        return
    final = turn.exchanges[-1]
    st.caption(t("Raw request body, exactly as sent (pretty-printed)"))
    st.code(pretty_body(final.request_body), language="json", height=presenter.raw_height(), wrap_lines=presenter.on())
    st.caption(t("Raw response body, exactly as received"))
    st.code(pretty_body(final.response_body), language="json", height=presenter.raw_height(), wrap_lines=presenter.on())


def _tools(turn: Turn) -> None:
    if not turn.tools:
        st.info(t("This turn ran no tools."))
        return
    for tool in turn.tools:
        head = f"{code_span(tool.name)} · {tool.duration_ms:.0f} ms"
        if tool.approval:
            head += " · " + t("approval: {answer}", answer=md(tool.approval))
        st.markdown(head)
        st.json(tool.input if isinstance(tool.input, (dict, list)) else {"input": tool.input}, expanded=True)
        if tool.is_error:
            st.error(f"is_error: true — {md(tool.output)}")
        elif tool.output:
            st.success(md(tool.output))
        if tool.mcp:
            _mcp_messages(tool.mcp)
    if turn.tool_results_message:
        st.caption(t("Sent back as ONE user message, tool_result blocks first:"))
        st.json(turn.tool_results_message, expanded=False)


def _mcp_messages(messages: list[dict]) -> None:
    """The JSON-RPC a live MCP server exchanged for this call, beside the turn's Messages API exchanges."""
    with st.expander(t("MCP JSON-RPC: {n} message(s) with the server", n=len(messages))):
        for item in messages:
            message = item.get("message") or {}
            arrow = "→" if item.get("direction") == "sent" else "←"
            what = message.get("method") or ("result" if "result" in message else "error")
            st.caption(f"{arrow} {code_span(str(what))}")
            st.json(message, expanded=False)


def _diff(run: Run, turn: Turn) -> None:
    previous = run.turns[turn.index - 2] if turn.index > 1 else None
    diff = request_diff(previous, turn)
    if previous is None:
        st.info(t("Turn 1: the first request. From turn 2 on, this tab shows what was appended."))
        return
    st.markdown(
        t(
            "**Sent again unchanged:** system prompt, tools and the first {resent} message(s).  \n"
            "**Appended:** {appended} message(s). The server remembers nothing, so everything "
            "before them was resent and billed again.",
            resent=diff.resent_messages,
            appended=len(diff.appended),
        )
    )
    if diff.rewritten_history:
        st.warning(t("Earlier messages changed too: the context policy rewrote the history."))
    for message in diff.appended:
        st.json(message, expanded=3)
    with st.expander(t("Unified diff of the JSON")):
        st.code(diff.unified or t("(identical)"), language="diff")


def openai_form(turn: Turn) -> None:
    """The turn as an OpenAI Chat Completions request and reply: the same loop under other names."""
    if turn.request is None:
        st.info(t("This turn has no request yet."))
        return
    st.caption(
        t(
            "The same turn in OpenAI's Chat Completions format: `tool_use` becomes `tool_calls`, each "
            '`tool_result` becomes a `role: "tool"` message, `stop_reason` becomes `finish_reason`. '
            "The loop is identical."
        )
    )
    left, right = st.columns(2)
    left.caption(t("Request (POST /v1/chat/completions)"))
    left.json(to_openai_messages(turn.request), expanded=2)
    right.caption(t("Reply (chat.completion)"))
    if turn.response is None:
        right.info(t("No reply for this turn."))
    else:
        right.json(to_openai_response(turn.response), expanded=2)


def render(run: Run, turn: Turn, extra: Sequence[tuple[str, Callable[[], None]]] = ()) -> None:
    """All panels for one turn (only this turn renders full JSON, which keeps long runs fast); `extra` tabs
    (label, draw) follow the turn's own in the same row."""
    icon, colour, label = badge(turn.stop_reason, turn.error is not None)
    st.markdown(f"### {t('Turn {n}', n=turn.index)} :{colour}-badge[{icon} {label}]")
    decision = decision_text(turn)
    if decision:
        st.info(t("**Loop's decision:** {decision}", decision=md(decision)))
    # Lazy tabs: only the open one is built and sent, so a click does not redraw seven panels of JSON.
    tabs = st.tabs([t(name) for name in TABS] + [t(name) for name, _ in extra], key="turn-tabs", on_change="rerun")
    panels = (
        lambda: _request(turn),
        lambda: _response(turn),
        lambda: _raw(turn),
        lambda: _exchanges(turn),
        lambda: _tools(turn),
        lambda: _diff(run, turn),
        lambda: openai_form(turn),
        *(draw for _, draw in extra),
    )
    for tab, panel in zip(tabs, panels, strict=True):
        if tab.open:
            with tab:
                panel()


def _exchanges(turn: Turn) -> None:
    if not turn.exchanges:
        st.info(t("No HTTP attempt yet."))
    for n, x in enumerate(turn.exchanges, 1):
        _exchange(x, n)
