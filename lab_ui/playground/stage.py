"""The stage: everything a click on the step bar changes, redrawn by one fragment so a click does not redraw the page.

The scheme (why one fragment, and which clicks rerun the app):
- One fragment draws the step bar, the status, the timeline and the turn, and also writes into the page's own
  containers for the other things a step changes: the loop's code (lit by phase) and the insights below (answer,
  sequence, charts: they change with every turn). So a step, Back/Forward or a tab click reruns only this
  fragment, and every part that shows the run is still redrawn from it: nothing the learner sees can go stale,
  and no full rerun is needed to update the charts.
- The rest of the page (the controls, the header, the lesson's text, the sidebar) does not show the run's state:
  it is drawn by full app runs only.
- A click that changes what the rest shows reruns the app: the first turn (the header's share link appears),
  Reset, Re-run from a turn, accepting a recorded run's tools, Allow/Deny and Retry (rare clicks; the page around
  them may change). A call that may wait also runs in a full app run (lab_ui/playground/step_bar.py says why).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import asdict, dataclass

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from agent_core.files.trust import input_digest
from agent_core.model import Phase
from agent_core.report.explain import sequence_diagram
from agent_core.vocab import STOP_TABLE, Provider, StopKind
from lab_ui.controller import run_settings, spend
from lab_ui.controller.click import Action
from lab_ui.controller.session import LabSession
from lab_ui.frame.draw_queue import QUEUE
from lab_ui.frame.untrusted import code_span, md, model_words_md
from lab_ui.playground import charts as charts_panel
from lab_ui.playground import loop_code, step_bar, timeline
from lab_ui.playground import predict as predict_view
from lab_ui.playground import share as share_view
from lab_ui.playground import spend_line as spend_view
from lab_ui.playground import turn as turn_view
from lab_ui.words.catalogue import error_markdown, last_error, stop_text
from lab_ui.words.i18n import current_language, mark, money, number, t

PHASE_WORDS: dict[str, str] = {  # keyed by Phase (a StrEnum: the run's phase string finds its entry)
    Phase.BUILD_REQUEST: mark("build the request"),
    Phase.CALL_MODEL: mark("call the model"),
    Phase.READ_STOP_REASON: mark("read stop_reason"),
    Phase.RUN_TOOLS: mark("run the tools"),
    Phase.APPEND_RESULTS: mark("append the results"),
    Phase.DONE: mark("done"),
}
# The settings a recorded run may differ in (agent_core.files.trust.SHOWN_FIELDS), as the learner reads them.
SETTING_WORDS = {
    "provider": mark("Provider"),
    "base_url": mark("Base URL"),
    "sandbox": mark("Sandbox folder"),
    "workflow_steps": mark("Workflow steps"),
    "context_policy": mark("Context policy"),
    "bugs": mark("Deliberate bugs"),
    "limits": mark("Limits"),
    "sim": mark("Simulated model settings"),
}


@dataclass
class Slots:
    """The page's containers the stage writes into, besides its own place (None: the page has no such part)."""

    # Whether the page has a share button (drawn by full app runs), and the run it links to as drawn. A click
    # that changes that run (the first turn, a fork) reruns the app, so the stage need not redraw it each click.
    share: bool = False
    shared_run: str | None = None
    code: DeltaGenerator | None = None  # the loop's code; None with code_below: in an expander below the turn
    insights: DeltaGenerator | None = None  # answer, sequence diagram and charts, below the page's columns
    code_below: bool = False
    # The answer, the sequence diagram and the charts as tabs of the turn's own tab row (the Lessons page: every
    # panel a step names is in one row, beside the text), instead of in `insights`.
    insights_in_tabs: bool = False


def panel(lab: LabSession, slots: Slots) -> None:
    """Step bar, status, timeline and the selected turn: the part the Lessons page reuses."""
    bar = st.container(key="stepbar")  # sticky in presenter mode: a child of the column, so it can stick in it
    st.html(loop_code.CSS)  # the code panel's style, sent once per page run rather than with every click
    with st.container():  # the main script's place for a call that may wait, right below the bar
        if not step_bar.run_pending(lab):
            lab.sync_url()  # a run opened elsewhere (the Runs page, a link) goes into the URL; a step puts it there
    _stage(lab, bar, slots)


@st.fragment
@QUEUE  # a click reruns only this fragment: it queues like a page (lab_ui/frame/draw_queue.py)
def _stage(lab: LabSession, bar: DeltaGenerator, slots: Slots) -> None:
    # Each outside container gets a write on every run, even an empty one: a fragment may fill a container on
    # its own reruns only if it wrote there during the full app run.
    clicked = step_bar.buttons(lab, bar)
    if clicked:
        step_bar.click(lab, clicked)
    if slots.share and share_view.shared_run(lab) != slots.shared_run:
        st.rerun()  # the header's share link is for another run now (rare: see Slots)
    step_bar.show_notices(lab)
    _body(lab, slots.insights_in_tabs)
    if slots.code_below:
        with st.expander(t("The loop's code")):
            loop_code_panel(lab)
    elif slots.code is not None:
        with slots.code.container():
            loop_code_panel(lab)
    if slots.insights is not None:
        with slots.insights.container():
            insights(lab.run)


def _body(lab: LabSession, insights_in_tabs: bool = False) -> None:
    run_settings.follow_form(lab)  # before the first call the form is the run: the stage shows what will run
    _recorded_notice(lab)
    predict_view.panel(lab)
    _status(lab)
    _changed_settings(lab)
    spend_view.render_spend(lab)
    run = lab.run
    if run and run.turns:
        _totals(run, spend.shows_prices(lab))
        selected = timeline.render(lab)
        lab.select(selected)  # Back, Forward or the slider: the URL follows
        turn_view.render(run, run.turns[selected - 1], insight_tabs(run) if insights_in_tabs else ())
        _run_controls(lab, selected)


def _status(lab: LabSession) -> None:
    run = lab.run
    if run is None:
        st.info(t("Press **Next phase** to build the first request, or **Next step** to run a whole turn."))
        return
    if lab.replay and not share_view.viewing(lab):  # a shared run has its own notice (and no re-run)
        st.info(
            t(
                "**Replay** of a saved run: nothing here calls the model. To go on live, pick a turn and use "
                "**Re-run from turn N** below."
            )
        )
    if run.stop and run.stop.kind == StopKind.API_ERROR:
        error = last_error(run)
        message = error_markdown(error) if error else md(stop_text(run))
        st.error(t("Stopped by an API error: {message}", message=message))
        _raw_error(run)
        if lab.replay:  # a saved or shared run never calls the model; its Re-run (or copy) is the way on
            return
        if st.button(
            t("Retry this step"),
            key="retry-step",
            help=t("Sends the same request again, with the key and the injected faults as they are set now."),
        ):
            step_bar.click(lab, Action.RETRY)
            st.rerun()
    elif run.stop:
        level = st.success if run.stop.kind == StopKind.END_TURN else st.warning
        level(t("**Loop stopped** ({kind}): {message}", kind=md(run.stop.kind), message=md(stop_text(run))))
        if run.final_text:  # the answer where the eye already is, not only in a tab at the bottom
            with st.container(border=True, key="final-answer"):
                st.caption(t("The model's final answer"))
                st.markdown(model_words_md(run.final_text), unsafe_allow_html=True)
    elif lab.awaiting_approval:
        _approvals(lab)
    else:
        st.caption(
            t(
                "Next phase: **{phase}** · turn {n}",
                phase=t(PHASE_WORDS[run.phase]),
                n=len(run.turns) + (run.phase == Phase.BUILD_REQUEST),
            )
        )


def _changed_settings(lab: LabSession) -> None:
    """Once the run has called the model, a change on the form waits for Reset: say so, with Reset beside it."""
    if lab.replay or share_view.viewing(lab) or run_settings.unstarted(lab.run):
        return
    found = run_settings.changes(lab.config, lab.run)
    if not found:
        return
    with st.container(horizontal=True, vertical_alignment="center", key="changed-settings"):
        st.info(run_settings.sentence(found), width="stretch")
        if st.button(t("Reset"), key="changed-reset", help=t(step_bar.RESET_HELP)):
            step_bar.click(lab, Action.RESET)


def _raw_error(run) -> None:
    turn = run.turns[-1] if run.turns else None
    if turn is None or turn.error is None:
        return
    if not turn.exchanges:  # no key, a refused address: "0 attempts, each one below" would point at nothing
        st.caption(t("No HTTP request was sent for this step: it failed before reaching the server."))
    else:
        st.caption(
            t(
                "{n} HTTP attempt(s) for this step (the SDK retries some errors by itself); "
                "each one is under **HTTP attempts** below.",
                n=len(turn.exchanges),
            )
        )
    if turn.error.body:
        with st.expander(t("The raw error JSON the server sent")):
            st.code(turn_view.pretty_body(turn.error.body.encode()), language="json")


def _approvals(lab: LabSession) -> None:
    """One Allow/Deny per waiting call, bound to its tool_use id and the exact input shown (a hash of it)."""
    for n, tool in enumerate(lab.awaiting_approval):
        digest = input_digest(tool.input)
        st.warning(
            t(
                "The model wants to run {tool} with this input. This tool can do harm: allow it?",
                tool=code_span(tool.name),
            )
        )
        st.code(json.dumps(tool.input, indent=2, ensure_ascii=False, default=repr), language="json")
        allow, deny = st.columns(2)
        # The position and the input's hash make each key unique, even if a reply repeats an id.
        if allow.button(t("Allow"), key=f"allow-{n}-{digest}"):
            lab.answer(tool.tool_use_id, True, digest)
            st.rerun()
        if deny.button(t("Deny"), key=f"deny-{n}-{digest}"):
            lab.answer(tool.tool_use_id, False, digest)
            st.rerun()


def _recorded_notice(lab: LabSession) -> None:
    """What a recorded run had that this session does not use, and its own tools waiting for review."""
    if lab.differences and not lab.replay:
        lines = [
            t(
                "{setting}: recorded with {recorded}; this run uses your settings: {used}",
                setting=t(SETTING_WORDS.get(d.setting, d.setting)),
                recorded=code_span(d.recorded),
                used=code_span(d.used),
            )
            for d in lab.differences
        ]
        st.info(
            t("This run was recorded with other settings. A recorded run never chooses them; yours are used:")
            + "\n\n"
            + "\n".join(f"- {line}" for line in lines)
        )
    if lab.unreviewed_tools and not lab.replay:
        with st.expander(
            t("{n} tool definition(s) of the recorded run are not built-in: review them", n=len(lab.unreviewed_tools))
        ):
            st.caption(
                t(
                    "They are left out of this run until you accept them. A tool runs the app's own code for its "
                    "implementation; tools that can do harm always ask first."
                )
            )
            st.code(
                json.dumps([asdict(s) for s in lab.unreviewed_tools], indent=2, ensure_ascii=False), language="json"
            )
            if st.button(t("Accept these tool definitions"), key="accept-tools"):
                lab.accept_tools()
                st.rerun()


def _run_controls(lab: LabSession, selected: int) -> None:
    if not lab.run or not lab.run.turns or share_view.viewing(lab):  # a shared run goes on only as one's copy
        return
    # A dialog, built only when opened: a popover's content would be sent with every click (lab_ui/playground/step_bar.py).
    if st.button(t("Re-run from turn {n}", n=selected), key="fork-open"):
        st.dialog(t("Re-run from turn {n}", n=selected))(_fork_dialog)(lab, selected)


def _fork_dialog(lab: LabSession, selected: int) -> None:
    st.caption(t("Keeps the turns before it, then calls the model again, as a new run linked to this one."))
    use_now = st.checkbox(t("Use the settings as edited on the left"), value=True)
    if st.button(t("Re-run from here"), key="fork", type="primary"):
        lab.fork(selected, use_now)
        lab.save()
        st.rerun()


def _totals(run, priced: bool) -> None:
    """The money pit at a glance: turns, the context now, everything billed so far, and the cost (where priced)."""
    last = next((t for t in reversed(run.turns) if t.usage), None)
    billed = sum(t.usage.whole_input for t in run.turns if t.usage)
    with st.container(horizontal=True):  # one element, where st.columns(4) is five (step_bar.buttons says why)
        st.metric(t("Turns"), len(run.turns), width="stretch")
        st.metric(t("Context now (tokens)"), number(last.usage.whole_input) if last else "—", width="stretch")
        st.metric(t("Input billed so far"), number(billed), width="stretch")
        listed = priced and spend.price_listed(run.config.model)
        if priced:
            st.metric(t("Cost so far"), money(run.total_cost_usd, 4) if listed else "—", width="stretch")
        else:  # a local or unknown server: no $ anywhere, its tokens instead
            output = sum(t.usage.output_tokens for t in run.turns if t.usage)
            st.metric(t("Output so far (tokens)"), number(output), width="stretch")
    if priced and not listed:
        st.caption(t(spend.UNLISTED_PRICE, model=md(run.config.model)))
    elif priced and run.config.provider == Provider.OFFLINE:
        st.caption(t(spend.SIMULATED_PRICE))
    elif not priced:
        st.caption(spend.tokens_only())


def loop_code_panel(lab: LabSession) -> None:
    # The same loop in the official Python and TypeScript SDKs, lit by phase the same way. The heading is the
    # picker's label: one element fewer for every click to send.
    language = st.segmented_control(
        t("**The loop's code** (highlighted: the phase just run; ➜ the next one)"),
        list(loop_code.LANGUAGE_NAMES),
        default="python",
        format_func=loop_code.LANGUAGE_NAMES.__getitem__,
        key="loop_code_language",
    )
    code = loop_code.render_html(_lit_phase(lab), _upcoming(lab), language or "python", current_language())
    st.markdown(code, unsafe_allow_html=True)


def _upcoming(lab: LabSession) -> str | None:
    run = lab.run
    if run is None:
        return Phase.BUILD_REQUEST
    return None if run.stop else run.phase


FINAL_KINDS = frozenset(reason for reason, info in STOP_TABLE.items() if info.ends_loop)


def _lit_phase(lab: LabSession) -> str | None:
    """The phase whose lines are lit: at the end of a run, the way it left the loop (break and print, raise, or the
    range running out), never every exit at once."""
    run = lab.run
    if run and (run.done or (run.stop and run.stop.kind != StopKind.API_ERROR)):
        return loop_code.exit_tag(run.stop.kind if run.stop else None, FINAL_KINDS)
    return lab.last_phase


INSIGHTS = (mark("Answer"), mark("Sequence"), mark("Context & cost"))


def insight_tabs(run) -> list[tuple[str, Callable[[], None]]]:
    """The answer, the sequence diagram and the charts as (label, draw) pairs, for a tab row."""
    return [
        (INSIGHTS[0], lambda: _answer(run)),
        (INSIGHTS[1], lambda: _sequence(run)),
        (INSIGHTS[2], lambda: charts_panel.render(run)),
    ]


def _sequence(run) -> None:
    st.mermaid_chart(sequence_diagram(run, stop_words=stop_text(run), label=t))


def _answer(run) -> None:
    if run.final_text:
        st.markdown(model_words_md(run.final_text), unsafe_allow_html=True)
    else:
        st.markdown(t("No answer yet: the model has not finished."))
    if run.stop:
        st.caption(md(stop_text(run)))


def insights(run) -> None:
    """Sequence diagram and the context-and-cost charts, below the turn."""
    if run and run.turns:
        # Lazy tabs: only the open one is computed and sent, so a click costs one diagram or six charts, not both.
        panels = insight_tabs(run)
        tabs = st.tabs([t(name) for name, _ in panels], key="insights", on_change="rerun")
        for tab, (_, draw) in zip(tabs, panels, strict=True):
            if tab.open:
                with tab:
                    draw()
