"""One browser session's state and its one verb: `LabSession.step(Action) -> Outcome` (never shared).

A click goes down once and comes back once: the view returns the Action clicked; `step` performs it on the Stepper
(the guards see this tab's spend cap and what the tab spent), counts the spend, saves the run (as a linked copy if
another tab saved it meanwhile), puts the run into the URL, and returns what changed with the notices to show.
"""

from __future__ import annotations

import copy
import logging
import os
import time
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from typing import Any

import streamlit as st

from agent_core.files.trust import Difference, adopt, adopt_run, builtin_needs_approval
from agent_core.loop.guards import SpendCap, held_bytes
from agent_core.loop.stepper import Stepper, fork_run
from agent_core.model import Limits, Phase, Run, RunConfig, SimSettings, ToolExecution, ToolSpec
from agent_core.secrets import scrub_secrets
from agent_core.storage.store import RunStore, StoreError, default_target
from agent_core.tools.catalog import default_specs
from agent_core.vocab import Provider
from agent_core.wire.capture import Wait
from agent_core.wire.providers import spends_money
from lab_ui.controller import run_settings
from lab_ui.controller.click import Action, Level, Notice, Outcome
from lab_ui.frame.untrusted import md
from lab_ui.serving import classroom
from lab_ui.words.i18n import LANGUAGES, current_language, mark, set_language, t, translate

log = logging.getLogger(__name__)

KEY = "agent_loop_lab"
STORE_KEY = "runs:store"
DEFAULT_TASK = mark("What's the weather in Oslo, and what is 2 to the power of 16?")
DEFAULT_SYSTEM = mark("You are a helpful assistant. Use the tools when they help.")  # RunConfig's default


def default_config() -> RunConfig:
    return RunConfig(task=DEFAULT_TASK, tools=default_specs(None), limits=Limits(max_steps=10), sim=SimSettings())


@dataclass
class LabSession:
    """Everything one learner's browser tab holds; lives in st.session_state only."""

    config: RunConfig = field(default_factory=default_config)
    run: Run | None = None
    selected: int | None = None  # turn shown; None follows the newest
    last_phase: str | None = None  # the phase the last click performed (for the loop-code highlight)
    api_key: str | None = None  # typed on the Settings page; this session only, never saved
    spend_cap_usd: float | None = 1.00
    session_spend_usd: float = 0.0  # real-model spend of every run in this tab; the spend cap compares this
    replay: bool = False  # a saved run opened for viewing: no model calls
    notices: list[Notice] = field(default_factory=list)  # what the last clicks said, shown once below the step bar
    pending: Action | None = None  # a click's call handed to the next full app run (lab_ui/playground/step_bar.py)
    scenario_lang: str | None = None  # a lesson's scenario follows the language until the learner runs it
    # What the last opened recorded run had that this session does not use (shown until the next open).
    differences: list[Difference] = field(default_factory=list)
    unreviewed_tools: list[ToolSpec] = field(default_factory=list)  # a recorded run's non-built-in tools
    saved_version: float | None = None  # the run's updated_at as this tab last saved or loaded it
    _stepper: Stepper | None = field(default=None, repr=False)
    # The Playground's countdown while a server-requested wait runs (set only during one click).
    on_wait: Callable[[Wait], None] | None = field(default=None, repr=False)
    # Runs each model call of one click in a worker thread, watched by the page (timer and Cancel); None between.
    call_runner: Callable[[Callable[[], Any]], Any] | None = field(default=None, repr=False)
    # (run id, turn count) at the last save: a later save writes only from that run's newest saved turn on.
    _saved: tuple[str, int] | None = field(default=None, repr=False)
    # A lesson's workspace uses the tab's main workspace for the key, the spend cap and the spend so far.
    _tab: LabSession | None = field(default=None, repr=False)
    # (run id, its cost already counted in a class server's ledger)
    _billed: tuple[str, float] | None = field(default=None, repr=False)

    @property
    def language(self) -> str:
        """The tab's language (lab_ui/words/i18n.py keeps it, so t() needs no session); every workspace shares it."""
        return current_language()

    @language.setter
    def language(self, lang: str) -> None:
        set_language(lang)

    # -- the run ---------------------------------------------------------------------------
    @property
    def active_run(self) -> Run:
        """The run, where the caller knows there is one (the Playground starts a run before it draws or acts)."""
        assert self.run is not None, "this tab has no run yet"
        return self.run

    def start(self) -> Run:
        self.run = Run(config=copy.deepcopy(self.config))
        self._stepper, self.selected, self.last_phase, self.replay = None, None, None, False
        self.saved_version = None
        return self.run

    def follow_language(self) -> None:
        """The default task and system prompt are in the tab's language until the learner edits them or runs them:
        a Russian learner's model then thinks, calls tools and answers in Russian."""
        if self.run is not None and self.run.turns:
            return
        self.config.language = self.language  # the built-in tools answer in it too
        if self.run is not None:
            self.run.config.language = self.language
        for name, default in (("task", DEFAULT_TASK), ("system", DEFAULT_SYSTEM)):
            if getattr(self.config, name) in {translate(lang, default) for lang in LANGUAGES}:
                setattr(self.config, name, translate(self.language, default))
        ran = self.run.config if self.run is not None else None
        if ran is not None and (ran.task, ran.system) != (self.config.task, self.config.system):
            self.start()

    def fork_away(self) -> Run:
        """Another tab saved this run since this tab loaded it: go on as a new linked copy, overwriting nothing."""
        original = self.active_run
        copy_ = copy.deepcopy(original)
        copy_.id, copy_.parent_id = Run(config=copy_.config).id, original.id
        copy_.parent_turn, copy_.created_at = len(copy_.turns) or None, time.time()
        self.run, self._stepper, self.saved_version = copy_, None, None
        return copy_

    def open(self, run: Run, replay: bool, version: float | None = None) -> None:
        """Show a recorded run; live, it goes on with this session's provider, key, sandbox and policies."""
        adopted = adopt(run.config, self.config)
        if not replay:
            adopt_run(run, self.config)  # a run from the database may come from a file: it is data
        self.differences, self.unreviewed_tools = adopted.differences, adopted.unreviewed_tools
        self.run, self._stepper, self.replay, self.last_phase = run, None, replay, None
        self.saved_version = version
        self.config = copy.deepcopy(adopted.config)
        self.selected = None

    def accept_tools(self) -> None:
        """The learner reviewed the recorded run's own tool definitions and lets this run use them."""
        accepted = copy.deepcopy(self.unreviewed_tools)
        for spec in accepted:
            spec.needs_approval = builtin_needs_approval(spec)
        names = {s.name for s in self.config.tools}
        self.config.tools += [s for s in accepted if s.name not in names]
        if self.run is not None and not self.replay:
            names = {s.name for s in self.run.config.tools}
            self.run.config.tools += [copy.deepcopy(s) for s in accepted if s.name not in names]
        self.unreviewed_tools, self._stepper = [], None

    def fork(self, from_turn: int, with_current_settings: bool) -> Run:
        """Re-run from a turn: a new linked run; optionally with the settings as edited now."""
        child = fork_run(self.active_run, from_turn)
        if with_current_settings:
            keep_task = child.config.task
            child.config = copy.deepcopy(self.config)
            child.config.task = keep_task
        self.open(child, replay=False)
        return child

    def unsaved_from(self) -> int:
        """The first turn number a save must write: a click only changes the newest turn or adds turns, so
        turns before the last one saved are already in the store (any other run is saved whole)."""
        if self.run is None or self._saved is None or self._saved[0] != self.run.id:
            return 0
        return max(self._saved[1], 1)

    def mark_saved(self) -> None:
        self._saved = (self.run.id, len(self.run.turns)) if self.run else None

    def stepper(self) -> Stepper:
        if self.run is None:
            self.start()
        if self._stepper is None or self._stepper.run is not self.run:
            self._stepper = Stepper(
                self.active_run,
                api_key=self.resolved_key(),
                server_keys=self.server_keys(),
                own_code=classroom.own_code(),
            )
        self._stepper.on_wait, self._stepper.call_runner = self.on_wait, self.call_runner
        self._stepper.spend_cap = self.spend_cap()  # other runs of this tab may have spent since
        self._stepper.on_turn = self._turn_done
        return self._stepper

    def _turn_done(self, turn: object) -> None:
        """Run to end, after each turn: the spend counted and the cap read again (a class server's other tabs
        and learners spend meanwhile), and the turn saved, so a dead worker loses at most one."""
        if self._server_billed(self.active_run.config):
            classroom.record_spend(self._unbilled())
            if self._stepper is not None:
                self._stepper.spend_cap = self.spend_cap()
        self._save_turn()

    def _held_elsewhere(self) -> int:
        """Bytes of requests the runs of this browser session's other workspaces hold in the server's memory."""
        others = (v for k, v in st.session_state.items() if str(k).startswith(f"{KEY}:") and v is not self)
        return sum(held_bytes(lab.run) for lab in others if isinstance(lab, LabSession) and lab.run is not None)

    def _server_billed(self, config: RunConfig) -> bool:
        """Whether this config's calls spend the class server's money (its key, not one the learner typed)."""
        return classroom.counts_spend(config, own_key=bool(self.tab.api_key))

    def _unbilled(self) -> float:
        """The run's cost not yet counted in the class server's ledger (each call is counted once)."""
        run = self.active_run
        counted = self._billed[1] if self._billed and self._billed[0] == run.id else 0.0
        self._billed = (run.id, run.total_cost_usd)
        return max(0.0, run.total_cost_usd - counted)

    @property
    def tab(self) -> LabSession:
        """The tab's main workspace: it holds the key typed on Settings, the spend cap and the spend so far."""
        return self._tab or self

    def resolved_key(self) -> str | None:
        """Session key, else Streamlit secrets, else the environment (the SDK's own default)."""
        return self._key_and_source()[0]

    def key_source(self) -> str | None:
        """Where the key comes from ("session", "secrets", "environment"), never the key itself."""
        return self._key_and_source()[1]

    def _key_and_source(self) -> tuple[str | None, str | None]:
        if self.tab.api_key:
            return self.tab.api_key, "session"
        if not classroom.server_key_for(self.run.config if self.run else self.config):
            return None, None  # a class server's own key: Anthropic's API only, for learners allowed it
        return server_key()

    def server_keys(self) -> tuple[str, ...]:
        """The server's own keys (its secrets file and environment): scrubbed everywhere, sent to Anthropic only."""
        key, _ = server_key()
        return (key,) if key else ()

    def spend_cap(self) -> SpendCap | None:
        """The cap as the guards see it, with the figures its stop reports: the tab's cap and what the tab spent
        outside this run (on a class server: the tightest daily limit over the learner and what is spent under it)."""
        # The cap guards real money only: the simulated model and a local server cost nothing.
        cfg, tab = (self.run.config if self.run else self.config), self.tab
        spent_here = self.run.total_cost_usd if self.run else 0.0
        if self._server_billed(cfg):
            left = classroom.allowance()
            # A budget of $0 set by the server is no "limit reached": learners are kept off its key.
            return SpendCap(
                left.limit_usd, left.spent_usd - spent_here, daily=left.binding, no_budget=classroom.no_budget()
            )
        if tab.spend_cap_usd is None or not spends_money(cfg.provider):
            return None
        return SpendCap(tab.spend_cap_usd, tab.session_spend_usd - spent_here)

    @property
    def halted(self) -> bool:
        """The run has stopped or ended, or is a replay (which never calls the model)."""
        return bool(self.run and (self.run.stop or self.run.done)) or self.replay

    @property
    def awaiting_approval(self) -> list[ToolExecution]:
        """The tool calls waiting for the learner's Allow or Deny (none in a replay)."""
        if self.replay or self.run is None:
            return []
        return self.stepper().awaiting_approval

    # -- the one verb ------------------------------------------------------------------------
    def step(self, action: Action, around: Callable[[], AbstractContextManager[object]] = nullcontext) -> Outcome:
        """Do `action`, count its spend, save the run and put it into the URL; `around` wraps the model calls
        (the view's spinner, timer and Cancel). A failure is told as a notice: the run so far is kept."""
        outcome, halted, told = Outcome(action), self.halted, len(self.notices)
        if action is Action.RESET:
            self.start()
            outcome.new_run = True
        elif self.replay:
            self.tell(Level.WARNING, t("This is a replay: it never calls the model. Use 'Re-run from this turn'."))
        else:
            run_settings.follow_form(self)  # before the first call, the form is the run
            try:
                with around():
                    self._perform(action)
            except Exception as exc:  # the run so far must survive anything a click can cause
                # Logged without the traceback's values and with the key scrubbed: a log must never hold a key.
                error = f"{type(exc).__name__}: {exc}"
                log.warning("%s failed: %s", action, scrub_secrets(error, [self.api_key or ""]))
                self.tell(Level.ERROR, t("Something went wrong: {error}. The run so far is kept.", error=md(error)))
        self.save()
        outcome.halted_changed = self.halted != halted
        outcome.notices = self.notices[told:]
        return outcome

    def _perform(self, action: Action) -> None:
        if action is Action.RETRY:
            # The key may have been fixed on the Settings page, or the injected fault removed: use them now.
            self.active_run.config.sim.faults = copy.deepcopy(self.config.sim.faults)
            self._stepper = None
        stepper, run = self.stepper(), self.active_run
        stepper.held_elsewhere = self._held_elsewhere()  # read when a click steps, not on every redraw
        before = run.total_cost_usd
        try:
            if action is Action.PHASE:
                self.last_phase = stepper.next_phase()
            elif action is Action.TURN:
                stepper.next_turn()
                self.last_phase = Phase.APPEND_RESULTS if run.phase == Phase.BUILD_REQUEST else run.phase
            elif action is Action.END:
                stepper.run_to_end()
                self.last_phase = run.phase
            elif action is Action.RETRY:
                stepper.retry()
                stepper.next_phase()
                self.last_phase = Phase.CALL_MODEL
        finally:
            self._count_spend(before)
        self.selected = None

    def _count_spend(self, before: float) -> None:
        run, tab = self.active_run, self.tab
        if self._server_billed(run.config):
            classroom.record_spend(self._unbilled())
        if spends_money(run.config.provider):
            tab.session_spend_usd += max(0.0, run.total_cost_usd - before)

    def tell(self, level: Level, text: str) -> None:
        """A notice for the learner, shown once (below the step bar)."""
        self.notices.append(Notice(level, text))

    def take_notices(self) -> list[Notice]:
        notices, self.notices = self.notices, []
        return notices

    def answer(self, tool_use_id: str, allowed: bool, digest: str) -> bool:
        """The learner's Allow or Deny for a waiting tool call, bound to the exact input shown."""
        return self.stepper().approve(tool_use_id, allowed, digest)

    def select(self, turn: int) -> None:
        """Show turn `turn` (Back, Forward, the slider); the newest one follows new turns."""
        selected = None if self.run is None or turn == len(self.run.turns) else turn
        if selected != self.selected:
            self.selected = selected
            self.sync_url()

    # -- saving and the URL ------------------------------------------------------------------
    def save(self) -> None:
        """Every action is saved, and the run id and turn go into the URL, so a reload loses nothing."""
        if self.run is None:
            return
        try:
            if not self.replay:
                self._save_unless_changed_elsewhere()
        except StoreError as exc:
            self.tell(
                Level.WARNING, t("This run could not be saved: {error}. It is still here in this tab.", error=exc)
            )
        self.sync_url()

    def _save_unless_changed_elsewhere(self) -> None:
        """Save the run; if another tab saved it since this tab loaded it, go on as a linked copy instead."""
        store = run_store()
        stored = store.version(self.active_run.id)
        # None: this tab never read a stored version (a new run, or one this tab saved itself elsewhere).
        if self.saved_version is not None and stored is not None and stored != self.saved_version:
            original = self.active_run.id
            self.fork_away()
            self.tell(
                Level.WARNING,
                t(
                    "Another tab changed run {run} after this tab opened it. So that neither tab overwrites the "
                    "other, this tab goes on as a new run {copy}, linked to it.",
                    run=original,
                    copy=self.active_run.id,
                ),
            )
        store.save_run(self.active_run, from_turn=self.unsaved_from())  # a forked copy is saved whole
        self.mark_saved()
        self.saved_version = store.version(self.active_run.id)

    def _save_turn(self) -> None:
        """One turn of a Run to end, saved as it completes (a worker that dies mid-run loses at most that turn).
        A failure here is said by the save after the action."""
        if self.run is None or self.replay:
            return
        store = run_store()
        try:
            store.save_run(self.active_run, from_turn=self.unsaved_from())
        except StoreError:
            return
        self.mark_saved()
        self.saved_version = store.version(self.active_run.id)

    def sync_url(self) -> None:
        """Keep ?run=ID&turn=N (and mode=replay for a replay) in step with what is shown, so a reload reopens it."""
        if self.run is None:
            return
        wanted = {
            "run": self.run.id,
            "turn": str(self.selected) if self.selected else None,
            "mode": "replay" if self.replay else None,
        }
        for name, value in wanted.items():
            if value is None and name in st.query_params:
                del st.query_params[name]
            elif value is not None and st.query_params.get(name) != value:
                st.query_params[name] = value

    @property
    def model_label(self) -> str:
        cfg = self.run.config if self.run else self.config
        if cfg.provider == Provider.OFFLINE:
            return t("Simulated model (offline)")
        if cfg.provider == Provider.COMPATIBLE:
            return t("{model} at {url}", model=cfg.model, url=cfg.base_url)
        return cfg.model


def get(name: str = "playground") -> LabSession:
    """This browser session's LabSession for one workspace (the Playground, or the lesson being taken)."""
    key = f"{KEY}:{name}"
    lab = st.session_state.get(key)  # one lookup: every view asks for it
    if lab is None:
        if name == "playground":
            lab = LabSession()
        else:
            lab = LabSession(_tab=get())
        st.session_state[key] = lab
    return lab


def server_key() -> tuple[str | None, str | None]:
    """The server's own key and where it comes from: Streamlit secrets, else the environment."""
    try:
        secret = st.secrets.get("ANTHROPIC_API_KEY")
    except Exception:  # no secrets.toml at all is normal
        log.debug("no ANTHROPIC_API_KEY in st.secrets")
        secret = None
    if secret:
        return secret, "secrets"
    env = os.environ.get("ANTHROPIC_API_KEY")
    return (env, "environment") if env else (None, None)


def run_store() -> RunStore:
    """This browser session's RunStore: one connection per session, never shared between sessions. On a class
    server it is the learner's: it lists, saves and deletes only their own runs."""
    path, owner = default_target(), classroom.run_owner()
    held = st.session_state.get(STORE_KEY)
    if held is None or held.path != path or held.owner != owner:
        held = st.session_state[STORE_KEY] = RunStore(path, owner=owner)
    return held
