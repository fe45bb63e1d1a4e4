"""A learner's tool schema cannot stall the server: its patterns are matched in linear time (RE2).

The attack: a tool whose schema says `"pattern": "^(1|1)*$"` and an input of digits that ends in a letter. Python's
backtracking `re` doubles its work with every digit (27 digits held a worker's GIL for 11 s); 60 digits would
take centuries, so these tests hang (and pytest-timeout fails them) if a backtracking engine ever matches again.
"""

from __future__ import annotations

import pytest

from agent_core.tools.input_schema import input_problem

HOSTILE = "^(1|1)*$"
EVIL_INPUT = "1" * 60 + "x"


def schema(**number: object) -> dict:
    return {"type": "object", "properties": {"n": {"type": "string", **number}}, "required": ["n"]}


@pytest.mark.timeout(20)
def test_a_catastrophic_pattern_is_answered_at_once():
    problem = input_problem("digits", schema(pattern=HOSTILE), {"n": EVIL_INPUT})
    assert problem is not None and "does not match" in problem  # refused as any mismatch is: the model can retry
    assert input_problem("digits", schema(pattern=HOSTILE), {"n": "1" * 60}) is None  # and a match still matches


@pytest.mark.timeout(20)
def test_pattern_properties_and_additional_properties_match_in_linear_time_too():
    hostile = {"type": "object", "patternProperties": {HOSTILE: {"type": "integer"}}, "additionalProperties": False}
    problem = input_problem("keys", hostile, {EVIL_INPUT: 1})
    assert problem is not None and "does not match any of the regexes" in problem
    assert input_problem("keys", hostile, {"1" * 60: 1}) is None
    assert "is not of type 'integer'" in (input_problem("keys", hostile, {"111": "one"}) or "")


def test_a_pattern_without_a_linear_time_match_is_a_schema_problem_said_plainly():
    for pattern in ("^(?=1)1+$", r"^(a)\1$"):
        problem = input_problem("lookaround", schema(pattern=pattern), {"n": "11"}) or ""
        assert "cannot be matched in linear time" in problem and repr(pattern) in problem


def test_unevaluated_properties_beside_pattern_properties_is_refused_not_matched_by_re():
    both = {"type": "object", "patternProperties": {HOSTILE: True}, "unevaluatedProperties": False}
    assert "unevaluatedProperties" in (input_problem("both", both, {EVIL_INPUT: 1}) or "")


def test_ordinary_patterns_still_check_what_they_did():
    iso = schema(pattern=r"^\d{4}-\d{2}-\d{2}$")
    assert input_problem("date", iso, {"n": "2026-12-01"}) is None
    assert "does not match" in (input_problem("date", iso, {"n": "1 Dec 2026"}) or "")
    assert input_problem("word", schema(pattern="^ż.{3}$"), {"n": "żółw"}) is None  # by characters, not bytes
