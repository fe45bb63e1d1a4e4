"""The program's side of a case: small deterministic fakes answering as the source's tools do, after checking each
input against the tool's own JSON schema the way MCP servers and pydantic-ai do."""

from __future__ import annotations

import re
from typing import Any

from jsonschema import Draft202012Validator, FormatChecker

from fidelity.loops.engines import ENGINES, Answer, arithmetic, as_text, evaluate
from fidelity.loops.text import fold

_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)*)\}")


def _lookup(args: dict[str, Any], path: str) -> Any:
    """The input's value at a dotted path ('observations.0.entityName'), or None."""
    value: Any = args
    for part in path.split("."):
        if isinstance(value, dict) and part in value:
            value = value[part]
        elif isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        else:
            return None
    return value


def _fill(value: Any, args: dict[str, Any]) -> Any:
    """Placeholders {arg} or {arg.0.key} in a templated result, filled from the call's input (other braces left
    alone); a result that is just "{arg}" is that input value itself, as servers that echo what they created do."""
    if isinstance(value, str):
        whole = _PLACEHOLDER.fullmatch(value)
        if whole and _lookup(args, whole.group(1)) is not None:
            return _lookup(args, whole.group(1))

        def one(match: re.Match[str]) -> str:
            found = _lookup(args, match.group(1))
            return match.group(0) if found is None else str(found)

        return _PLACEHOLDER.sub(one, value)
    if isinstance(value, list):
        return [_fill(v, args) for v in value]
    if isinstance(value, dict):
        return {k: _fill(v, args) for k, v in value.items()}
    return value


def same(expected: Any, actual: Any) -> bool:
    """An expected value against a sent one, normalised as a reader would: case, spaces, number formats, and
    dictionaries by the keys named. {"~": regex}, {"any": [...]}, {"approx": x, "tol": d}, {"min": a, "max": b},
    {"evaluates": n} (an arithmetic expression with that value),
    "*" (present), None (absent or null) and lists in any order ({"ordered": [...]} keeps the order, {"has": [...]} allows
    more items)."""
    if expected == "*":
        return actual is not None
    if isinstance(expected, dict) and set(expected) == {"~"}:
        return actual is not None and re.search(expected["~"], str(actual), re.I) is not None
    if isinstance(expected, dict) and set(expected) == {"any"}:
        return any(same(option, actual) for option in expected["any"])
    if isinstance(expected, dict) and set(expected) <= {"approx", "tol", "min", "max"} and expected:
        number = _number(actual)
        if number is None:
            return False
        if "approx" in expected and abs(number - expected["approx"]) > expected.get("tol", 0.05):
            return False
        return expected.get("min", number) <= number <= expected.get("max", number)
    if isinstance(expected, dict) and set(expected) == {"evaluates"}:
        try:
            return abs(evaluate(arithmetic(str(actual))) - expected["evaluates"]) < 1e-6
        except (SyntaxError, ValueError, ZeroDivisionError, TypeError, OverflowError):
            return False
    if isinstance(expected, dict) and set(expected) == {"has"}:
        return isinstance(actual, list) and _each_once(expected["has"], list(actual))
    if isinstance(expected, dict) and set(expected) == {"ordered"}:
        items = expected["ordered"]
        return isinstance(actual, list) and len(items) == len(actual) and all(map(same, items, actual))
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(
            actual.get(k) is None if v is None else same(v, actual.get(k)) for k, v in expected.items()
        )
    if isinstance(expected, list):
        return isinstance(actual, list) and len(expected) == len(actual) and _each_once(expected, list(actual))
    if isinstance(expected, bool) or isinstance(actual, bool):
        return isinstance(expected, bool) and isinstance(actual, bool) and expected == actual
    number = _number(expected)
    if number is not None and _number(actual) is not None:
        return abs(number - (_number(actual) or 0.0)) < 1e-6
    return isinstance(actual, str | int | float) and fold(str(expected)).rstrip("/") == fold(str(actual)).rstrip("/")


def _each_once(expected: list[Any], left: list[Any]) -> bool:
    """Every expected item matches a different one of `left` (which is used up)."""
    for item in expected:
        hit = next((i for i, a in enumerate(left) if same(item, a)), None)
        if hit is None:
            return False
        left.pop(hit)
    return True


def _number(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, str) and re.fullmatch(r"-?\d+(\.\d+)?", value.strip()):
        return float(value)
    return None


class FakeTool:
    """One tool: its definition as the model sees it and the fake that answers for it."""

    def __init__(
        self,
        definition: dict[str, Any],
        fake: dict[str, Any] | None,
        output: bool = False,
        data: dict[str, Any] | None = None,
    ) -> None:
        self.definition = definition
        self.fake = fake or {}
        self.data = data or {}  # the file's shared data (a database's rows), for engines that need it
        self.output = output  # a framework's output tool (pydantic-ai's final_result): calling it ends the run
        self.validator = Draft202012Validator(definition["input_schema"], format_checker=FormatChecker())
        self.used: dict[int, int] = {}  # rule index -> times it answered

    def call(self, args: dict[str, Any]) -> Answer:
        """Validate, then answer as the source's tool would."""
        errors = sorted(self.validator.iter_errors(args), key=lambda e: list(e.absolute_path))
        if errors:
            where = "/".join(str(p) for p in errors[0].absolute_path) or "(root)"
            message = f"Input validation error: Invalid arguments for tool {self.definition['name']}: "
            message += f"{errors[0].message} at {where}"
            return Answer(message, True, f"{errors[0].message} at {where}")
        if self.output:
            return Answer("Final result processed.")
        engine = self.fake.get("engine", "rules")
        try:
            if engine == "rules":
                return _rules(self, args)
            return ENGINES[engine](self.fake, args, self.data)
        except Exception as error:  # noqa: BLE001 - a tool that raises is reported to the model, as loops do
            return Answer(f"Error executing tool {self.definition['name']}: {error}", True)


def _rules(tool: FakeTool, args: dict[str, Any]) -> Answer:
    for index, rule in enumerate(tool.fake.get("rules", [])):
        if rule.get("once") and tool.used.get(index):
            continue
        if all(same(v, args.get(k)) for k, v in rule.get("when", {}).items()):
            tool.used[index] = tool.used.get(index, 0) + 1
            if "error" in rule:
                return Answer(as_text(_fill(rule["error"], args)), True)
            return Answer(as_text(_fill(rule["result"], args)))
    if "default_error" in tool.fake:
        return Answer(as_text(_fill(tool.fake["default_error"], args)), True)
    return Answer(as_text(_fill(tool.fake.get("default", "OK"), args)))
