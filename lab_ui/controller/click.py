"""What a click asks of the controller (an Action) and what it did (an Outcome, with Notices for the learner)."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType

import streamlit as st


class Action(StrEnum):
    """The step bar's verbs (and Retry under an API error): what LabSession.step does."""

    PHASE = "phase"  # one phase of the loop
    TURN = "turn"  # phases until the turn is complete
    END = "end"  # turns until the run stops
    RETRY = "retry"  # the failed model call again, with the key and faults as set now
    RESET = "reset"  # a new run with the settings as they are now

    @property
    def calls_model(self) -> bool:
        return self is not Action.RESET


class Level(StrEnum):
    """How a notice is shown."""

    INFO = "info"
    SUCCESS = "success"
    WARNING = "warning"
    ERROR = "error"


@dataclass(frozen=True)
class Notice:
    """One thing to tell the learner once, already in their language."""

    level: Level
    text: str


@dataclass
class Outcome:
    """What one step did, so the view knows what to redraw (the notices are also kept to be shown once)."""

    action: Action
    notices: list[Notice] = field(default_factory=list)
    new_run: bool = False  # a new run: the header, the draft in the URL and every panel change
    halted_changed: bool = False  # the run stopped (or went on): a step bar drawn before the click is stale


_SHOW = MappingProxyType(
    {Level.INFO: st.info, Level.SUCCESS: st.success, Level.WARNING: st.warning, Level.ERROR: st.error}
)


def show(notice: Notice) -> None:
    _SHOW[notice.level](notice.text)
