"""A tool whose function the learner writes: its signature read from the source without running it and held to the
tool's JSON Schema (at Apply, and for a built-in function picked for an edited schema), and each call run in the
child process of agent_core/tools/user_code.py with the tool's time limit and a memory limit.

Where it runs (OwnCode): in personal mode on the learner's own machine; on a class server not at all, unless the
class's teacher allows it, and then shut in (agent_core/tools/confine.py).
"""

from __future__ import annotations

import ast
import inspect
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from agent_core.tools.user_code import CodeResult, run_python

OWN_IMPL = "own-code"  # ToolSpec.impl of a tool whose ToolSpec.code is the learner's own function
TOOL_MEMORY_MB = 256
# Calls the learner's function with the model's input; a value that is not JSON becomes its str().
HARNESS = 'report({"value": globals()[PAYLOAD["function"]](**PAYLOAD["input"])})'


class OwnCode(StrEnum):
    """Whether this session's runs may execute a tool's own code, and how."""

    RUN = "run"  # personal mode: a child process with limits
    CONFINED = "confined"  # a class server whose teacher allows it: the same, shut in
    OFF = "off"  # a class server whose teacher does not: the call is refused, and the model told why


@dataclass(frozen=True)
class Param:
    """One parameter of the tool's function as the model's input can fill it."""

    name: str
    required: bool  # no default value
    keyword: bool = True  # False for a positional-only one (before `/`), which a keyword cannot fill


@dataclass(frozen=True)
class Signature:
    """The function a tool's code defines for it: its name, its parameters, and whether it takes **kwargs."""

    function: str
    params: tuple[Param, ...] = ()
    any_keyword: bool = False


@dataclass(frozen=True)
class Mismatch:
    """One way the code and the schema disagree, as a structured fact the UI words (code, values); `blocking`
    when every call would fail, else a warning (a call may fail)."""

    code: str
    values: dict[str, Any] = field(default_factory=dict)
    blocking: bool = True


class CodeProblem(ValueError):
    """The source has no usable function for the tool (a syntax error, no def, several and none by its name)."""

    def __init__(self, mismatch: Mismatch) -> None:
        super().__init__(mismatch.code)
        self.mismatch = mismatch


def starter(name: str, schema: dict[str, Any]) -> str:
    """A first function for a tool: its schema's properties as parameters (the optional ones with a default)."""
    props, listed = _properties(schema)
    required = [p for p in listed if p in props]
    names = [p for p in required if p.isidentifier()]
    names += [f"{p}=None" for p in props if p not in required and p.isidentifier()]
    shown = ", ".join(f"{{{p.split('=')[0]}!r}}" for p in names)
    return (
        f"def {name if name.isidentifier() else 'tool'}({', '.join(names)}):\n"
        f'    """What the tool does. The model\'s input arrives as keyword arguments."""\n'
        f'    return f"{name} got {shown}"  # return text, or anything JSON can hold\n'
    )


def signature_of(source: str, tool_name: str) -> Signature:
    """The function of `source` the tool calls: the one named as the tool, else the only one; raises CodeProblem."""
    try:
        tree = ast.parse(source, filename="your_code.py")
    except SyntaxError as exc:
        raise CodeProblem(Mismatch("syntax", {"line": exc.lineno or 0, "error": exc.msg})) from None
    defs = [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    chosen = next((d for d in defs if d.name == tool_name), defs[0] if len(defs) == 1 else None)
    if chosen is None:
        values = {"tool": tool_name, "functions": ", ".join(d.name for d in defs)}
        raise CodeProblem(Mismatch("which_function" if defs else "no_function", values))
    if isinstance(chosen, ast.AsyncFunctionDef):
        raise CodeProblem(Mismatch("async_function", {"function": chosen.name}))
    args = chosen.args
    positional = [*args.posonlyargs, *args.args]
    first_default = len(positional) - len(args.defaults)
    params = [
        Param(a.arg, required=i < first_default, keyword=i >= len(args.posonlyargs)) for i, a in enumerate(positional)
    ]
    params += [Param(a.arg, required=d is None) for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True)]
    return Signature(chosen.name, tuple(params), any_keyword=args.kwarg is not None)


def signature_of_builtin(name: str, function: Callable[..., Any]) -> Signature:
    """A built-in tool function's signature, without its first parameter (the ToolContext)."""
    params = list(inspect.signature(function).parameters.values())[1:]
    kinds = inspect.Parameter
    return Signature(
        name,
        tuple(
            Param(p.name, p.default is kinds.empty, p.kind is not kinds.POSITIONAL_ONLY)
            for p in params
            if p.kind not in (kinds.VAR_POSITIONAL, kinds.VAR_KEYWORD)
        ),
        any_keyword=any(p.kind is kinds.VAR_KEYWORD for p in params),
    )


def mismatches(signature: Signature, schema: dict[str, Any]) -> list[Mismatch]:
    """Where the function and the schema disagree: what the model may send that the function cannot take, and
    what the function needs that the model is not asked for."""
    props, listed = _properties(schema)
    required = set(listed)
    fn, by_name = signature.function, {p.name: p for p in signature.params}
    takes = ", ".join(p.name for p in signature.params) or "-"
    found: list[Mismatch] = []
    for param in signature.params:
        if not param.keyword and (param.name in props or param.required):
            found.append(Mismatch("positional_only", {"function": fn, "param": param.name}))
    for prop in props:
        if prop not in by_name and not signature.any_keyword:
            found.append(Mismatch("extra_property", {"function": fn, "property": prop, "params": takes}))
    for param in signature.params:
        if param.required and param.keyword and param.name not in props:
            found.append(Mismatch("missing_property", {"function": fn, "param": param.name}))
        elif param.required and param.keyword and param.name not in required:
            found.append(Mismatch("not_required", {"function": fn, "param": param.name}, blocking=False))
    return found


def _properties(schema: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """A schema's properties and its `required` names (empty where the schema has none, or not as lists)."""
    props, required = schema.get("properties"), schema.get("required")
    return (props if isinstance(props, dict) else {}), [str(r) for r in required] if isinstance(required, list) else []


def check_source(source: str, tool_name: str, schema: dict[str, Any]) -> list[Mismatch]:
    """Everything wrong with a tool's own code against its schema (empty: it fits)."""
    try:
        return mismatches(signature_of(source, tool_name), schema)
    except CodeProblem as problem:
        return [problem.mismatch]


def run_tool(source: str, tool_name: str, tool_input: dict[str, Any], timeout_s: float, confined: bool) -> CodeResult:
    """One call of the tool's own function in the limited child process; the value is the tool_result's text."""
    function = signature_of(source, tool_name).function
    payload = {"function": function, "input": tool_input}
    cpu = max(1.0, timeout_s)
    result = run_python(
        source, HARNESS, payload, timeout_s=cpu, memory_mb=TOOL_MEMORY_MB, wall_s=cpu * 2 + 5, confine=confined
    )
    if isinstance(result.value, dict) and "value" in result.value:
        value = result.value["value"]
        text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
        return CodeResult(value=text, printed=result.printed, error=result.error, error_line=result.error_line)
    return result
