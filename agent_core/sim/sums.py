"""Arithmetic with operation tools (LlamaIndex's add / multiply): an expression of several operations is worked out
with one call per operation, innermost first ("20+(2*4)": multiply(2, 4), then add(20, 8)); operations that do not
depend on each other go in one reply."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from agent_core.sim.text import arithmetic, meaning
from agent_core.sim.text.reader import View

_OPS = {"+": "add", "-": "subtract", "*": "multiply", "/": "divide", "^": "power"}
_TOKEN = re.compile(r"\d+(?:\.\d+)?|[-+*/^()]")


@dataclass
class Node:
    """One operation of the expression, or a number (op '')."""

    op: str
    left: Node | None = None
    right: Node | None = None
    value: float | None = None

    def text(self) -> str:
        if not self.op:
            return arithmetic.format_number(self.value or 0)
        assert self.left is not None and self.right is not None
        return f"({self.left.text()}{self.op}{self.right.text()})"


def parse(expression: str) -> Node | None:
    tokens = _TOKEN.findall(expression.replace("**", "^"))
    if "".join(tokens) != expression.replace(" ", "").replace("**", "^"):
        return None
    try:
        node, rest = _sum(tokens)
    except (IndexError, ValueError):
        return None
    return None if rest else node


def _sum(tokens: list[str]) -> tuple[Node, list[str]]:
    node, tokens = _product(tokens)
    while tokens and tokens[0] in "+-":
        right, rest = _product(tokens[1:])
        node, tokens = Node(tokens[0], node, right), rest
    return node, tokens


def _product(tokens: list[str]) -> tuple[Node, list[str]]:
    node, tokens = _power(tokens)
    while tokens and tokens[0] in "*/":
        right, rest = _power(tokens[1:])
        node, tokens = Node(tokens[0], node, right), rest
    return node, tokens


def _power(tokens: list[str]) -> tuple[Node, list[str]]:
    node, tokens = _atom(tokens)
    if tokens and tokens[0] == "^":
        right, rest = _power(tokens[1:])
        return Node("^", node, right), rest
    return node, tokens


def _atom(tokens: list[str]) -> tuple[Node, list[str]]:
    if tokens[0] == "(":
        node, rest = _sum(tokens[1:])
        if not rest or rest[0] != ")":
            raise ValueError("unbalanced")
        return node, rest[1:]
    return Node("", value=float(tokens[0])), tokens[1:]


def operation_tools(view: View) -> dict[str, tuple[dict[str, Any], dict[str, Any]]]:
    """The request's tools for single operations ('+' -> add), each with the input that picks its operation (the
    course's calculator(operation, operand1, operand2): {'operation': 'add'}), when no tool takes an expression."""
    found: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {}
    for tool, key in zip(view.tools, view.tool_keys, strict=False):
        props = (tool.get("input_schema") or {}).get("properties") or {}
        numeric = [p for p, v in props.items() if isinstance(v, dict) and v.get("type") in ("number", "integer")]
        texts = [p for p, v in props.items() if isinstance(v, dict) and v.get("type") == "string"]
        if texts and not numeric:
            return {}  # a calculator of expressions: it takes the whole sum at once
        if len(numeric) != 2 or len(texts) > 1:
            continue
        options = props[texts[0]].get("enum") or [] if texts else []
        if texts and not options:
            continue
        for symbol, concept in _OPS.items():
            if symbol in found:
                continue
            if not texts and concept in meaning.profile(key).name:
                found[symbol] = (tool, {})
            picked = next((o for o in options if isinstance(o, str) and concept in meaning.concepts(o)), None)
            if picked is not None:
                found[symbol] = (tool, {texts[0]: picked})
    return found


def plan(view: View, expression: str) -> tuple[list[tuple[dict[str, Any], dict[str, Any]]], str | None]:
    """(calls to make now, the final value once every operation is answered); ([], None) when it does not apply."""
    tools = operation_tools(view)
    tree = parse(expression)
    if len(tools) < 2 or tree is None or not tree.op or _count(tree) < 2:
        return [], None
    done = {(a.name, _pair(a.input)): a.output for a in view.episode if a.status == "ok"}
    calls: list[tuple[dict[str, Any], dict[str, Any]]] = []
    value = _resolve(tree, tools, done, calls)
    return calls, (arithmetic.format_number(value) if value is not None and not calls else None)


def _count(node: Node) -> int:
    return 0 if not node.op else 1 + _count(node.left or Node("")) + _count(node.right or Node(""))


def _pair(args: dict[str, Any]) -> tuple[Any, ...]:
    """A call's input as a key: numbers by value (4 and 4.0 alike), other values as they are."""
    numbers = (int, float)
    return tuple(sorted((k, float(v) if isinstance(v, numbers) else str(v)) for k, v in args.items()))


def _resolve(
    node: Node,
    tools: dict[str, tuple[dict[str, Any], dict[str, Any]]],
    done: dict[tuple[str, tuple[Any, ...]], str],
    calls: list[Any],
) -> float | None:
    """The node's value, if every operation under it is answered; else the operations to call now are added."""
    if not node.op:
        return node.value
    assert node.left is not None and node.right is not None
    left, right = _resolve(node.left, tools, done, calls), _resolve(node.right, tools, done, calls)
    if left is None or right is None:
        return None
    if node.op not in tools:  # no tool for this operation: worked out in the head, as a model would
        value = arithmetic.evaluate(f"{arithmetic.format_number(left)}{node.op}{arithmetic.format_number(right)}")
        return float(value) if value is not None else None
    tool, fixed = tools[node.op]
    args = fixed | _args(tool, left, right)
    answer = done.get((str(tool.get("name")), _pair(args)))
    if answer is None:
        calls.append((tool, args))
        return None
    numbers = re.findall(r"-?\d+(?:\.\d+)?", answer)
    return float(numbers[0]) if numbers else None


def _args(tool: dict[str, Any], left: float, right: float) -> dict[str, Any]:
    props = (tool.get("input_schema") or {}).get("properties") or {}
    names = [p for p, v in props.items() if isinstance(v, dict) and v.get("type") in ("number", "integer")]
    out: dict[str, Any] = {}
    for name, value in zip(names, (left, right), strict=False):
        integer = props[name].get("type") == "integer" or float(value).is_integer()
        out[name] = int(value) if integer else value
    return out
