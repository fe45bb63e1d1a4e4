"""Goals: checks on a finished Run that prove a lesson or an exercise reached its outcome."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from agent_core.lessons.scenario import LessonError, pick
from agent_core.lessons.scenario import as_list as _as_list
from agent_core.model import Run, RunConfig
from agent_core.vocab import StopKind, StopReason

STOP_KINDS = tuple(k.value for k in StopKind)
STOP_REASONS = tuple(r.value for r in StopReason)


@dataclass(frozen=True)
class Miss:
    """One unmet part of a goal as a structured fact: a code (see MISS_CODES) and its values.

    The UI renders it through the translation catalogue (lab_ui/goal_feedback.py), so no English
    sentence reaches a Russian or Polish learner."""

    code: str
    values: dict[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        shown = ", ".join(f"{k}={v!r}" for k, v in self.values.items())
        return f"{self.code}({shown})"


@dataclass
class GoalResult:
    """Whether a finished run meets a goal, and the unmet parts as structured misses."""

    passed: bool
    misses: list[Miss] = field(default_factory=list)

    @property
    def reasons(self) -> list[str]:
        """The misses as short plain strings (for logs and test messages; the UI uses the catalogue)."""
        return [str(m) for m in self.misses]


def _tools_called(run: Run) -> set[str]:
    asked = {c["name"] for t in run.turns for c in t.tool_calls if isinstance(c.get("name"), str)}
    ran = {x.name for t in run.turns for x in t.tools}
    return asked | ran


def _recovered(run: Run) -> bool:
    calls = [x for t in run.turns for x in t.tools]
    for i, call in enumerate(calls):
        if call.is_error and any(c.name == call.name and not c.is_error for c in calls[i + 1 :]):
            return bool(run.stop and run.stop.kind == StopKind.END_TURN)
    return False


def _context_drop(run: Run) -> bool:
    inputs = [t.usage.whole_input for t in run.turns if t.usage]
    return any(b < a for a, b in zip(inputs, inputs[1:], strict=False))


def _statuses(run: Run) -> set[int]:
    seen = {x.status for t in run.turns for x in t.exchanges if x.status is not None}
    return seen | {t.error.status for t in run.turns if t.error and t.error.status is not None}


def _text_items(value: Any, lang: str) -> list[list[str]]:
    """Goal text items as groups of alternatives (any one of a group matches)."""
    return [[s.lower() for s in _as_list(item)] for item in _as_list(pick(value, lang))]


def _contains(run: Run, value: Any, base: RunConfig | None) -> list[Miss]:
    text = run.final_text.lower()
    return [
        Miss("text_missing", {"text": " / ".join(g)})
        for g in _text_items(value, run.config.language)
        if not any(s in text for s in g)
    ]


def _not_contains(run: Run, value: Any, base: RunConfig | None) -> list[Miss]:
    text = run.final_text.lower()
    return [Miss("text_present", {"text": s}) for g in _text_items(value, run.config.language) for s in g if s in text]


def config_value(config: RunConfig, path: str) -> Any:
    """A RunConfig value by dotted path: 'limits.max_steps', 'tools.get_weather.description', 'tool_names'."""
    if path == "tool_names":
        return sorted(t.name for t in config.tools)
    value: Any = config
    parts = path.split(".")
    for n, part in enumerate(parts):
        if value is None:
            return None
        if n == 1 and parts[0] == "tools":
            value = next((t for t in value if t.name == part), None)
        else:
            value = getattr(value, part)
    return value


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _config_check(actual: Any, check: str, want: Any, base: Any) -> bool:
    if check == "set":
        return (actual is not None) == bool(want)
    if check == "equals":
        return bool(actual == want)
    if check == "not_equals":
        return bool(actual != want)
    if check == "changed":
        return bool(actual != base) == bool(want)
    if check == "one_of":
        return actual in want
    if check == "contains":
        return isinstance(actual, (str, list)) and (
            want.lower() in actual.lower() if isinstance(actual, str) else want in actual
        )
    if not _number(actual):
        return False  # an unset limit is not "at most 8"
    return bool(actual <= want if check == "max" else actual >= want)


CONFIG_CHECKS = ("set", "max", "min", "equals", "not_equals", "changed", "one_of", "contains")


def _config(run: Run, value: dict[str, Any], base: RunConfig | None) -> list[Miss]:
    misses = []
    for path, checks in value.items():
        actual = config_value(run.config, path)
        before = config_value(base, path) if base is not None else None
        for check, want in checks.items():
            if check == "changed" and base is None:
                raise LessonError([f"goal: config {path}: 'changed' needs the lesson's scenario to compare with"])
            if not _config_check(actual, check, want, before):
                code = f"config_{check}" + ("" if check not in ("set", "changed") or want else "_not")
                misses.append(Miss(code, {"path": path, "got": _shown(actual), "want": _shown(want)}))
    return misses


def _shown(value: Any) -> Any:
    """A config value short enough to quote in feedback."""
    if isinstance(value, str) and len(value) > 80:
        return value[:77] + "..."
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return value


def _flag(name: str, probe: Callable[[Run], bool]) -> Callable[[Run, Any, RunConfig | None], list[Miss]]:
    def check(run: Run, want: Any, base: RunConfig | None) -> list[Miss]:
        return [] if probe(run) == bool(want) else [Miss(f"{name}_{'missing' if want else 'present'}")]

    return check


def _stop(run: Run, value: Any, base: RunConfig | None) -> list[Miss]:
    kind = run.stop.kind if run.stop else None
    want = " / ".join(_as_list(value))
    return [] if kind in _as_list(value) else [Miss("stop", {"got": kind or "-", "want": want})]


def _seen(run: Run, value: Any, base: RunConfig | None) -> list[Miss]:
    seen = {t.stop_reason for t in run.turns}
    return [Miss("stop_reason_unseen", {"reason": r}) for r in _as_list(value) if r not in seen]


def _bound(code: str, probe: Callable[[Run], float], upper: bool) -> Callable[[Run, Any, RunConfig | None], list[Miss]]:
    def check(run: Run, want: Any, base: RunConfig | None) -> list[Miss]:
        got = probe(run)
        ok = got <= want if upper else got >= want
        return [] if ok else [Miss(code, {"got": round(got, 6), "want": want})]

    return check


def _called(run: Run, names: list[str], base: RunConfig | None) -> list[Miss]:
    called = _tools_called(run)
    return [Miss("tool_not_called", {"tool": n}) for n in names if n not in called]


def _not_called(run: Run, names: list[str], base: RunConfig | None) -> list[Miss]:
    called = _tools_called(run)
    return [Miss("tool_called", {"tool": n}) for n in names if n in called]


def _status(run: Run, status: int, base: RunConfig | None) -> list[Miss]:
    return [] if status in _statuses(run) else [Miss("status_unseen", {"status": status})]


GoalCheck = Callable[[Run, Any, "RunConfig | None"], list[Miss]]
GOAL_CHECKS: dict[str, GoalCheck] = {
    "stop": _stop,
    "stop_reason_seen": _seen,
    "min_turns": _bound("turns_too_few", lambda r: len(r.turns), upper=False),
    "max_turns": _bound("turns_too_many", lambda r: len(r.turns), upper=True),
    "tools_called": _called,
    "tools_not_called": _not_called,
    "tool_error_seen": _flag("tool_error", lambda r: any(x.is_error for t in r.turns for x in t.tools)),
    "recovered_after_error": _flag("recovery", _recovered),
    "parallel_calls": _flag("parallel_calls", lambda r: any(len(t.tool_calls) >= 2 for t in r.turns)),
    "final_text_contains": _contains,
    "final_text_not_contains": _not_contains,
    "max_cost_usd": _bound("cost_too_high", lambda r: r.total_cost_usd, upper=True),
    "min_cost_usd": _bound("cost_too_low", lambda r: r.total_cost_usd, upper=False),
    "max_total_tokens": _bound("tokens_too_many", lambda r: r.total_tokens, upper=True),
    "cache_read": _flag("cache_read", lambda r: any(t.usage and t.usage.cache_read_input_tokens > 0 for t in r.turns)),
    "api_error_status": _status,
    "context_drop": _flag("context_drop", _context_drop),
    "config": _config,
    "approval_denied": _flag(
        "approval_denied", lambda r: any(x.approval == "denied" for t in r.turns for x in t.tools)
    ),
}

# Every code a Miss can carry; lab_ui/goal_feedback.py has one catalogue sentence per code (a test checks).
MISS_CODES = (
    "stop",
    "stop_reason_unseen",
    "turns_too_few",
    "turns_too_many",
    "tool_not_called",
    "tool_called",
    "text_missing",
    "text_present",
    "cost_too_high",
    "cost_too_low",
    "tokens_too_many",
    "status_unseen",
    *(
        f"{flag}_{side}"
        for flag in ("tool_error", "recovery", "parallel_calls", "cache_read", "context_drop", "approval_denied")
        for side in ("missing", "present")
    ),
    *(f"config_{c}" for c in CONFIG_CHECKS),
    "config_set_not",
    "config_changed_not",
)


def check_goal(goal: dict[str, Any], run: Run, base: RunConfig | None = None) -> GoalResult:
    """Check every key of a goal against a finished run; `base` is the lesson's own scenario, for 'changed' checks."""
    unknown = [k for k in goal if k not in GOAL_CHECKS]
    if unknown:
        raise LessonError([f"goal: unknown key {k!r}" for k in unknown])
    misses = [m for key, value in goal.items() for m in GOAL_CHECKS[key](run, value, base)]
    return GoalResult(passed=not misses, misses=misses)
