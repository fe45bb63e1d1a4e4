"""Validation of lesson.json: every problem is reported as 'file: field: what is wrong'."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import fields
from pathlib import Path
from typing import Any

from agent_core.model import Limits, RunConfig, SimSettings, ToolSpec
from agent_core.teaching.lessons.figures import figure_problems, placeholder_problems
from agent_core.teaching.lessons.goals import CONFIG_CHECKS, GOAL_CHECKS, STOP_KINDS, STOP_REASONS, config_value
from agent_core.teaching.lessons.meaning import DESCRIBES_KEYS
from agent_core.teaching.lessons.scenario import (
    LANGUAGES,
    LessonError,
    build_config,
    catalog_spec,
    deep_merge,
    tools_catalog,
)
from agent_core.teaching.lessons.scenario import (
    as_list as _as_list,
)
from agent_core.vocab import ContextPolicy, LoopBug, Persona

TOOL_CHOICES = ("auto", "any", "tool", "none")

_TOP_REQUIRED = ("id", "order", "curriculum", "title", "summary", "scenario", "questions")
_TOP_OPTIONAL = ("expected", "exercises", "teacher_notes", "sources", "figures", "puzzles", "predictions", "code")
_NOTE_KEYS = ("minutes", "level", "objectives", "numbers", "misconceptions", "discussion")
LEVELS = ("beginner", "intermediate", "advanced")
# Provider, endpoint and language come from the learner's session, never from a lesson.
_SCENARIO_KEYS = tuple(f.name for f in fields(RunConfig) if f.name not in ("provider", "base_url", "language"))
_LIMIT_KEYS = tuple(f.name for f in fields(Limits))
_SIM_KEYS = tuple(f.name for f in fields(SimSettings))
_TOOL_KEYS = tuple(f.name for f in fields(ToolSpec))
_EXERCISE_KEYS = ("id", "title", "instructions", "change", "goal", "hint", "success")
_EXERCISE_OPTIONAL = ("tempting", "accepted", "step")
_QUESTION_KEYS = ("id", "question", "options", "explanation")
_QUESTION_OPTIONAL = ("step",)
FOLDER = re.compile(r"^(\d{2})-([a-z0-9][a-z0-9-]*)$")


class Checker:
    """Collects the problems of one file, each as 'file: field: what is wrong'."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.problems: list[str] = []

    def fail(self, where: str, message: str) -> None:
        self.problems.append(f"{self.label}: {where}: {message}" if where else f"{self.label}: {message}")

    def keys(self, data: Any, where: str, allowed: tuple[str, ...], required: tuple[str, ...] = ()) -> bool:
        if not isinstance(data, dict):
            self.fail(where, "must be an object")
            return False
        for key in data:
            if key not in allowed:
                self.fail(where, f"unknown key {key!r}")
        for key in required:
            if key not in data:
                self.fail(where, f"missing key {key!r}")
        return True

    def text(self, value: Any, where: str, plain: bool = False) -> None:
        if plain and isinstance(value, str) and value.strip():
            return
        if not isinstance(value, dict):
            self.fail(where, "must be an object with " + ", ".join(LANGUAGES) + " texts")
            return
        for key in value:
            if key not in LANGUAGES:
                self.fail(where, f"unknown language {key!r}")
        for lang in LANGUAGES:
            if not (isinstance(value.get(lang), str) and value[lang].strip()):
                self.fail(f"{where}.{lang}", "missing or empty text")

    def one_of(self, value: Any, where: str, allowed: tuple[Any, ...]) -> None:
        for item in _as_list(value):
            if item not in allowed:
                self.fail(where, f"unknown value {item!r}; expected one of {', '.join(allowed)}")


def _at(where: str, key: str) -> str:
    return f"{where}.{key}" if where else key


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_tool(check: Checker, entry: Any, where: str) -> None:
    if isinstance(entry, str):
        if catalog_spec(entry) is None:
            check.fail(where, f"unknown catalog tool {entry!r}")
        return
    if not check.keys(entry, where, _TOOL_KEYS, ("name",)):
        return
    if not re.fullmatch(r"[a-zA-Z0-9_-]{1,64}", str(entry.get("name", ""))):
        check.fail(f"{where}.name", "must match ^[a-zA-Z0-9_-]{1,64}$")
    impl = entry.get("impl") or entry.get("name")
    if isinstance(impl, str) and catalog_spec(impl) is None:
        check.fail(f"{where}.impl", f"unknown catalog tool {impl!r}")
    if "description" in entry:
        check.text(entry["description"], f"{where}.description", plain=True)
    schema = entry.get("input_schema", {"type": "object"})
    if not isinstance(schema, dict) or schema.get("type") != "object":
        check.fail(f"{where}.input_schema", "must be a JSON Schema with type 'object'")


def check_patch(patch: dict[str, Any]) -> None:
    """Raise LessonError when a scenario patch (from an exercise or the lesson page) has unknown keys or values."""
    check = Checker("patch")
    _check_scenario(check, patch, "", partial=True)
    if check.problems:
        raise LessonError(check.problems)


def _check_scenario(check: Checker, data: Any, where: str, partial: bool) -> None:
    if not check.keys(data, where, _SCENARIO_KEYS, () if partial else ("task",)):
        return
    for key in ("task", "system"):
        if key in data:
            check.text(data[key], _at(where, key), plain=True)
    tools = data.get("tools", [])
    if not isinstance(tools, list):
        check.fail(_at(where, "tools"), "must be a list")
        tools = []
    for i, entry in enumerate(tools):
        _check_tool(check, entry, _at(where, f"tools[{i}]"))
    if "limits" in data:
        check.keys(data["limits"], _at(where, "limits"), _LIMIT_KEYS)
    if "sim" in data and check.keys(data["sim"], _at(where, "sim"), _SIM_KEYS) and "persona" in data["sim"]:
        check.one_of(data["sim"]["persona"], _at(where, "sim.persona"), tuple(Persona))
    if "context_policy" in data:
        check.one_of(data["context_policy"], _at(where, "context_policy"), tuple(ContextPolicy))
    if "bugs" in data:
        check.one_of(data["bugs"], _at(where, "bugs"), tuple(LoopBug))
    choice = data.get("tool_choice")
    choice_keys = ("type", "name", "disable_parallel_tool_use")
    if choice is not None and check.keys(choice, _at(where, "tool_choice"), choice_keys):
        check.one_of(choice.get("type"), _at(where, "tool_choice.type"), TOOL_CHOICES)
    if "max_tokens" in data and not (_is_int(data["max_tokens"]) and data["max_tokens"] >= 1):
        check.fail(_at(where, "max_tokens"), "must be an integer >= 1")
    if isinstance(data.get("sandbox"), str):
        try:
            tools_catalog().sandbox_path(data["sandbox"])
        except (KeyError, ValueError, OSError) as err:
            check.fail(_at(where, "sandbox"), f"unknown sandbox {data['sandbox']!r} ({err})")


def _goal_texts_ok(value: Any) -> bool:
    if isinstance(value, dict):
        return set(value) == set(LANGUAGES) and all(_goal_texts_ok(v) for v in value.values())
    return isinstance(value, list) and all(
        isinstance(i, str) or (isinstance(i, list) and i and all(isinstance(s, str) for s in i)) for i in value
    )


def _check_config_goal(check: Checker, value: Any, where: str) -> None:
    if not isinstance(value, dict):
        check.fail(where, "must be an object of dotted config paths")
        return
    probe = RunConfig(task="")
    for path, checks in value.items():
        parts = path.split(".")
        if parts[0] == "tools" and len(parts) > 1 and (len(parts) != 3 or parts[2] not in _TOOL_KEYS):
            check.fail(where, f"unknown config path {path!r}; a tool's field is tools.<name>.<field>")
            continue
        try:
            config_value(probe, path)
        except AttributeError:
            check.fail(where, f"unknown config path {path!r}")
        if check.keys(checks, f"{where}.{path}", CONFIG_CHECKS) and "describes" in checks:
            check.keys(checks["describes"], f"{where}.{path}.describes", DESCRIBES_KEYS)


_GOAL_VALUES: dict[str, tuple[Callable[[Any], bool], str]] = {
    "stop": (lambda v: all(k in STOP_KINDS for k in _as_list(v)), "a stop kind or a list of them"),
    "stop_reason_seen": (lambda v: all(k in STOP_REASONS for k in _as_list(v)), "a stop_reason or a list"),
    "tools_called": (lambda v: isinstance(v, list) and all(isinstance(s, str) for s in v), "a list of tool names"),
    "final_text_contains": (_goal_texts_ok, "a list of strings (or of lists of alternatives), or one per language"),
    "max_cost_usd": (lambda v: isinstance(v, (int, float)) and not isinstance(v, bool), "a number"),
    "min_turns": (_is_int, "an integer"),
    "recovered_after_error": (lambda v: isinstance(v, bool), "true or false"),
    "tool_inputs": (
        lambda v: (
            isinstance(v, list)
            and all(
                isinstance(i, dict) and isinstance(i.get("tool"), str) and isinstance(i.get("input"), dict) for i in v
            )
        ),
        'a list of {"tool": name, "input": {field: text or alternatives}}',
    ),
    "unchanged": (lambda v: isinstance(v, list) and all(isinstance(p, str) for p in v), "a list of config paths"),
    "argument_from": (
        lambda v: isinstance(v, dict) and {"tool", "field", "in"} <= set(v) <= {"tool", "field", "in", "not_in"},
        '{"tool": name, "field": parameter, "in": config path, "not_in": config path}',
    ),
}
for _key, _same in (
    ("tools_not_called", "tools_called"),
    ("final_text_not_contains", "final_text_contains"),
    ("min_cost_usd", "max_cost_usd"),
    ("max_turns", "min_turns"),
    ("max_total_tokens", "min_turns"),
    ("api_error_status", "min_turns"),
):
    _GOAL_VALUES[_key] = _GOAL_VALUES[_same]
for _key in (
    "tool_error_seen",
    "parallel_calls",
    "cache_read",
    "context_drop",
    "approval_denied",
    "one_failed_one_worked",
):
    _GOAL_VALUES[_key] = _GOAL_VALUES["recovered_after_error"]


def _check_goal(check: Checker, goal: Any, where: str) -> None:
    if not check.keys(goal, where, tuple(GOAL_CHECKS)):
        return
    for key, value in goal.items():
        if key == "config":
            _check_config_goal(check, value, f"{where}.config")
        elif key == "unchanged" and isinstance(value, list):
            _check_config_goal(check, {str(p): {} for p in value}, f"{where}.unchanged")
        elif key in _GOAL_VALUES and not _GOAL_VALUES[key][0](value):
            check.fail(f"{where}.{key}", f"must be {_GOAL_VALUES[key][1]}, got {value!r}")


def _check_items(check: Checker, items: Any, where: str, item_check: Callable[[Any, str], None]) -> None:
    if not isinstance(items, list):
        check.fail(where, "must be a list")
        return
    ids = [i.get("id") for i in items if isinstance(i, dict)]
    for dup in sorted({i for i in ids if ids.count(i) > 1}, key=str):
        check.fail(where, f"duplicate id {dup!r}")
    for n, item in enumerate(items):
        item_check(item, f"{where}[{n}]")


def _check_step(check: Checker, item: dict[str, Any], where: str) -> None:
    """`step`, where given, names a narrative step by its number (1-based; the loader checks it exists)."""
    step = item.get("step")
    if step is not None and (not isinstance(step, int) or isinstance(step, bool) or step < 1):
        check.fail(f"{where}.step", "must be a step number (1 for the first ## step)")


def _check_exercise(check: Checker, data: dict[str, Any], item: Any, where: str) -> None:
    if not check.keys(item, where, _EXERCISE_KEYS + _EXERCISE_OPTIONAL, _EXERCISE_KEYS):
        return
    _check_step(check, item, where)
    for key, kind in (("tempting", "wrong changes"), ("accepted", "other correct changes")):
        patches = item.get(key, [])
        if not isinstance(patches, list):
            check.fail(f"{where}.{key}", f"must be a list of {kind} (patches)")
            patches = []
        for n, patch in enumerate(patches):
            _check_scenario(check, patch, f"{where}.{key}[{n}]", partial=True)
    for key in ("title", "instructions", "hint", "success"):
        check.text(item.get(key), f"{where}.{key}")
    _check_scenario(check, item.get("change"), f"{where}.change", partial=True)
    _check_goal(check, item.get("goal"), f"{where}.goal")
    if not check.problems and isinstance(item.get("change"), dict):
        _check_builds(check, deep_merge(data["scenario"], item["change"]), f"{where}.change")


def _check_question(check: Checker, item: Any, where: str) -> None:
    if not check.keys(item, where, _QUESTION_KEYS + _QUESTION_OPTIONAL, _QUESTION_KEYS):
        return
    _check_step(check, item, where)
    check.text(item.get("question"), f"{where}.question")
    check.text(item.get("explanation"), f"{where}.explanation")
    options = item.get("options")
    if not isinstance(options, list) or len(options) < 2:
        check.fail(f"{where}.options", "must be a list of at least two options")
        return
    for n, option in enumerate(options):
        if check.keys(option, f"{where}.options[{n}]", ("text", "correct"), ("text", "correct")):
            check.text(option.get("text"), f"{where}.options[{n}].text")
    correct = [o for o in options if isinstance(o, dict) and o.get("correct") is True]
    if len(correct) != 1:
        check.fail(f"{where}.options", f"exactly one option must be correct, found {len(correct)}")


def _check_builds(check: Checker, scenario: dict[str, Any], where: str) -> None:
    for lang in LANGUAGES:
        try:
            build_config(scenario, lang)
        except (KeyError, TypeError, ValueError) as err:
            check.fail(where, f"does not build a RunConfig in {lang}: {err}")
            return


def check_lesson(check: Checker, data: Any, folder: Path) -> None:
    """Check a parsed lesson.json; problems go into check."""
    if not check.keys(data, "", _TOP_REQUIRED + _TOP_OPTIONAL, _TOP_REQUIRED):
        return
    match = FOLDER.match(folder.name)
    if match and data.get("id") != match.group(2):
        check.fail("id", f"{data.get('id')!r} must match the folder name {folder.name!r}")
    if match and data.get("order") != int(match.group(1)):
        check.fail("order", f"{data.get('order')!r} must match the folder number {match.group(1)}")
    curriculum = data.get("curriculum")
    if not (isinstance(curriculum, list) and curriculum and all(_is_int(n) and 1 <= n <= 10 for n in curriculum)):
        check.fail("curriculum", "must be a non-empty list of section numbers 1-10")
    check.text(data.get("title"), "title")
    check.text(data.get("summary"), "summary")
    _check_scenario(check, data.get("scenario"), "scenario", partial=False)
    _check_goal(check, data.get("expected", {}), "expected")
    if not check.problems:
        _check_builds(check, data["scenario"], "scenario")
    _check_items(check, data.get("exercises", []), "exercises", lambda i, w: _check_exercise(check, data, i, w))
    _check_items(check, data.get("questions"), "questions", lambda i, w: _check_question(check, i, w))
    if "teacher_notes" in data:
        ids = {str(e.get("id")) for e in data.get("exercises") or [] if isinstance(e, dict)}
        _check_teacher_notes(check, data["teacher_notes"], "teacher_notes", ids)
    if "sources" in data:
        _check_sources(check, data["sources"], "sources")
    for n, puzzle in enumerate(data.get("puzzles") or []):
        where = f"puzzles[{n}]"
        if not isinstance(puzzle, dict):
            check.fail(where, "must be an object")
            continue
        _check_scenario(check, puzzle.get("patch", {}), f"{where}.patch", partial=True)
        _check_goal(check, puzzle.get("goal", {}), f"{where}.goal")
        for k, fault in enumerate(puzzle.get("faults") or []):
            if isinstance(fault, dict):
                if fault.get("patch") is not None:  # None: no lab bug matches, the fault is explained, not run
                    _check_scenario(check, fault["patch"], f"{where}.faults[{k}].patch", partial=True)
                _check_goal(check, fault.get("shows", {}), f"{where}.faults[{k}].shows")
    if "figures" in data:
        ids = {str(e.get("id")) for e in data.get("exercises") or [] if isinstance(e, dict)}
        for name, message in figure_problems(data["figures"], ids):
            check.fail(f"figures.{name}" if name else "figures", message)


def _check_teacher_notes(check: Checker, notes: Any, where: str, exercise_ids: set[str]) -> None:
    """minutes, level, and per-language lists of objectives, numbers, misconceptions, discussion questions."""
    if not check.keys(notes, where, _NOTE_KEYS, ("minutes", "level", "objectives")):
        return
    if not (_is_int(notes.get("minutes")) and 1 <= notes["minutes"] <= 240):
        check.fail(f"{where}.minutes", "must be a whole number of minutes, 1-240")
    if "level" in notes:
        check.one_of(notes["level"], f"{where}.level", LEVELS)
    for key in _NOTE_KEYS[2:]:
        if key in notes:
            value = notes[key]
            if key == "numbers" and isinstance(value, dict) and "figures" in value:
                _check_figures(check, value, exercise_ids, f"{where}.numbers")
                value = {k: v for k, v in value.items() if k != "figures"}
            _check_text_lists(check, value, f"{where}.{key}")


def _check_figures(check: Checker, numbers: dict[str, Any], exercise_ids: set[str], where: str) -> None:
    """The measured figures behind the numbers' texts (see agent_core/teaching/lessons/figures.py)."""
    problems = figure_problems(numbers["figures"], exercise_ids)
    for name, message in problems:
        check.fail(f"{where}.figures.{name}" if name else f"{where}.figures", message)
    if not problems:
        for at, message in placeholder_problems(numbers, numbers["figures"]):
            check.fail(f"{where}.{at}", message)


def _check_text_lists(check: Checker, value: Any, where: str) -> None:
    if not isinstance(value, dict) or set(value) != set(LANGUAGES):
        check.fail(where, "must be an object with en, ru, pl lists")
        return
    sizes = set()
    for lang in LANGUAGES:
        items = value[lang]
        if not (isinstance(items, list) and items and all(isinstance(i, str) and i.strip() for i in items)):
            check.fail(f"{where}.{lang}", "must be a non-empty list of texts")
        else:
            sizes.add(len(items))
    if len(sizes) > 1:
        check.fail(where, "every language must list the same number of items")


def _check_sources(check: Checker, sources: Any, where: str) -> None:
    """Where the lesson's facts come from: [{"title", "url", "checked": "YYYY-MM-DD"}]."""
    if not isinstance(sources, list) or not sources:
        check.fail(where, "must be a non-empty list of sources")
        return
    for n, item in enumerate(sources):
        at = f"{where}[{n}]"
        if not check.keys(item, at, ("title", "url", "checked"), ("title", "url", "checked")):
            continue
        if not str(item.get("url", "")).startswith("https://"):
            check.fail(f"{at}.url", "must be an https:// address")
        if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", str(item.get("checked", ""))):
            check.fail(f"{at}.checked", "must be the date checked, YYYY-MM-DD")
        check.text(item.get("title"), f"{at}.title", plain=True)
