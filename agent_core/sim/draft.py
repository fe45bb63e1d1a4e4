"""What the simulated model 'wrote': its content blocks, why it stopped, and the thinking behind it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass
class Draft:
    """What the model 'wrote': content blocks, why it stopped, and the thinking behind it."""

    content: list[dict[str, Any]]
    stop_reason: str
    stop_details: dict[str, Any] | None = None
    reasoning: str = ""
    note: str = ""  # a simulator note the UI may show (knowledge.NOTE: the offline model said it has no knowledge)


def text_block(text: str) -> dict[str, Any]:
    return {"type": "text", "text": text}
