"""Where a lesson's stated facts come from: a path into the model table (agent_core/data/models.json) or a constant
of the code, so a price, a window or a limit a lesson states is pinned to the data the app itself runs on.

A path is `models.<model id>.<field>` (a list item by index: `models.claude-sonnet-5-5.tool_prompt_tokens.0`), or
`code.<module>.<NAME>` (a constant, e.g. `code.agent_core.tools.calculator.MAX_DIGITS`), or two of them divided
by ` / ` (the cache read as a multiple of the input price) or taken one from the other with ` - `. A figure a model's
row marks as `assumed` (carried over from another model: the docs give none for this one) cannot be read by this
model's path; cite the model it comes from.
"""

from __future__ import annotations

import importlib
import json
from functools import cache
from typing import Any

from agent_core.lineup import MODELS_PATH


class FactError(ValueError):
    """A data path that names nothing."""


@cache
def _models() -> dict[str, Any]:
    models: dict[str, Any] = json.loads(MODELS_PATH.read_text(encoding="utf-8"))["models"]
    return models


def data_value(path: str) -> Any:
    """The value a data path names (FactError when it names nothing)."""
    for sign in (" / ", " - "):
        if sign in path:
            left, right = (data_value(p.strip()) for p in path.split(sign, 1))
            if not all(isinstance(v, (int, float)) for v in (left, right)) or (sign == " / " and not right):
                raise FactError(f"{path!r}: both sides of {sign.strip()!r} must be numbers")
            return round(left / right if sign == " / " else left - right, 6)
    kind, _, rest = path.partition(".")
    if kind == "models":
        return _model_value(rest, path)
    if kind == "code":
        module, _, name = rest.rpartition(".")
        try:
            return getattr(importlib.import_module(module), name)
        except (ImportError, AttributeError) as err:
            raise FactError(f"{path!r}: {err}") from None
    raise FactError(f"{path!r}: a data path starts with 'models.' or 'code.'")


def _model_value(rest: str, path: str) -> Any:
    models = _models()
    model = next((m for m in sorted(models, key=len, reverse=True) if rest.startswith(m + ".")), None)
    if model is None:
        raise FactError(f"{path!r}: no such model in models.json")
    value: Any = models[model]
    field = rest[len(model) + 1 :].split(".")[0]
    if borrowed := (value.get("assumed") or {}).get(field):
        # The docs give no such figure for this model; the table carries another model's so the offline model has
        # one. A lesson states the model it comes from, and that the docs give none for this one.
        raise FactError(f"{path!r}: the docs give no {field} for {model}; models.json carries {borrowed}'s: cite that")
    for part in rest[len(model) + 1 :].split("."):
        if isinstance(value, dict) and part in value:
            value = value[part]
        elif isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        else:
            raise FactError(f"{path!r}: {model} has no {part!r}")
    return value
