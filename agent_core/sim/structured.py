"""Structured outputs for the simulated model: JSON valid against `output_config.format`'s schema, and strict tools.

The values come from what the model has read: `key: value` facts and numbers in the tool results and the
question, enum options the text mentions, and the brain's own answer for free text. The result always validates
against the schema (types, enums, required fields, array bounds, no extra properties)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from agent_core.sim.text.results import text_of

_NUMBER = re.compile(r"-?\d+(?:[.,]\d+)?")
_CAPITALISED = re.compile(r"\b([A-ZĄĆĘŁŃÓŚŹŻА-ЯЁ][\wąćęłńóśźżа-яё-]+)")
MAX_DEPTH = 12


class SchemaError(ValueError):
    """A schema the sim cannot fill (the API would reject it as unsupported)."""


@dataclass
class Evidence:
    """What the answer may draw on: the question, the tool results and the brain's answer text."""

    question: str
    results: str
    answer: str

    @property
    def everything(self) -> str:
        return f"{self.results}\n{self.question}"


def output_schema(body: dict[str, Any]) -> dict[str, Any] | None:
    """The JSON schema of `output_config.format` when the request asks for one."""
    config = body.get("output_config")
    fmt = config.get("format") if isinstance(config, dict) else None
    if not isinstance(fmt, dict) or fmt.get("type") != "json_schema":
        return None
    schema = fmt.get("schema")
    return schema if isinstance(schema, dict) else None


def evidence(body: dict[str, Any], answer: str) -> Evidence:
    """The question (last user text) and every tool result's text in the request."""
    question, results = "", []
    for message in body.get("messages") or []:
        content = message.get("content") if isinstance(message, dict) else None
        if isinstance(content, str) and message.get("role") == "user":
            question = content
            continue
        for block in content if isinstance(content, list) else []:
            if not isinstance(block, dict):
                continue
            if block.get("type") == "tool_result":
                results.append(text_of(block.get("content")))
            elif block.get("type") == "text" and message.get("role") == "user":
                question = block.get("text") or question
    return Evidence(question, "\n".join(results), answer)


def _resolve(schema: dict[str, Any], root: dict[str, Any]) -> dict[str, Any]:
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/"):
        target: Any = root
        for part in ref[2:].split("/"):
            target = target.get(part, {}) if isinstance(target, dict) else {}
        return {**target, **{k: v for k, v in schema.items() if k != "$ref"}}
    return schema


def fill(
    schema: dict[str, Any], facts: Evidence, key: str = "", root: dict[str, Any] | None = None, depth: int = 0
) -> Any:
    """A value for `schema`, named `key`, drawn from the evidence."""
    root = root or schema
    if depth > MAX_DEPTH:
        raise SchemaError("the output schema is nested too deeply")
    schema = _resolve(schema, root)
    if "const" in schema:
        return schema["const"]
    if isinstance(schema.get("enum"), list) and schema["enum"]:
        return _pick_enum(schema["enum"], facts)
    options = schema.get("anyOf") or schema.get("oneOf")
    if isinstance(options, list) and options:
        usable = [o for o in options if isinstance(o, dict) and o.get("type") != "null"] or options
        return fill(usable[0], facts, key, root, depth + 1)
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "null")
    if kind == "object" or "properties" in schema:
        return _fill_object(schema, facts, root, depth)
    if kind == "array":
        return _fill_array(schema, facts, key, root, depth)
    if kind in ("number", "integer"):
        return _fill_number(schema, facts, key, kind)
    if kind == "boolean":
        return bool(re.search(r"\b(yes|true|да|tak)\b", facts.answer, re.IGNORECASE))
    if kind == "null":
        return None
    return _fill_string(schema, facts, key)


def _fill_object(schema: dict[str, Any], facts: Evidence, root: dict[str, Any], depth: int) -> dict[str, Any]:
    properties = schema.get("properties") or {}
    return {name: fill(sub, facts, name, root, depth + 1) for name, sub in properties.items() if isinstance(sub, dict)}


def _fill_array(schema: dict[str, Any], facts: Evidence, key: str, root: dict[str, Any], depth: int) -> list[Any]:
    items: dict[str, Any] = schema["items"] if isinstance(schema.get("items"), dict) else {"type": "string"}
    count = max(1, int(schema.get("minItems") or 0))
    if schema.get("maxItems") is not None:
        count = min(count, int(schema["maxItems"]))
    return [fill(items, facts, key, root, depth + 1) for _ in range(count)]


def _pick_enum(options: list[Any], facts: Evidence) -> Any:
    text = f"{facts.answer}\n{facts.everything}".lower()
    return next((o for o in options if isinstance(o, str) and o.lower() in text), options[0])


def _fact(facts: Evidence, key: str) -> str | None:
    """`key: value` or `"key": value` in the tool results, then in the question."""
    if not key:
        return None
    words = re.escape(key).replace("_", "[ _]")
    pattern = re.compile(rf'"?{words}"?\s*[:=]\s*"?([^",\n}}]+)', re.IGNORECASE)
    for text in (facts.results, facts.question):
        match = pattern.search(text)
        if match:
            return match.group(1).strip()
    return None


def _fill_number(schema: dict[str, Any], facts: Evidence, key: str, kind: str) -> int | float:
    found = _fact(facts, key)
    match = _NUMBER.search(found or "") or _NUMBER.search(facts.results) or _NUMBER.search(facts.question)
    value = float(match.group(0).replace(",", ".")) if match else 0.0
    if schema.get("minimum") is not None:
        value = max(value, float(schema["minimum"]))
    if schema.get("maximum") is not None:
        value = min(value, float(schema["maximum"]))
    return int(round(value)) if kind == "integer" else value


def _fill_string(schema: dict[str, Any], facts: Evidence, key: str) -> str:
    value = _fact(facts, key)
    if value is None and key.lower() in ("city", "location", "place"):
        from agent_core.sim.text import gazetteer  # a known city the question names beats any capitalised word

        value = next(iter(gazetteer.places(facts.question)), None)
    if value is None and key.lower() in ("city", "name", "location", "place", "country", "person", "title"):
        found = _CAPITALISED.findall(facts.question)
        value = found[-1] if found else None
    if value is None:
        value = facts.answer.strip() or facts.question.strip() or key
    if schema.get("maxLength") is not None:
        value = value[: int(schema["maxLength"])]
    if schema.get("minLength") is not None and len(value) < int(schema["minLength"]):
        value = value.ljust(int(schema["minLength"]), ".")
    return value


def structured_text(body: dict[str, Any], answer: str) -> str | None:
    """The reply text for a request with an output schema: JSON of a value that validates (None: no schema).
    The brain's own JSON (values read by meaning, sim/output.py) is kept, made valid against the schema."""
    schema = output_schema(body)
    if schema is None:
        return None
    facts = evidence(body, answer)
    try:
        drafted = json.loads(answer)
    except ValueError:
        drafted = None
    if isinstance(drafted, dict) and schema.get("type", "object") == "object":
        return json.dumps(bounded(conform(drafted, schema, facts), schema, facts, schema), ensure_ascii=False)
    return json.dumps(fill(schema, facts), ensure_ascii=False)


def bounded(value: Any, schema: Any, facts: Evidence, root: dict[str, Any], depth: int = 0) -> Any:
    """A value kept within its schema's bounds: array lengths, number ranges, string lengths, enum options."""
    if not isinstance(schema, dict) or depth > MAX_DEPTH:
        return value
    schema = _resolve(schema, root)
    if isinstance(value, dict):
        props = schema.get("properties") or {}
        return {k: bounded(v, props.get(k), facts, root, depth + 1) for k, v in value.items()}
    if isinstance(value, list):
        items = schema.get("items") if isinstance(schema.get("items"), dict) else {"type": "string"}
        value = [bounded(v, items, facts, root, depth + 1) for v in value]
        while len(value) < int(schema.get("minItems") or 0):
            value.append(fill(items, facts, "", root, depth + 1))
        return value[: int(schema["maxItems"])] if schema.get("maxItems") is not None else value
    if isinstance(schema.get("enum"), list) and schema["enum"] and value not in schema["enum"]:
        return _pick_enum(schema["enum"], facts)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if schema.get("minimum") is not None:
            value = max(value, schema["minimum"])
        if schema.get("maximum") is not None:
            value = min(value, schema["maximum"])
        return value
    if isinstance(value, str):
        if schema.get("maxLength") is not None:
            value = value[: int(schema["maxLength"])]
        if schema.get("minLength") is not None and len(value) < int(schema["minLength"]):
            value = value.ljust(int(schema["minLength"]), ".")
    return value


def conform(value: Any, schema: dict[str, Any], facts: Evidence) -> Any:
    """A strict tool's input made valid: unknown keys dropped, missing required keys filled, scalars coerced."""
    if schema.get("type") != "object" or not isinstance(value, dict):
        return fill(schema, facts)
    properties = schema.get("properties") or {}
    kept = {k: v for k, v in value.items() if k in properties}
    for name in schema.get("required") or []:
        if name not in kept and isinstance(properties.get(name), dict):
            kept[name] = fill(properties[name], facts, name, schema)
    for name, item in list(kept.items()):
        kept[name] = _coerce(item, properties[name], facts, name, schema)
    return kept


def _coerce(item: Any, schema: Any, facts: Evidence, key: str, root: dict[str, Any]) -> Any:
    if not isinstance(schema, dict):
        return item
    kind = schema.get("type")
    if isinstance(kind, list):  # ["string", "null"]: a nullable field
        if item is None and "null" in kind:
            return item
        kind = next((k for k in kind if k != "null"), None)
    fits: dict[str | None, bool] = {
        "string": isinstance(item, str),
        "integer": isinstance(item, int) and not isinstance(item, bool),
        "number": isinstance(item, (int, float)) and not isinstance(item, bool),
        "boolean": isinstance(item, bool),
        "array": isinstance(item, list),
        "object": isinstance(item, dict),
    }
    ok = fits.get(kind, True)
    if isinstance(schema.get("enum"), list) and item not in schema["enum"]:
        ok = False
    if ok:
        return item
    found = _NUMBER.search(item) if kind in ("integer", "number") and isinstance(item, str) else None
    if found:
        number = float(found.group(0).replace(",", "."))
        return int(round(number)) if kind == "integer" else number
    if kind == "string" and not isinstance(item, (dict, list)):
        return str(item)
    return fill(schema, facts, key, root)
