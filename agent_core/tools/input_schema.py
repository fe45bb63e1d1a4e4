"""Checking a tool call's input against the tool's JSON Schema (imported only when a tool input is checked)."""

from __future__ import annotations

import functools
import json
from typing import Any

import referencing
import referencing.exceptions
from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError, ValidationError, relevance

from agent_core.tools.patterns import Validator, refuses_backtracking
from agent_core.tools.texts import Said, render, said

MAX_REPORTED_ERRORS = 3


def _refuse_remote(uri: str) -> referencing.Resource:
    # A user-edited schema may "$ref" a URL; the program must never fetch it.
    # referencing's attrs classes come through a `frozen` wrapper whose fields mypy's attrs plugin cannot see.
    raise referencing.exceptions.NoSuchResource(ref=uri)  # type: ignore[call-arg]


# jsonschema adds the meta-schemas itself; this registry only stops remote retrieval.
_NO_REMOTE: referencing.Registry[Any] = referencing.Registry(retrieve=_refuse_remote)  # type: ignore[call-arg]


def schema_text(schema: Any) -> str:
    """The schema as compact JSON, shown to the model next to what was wrong."""
    return json.dumps(schema, ensure_ascii=False, separators=(",", ":"))


_RULES = ("required", "additionalProperties", "enum", "type", "minLength", "maxLength", "minimum", "maximum", "pattern")


def _reason(error: ValidationError, lang: str) -> str | Said:
    """What is wrong, in lang; English keeps jsonschema's own words."""
    if lang == "en":
        return str(error.message)
    rule, expected, value = str(error.validator), error.validator_value, error.instance
    if rule == "required" and isinstance(value, dict):
        missing = [p for p in expected if p not in value] or list(expected)
        return said("schema.required", name=repr(missing[0]))
    if rule == "additionalProperties" and isinstance(value, dict):
        allowed = set((error.schema.get("properties") or {}) if isinstance(error.schema, dict) else ())
        return said("schema.additionalProperties", names=", ".join(repr(k) for k in value if k not in allowed))
    if rule == "minLength" and expected == 1:
        return said("schema.nonEmpty", value=repr(value))
    key = f"schema.{rule}" if rule in _RULES else "schema.other"
    return said(key, value=repr(value), expected=repr(expected) if rule != "type" else expected, rule=rule)


def _describe(error: ValidationError, lang: str) -> str:
    where = "/".join(str(p) for p in error.absolute_path)
    reason = _reason(error, lang)
    return render(said("schema.at", where=where, reason=reason) if where else reason, lang)


@functools.lru_cache(maxsize=256)
def _schema_problem(text: str) -> str | None:
    """What is wrong with a schema (given as its JSON text), or None. Checking a schema against the 2020-12
    meta-schema took 2.5 ms, on every tool call of every click; a tool's schema rarely changes, so each is checked
    once per process. The cache holds only strings."""
    schema = json.loads(text)
    try:
        Draft202012Validator.check_schema(schema)
    except SchemaError as exc:
        return str(exc.message)
    return refuses_backtracking(schema)  # patterns run on RE2 (linear time): one it cannot run is refused


def input_problem(name: str, schema: Any, tool_input: Any, lang: str = "en") -> str | None:
    """None when the input fits the tool's JSON Schema, else a message the model can act on, in lang."""
    problem = _schema_problem(json.dumps(schema, sort_keys=True, default=repr))
    if problem is not None:
        return render(said("schema.invalid_schema", name=repr(name), reason=problem), lang)
    validator = Validator(schema, registry=_NO_REMOTE)
    try:
        errors = sorted(validator.iter_errors(tool_input), key=relevance)
    except referencing.exceptions.Unresolvable as exc:
        return render(said("schema.unresolvable", name=repr(name), reason=str(exc)), lang)
    if not errors:
        return None
    reasons = "; ".join(_describe(e, lang) for e in errors[:MAX_REPORTED_ERRORS])
    return render(said("schema.invalid_input", tool=name, reasons=reasons, schema=schema_text(schema)), lang)
