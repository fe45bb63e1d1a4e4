"""One browser session's state: the draft config, the run, the stepper and the selected turn (never shared)."""

from __future__ import annotations

import copy
import logging
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import streamlit as st

from agent_core.files.trust import Difference, adopt, adopt_run, builtin_needs_approval
from agent_core.loop.stepper import Stepper, fork_run
from agent_core.model import Limits, Phase, Run, RunConfig, SimSettings, ToolSpec
from agent_core.storage.store import RunStore, default_target
from agent_core.tools.catalog import default_specs
from agent_core.vocab import DecisionKind, Provider, StopKind
from agent_core.wire.capture import Wait
from agent_core.wire.providers import spends_money
from lab_ui.serving import classroom
from lab_ui.words.i18n import LANGUAGES, current_language, mark, set_language, t, translate

log = logging.getLogger(__name__)

KEY = "agent_loop_lab"
STORE_KEY = "runs:store"
DEFAULT_TASK = mark("What's the weather in Oslo, and what is 2 to the power of 16?")


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
    message: tuple[str, str] | None = None  # (level, text) shown once after an action
    failure: str | None = None  # what went wrong in the last action, shown once below the step bar
    pending: str | None = None  # a click's call handed to the next full app run (lab_ui/controller/actions.py)
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
    # Run to end saves each turn as it completes: the page sets what saves (lab_ui/controller/actions.py).
    on_turn_saved: Callable[[], None] | None = field(default=None, repr=False)
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
        """The default task is asked in the tab's language until the learner edits it or runs it: a Russian
        learner's model then thinks, calls tools and answers in Russian."""
        if self.run is not None and self.run.turns:
            return
        self.config.language = self.language  # the built-in tools answer in it too
        if self.run is not None:
            self.run.config.language = self.language
        if self.config.task not in {translate(lang, DEFAULT_TASK) for lang in LANGUAGES}:
            return
        self.config.task = translate(self.language, DEFAULT_TASK)
        if self.run is not None and self.run.config.task != self.config.task:
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
            self._stepper = Stepper(self.active_run, api_key=self.resolved_key(), server_keys=self.server_keys())
        self._stepper.on_wait, self._stepper.call_runner = self.on_wait, self.call_runner
        self._stepper.spend_cap_usd = self.remaining_cap()  # other runs of this tab may have spent since
        self._stepper.on_turn = self._turn_done
        return self._stepper

    def _turn_done(self, turn: object) -> None:
        """Run to end, after each turn: the spend counted and the cap read again (a class server's other tabs
        and learners spend meanwhile), and the turn saved (on_turn_saved), so a dead worker loses at most one."""
        if classroom.counts_spend(self.active_run.config):
            classroom.record_spend(self._unbilled())
            if self._stepper is not None:
                self._stepper.spend_cap_usd = self.remaining_cap()
        if self.on_turn_saved is not None:
            self.on_turn_saved()

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

    def remaining_cap(self) -> float | None:
        """The cap as check_limits sees it: this run's own spend plus what the whole session has left (on a class
        server: what the learner, their class and the server have left today, from the database)."""
        # The cap guards real money only: the simulated model and a local server cost nothing.
        cfg, tab = (self.run.config if self.run else self.config), self.tab
        if classroom.counts_spend(cfg):
            return (self.run.total_cost_usd if self.run else 0.0) + classroom.allowance().left_usd
        if tab.spend_cap_usd is None or not spends_money(cfg.provider):
            return None
        spent_here = self.run.total_cost_usd if self.run else 0.0
        return spent_here + tab.spend_cap_usd - tab.session_spend_usd

    def _count_spend(self, before: float) -> None:
        run, tab = self.active_run, self.tab
        daily = classroom.counts_spend(run.config)
        if daily:
            classroom.record_spend(self._unbilled())
        if spends_money(run.config.provider):
            tab.session_spend_usd += max(0.0, run.total_cost_usd - before)
        if run.stop and run.stop.kind == StopKind.SPEND_CAP and (daily or tab.spend_cap_usd is not None):
            # check_limits saw this run's figures; the learner needs the session's (a class server's: the day's).
            if daily:
                left = classroom.allowance()
                session = {"daily": left.binding, "cap_usd": left.limit_usd, "spent_usd": left.spent_usd}
            else:
                session = {"session": True, "cap_usd": tab.spend_cap_usd, "spent_usd": tab.session_spend_usd}
            run.stop.params = {**run.stop.params, **session}
            for decision in run.turns[-1].decisions if run.turns else []:
                if decision.kind == DecisionKind.THEN_STOP:
                    decision.params = {**decision.params, **session}

    # -- actions (each records what it did, so the page can highlight the code) -------------
    def act(self, action: str) -> None:
        if self.replay:
            self.message = ("warning", t("This is a replay: it never calls the model. Use 'Re-run from this turn'."))
            return
        if action == "retry":
            # The key may have been fixed on the Settings page, or the injected fault removed: use them now.
            self.active_run.config.sim.faults = copy.deepcopy(self.config.sim.faults)
            self._stepper = None
        stepper = self.stepper()
        before = self.active_run.total_cost_usd
        try:
            self._perform(stepper, action)
        finally:
            self._count_spend(before)
        self.selected = None

    def _perform(self, stepper: Stepper, action: str) -> None:
        if action == "phase":
            self.last_phase = stepper.next_phase()
        elif action == "turn":
            stepper.next_turn()
            self.last_phase = (
                Phase.APPEND_RESULTS if self.active_run.phase == Phase.BUILD_REQUEST else self.active_run.phase
            )
        elif action == "end":
            stepper.run_to_end()
            self.last_phase = self.active_run.phase
        elif action == "retry":
            stepper.retry()
            stepper.next_phase()
            self.last_phase = Phase.CALL_MODEL

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
