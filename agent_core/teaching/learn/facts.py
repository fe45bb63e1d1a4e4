"""Structured feedback: a code the UI turns into the learner's language, and the values it quotes."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Fact:
    """One thing to tell the learner; `code` names a sentence in lab_ui's catalogue, `values` fill it in."""

    code: str
    values: dict[str, Any] = field(default_factory=dict)


def fact(code: str, **values: Any) -> Fact:
    return Fact(code, dict(values))
