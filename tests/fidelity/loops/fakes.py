"""The program's side of a case: small deterministic fakes answering as the source's tools do, after checking each
input against the tool's own JSON schema the way MCP servers and pydantic-ai do."""

from __future__ import annotations

import ast
import json
import operator
import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from jsonschema import Draft202012Validator, FormatChecker

from fidelity.loops.text import fold

# The fakes' "now": every clock in the corpus reads this instant, so results never depend on the day it runs.
NOW = datetime(2026, 12, 1, 10, 0, tzinfo=ZoneInfo("UTC"))
_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)*)\}")
_OPS: dict[type, Any] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.Pow: operator.pow,
    ast.Mod: operator.mod,
    ast.FloorDiv: operator.floordiv,
    ast.USub: operator.neg,
    ast.UAdd: operator.pos,
}


@dataclass
class Answer:
    """What the program sends back for one call."""

    text: str
    is_error: bool = False
    invalid: str = ""  # the schema violation, when the input did not validate


def as_text(result: Any) -> str:
    """A result as the tool returns it: text unchanged, anything else as JSON."""
    return result if isinstance(result, str) else json.dumps(result, ensure_ascii=False, indent=2)


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
    "*" (present), None (absent) and lists in any order ({"ordered": [...]} keeps the order, {"has": [...]} allows
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
            return abs(_evaluate(_arithmetic(str(actual))) - expected["evaluates"]) < 1e-6
        except (SyntaxError, ValueError, ZeroDivisionError, TypeError, OverflowError):
            return False
    if isinstance(expected, dict) and set(expected) == {"has"}:
        return isinstance(actual, list) and _each_once(expected["has"], list(actual))
    if isinstance(expected, dict) and set(expected) == {"ordered"}:
        items = expected["ordered"]
        return isinstance(actual, list) and len(items) == len(actual) and all(map(same, items, actual))
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(
            (k not in actual) if v is None else same(v, actual.get(k)) for k, v in expected.items()
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

    def __init__(self, definition: dict[str, Any], fake: dict[str, Any] | None, output: bool = False) -> None:
        self.definition = definition
        self.fake = fake or {}
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
            return ENGINES[engine](self, args)
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


def _evaluate(expression: str) -> float:
    def value(node: ast.AST) -> Any:
        if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
            return node.value
        if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
            return _OPS[type(node.op)](value(node.left), value(node.right))
        if isinstance(node, ast.UnaryOp) and type(node.op) in _OPS:
            return _OPS[type(node.op)](value(node.operand))
        raise ValueError("unsupported expression")

    return value(ast.parse(expression, mode="eval").body)


def _number_text(value: float) -> str:
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return str(round(value, 10) if isinstance(value, float) else value)


def _arithmetic(expression: str) -> str:
    """An expression as Python reads it, keeping only digits and operators (as the cookbook's calculator does)."""
    expression = expression.replace("×", "*").replace("÷", "/").replace("^", "**").replace(",", "")
    return re.sub(r"[^0-9+\-*/().% ]", "", expression)


def _calculator(tool: FakeTool, args: dict[str, Any]) -> Answer:
    """The cookbook's calculator: eval() of the expression after stripping what is not a digit or an operator."""
    expression = str(args[tool.fake.get("param", "expression")])
    if tool.fake.get("strip", True):
        expression = _arithmetic(expression)
    try:
        return Answer(_number_text(_evaluate(expression)))
    except (SyntaxError, ValueError, ZeroDivisionError, TypeError, OverflowError):
        return Answer(tool.fake.get("invalid", "Error: Invalid expression"), bool(tool.fake.get("invalid_is_error")))


def _arith(tool: FakeTool, args: dict[str, Any]) -> Answer:
    """add / multiply / ... over the named parameters, returning the number as the function would."""
    values = [float(args[name]) for name in tool.fake["args"]]
    ops = {"add": operator.add, "subtract": operator.sub, "multiply": operator.mul, "divide": operator.truediv}
    ops |= {"power": operator.pow, "modulus": operator.mod}
    result = values[0]
    for other in values[1:]:
        result = ops[tool.fake["op"]](result, other)
    if tool.fake.get("float"):
        return Answer(str(float(result)))
    return Answer(_number_text(result))


def _zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as error:
        raise ValueError(f"Invalid timezone: {error}") from None


def _time_result(name: str, moment: datetime) -> dict[str, Any]:
    stamp = moment.isoformat(timespec="seconds")
    return {"timezone": name, "datetime": stamp, "day_of_week": moment.strftime("%A"), "is_dst": bool(moment.dst())}


def _time_now(tool: FakeTool, args: dict[str, Any]) -> Answer:
    """The MCP time server's get_current_time, at the corpus's fixed now."""
    name = str(args["timezone"])
    try:
        return Answer(as_text(_time_result(name, NOW.astimezone(_zone(name)))))
    except ValueError as error:
        return Answer(str(error), True)


def _time_convert(tool: FakeTool, args: dict[str, Any]) -> Answer:
    """The MCP time server's convert_time: HH:MM today in the source zone, shown in the target zone."""
    try:
        source, target = _zone(str(args["source_timezone"])), _zone(str(args["target_timezone"]))
        parsed = datetime.strptime(str(args["time"]), "%H:%M")
    except ValueError as error:
        text = str(error) if "timezone" in str(error) else "Invalid time format. Expected HH:MM [24-hour format]"
        return Answer(text, True)
    today = NOW.astimezone(source)
    start = datetime(today.year, today.month, today.day, parsed.hour, parsed.minute, tzinfo=source)
    end = start.astimezone(target)
    hours = ((end.utcoffset() or timedelta()) - (start.utcoffset() or timedelta())).total_seconds() / 3600
    difference = f"{hours:+.1f}h" if hours.is_integer() else f"{hours:+.2f}".rstrip("0").rstrip(".") + "h"
    result = {
        "source": _time_result(str(args["source_timezone"]), start),
        "target": _time_result(str(args["target_timezone"]), end),
        "time_difference": difference,
    }
    return Answer(as_text(result))


ENGINES = {
    "rules": _rules,
    "calculator": _calculator,
    "arith": _arith,
    "time_now": _time_now,
    "time_convert": _time_convert,
}
