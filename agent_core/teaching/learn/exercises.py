"""Exercises checked in the browser without running the learner's code: order the loop, design a tool, fill a result."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

import anthropic
from jsonschema import Draft202012Validator, SchemaError

from agent_core.model import RunConfig
from agent_core.sim import validate
from agent_core.sim.transport import SimTransport
from agent_core.teaching.learn.facts import Fact, fact
from agent_core.tools.catalog import default_specs
from agent_core.wire.providers import make_client

if TYPE_CHECKING:
    from anthropic.types import ToolUnionParam

# ---- 1. order the loop's lines -----------------------------------------------------------------------

# The loop in seven lines; the id names each line, the order below is the program's.
LOOP_LINES = (
    ("init", 'messages = [{"role": "user", "content": TASK}]'),
    ("loop", "for step in range(MAX_STEPS):"),
    ("call", "    response = client.messages.create(model=MODEL, tools=TOOLS, messages=messages)"),
    ("keep", '    messages.append({"role": "assistant", "content": response.content})'),
    ("stop", '    if response.stop_reason != "tool_use": break'),
    ("run", '    results = [run_tool(b) for b in response.content if b.type == "tool_use"]'),
    ("send", '    messages.append({"role": "user", "content": results})'),
)
# Keeping the reply and checking stop_reason may swap: the final reply need not enter the history.
ACCEPTED_ORDERS = (
    ("init", "loop", "call", "keep", "stop", "run", "send"),
    ("init", "loop", "call", "stop", "keep", "run", "send"),
)


@dataclass
class OrderCheck:
    """The learner's order judged: right or not, and the first misplaced line with the reason it goes elsewhere."""

    correct: bool
    position: int | None = None  # 1-based position of the first misplaced line
    why: Fact | None = None


def line_text(line_id: str) -> str:
    return dict(LOOP_LINES)[line_id]


def check_order(order: list[str]) -> OrderCheck:
    """Judge an order of line ids (all seven, each once)."""
    if sorted(order) != sorted(i for i, _ in LOOP_LINES):
        return OrderCheck(False, why=fact("order_incomplete", n=len(LOOP_LINES)))
    if tuple(order) in ACCEPTED_ORDERS:
        return OrderCheck(True)
    closest = max(ACCEPTED_ORDERS, key=lambda good: _common_prefix(order, good))
    position = _common_prefix(order, closest)
    return OrderCheck(False, position + 1, fact(f"order_{closest[position]}"))


def _common_prefix(a: list[str] | tuple[str, ...], b: tuple[str, ...]) -> int:
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return n


# ---- 2. write a tool's description and schema --------------------------------------------------------

TARGET_QUESTIONS = {
    "en": "What is the share price of ACME right now?",
    "ru": "Сколько сейчас стоят акции ACME?",
    "pl": "Ile teraz kosztują akcje ACME?",
}
DISTRACTORS = ("get_weather", "calculate")  # catalog tools the model may pick instead
# Words that show a description says when to use the tool, in the languages a learner may write in.
WHEN_WORDS = (
    "when",
    "whenever",
    "use it",
    "use this",
    "if the user",
    "когда",
    "используй",
    "если",
    "gdy",
    "kiedy",
    "użyj",
    "jeśli",
)
MIN_DESCRIPTION_WORDS = 15


@dataclass
class ToolCheck:
    """Each check of a learner's tool, passed or not, and what the simulated model then did."""

    checks: list[tuple[Fact, bool]] = field(default_factory=list)
    picked: str | None = None  # the tool the model called for the target question
    picked_input: dict[str, Any] | None = None

    @property
    def passed(self) -> bool:
        return bool(self.checks) and all(ok for _, ok in self.checks)


def check_tool(name: str, description: str, schema_text: str, lang: str = "en") -> ToolCheck:
    """Check a tool definition, then ask the simulated model the target question with it and two distractors."""
    out = ToolCheck()
    schema = _schema(schema_text, out)
    name_ok = bool(re.fullmatch(r"[a-zA-Z0-9_-]{1,64}", name))
    out.checks.append((fact("tool_name_ok", name=name), name_ok))
    if schema is None:
        return out
    params = list((schema.get("properties") or {}).keys())
    out.checks += _description_checks(description, params)
    if not name_ok:
        return out
    tool = {"name": name, "description": description, "input_schema": schema}
    out.picked, out.picked_input = _ask(tool, TARGET_QUESTIONS.get(lang, TARGET_QUESTIONS["en"]))
    out.checks.append((fact("tool_picked", name=name, picked=out.picked or "—"), out.picked == name))
    return out


def _schema(text: str, out: ToolCheck) -> dict[str, Any] | None:
    try:
        schema = json.loads(text)
    except ValueError as exc:
        out.checks.append((fact("schema_not_json", error=str(exc)), False))
        return None
    try:
        Draft202012Validator.check_schema(schema)
    except SchemaError as exc:
        out.checks.append((fact("schema_invalid", error=exc.message), False))
        return None
    is_object = isinstance(schema, dict) and schema.get("type") == "object"
    out.checks.append((fact("schema_object"), is_object))
    if not isinstance(schema, dict) or not is_object:
        return None
    properties = schema.get("properties") or {}
    out.checks.append((fact("schema_has_params"), isinstance(properties, dict) and bool(properties)))
    missing = [r for r in schema.get("required") or [] if r not in properties]
    out.checks.append((_listed("schema_required_known", missing), not missing))
    undescribed = [p for p, spec in properties.items() if not (isinstance(spec, dict) and spec.get("description"))]
    out.checks.append((_listed("schema_params_described", undescribed), not undescribed))
    return schema


def _description_checks(description: str, params: list[str]) -> list[tuple[Fact, bool]]:
    words = re.findall(r"\w+", description)
    lower = description.lower()
    unnamed = [p for p in params if p.lower() not in lower]
    return [
        (fact("desc_long_enough", n=MIN_DESCRIPTION_WORDS, words=len(words)), len(words) >= MIN_DESCRIPTION_WORDS),
        (fact("desc_says_when"), any(w in lower for w in WHEN_WORDS)),
        (_listed("desc_names_params", unnamed), not unnamed),
    ]


def _listed(code: str, missing: list[str]) -> Fact:
    """A check that names what is missing; passed, it is the plain statement."""
    return fact(f"{code}_missing", missing=", ".join(missing)) if missing else fact(code)


def _ask(tool: dict[str, Any], question: str) -> tuple[str | None, dict[str, Any] | None]:
    config = RunConfig(task=question, tools=[])
    # Tool definitions are plain JSON objects, shaped like the SDK's ToolParam but not built from it.
    tools = cast("list[ToolUnionParam]", [spec.definition() for spec in default_specs(list(DISTRACTORS))] + [tool])
    client = make_client(config, lambda exchange: None, transport=SimTransport(config.sim), max_retries=0)
    try:
        reply = client.messages.create(
            model=config.model, max_tokens=512, tools=tools, messages=[{"role": "user", "content": question}]
        )
    except anthropic.APIStatusError:
        return None, None
    call = next((b for b in reply.content if b.type == "tool_use"), None)
    return (call.name, dict(call.input)) if call else (None, None)


# ---- 3. fill a tool_result ---------------------------------------------------------------------------

FILL_TASK = "What's the weather in Olso?"
FILL_TOOL_USE_ID = "toolu_01FillTheResult7x"
FILL_OUTPUT = "Unknown city 'Olso'. Did you mean Oslo?"
FILL_REPLY = {
    "role": "assistant",
    "content": [
        {"type": "text", "text": "Let me check the weather."},
        {"type": "tool_use", "id": FILL_TOOL_USE_ID, "name": "get_weather", "input": {"city": "Olso"}},
    ],
}
FILL_TEMPLATE = json.dumps(
    [{"type": "tool_result", "tool_use_id": "", "content": "", "is_error": False}], ensure_ascii=False, indent=2
)


@dataclass
class FillCheck:
    """The learner's tool_result message judged: the server's 400 (if any) and the checks it cannot make."""

    server_error: str = ""
    checks: list[tuple[Fact, bool]] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.server_error and bool(self.checks) and all(ok for _, ok in self.checks)


def check_fill(text: str) -> FillCheck:
    """Judge the user message content the learner wrote after FILL_REPLY (a JSON list of blocks)."""
    out = FillCheck()
    try:
        content = json.loads(text)
    except ValueError as exc:
        out.checks.append((fact("fill_not_json", error=str(exc)), False))
        return out
    body = {
        "model": RunConfig(task="").model,
        "max_tokens": 256,
        "messages": [{"role": "user", "content": FILL_TASK}, FILL_REPLY, {"role": "user", "content": content}],
    }
    try:
        validate.check_create(body)  # the offline server's real rules, the same code that answers HTTP requests
    except validate.InvalidRequest as exc:
        out.server_error = str(exc)
        return out
    result = _first_result(content)
    if result is None:
        out.checks.append((fact("fill_no_result"), False))
        return out
    # Each check is worded for what the learner wrote: a ✗ next to "is_error is true" read as if it were.
    id_ok = result.get("tool_use_id") == FILL_TOOL_USE_ID
    content_ok = _text_of(result.get("content")).strip() == FILL_OUTPUT
    error_ok = result.get("is_error") is True
    out.checks += [
        (fact("fill_id_ok", id=FILL_TOOL_USE_ID) if id_ok else fact("fill_id_wrong", id=FILL_TOOL_USE_ID), id_ok),
        (fact("fill_content_ok") if content_ok else fact("fill_content_wrong"), content_ok),
        (fact("fill_is_error_ok") if error_ok else fact("fill_is_error_missing"), error_ok),
    ]
    return out


def _first_result(content: Any) -> dict[str, Any] | None:
    blocks = content if isinstance(content, list) else []
    return next((b for b in blocks if isinstance(b, dict) and b.get("type") == "tool_result"), None)


def _text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(b.get("text", "") for b in content if isinstance(b, dict) and b.get("type") == "text")
    return ""
