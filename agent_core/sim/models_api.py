"""GET /v1/models for the simulated model, and model lookups, all read from the lineup table (models.json)."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs

from agent_core.lineup import ModelRow, lineup
from agent_core.model import SimSettings

DEFAULT_LIMIT = 20
MAX_LIMIT = 1000


class ModelsError(Exception):
    """A models request the API refuses: (status, message)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status, self.message = status, message


def served_row(model: str) -> ModelRow:
    """The row of a model the API still serves; unknown and retired models are the API's 404."""
    row = lineup().find(model)
    if row is None or not row.served:
        raise ModelsError(404, f"model: {model}")
    return row


def context_window(model: str, settings: SimSettings) -> int:
    """The window the sim enforces: the setting, else the model's own (1M when the model is unknown)."""
    if settings.context_window:
        return settings.context_window
    row = lineup().find(model)
    return row.context_window if row else 1_000_000


def max_output(model: str) -> int | None:
    """Largest max_tokens a listed model accepts; None for names the table does not list."""
    row = lineup().find(model)
    return row.max_output if row else None


def model_info(row: ModelRow) -> dict[str, Any]:
    """One entry of GET /v1/models in the API's shape (max_input_tokens, max_tokens, a real created_at)."""
    return {
        "type": "model",
        "id": row.id,
        "display_name": row.display_name,
        "created_at": row.created_at,
        "max_input_tokens": row.context_window,
        "max_tokens": row.max_output,
        "lifecycle": row.lifecycle,
    }


def _limit(query: dict[str, list[str]]) -> int:
    raw = (query.get("limit") or [str(DEFAULT_LIMIT)])[-1]
    if not raw.isdigit() or not 1 <= int(raw) <= MAX_LIMIT:
        raise ModelsError(400, f"limit: Input should be a whole number from 1 to {MAX_LIMIT} (got {raw!r})")
    return int(raw)


def _position(ids: list[str], name: str, value: str) -> int:
    if value not in ids:
        raise ModelsError(400, f"{name}: {value!r} is not a model in this list")
    return ids.index(value)


def list_models(query_string: str) -> dict[str, Any]:
    """One page of the served models, newest first: limit, after_id, before_id, has_more, first_id, last_id."""
    query = parse_qs(query_string, keep_blank_values=True)
    limit = _limit(query)
    rows = sorted(lineup().served, key=lambda r: r.released, reverse=True)
    ids = [r.id for r in rows]
    after, before = (query.get("after_id") or [""])[-1], (query.get("before_id") or [""])[-1]
    if after and before:
        raise ModelsError(400, "after_id and before_id cannot be used together")
    if before:
        end = _position(ids, "before_id", before)
        start = max(0, end - limit)
        page, has_more = rows[start:end], start > 0
    else:
        start = _position(ids, "after_id", after) + 1 if after else 0
        page, has_more = rows[start : start + limit], start + limit < len(rows)
    data = [model_info(r) for r in page]
    return {
        "data": data,
        "has_more": has_more,
        "first_id": data[0]["id"] if data else None,
        "last_id": data[-1]["id"] if data else None,
    }
