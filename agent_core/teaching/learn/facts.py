"""Structured feedback: a fact whose kind names a sentence in lab_ui's catalogue, and the values it quotes."""

from __future__ import annotations

from typing import Any

from agent_core import facts

Fact = facts.Fact[str, dict[str, Any]]  # the records' one shape (agent_core.facts), with free values


def fact(kind: str, **params: Any) -> Fact:
    return Fact(kind, dict(params))
