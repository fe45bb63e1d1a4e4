"""The Playground page: step the real loop, one phase or one turn per click, and look at everything it did."""

from __future__ import annotations

import json
import logging
from dataclasses import asdict

import streamlit as st

from agent_core.explain import sequence_diagram
from agent_core.model import Phase
from agent_core.secrets import scrub_secrets
from agent_core.store import StoreError
from agent_core.trust import input_digest
from agent_core.vocab import Provider, StopKind
from lab_ui import (
    call_watch,
    charts_panel,
    controls,
    loop_code,
    predict_view,
    session,
    share_view,
    spend,
    spend_view,
    timeline,
    turn_view,
    url_state,
)
from lab_ui.catalogue import error_markdown, last_error, stop_text
from lab_ui.i18n import mark, t
from lab_ui.session import LabSession
from lab_ui.untrusted import code_span, md

log = logging.getLogger(__name__)

PHASE_WORDS: dict[str, str] = {  # keyed by Phase (a StrEnum: the run's phase string finds its entry)
    Phase.BUILD_REQUEST: mark("build the request"),
    Phase.CALL_MODEL: mark("call the model"),
    Phase.READ_STOP_REASON: mark("read stop_reason"),
    Phase.RUN_TOOLS: mark("run the tools"),
    Phase.APPEND_RESULTS: mark("append the results"),
    Phase.DONE: mark("done"),
}
# The settings a recorded run may differ in (agent_core.trust.SHOWN_FIELDS), as the learner reads them.
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


RESET_HELP = mark(
    "Start a new run with the task and settings as they are now (a change applies only from the next run)."
)


def _save(lab: LabSession) -> None:
    """Every action is saved, and the run id and turn go into the URL, so a reload loses nothing."""
    if lab.run is None:
        return
    try:
        if not lab.replay:
            _save_unless_changed_elsewhere(lab)
    except StoreError as exc:
        st.warning(t("This run could not be saved: {error}. It is still here in this tab.", error=exc))
    _sync_url(lab)


def _save_unless_changed_elsewhere(lab: LabSession) -> None:
    """Save the run; if another tab saved it since this tab loaded it, go on as a linked copy instead."""
    store = session.run_store()
    stored = store.version(lab.active_run.id)
    # None: this tab never read a stored version (a new run, or one this tab saved itself elsewhere).
    if lab.saved_version is not None and stored is not None and stored != lab.saved_version:
        original = lab.active_run.id
        lab.fork_away()
        lab.message = (
            "warning",
            t(
                "Another tab changed run {run} after this tab opened it. So that neither tab overwrites the other, "
                "this tab goes on as a new run {copy}, linked to it.",
                run=original,
                copy=lab.active_run.id,
            ),
        )
    store.save_run(lab.active_run, from_turn=lab.unsaved_from())  # a forked copy has no saved turns: saved whole
    lab.mark_saved()
    lab.saved_version = store.version(lab.active_run.id)


def _sync_url(lab: LabSession) -> None:
    """Keep ?run=ID&turn=N (and mode=replay for a replay) in step with what is shown, so a reload reopens it."""
    if lab.run is None:
        return
    wanted = {
        "run": lab.run.id,
        "turn": str(lab.selected) if lab.selected else None,
        "mode": "replay" if lab.replay else None,
    }
    for name, value in wanted.items():
        if value is None and name in st.query_params:
            del st.query_params[name]
        elif value is not None and st.query_params.get(name) != value:
            st.query_params[name] = value


def restore_from_url(lab: LabSession) -> None:
    """Reopen the run named in the URL (a reload or a shared link) at the same turn."""
    run_id = st.query_params.get("run")
    if not run_id or (lab.run and lab.run.id == run_id):
        return
    store = session.run_store()
    version = store.version(run_id)  # read first: a save in between then shows up as a change, never hides one
    run = store.load(run_id)
    if run is None:
        st.warning(t("Run {run} is not in the runs database any more.", run=md(run_id)))
        return
    if share_view.opens_shared():
        share_view.open_shared(lab, run)  # someone else's run: read-only, never with its settings
    else:  # a replay link reopens as a replay (never calls the model); any other link reopens the run live
        lab.open(run, replay=st.query_params.get("mode") == "replay", version=version)
    turn = st.query_params.get("turn")
    if turn and turn.isdigit() and 1 <= int(turn) <= len(run.turns):
        lab.selected = int(turn)


def _buttons(lab: LabSession) -> None:
    halted = bool(lab.run and (lab.run.stop or lab.run.done)) or lab.replay  # a replay never calls the model
    cols = st.container(key="stepbar").columns(4)  # sticky in presenter mode
    clicked = None
    if cols[0].button(t("Next phase"), type="primary", disabled=halted, width="stretch", key="btn-phase"):
        clicked = "phase"
    if cols[1].button(t("Next step"), disabled=halted, width="stretch", key="btn-turn"):
        clicked = "turn"
    if cols[2].button(t("Run to end"), disabled=halted, width="stretch", key="btn-end"):
        clicked = "end"
    if cols[3].button(t("Reset"), width="stretch", key="btn-reset", help=t(RESET_HELP)):
        lab.start()
        clicked = "reset"
    if clicked in ("phase", "turn", "end"):
        _act(lab, clicked)
    if clicked:
        _save(lab)
    if clicked == "reset" or (clicked and bool(lab.active_run.stop or lab.active_run.done) != halted):
        st.rerun()  # the buttons above were drawn for the run as it was before the click: draw them again


def _act(lab: LabSession, action: str) -> None:
    try:
        with st.spinner(t("Working…")):  # a model call's own line below says how long it has been waiting
            with call_watch.watched(lab, after_cancel=lambda: _save(lab)):  # the seconds and a Cancel per call
                lab.act(action)
    except Exception as exc:  # the run so far must survive anything a click can cause
        # Logged without the traceback's values and with the key scrubbed: a log must never hold a key.
        log.warning("%s failed: %s", action, scrub_secrets(f"{type(exc).__name__}: {exc}", [lab.api_key or ""]))
        st.error(t("Something went wrong: {error}. The run so far is kept.", error=md(f"{type(exc).__name__}: {exc}")))


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
    stepper = lab.stepper() if not lab.replay else None
    if run.stop and run.stop.kind == StopKind.API_ERROR:
        error = last_error(run)
        message = error_markdown(error) if error else md(stop_text(run))
        st.error(t("Stopped by an API error: {message}", message=message))
        _raw_error(run)
        if st.button(
            t("Retry this step"),
            key="retry-step",
            help=t("Sends the same request again, with the key and the injected faults as they are set now."),
        ):
            _act(lab, "retry")
            _save(lab)
            st.rerun()
    elif run.stop:
        level = st.success if run.stop.kind == StopKind.END_TURN else st.warning
        level(t("**Loop stopped** ({kind}): {message}", kind=md(run.stop.kind), message=md(stop_text(run))))
        if run.final_text:  # the answer where the eye already is, not only in a tab at the bottom
            with st.container(border=True, key="final-answer"):
                st.caption(t("The model's final answer"))
                st.markdown(md(run.final_text))
    elif stepper and stepper.awaiting_approval:
        _approvals(lab)
    else:
        st.caption(
            t(
                "Next phase: **{phase}** · turn {n}",
                phase=t(PHASE_WORDS[run.phase]),
                n=len(run.turns) + (run.phase == Phase.BUILD_REQUEST),
            )
        )


def _raw_error(run) -> None:
    turn = run.turns[-1] if run.turns else None
    if turn is None or turn.error is None:
        return
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
    stepper = lab.stepper()
    for n, tool in enumerate(stepper.awaiting_approval):
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
            stepper.approve(tool.tool_use_id, True, digest)
            st.rerun()
        if deny.button(t("Deny"), key=f"deny-{n}-{digest}"):
            stepper.approve(tool.tool_use_id, False, digest)
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


def _upcoming(lab: LabSession) -> str | None:
    run = lab.run
    if run is None:
        return Phase.BUILD_REQUEST
    return None if run.stop else run.phase


def _run_controls(lab: LabSession, selected: int) -> None:
    if not lab.run or not lab.run.turns or share_view.viewing(lab):  # a shared run goes on only as one's copy
        return
    with st.popover(t("Re-run from turn {n}", n=selected)):
        st.caption(t("Keeps the turns before it, then calls the model again, as a new run linked to this one."))
        use_now = st.checkbox(t("Use the settings as edited on the left"), value=True)
        if st.button(t("Re-run from here"), key="fork"):
            lab.fork(selected, use_now)
            _save(lab)
            st.rerun()


def stepper_panel(lab: LabSession) -> None:
    """Buttons, status, timeline and the selected turn: the part the Lessons page reuses."""
    _buttons(lab)
    _recorded_notice(lab)
    predict_view.panel(lab)
    _status(lab)
    spend_view.render_spend(lab)
    if lab.message:
        getattr(st, lab.message[0])(lab.message[1])
        lab.message = None
    run = lab.run
    if run and run.turns:
        _totals(run, spend.shows_prices(lab))
        selected = timeline.render(lab)
        turn_view.render(run, run.turns[selected - 1])
        _run_controls(lab, selected)


def _totals(run, priced: bool) -> None:
    """The money pit at a glance: turns, the context now, everything billed so far, and the cost (where priced)."""
    last = next((t for t in reversed(run.turns) if t.usage), None)
    billed = sum(t.usage.whole_input for t in run.turns if t.usage)
    cols = st.columns(4)
    cols[0].metric(t("Turns"), len(run.turns))
    cols[1].metric(t("Context now (tokens)"), f"{last.usage.whole_input:,}" if last else "—")
    cols[2].metric(t("Input billed so far"), f"{billed:,}")
    if priced:
        cols[3].metric(t("Cost so far"), f"${run.total_cost_usd:.4f}")
        if run.config.provider == Provider.OFFLINE:
            st.caption(t(spend.SIMULATED_PRICE))
    else:  # a local or unknown server: no $ anywhere, its tokens instead
        cols[3].metric(t("Output so far (tokens)"), f"{sum(t.usage.output_tokens for t in run.turns if t.usage):,}")
        st.caption(
            t("Cost: {no_price}. The figures are tokens, as the server reported them.", no_price=t(spend.NO_PRICE))
        )


def loop_code_panel(lab: LabSession) -> None:
    st.html(loop_code.CSS)
    st.markdown(t("**The loop's code** (highlighted: the phase just run; ➜ the next one)"))
    # The same loop in the official Python and TypeScript SDKs, lit by phase the same way.
    language = st.segmented_control(
        t("Language of the code"),
        list(loop_code.LANGUAGE_NAMES),
        default="python",
        format_func=loop_code.LANGUAGE_NAMES.__getitem__,
        key="loop_code_language",
        label_visibility="collapsed",
    )
    code = loop_code.render_html(_lit_phase(lab), _upcoming(lab), language or "python")
    st.markdown(code, unsafe_allow_html=True)


def _lit_phase(lab: LabSession) -> str | None:
    """The phase whose lines are lit: at the end of a run, the loop's exit (break, print), however it got there."""
    run = lab.run
    if run and (run.done or (run.stop and run.stop.kind != StopKind.API_ERROR)):
        return Phase.DONE
    return lab.last_phase


def insights(run) -> None:
    """Sequence diagram and the context-and-cost charts, below the turn."""
    if run and run.turns:
        # Lazy tabs: only the open one is computed and sent, so a click costs one diagram or six charts, not both.
        answer, seq, money = st.tabs(
            [t("Answer"), t("Sequence"), t("Context & cost")], key="insights", on_change="rerun"
        )
        if answer.open:
            with answer:
                st.markdown(md(run.final_text) if run.final_text else t("No answer yet: the model has not finished."))
                if run.stop:
                    st.caption(md(stop_text(run)))
        if seq.open:
            with seq:
                st.mermaid_chart(sequence_diagram(run, stop_words=stop_text(run)))
        if money.open:
            with money:
                charts_panel.render(run)


def restore_draft(lab: LabSession, page: str) -> None:
    """An unsent task edit from the URL (?draft=), taken once per tab and page, after the run it belongs to."""
    flag = f"draft-restored:{page}"
    if flag not in st.session_state:
        st.session_state[flag] = True
        if (typed := url_state.draft()) is not None:
            lab.config.task = typed


def keep_draft(lab: LabSession, default_task: str) -> None:
    """Put the task into the URL while it differs from what was last run (or the default, before any run)."""
    url_state.keep_draft(lab.config.task, lab.run.config.task if lab.run else default_task)


def render(lab: LabSession) -> None:
    restore_from_url(lab)
    restore_draft(lab, "playground")
    head, badge_col = st.columns([3, 2])
    head.title(t("Playground"))
    mode = " · " + t("replay") if lab.replay else ""
    badge_col.markdown(f"#### :violet-badge[{lab.model_label}{mode}]")
    with badge_col:
        share_view.share_button(lab)
    share_view.banner(lab)
    left, right = st.columns([9, 11], gap="small")
    with right:
        stepper_panel(lab)
    with left:
        loop_code_panel(lab)
        controls.render(lab)
        keep_draft(lab, t(session.DEFAULT_TASK))
    insights(lab.run)
    _sync_url(lab)  # after the timeline: Back/Forward change the selected turn without a _save
