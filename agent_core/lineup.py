"""The model lineup as data (agent_core/data/models.json): ids, lifecycle, limits and per-model API behaviour.

Prices are read from the same file by agent_core.cost.pricing; this module gives everything else a typed, immutable
view of it. Nothing else in the code names a model."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Any

MODELS_PATH = Path(__file__).parent / "data" / "models.json"
LIFECYCLES = ("active", "legacy", "deprecated", "retired")
THINKING_MODES = ("extended", "adaptive", "adaptive_default", "adaptive_always")
SERVED = ("active", "legacy", "deprecated")


@dataclass(frozen=True)
class Behaviour:
    """How one model's API differs: what it refuses and how it shapes replies."""

    thinking_disabled: str = "allowed"  # allowed | between_tools | rejected
    manual_budget_tokens: bool = True
    forced_tool_choice: bool = True
    sampling: str = "any"  # any | default_only
    prefill: bool = True
    text_between_tools_as_thinking: bool = False
    thinking_tied_to_conversation: bool = False


@dataclass(frozen=True)
class ModelRow:
    """One row of the lineup."""

    id: str
    display_name: str
    aliases: tuple[str, ...]
    lifecycle: str
    released: str
    deprecated_on: str | None
    retires_on: str | None
    context_window: int
    max_output: int
    thinking: str
    behaviour: Behaviour
    tool_prompt_tokens: tuple[int, int] | None
    source: str
    min_cache_tokens: int | None = None  # the shortest prefix prompt caching writes (the docs' per-model minimum)

    @property
    def served(self) -> bool:
        return self.lifecycle in SERVED

    @property
    def thinks_by_default(self) -> bool:
        return self.thinking in ("adaptive_default", "adaptive_always")

    @property
    def created_at(self) -> str:
        """The release date as the Models API writes it (RFC 3339, midnight UTC)."""
        return datetime.fromisoformat(self.released).replace(tzinfo=UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass(frozen=True)
class Lineup:
    """Every row, in the file's order (newest family first), and the default model."""

    rows: tuple[ModelRow, ...]
    default_model: str
    as_of: str

    def find(self, model: str) -> ModelRow | None:
        """The row for an id, an alias, or a dated snapshot id of a listed model ('claude-opus-4-5-20251101')."""
        for row in self.rows:
            if model == row.id or model in row.aliases:
                return row
        prefixes = [r for r in self.rows if model.startswith(r.id + "-") and model[len(r.id) + 1 :].isdigit()]
        return max(prefixes, key=lambda r: len(r.id)) if prefixes else None

    @property
    def served(self) -> tuple[ModelRow, ...]:
        return tuple(r for r in self.rows if r.served)

    @property
    def served_ids(self) -> list[str]:
        return [r.id for r in self.served]


def _row(model_id: str, entry: dict[str, Any]) -> ModelRow:
    if entry.get("lifecycle") not in LIFECYCLES:
        raise ValueError(f"models.json: model {model_id!r}: lifecycle must be one of {', '.join(LIFECYCLES)}")
    if entry.get("thinking") not in THINKING_MODES:
        raise ValueError(f"models.json: model {model_id!r}: thinking must be one of {', '.join(THINKING_MODES)}")
    prompt = entry.get("tool_prompt_tokens")
    return ModelRow(
        id=model_id,
        display_name=entry["display_name"],
        aliases=tuple(entry.get("aliases") or ()),
        lifecycle=entry["lifecycle"],
        released=entry["released"],
        deprecated_on=entry.get("deprecated_on"),
        retires_on=entry.get("retires_on"),
        context_window=int(entry["context_window"]),
        max_output=int(entry["max_output"]),
        thinking=entry["thinking"],
        behaviour=Behaviour(**(entry.get("behaviour") or {})),
        tool_prompt_tokens=(int(prompt[0]), int(prompt[1])) if prompt else None,
        source=entry["source"],
        min_cache_tokens=int(entry["min_cache_tokens"]) if entry.get("min_cache_tokens") else None,
    )


@cache
def lineup() -> Lineup:
    """The lineup from models.json, read once (immutable, so safe to share between sessions)."""
    data = json.loads(MODELS_PATH.read_text(encoding="utf-8"))
    rows = tuple(_row(model_id, entry) for model_id, entry in data["models"].items())
    table = Lineup(rows, data["default_model"], data["as_of"])
    default = table.find(table.default_model)
    if default is None or not default.served:
        raise ValueError(f"models.json: default_model {table.default_model!r} is not a served model")
    return table


def find(model: str) -> ModelRow | None:
    """Shortcut for lineup().find(model)."""
    return lineup().find(model)


def default_model() -> str:
    """The model a new run uses: the current Sonnet."""
    return lineup().default_model
