"""A required count of results nobody named (OpenAI's search_knowledge_base options.num_results, 'How many top results
to return'): a careful model asks the tool for a handful (data/counts.json `result_count`, within the schema's
bounds) instead of asking the user for a number they never thought of."""

from __future__ import annotations

from functools import cache
from typing import Any

from agent_core.sim.text import language as lx


@cache
def _table() -> dict[str, Any]:
    return lx.load("counts")


def result_count(name: str, prop: dict[str, Any]) -> int | None:
    """The count to send for a parameter that says how many results to return, or None for any other."""
    kind = prop.get("type")
    kinds = kind if isinstance(kind, list) else [kind]
    if not {"integer", "number"} & set(kinds):
        return None
    if isinstance(prop.get("default"), (int, float)) and not isinstance(prop.get("default"), bool):
        return int(prop["default"])
    said = f"{name.replace('_', ' ')} {prop.get('description', '')}"
    words = lx.words(said)
    table = _table()["result_count"]
    if not (lx.hits(words, table["count_words"]) and lx.hits(words, table["thing_words"])):
        return None
    count = int(table["count"])
    low, high = prop.get("minimum"), prop.get("maximum")
    count = max(count, int(low)) if isinstance(low, (int, float)) else count
    return min(count, int(high)) if isinstance(high, (int, float)) else count
