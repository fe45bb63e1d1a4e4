"""Checking a tool call's input against the tool's JSON Schema (imported only when a tool input is checked)."""

from __future__ import annotations

import json
from typing import Any

import referencing
import referencing.exceptions
from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError, ValidationError, relevance

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


def _describe(error: ValidationError) -> str:
    where = "/".join(str(p) for p in error.absolute_path)
    return f"at '{where}': {error.message}" if where else error.message


def input_problem(name: str, schema: Any, tool_input: Any) -> str | None:
    """None when the input fits the tool's JSON Schema, else a message the model can act on."""
    try:
        Draft202012Validator.check_schema(schema)
    except SchemaError as exc:
        return (
            f"Tool {name!r} has an invalid input_schema, so its input cannot be checked: "
            f"{exc.message}. Fix the tool definition."
        )
    validator = Draft202012Validator(schema, registry=_NO_REMOTE)
    try:
        errors = sorted(validator.iter_errors(tool_input), key=relevance)
    except referencing.exceptions.Unresolvable as exc:
        return f"Tool {name!r} has an input_schema with a reference that cannot be resolved: {exc}."
    if not errors:
        return None
    reasons = "; ".join(_describe(e) for e in errors[:MAX_REPORTED_ERRORS])
    return f"Invalid input for {name}: {reasons}. Expected schema: {schema_text(schema)}"
