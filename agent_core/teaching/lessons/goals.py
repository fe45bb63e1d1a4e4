"""Goals: checks on a finished Run that prove a lesson or an exercise reached its outcome."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from agent_core.facts import Fact
from agent_core.model import Run, RunConfig
from agent_core.teaching.lessons.meaning import alternatives, describes_misses, mentions, names_place, same_text
from agent_core.teaching.lessons.scenario import LessonError, pick
from agent_core.teaching.lessons.scenario import as_list as _as_list
from agent_core.vocab import Approval, StopKind, StopReason

STOP_KINDS = tuple(k.value for k in StopKind)
STOP_REASONS = tuple(r.value for r in StopReason)


@dataclass
class Miss(Fact[str, dict[str, Any]]):
    """One unmet part of a goal as a structured fact: a kind (see MISS_CODES) and its values.

    The UI renders it through the translation catalogue (lab_ui/lessons/goal_feedback.py), so no English
    sentence reaches a Russian or Polish learner."""

    params: dict[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        shown = ", ".join(f"{k}={v!r}" for k, v in self.params.items())
        return f"{self.kind}({shown})"


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
        elif isinstance(value, dict):  # tool_choice.type, tool_choice.name
            value = value.get(part)
        else:
            value = getattr(value, part)
    return value


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _config_check(actual: Any, check: str, want: Any, base: Any, lang: str) -> bool:
    if check == "set":
        return (actual is not None) == bool(want)
    if check == "equals":
        return bool(actual == want)
    if check == "not_equals":
        return bool(actual != want)
    if check == "changed":  # whitespace is not a change: a space added to the system prompt says nothing new
        return (not same_text(actual, base)) == bool(want)
    if check == "one_of":
        return actual in want
    if check == "contains":  # any of the alternatives (per language if given so), case and accents ignored
        return mentions(actual, alternatives(want, lang))
    if check == "not_contains":
        return not mentions(actual, alternatives(want, lang))
    if not _number(actual):
        return False  # an unset limit is not "at most 8"
    return bool(actual <= want if check == "max" else actual >= want)


CONFIG_CHECKS = (
    "set",
    "max",
    "min",
    "equals",
    "not_equals",
    "changed",
    "one_of",
    "contains",
    "not_contains",
    "describes",
)


def _config(run: Run, value: dict[str, Any], base: RunConfig | None) -> list[Miss]:
    misses = []
    lang = run.config.language
    for path, checks in value.items():
        actual = config_value(run.config, path)
        before = config_value(base, path) if base is not None else None
        for check, want in checks.items():
            if check == "changed" and base is None:
                raise LessonError([f"goal: config {path}: 'changed' needs the lesson's scenario to compare with"])
            if check == "describes":
                misses += [Miss(f"config_{code}", {"path": path, **v}) for code, v in describes_misses(actual, want)]
            elif not _config_check(actual, check, want, before, lang):
                code = f"config_{check}" + ("" if check not in ("set", "changed") or want else "_not")
                shown = " / ".join(alternatives(want, lang)) if check in ("contains", "not_contains") else want
                misses.append(Miss(code, {"path": path, "got": _shown(actual), "want": _shown(shown)}))
    return _one_range(misses)


def _one_range(misses: list[Miss]) -> list[Miss]:
    """An unset limit fails both ends of "from 1 to 8": say it once, as the range the exercise asks for."""
    ends = {(m.kind, m.params.get("path")): m for m in misses if m.kind in ("config_min", "config_max")}
    out: list[Miss] = []
    for miss in misses:
        path = miss.params.get("path")
        low, high = ends.get(("config_min", path)), ends.get(("config_max", path))
        if low is None or high is None or miss not in (low, high):
            out.append(miss)
        elif not any(m.kind == "config_range" and m.params["path"] == path for m in out):
            values = {"path": path, "got": miss.params["got"], "low": low.params["want"], "high": high.params["want"]}
            out.append(Miss("config_range", values))
    return out


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


def _inputs(run: Run) -> list[tuple[str, Any]]:
    """Every tool call's (name, input), asked for by the model or run by the program (a workflow's steps)."""
    asked = [(c.get("name"), c.get("input")) for t in run.turns for c in t.tool_calls]
    ran = [(x.name, x.input) for t in run.turns for x in t.tools]
    return [(str(n), i) for n, i in asked + ran if isinstance(i, dict)]


def _tool_inputs(run: Run, wanted: list[dict[str, Any]], base: RunConfig | None) -> list[Miss]:
    """Each wanted call ({"tool", "input": {field: alternatives}}) was made with those values."""
    calls, lang, misses = _inputs(run), run.config.language, []
    for want in wanted:
        fields = want.get("input", {})
        if not any(
            name == want["tool"] and all(mentions(args.get(f), alternatives(v, lang)) for f, v in fields.items())
            for name, args in calls
        ):
            shown = ", ".join(f"{f}={' / '.join(alternatives(v, lang))}" for f, v in fields.items())
            misses.append(Miss("tool_input_missing", {"tool": want["tool"], "input": shown}))
    return misses


def _argument_from(run: Run, want: dict[str, Any], base: RunConfig | None) -> list[Miss]:
    """Every call of a tool took a field's value from one config text ("in") and not from another ("not_in")."""
    tool, name = want["tool"], want["field"]
    values = [str(args.get(name)) for t, args in _inputs(run) if t == tool and args.get(name)]
    if not values:
        return [Miss("tool_not_called", {"tool": tool})]
    source, other = str(config_value(run.config, want["in"])), want.get("not_in")
    avoid = str(config_value(run.config, other)) if other else ""
    bad = [v for v in values if not names_place(source, v) or (other and names_place(avoid, v))]
    return [Miss("argument_not_from", {"tool": tool, "field": name, "got": v, "source": want["in"]}) for v in bad[:1]]


def _kept(value: Any) -> Any:
    """A config value as the exercise compares it: no tool_choice and {"type": "auto"} are the same choice."""
    return None if value == {"type": "auto"} else value


def _unchanged(run: Run, paths: list[str], base: RunConfig | None) -> list[Miss]:
    """Settings the exercise does not ask to touch still hold the lesson's values (whitespace aside): the outcome
    must come from the change asked for, not from a forced tool_choice or a system prompt that says the answer."""
    if base is None:
        raise LessonError(["goal: 'unchanged' needs the lesson's scenario to compare with"])
    return [
        Miss("config_changed_not", {"path": p, "got": _shown(config_value(run.config, p)), "want": ""})
        for p in paths
        if not same_text(_kept(config_value(run.config, p)), _kept(config_value(base, p)))
    ]


def _one_failed_one_worked(run: Run) -> bool:
    return any(any(x.is_error for x in t.tools) and any(not x.is_error for x in t.tools) for t in run.turns)


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
        "approval_denied", lambda r: any(x.approval == Approval.DENIED for t in r.turns for x in t.tools)
    ),
    "one_failed_one_worked": _flag("one_failed_one_worked", _one_failed_one_worked),
    "tool_inputs": _tool_inputs,
    "argument_from": _argument_from,
    "unchanged": _unchanged,
}

# Every code a Miss can carry; lab_ui/lessons/goal_feedback.py has one catalogue sentence per code (a test checks).
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
        for flag in (
            "tool_error",
            "recovery",
            "parallel_calls",
            "cache_read",
            "context_drop",
            "approval_denied",
            "one_failed_one_worked",
        )
        for side in ("missing", "present")
    ),
    "tool_input_missing",
    "argument_not_from",
    *(f"config_{c}" for c in CONFIG_CHECKS if c != "describes"),
    "config_set_not",
    "config_changed_not",
    "config_range",
    *(f"config_describes_{part}" for part in ("claims", "disclaims", "not_claims", "sentences")),
)


def check_goal(goal: dict[str, Any], run: Run, base: RunConfig | None = None) -> GoalResult:
    """Check every key of a goal against a finished run; `base` is the lesson's own scenario, for 'changed' checks."""
    unknown = [k for k in goal if k not in GOAL_CHECKS]
    if unknown:
        raise LessonError([f"goal: unknown key {k!r}" for k in unknown])
    misses = [m for key, value in goal.items() for m in GOAL_CHECKS[key](run, value, base)]
    unique: list[Miss] = []  # two checks may find the same miss (a tool never called): say it once
    for miss in misses:
        if miss not in unique:
            unique.append(miss)
    return GoalResult(passed=not unique, misses=unique)
