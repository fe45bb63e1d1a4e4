"""Tool-schema regular expressions matched by RE2 (google-re2): linear time, so no pattern can stall a server.

jsonschema matches `pattern` and `patternProperties` with Python's `re`, which backtracks: `^(1|1)*$` against 27
digits held a worker's GIL for 11 s, and every digit more doubled it. RE2 never backtracks; a pattern it cannot
run (look-around, back-references: features that have no linear-time match) is a problem of the schema, said as
one. The validator here is Draft 2020-12 with those keywords re-pointed at RE2 (jsonschema's documented `extend`).
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import Any

import re2
from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import ValidationError

MAX_PROGRAM_BYTES = 8 << 20  # memory one compiled pattern may use; a bigger one is refused, not built


class PatternError(ValueError):
    """A pattern the linear-time engine cannot run (look-around, a back-reference, a syntax error, too big)."""


def _options() -> Any:
    options = re2.Options()
    options.log_errors = False  # a refused pattern is reported to the learner, not printed to the server's log
    options.max_mem = MAX_PROGRAM_BYTES
    return options


@functools.lru_cache(maxsize=512)
def compiled(pattern: str) -> Any:
    """The pattern compiled once per process (the cache holds only compiled, immutable programs)."""
    try:
        return re2.compile(pattern, _options())
    except re2.error as exc:
        reason = exc.args[0].decode("utf-8", "replace") if exc.args and isinstance(exc.args[0], bytes) else str(exc)
        raise PatternError(f"the pattern {pattern!r} cannot be matched in linear time ({reason})") from None


def search(pattern: str, text: str) -> bool:
    """True when the pattern matches somewhere in text (JSON Schema's patterns are not anchored)."""
    return compiled(pattern).search(text) is not None


def problem(schema: Any) -> str | None:
    """The first pattern in a schema RE2 cannot run, or None (checked with the schema itself, once per schema)."""
    for pattern in _patterns(schema):
        try:
            compiled(pattern)
        except PatternError as exc:
            return str(exc)
    return None


def _patterns(schema: Any) -> Iterator[str]:
    if isinstance(schema, list):
        for item in schema:
            yield from _patterns(item)
    if not isinstance(schema, dict):
        return
    if isinstance(schema.get("pattern"), str):
        yield schema["pattern"]
    if isinstance(schema.get("patternProperties"), dict):
        yield from (p for p in schema["patternProperties"] if isinstance(p, str))
    for value in schema.values():
        if isinstance(value, (dict, list)):
            yield from _patterns(value)


def _pattern(validator: Any, pattern: str, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if validator.is_type(instance, "string") and not search(pattern, instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


def _pattern_properties(validator: Any, by_pattern: dict[str, Any], instance: Any, schema: Any) -> Iterator[Any]:
    if not validator.is_type(instance, "object"):
        return
    for pattern, subschema in by_pattern.items():
        for name, value in instance.items():
            if search(pattern, name):
                yield from validator.descend(value, subschema, path=name, schema_path=pattern)


def _additional_properties(validator: Any, extra_schema: Any, instance: Any, schema: Any) -> Iterator[Any]:
    if not validator.is_type(instance, "object"):
        return
    named, patterns = schema.get("properties", {}), list(schema.get("patternProperties", {}))
    extras = sorted(
        (k for k in instance if k not in named and not any(search(p, k) for p in patterns)),
        key=str,
    )
    if validator.is_type(extra_schema, "object"):
        for name in extras:
            yield from validator.descend(instance[name], extra_schema, path=name)
    elif not extra_schema and extras:
        # jsonschema's own words, which the tool texts and the model already know.
        names, one = ", ".join(repr(name) for name in extras), len(extras) == 1
        if patterns:
            regexes = ", ".join(map(repr, sorted(patterns)))
            yield ValidationError(f"{names} {'does' if one else 'do'} not match any of the regexes: {regexes}")
        else:
            yield ValidationError(
                f"Additional properties are not allowed ({names} {'was' if one else 'were'} unexpected)"
            )


# unevaluatedProperties keeps jsonschema's own code, which matches patternProperties with `re`: a schema pairing the
# two is refused (refuses_backtracking), so that code never sees a learner's pattern.
Validator = validators.extend(
    Draft202012Validator,
    {"pattern": _pattern, "patternProperties": _pattern_properties, "additionalProperties": _additional_properties},
)


def refuses_backtracking(schema: Any) -> str | None:
    """Why a schema cannot be checked without a backtracking match (None: it can): a pattern RE2 cannot run, or
    patternProperties under unevaluatedProperties (which jsonschema matches with `re` internally)."""
    found = problem(schema)
    if found:
        return found
    if _has(schema, "unevaluatedProperties") and _has(schema, "patternProperties"):
        return "patternProperties together with unevaluatedProperties is not supported; use additionalProperties"
    return None


def _has(schema: Any, keyword: str) -> bool:
    if isinstance(schema, list):
        return any(_has(item, keyword) for item in schema)
    if not isinstance(schema, dict):
        return False
    return keyword in schema or any(_has(v, keyword) for v in schema.values() if isinstance(v, (dict, list)))
