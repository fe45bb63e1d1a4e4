"""Predict, then reveal: the learner guesses a turn's stop_reason, tool and what gets appended; the run says."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from agent_core.model import Run, Turn
from agent_core.teaching.learn.facts import Fact, fact
from agent_core.vocab import Phase, StopReason

NO_TOOL = ""  # the prediction "no tool is called"
PREDICTABLE_STOP_REASONS = (
    StopReason.TOOL_USE,
    StopReason.END_TURN,
    StopReason.MAX_TOKENS,
    StopReason.PAUSE_TURN,
    StopReason.REFUSAL,
)


class Appended(StrEnum):
    """What the loop adds to the history after one model call."""

    REPLY_AND_RESULTS = "reply_and_results"  # the assistant reply, then ONE user message of tool_result blocks
    REPLY_ONLY = "reply_only"  # the assistant reply, and no results (the loop stops or calls again)
    NOTHING = "nothing"  # neither (a buggy loop that forgets the reply)
    SOMETHING_ELSE = "something_else"  # any other shape (e.g. a context policy rewrote the history)


@dataclass
class Prediction:
    """The learner's guesses for one turn; None means "no guess" for that part."""

    turn: int
    stop_reason: str | None = None
    tool: str | None = None  # a tool name, or NO_TOOL
    appended: Appended | None = None


@dataclass
class Verdict:
    """One guessed part: what was guessed, what happened, and why."""

    part: str  # "stop_reason" | "tool" | "appended"
    guessed: str
    actual: str
    correct: bool
    why: Fact


@dataclass
class Reveal:
    """The scored prediction for a finished turn (or why it cannot be scored)."""

    turn: int
    verdicts: list[Verdict] = field(default_factory=list)
    unscored: Fact | None = None

    @property
    def score(self) -> int:
        return sum(v.correct for v in self.verdicts)


def target_turn(run: Run | None) -> int:
    """The number of the turn whose model call the learner can still predict."""
    if run is None:
        return 1
    if run.phase in (Phase.BUILD_REQUEST, Phase.CALL_MODEL):
        return len(run.turns) + (run.phase == Phase.BUILD_REQUEST)
    return len(run.turns) + 1  # this turn's reply is already in: the next one is predictable


def ready(run: Run | None, prediction: Prediction) -> bool:
    """True once the predicted turn is complete: its reply read and its results appended (or the run stopped)."""
    if run is None or len(run.turns) < prediction.turn:
        return False
    later = len(run.turns) > prediction.turn
    return later or run.stop is not None or run.phase in (Phase.BUILD_REQUEST, Phase.DONE)


def appended_of(run: Run, turn: Turn) -> Appended:
    """What the loop really added to the history after this turn's call (read from the record, not the rules)."""
    before = len((turn.request or {}).get("messages") or [])
    if turn.index == len(run.turns):
        return _classify(run.messages[before:])
    following = run.turns[turn.index].request or {}
    if run.config.context_policy == "none" and following.get("messages") is not None:
        return _classify(following["messages"][before:])
    # A context policy rewrote the later history, so read what this turn itself built.
    if "forget_assistant_reply" in run.config.bugs:
        return Appended.NOTHING
    return Appended.REPLY_AND_RESULTS if turn.tool_results_message else Appended.REPLY_ONLY


def _classify(new: list[dict[str, Any]]) -> Appended:
    roles = [m.get("role") for m in new]
    if not new:
        return Appended.NOTHING
    if roles == ["assistant"]:
        return Appended.REPLY_ONLY
    content = new[1].get("content") if len(new) == 2 else None
    if roles == ["assistant", "user"] and isinstance(content, list) and _has_result(content):
        return Appended.REPLY_AND_RESULTS
    return Appended.SOMETHING_ELSE


def _has_result(blocks: list[Any]) -> bool:
    return any(isinstance(b, dict) and b.get("type") == "tool_result" for b in blocks)


def reveal(run: Run, prediction: Prediction) -> Reveal:
    """Score a prediction against the finished turn, each part with the reason it came out that way."""
    out = Reveal(prediction.turn)
    turn = run.turns[prediction.turn - 1]
    if turn.error is not None or turn.stop_reason is None:
        out.unscored = fact("call_failed", message=turn.error or "")  # the UI words the error's facts
        return out
    names = [c.get("name", "") for c in turn.tool_calls]
    if prediction.stop_reason is not None:
        out.verdicts.append(_stop_verdict(prediction.stop_reason, turn, names, run.config.max_tokens))
    if prediction.tool is not None:
        out.verdicts.append(_tool_verdict(prediction.tool, names))
    if prediction.appended is not None:
        out.verdicts.append(_appended_verdict(prediction.appended, run, turn, names))
    return out


def _stop_verdict(guess: str, turn: Turn, names: list[str], max_tokens: int) -> Verdict:
    reason = str(turn.stop_reason)
    if reason == StopReason.TOOL_USE:
        why = fact("stop_tool_use", tools=", ".join(names))
    elif reason == StopReason.END_TURN:
        why = fact("stop_end_turn")
    elif reason == StopReason.MAX_TOKENS:
        why = fact("stop_max_tokens", max_tokens=max_tokens)
    else:
        why = fact("stop_other", reason=reason)
    return Verdict("stop_reason", guess, reason, guess == reason, why)


def _tool_verdict(guess: str, names: list[str]) -> Verdict:
    actual = ", ".join(names)
    correct = guess in names if guess != NO_TOOL else not names
    why = fact("tool_called", tools=actual, n=len(names)) if names else fact("tool_none")
    return Verdict("tool", guess, actual, correct, why)


def _appended_verdict(guess: Appended, run: Run, turn: Turn, names: list[str]) -> Verdict:
    actual = appended_of(run, turn)
    codes = {
        Appended.REPLY_AND_RESULTS: "appended_reply_and_results",
        Appended.REPLY_ONLY: "appended_reply_only",
        Appended.NOTHING: "appended_nothing",
        Appended.SOMETHING_ELSE: "appended_something_else",
    }
    why = fact(codes[actual], n=len(names), reason=str(turn.stop_reason))
    return Verdict("appended", guess.value, actual.value, guess == actual, why)
