"""Careful replies, written by hand for some cases (gold.json): played through the same harness, they must pass,
which shows the expectations are ones a careful model meets; a wrong reply must fail with a readable reason."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from agent_core.model import SimSettings
from agent_core.sim.brain import Draft

GOLD = Path(__file__).parent / "gold.json"


def load_gold() -> dict[str, list[dict[str, Any]]]:
    return {k: v for k, v in json.loads(GOLD.read_text(encoding="utf-8")).items() if not k.startswith("_")}


def player(replies: list[dict[str, Any]]):
    """A brain that answers the n-th request of a conversation with the n-th scripted reply."""

    def think(body: dict[str, Any], settings: SimSettings) -> Draft:
        n = sum(m["role"] == "assistant" for m in body["messages"])
        reply = replies[min(n, len(replies) - 1)]
        content: list[dict[str, Any]] = [{"type": "text", "text": reply["text"]}] if reply.get("text") else []
        for name, args in reply.get("calls", []):
            content.append({"type": "tool_use", "id": None, "name": name, "input": args})
        return Draft(content, "tool_use" if reply.get("calls") else "end_turn")

    return think
