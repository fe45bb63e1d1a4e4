"""The fidelity corpus runner: each task through the offline model in a loop with fake tools, checked as a user would."""

from __future__ import annotations

import ast
import copy
import json
import operator
import re
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from agent_core.model import SimSettings
from agent_core.sim.brain import think

HERE = Path(__file__).parent
LANGS = ("en", "ru", "pl")
CATEGORIES = ("single", "parallel", "chain", "correction", "no_tool")
MAX_TURNS = 8
_OPS = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.Pow: operator.pow,
    ast.BitXor: operator.xor,
    ast.USub: operator.neg,
    ast.Mod: operator.mod,
}


def python_eval(expression: str) -> str:
    """What a tutorial's eval() would answer (^ is XOR), without eval."""

    def value(node: ast.AST):
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
            return node.value
        if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
            return _OPS[type(node.op)](value(node.left), value(node.right))
        if isinstance(node, ast.UnaryOp) and type(node.op) in _OPS:
            return _OPS[type(node.op)](value(node.operand))
        raise ValueError(f"unsupported expression: {expression}")

    result = value(ast.parse(expression, mode="eval").body)
    return str(int(result) if float(result).is_integer() else result)


def load_tools() -> dict:
    return {k: v for k, v in json.loads((HERE / "tools.json").read_text(encoding="utf-8")).items() if k != "_about"}


def load_tasks() -> list[dict]:
    tasks = []
    for lang in LANGS:
        for task in json.loads((HERE / f"tasks_{lang}.json").read_text(encoding="utf-8")):
            tasks.append({**task, "lang": lang})
    return tasks


class FakeTools:
    """The program's side: answers each call as tools.json (and the task's fail_first) says."""

    def __init__(self, specs: dict, task: dict) -> None:
        self.by_name = {specs[key]["definition"]["name"]: specs[key] for key in task["tools"]}
        self.fail_first = dict(task.get("fail_first") or {})

    def run(self, name: str, args: dict) -> tuple[str, bool]:
        spec = self.by_name.get(name)
        if spec is None:
            return f"Unknown tool {name!r}.", True
        if name in self.fail_first:
            return self.fail_first.pop(name), True
        for param, cases in (spec.get("errors") or {}).items():
            if str(args.get(param)) in cases:
                return cases[str(args.get(param))], True
        try:
            return self._answer(spec, args), False
        except Exception as error:  # noqa: BLE001 - reported to the model like any tool error
            return f"{type(error).__name__}: {error}", True

    @staticmethod
    def _answer(spec: dict, args: dict) -> str:
        kind = spec.get("kind")
        if kind == "python_eval":
            return python_eval(str(args["expression"]))
        if kind in ("add", "subtract", "multiply", "divide"):
            a, b = (float(v) for v in args.values())
            value = {"add": a + b, "subtract": a - b, "multiply": a * b, "divide": a / b}[kind]
            return str(int(value) if value.is_integer() else round(value, 6))
        if "table" in spec:
            table = spec["table"]
            found = table["values"].get(str(args.get(table["param"])))
            return found if found is not None else table["default"].format(**args)
        return spec["template"].format(**args)


@dataclass
class Outcome:
    """One task's run and what went wrong, if anything."""

    task: dict
    calls: list[tuple[str, dict]] = field(default_factory=list)
    answer: str = ""
    problems: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.problems


def _matches(expected: object, actual: object) -> bool:
    if isinstance(expected, str) and expected.startswith("~"):
        return re.search(expected[1:], str(actual), re.I) is not None
    if isinstance(expected, (int, float)) and isinstance(actual, (int, float)):
        return abs(expected - actual) < 1e-9
    return expected == actual


def run_task(task: dict, specs: dict) -> Outcome:
    """Run one task to its end (at most MAX_TURNS replies) and check calls, arguments and the answer."""
    body = {
        "model": "claude-sonnet-4-6",
        "max_tokens": 1024,
        "messages": [{"role": "user", "content": task["question"]}],
    }
    body["tools"] = [copy.deepcopy(specs[k]["definition"]) for k in task["tools"]]
    if task.get("system"):
        body["system"] = task["system"]
    tools, outcome = FakeTools(specs, task), Outcome(task)
    for turn in range(MAX_TURNS):
        draft = think(body, SimSettings())
        content = [dict(b, id=f"t{turn}_{i}") if b["type"] == "tool_use" else b for i, b in enumerate(draft.content)]
        body["messages"].append({"role": "assistant", "content": content})
        if draft.stop_reason != "tool_use":
            outcome.answer = " ".join(b["text"] for b in content if b["type"] == "text")
            break
        results = []
        for block in (b for b in content if b["type"] == "tool_use"):
            outcome.calls.append((block["name"], block["input"]))
            output, failed = tools.run(block["name"], block["input"])
            results.append({"type": "tool_result", "tool_use_id": block["id"], "content": output, "is_error": failed})
        body["messages"].append({"role": "user", "content": results})
    else:
        outcome.problems.append("no end_turn")
    _check(task, outcome)
    return outcome


def _check(task: dict, outcome: Outcome) -> None:
    expect = task["expect"]
    for name, args in expect.get("calls", []):
        if not any(n == name and all(_matches(v, a.get(k)) for k, v in args.items()) for n, a in outcome.calls):
            outcome.problems.append(f"no call {name}({json.dumps(args, ensure_ascii=False)})")
    if not expect.get("calls") and outcome.calls:
        outcome.problems.append(f"unexpected calls {outcome.calls}")
    allowed = {name for name, _ in expect.get("calls", [])} | set(expect.get("also", []))
    stray = sorted({n for n, _ in outcome.calls} - allowed)
    if expect.get("calls") and stray:
        outcome.problems.append(f"calls of other tools: {stray}")
    for fragment in expect.get("answer", []):
        if fragment.casefold() not in outcome.answer.casefold():
            outcome.problems.append(f"answer lacks {fragment!r}")


def run_corpus() -> list[Outcome]:
    specs = load_tools()
    return [run_task(task, specs) for task in load_tasks()]


def percent(outcomes: list[Outcome]) -> float:
    return round(100.0 * sum(o.passed for o in outcomes) / len(outcomes), 1) if outcomes else 0.0


def breakdown(outcomes: list[Outcome]) -> dict[str, dict[str, float]]:
    """Pass % by category and by language, and overall."""
    groups: dict[str, list[Outcome]] = defaultdict(list)
    for o in outcomes:
        groups[f"category:{o.task['category']}"].append(o)
        groups[f"language:{o.task['lang']}"].append(o)
    return {"overall": {"percent": percent(outcomes), "tasks": len(outcomes)}} | {
        k: {"percent": percent(v), "tasks": len(v)} for k, v in sorted(groups.items())
    }
