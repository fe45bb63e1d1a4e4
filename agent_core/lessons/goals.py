"""Goals: checks on a finished Run that prove a lesson or an exercise reached its outcome."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from agent_core.lessons.scenario import LessonError, pick
from agent_core.lessons.scenario import as_list as _as_list
from agent_core.model import Run, RunConfig

STOP_KINDS = (
    "end_turn",
    "max_tokens",
    "stop_sequence",
    "refusal",
    "model_context_window_exceeded",
    "unknown_stop_reason",
    "step_limit",
    "token_budget",
    "cost_budget",
    "timeout",
    "repeated_call",
    "error_budget",
    "api_error",
    "spend_cap",
    "workflow_done",
)
STOP_REASONS = (
    "end_turn",
    "tool_use",
    "max_tokens",
    "stop_sequence",
    "pause_turn",
    "refusal",
    "model_context_window_exceeded",
)


@dataclass
class GoalResult:
    """Whether a finished run meets a goal, and in plain words what is missing."""

    passed: bool
    reasons: list[str] = field(default_factory=list)


def _tools_called(run: Run) -> set[str]:
    asked = {c.get("name") for t in run.turns for c in t.tool_calls}
    ran = {x.name for t in run.turns for x in t.tools}
    return asked | ran


def _recovered(run: Run) -> bool:
    calls = [x for t in run.turns for x in t.tools]
    for i, call in enumerate(calls):
        if call.is_error and any(c.name == call.name and not c.is_error for c in calls[i + 1 :]):
            return bool(run.stop and run.stop.kind == "end_turn")
    return False


def _context_drop(run: Run) -> bool:
    inputs = [t.usage.whole_input for t in run.turns if t.usage]
    return any(b < a for a, b in zip(inputs, inputs[1:]))


def _statuses(run: Run) -> set[int]:
    seen = {x.status for t in run.turns for x in t.exchanges if x.status is not None}
    return seen | {t.error.status for t in run.turns if t.error and t.error.status is not None}


def _text_items(value: Any, lang: str) -> list[list[str]]:
    """Goal text items as groups of alternatives (any one of a group matches)."""
    return [[s.lower() for s in _as_list(item)] for item in _as_list(pick(value, lang))]


def _contains(run: Run, value: Any) -> list[str]:
    text = run.final_text.lower()
    return [
        f"the final text does not contain {' / '.join(g)!r}"
        for g in _text_items(value, run.config.language)
        if not any(s in text for s in g)
    ]


def _not_contains(run: Run, value: Any) -> list[str]:
    text = run.final_text.lower()
    return [f"the final text contains {s!r}" for g in _text_items(value, run.config.language) for s in g if s in text]


def config_value(config: RunConfig, path: str) -> Any:
    """A RunConfig value by dotted path, e.g. 'limits.max_steps'."""
    value: Any = config
    for part in path.split("."):
        value = getattr(value, part)
    return value


def _config_check(actual: Any, check: str, want: Any) -> bool:
    if check == "set":
        return (actual is not None) == bool(want)
    if check == "equals":
        return actual == want
    if check == "not_equals":
        return actual != want
    if not isinstance(actual, (int, float)) or isinstance(actual, bool):
        return False  # an unset limit is not "at most 8"
    return actual <= want if check == "max" else actual >= want


def _config(run: Run, value: dict) -> list[str]:
    reasons = []
    for path, checks in value.items():
        actual = config_value(run.config, path)
        for check, want in checks.items():
            if not _config_check(actual, check, want):
                reasons.append(f"config {path} is {actual!r}, goal {check} {want!r}")
    return reasons


def _flag(name: str, probe: Callable[[Run], bool]) -> Callable[[Run, Any], list[str]]:
    def check(run: Run, want: Any) -> list[str]:
        got = probe(run)
        return [] if got == bool(want) else [f"{name}: expected {bool(want)}, got {got}"]

    return check


def _stop(run: Run, value: Any) -> list[str]:
    kind = run.stop.kind if run.stop else None
    return [] if kind in _as_list(value) else [f"the run stopped with {kind!r}, goal {value!r}"]


def _seen(run: Run, value: Any) -> list[str]:
    seen = {t.stop_reason for t in run.turns}
    return [f"no turn had stop_reason {r!r}" for r in _as_list(value) if r not in seen]


def _bound(label: str, probe: Callable[[Run], float], upper: bool) -> Callable[[Run, Any], list[str]]:
    def check(run: Run, want: Any) -> list[str]:
        got = probe(run)
        ok = got <= want if upper else got >= want
        return [] if ok else [f"{label} is {got:g}, goal {'at most' if upper else 'at least'} {want:g}"]

    return check


def _called(run: Run, names: list[str]) -> list[str]:
    called = _tools_called(run)
    return [f"{n} was never called" for n in names if n not in called]


def _not_called(run: Run, names: list[str]) -> list[str]:
    called = _tools_called(run)
    return [f"{n} was called" for n in names if n in called]


def _status(run: Run, status: int) -> list[str]:
    return [] if status in _statuses(run) else [f"no HTTP attempt answered {status}"]


GOAL_CHECKS: dict[str, Callable[[Run, Any], list[str]]] = {
    "stop": _stop,
    "stop_reason_seen": _seen,
    "min_turns": _bound("the number of turns", lambda r: len(r.turns), upper=False),
    "max_turns": _bound("the number of turns", lambda r: len(r.turns), upper=True),
    "tools_called": _called,
    "tools_not_called": _not_called,
    "tool_error_seen": _flag("tool_error_seen", lambda r: any(x.is_error for t in r.turns for x in t.tools)),
    "recovered_after_error": _flag("recovered_after_error", _recovered),
    "parallel_calls": _flag("parallel_calls", lambda r: any(len(t.tool_calls) >= 2 for t in r.turns)),
    "final_text_contains": _contains,
    "final_text_not_contains": _not_contains,
    "max_cost_usd": _bound("the cost in USD", lambda r: r.total_cost_usd, upper=True),
    "min_cost_usd": _bound("the cost in USD", lambda r: r.total_cost_usd, upper=False),
    "max_total_tokens": _bound("the total tokens", lambda r: r.total_tokens, upper=True),
    "cache_read": _flag("cache_read", lambda r: any(t.usage and t.usage.cache_read_input_tokens > 0 for t in r.turns)),
    "api_error_status": _status,
    "context_drop": _flag("context_drop", _context_drop),
    "config": _config,
    "approval_denied": _flag(
        "approval_denied", lambda r: any(x.approval == "denied" for t in r.turns for x in t.tools)
    ),
}


def check_goal(goal: dict, run: Run) -> GoalResult:
    """Check every key of a goal against a finished run; unknown keys are a LessonError."""
    unknown = [k for k in goal if k not in GOAL_CHECKS]
    if unknown:
        raise LessonError([f"goal: unknown key {k!r}" for k in unknown])
    reasons = [r for key, value in goal.items() for r in GOAL_CHECKS[key](run, value)]
    return GoalResult(passed=not reasons, reasons=reasons)
