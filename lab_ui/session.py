"""One browser session's state: the draft config, the run, the stepper and the selected turn (never shared)."""
from __future__ import annotations

import copy
import os
from dataclasses import dataclass, field

import streamlit as st

from agent_core.loop import Stepper, fork_run
from agent_core.model import Phase, Run, RunConfig, SimSettings, Limits
from agent_core.tools.catalog import default_specs

KEY = "agent_loop_lab"
DEFAULT_TASK = "What's the weather in Oslo, and what is 2 to the power of 16?"


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
    language: str = "en"
    spend_cap_usd: float | None = 1.00
    replay: bool = False  # a saved run opened for viewing: no model calls
    message: tuple[str, str] | None = None  # (level, text) shown once after an action
    scenario_lang: str | None = None  # a lesson's scenario follows the language until the learner runs it
    _stepper: Stepper | None = field(default=None, repr=False)

    # -- the run ---------------------------------------------------------------------------
    def start(self) -> Run:
        self.run = Run(config=copy.deepcopy(self.config))
        self._stepper, self.selected, self.last_phase, self.replay = None, None, None, False
        return self.run

    def open(self, run: Run, replay: bool) -> None:
        self.run, self._stepper, self.replay, self.last_phase = run, None, replay, None
        self.config = copy.deepcopy(run.config)
        self.selected = None

    def fork(self, from_turn: int, with_current_settings: bool) -> Run:
        """Re-run from a turn: a new linked run; optionally with the settings as edited now."""
        child = fork_run(self.run, from_turn)
        if with_current_settings:
            keep_task = child.config.task
            child.config = copy.deepcopy(self.config)
            child.config.task = keep_task
        self.open(child, replay=False)
        return child

    def stepper(self) -> Stepper:
        if self.run is None:
            self.start()
        if self._stepper is None or self._stepper.run is not self.run:
            self._stepper = Stepper(self.run, api_key=self.resolved_key(), spend_cap_usd=self.remaining_cap())
        return self._stepper

    def resolved_key(self) -> str | None:
        """Session key, else Streamlit secrets, else the environment (the SDK's own default)."""
        if self.api_key:
            return self.api_key
        try:
            secret = st.secrets.get("ANTHROPIC_API_KEY")
        except Exception:  # no secrets.toml at all is normal
            secret = None
        return secret or os.environ.get("ANTHROPIC_API_KEY")

    def remaining_cap(self) -> float | None:
        # The cap guards real money only; the simulated model costs nothing real.
        if self.spend_cap_usd is None or self.config.provider == "offline":
            return None
        return self.spend_cap_usd

    # -- actions (each records what it did, so the page can highlight the code) -------------
    def act(self, action: str) -> None:
        if self.replay:
            self.message = ("warning", "This is a replay: it never calls the model. Use 'Re-run from this turn'.")
            return
        stepper = self.stepper()
        if action == "phase":
            self.last_phase = stepper.next_phase()
        elif action == "turn":
            stepper.next_turn()
            self.last_phase = Phase.APPEND_RESULTS if self.run.phase == Phase.BUILD_REQUEST else self.run.phase
        elif action == "end":
            stepper.run_to_end()
            self.last_phase = self.run.phase
        elif action == "retry":
            stepper.retry()
            stepper.next_phase()
            self.last_phase = Phase.CALL_MODEL
        self.selected = None

    @property
    def model_label(self) -> str:
        cfg = (self.run.config if self.run else self.config)
        if cfg.provider == "offline":
            return "Simulated model (offline)"
        where = f" at {cfg.base_url}" if cfg.provider == "compatible" else ""
        return f"{cfg.model}{where}"


def get(name: str = "playground") -> LabSession:
    """This browser session's LabSession for one workspace (the Playground, or the lesson being taken)."""
    key = f"{KEY}:{name}"
    if key not in st.session_state:
        st.session_state[key] = LabSession()
    return st.session_state[key]
