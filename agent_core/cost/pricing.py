"""Pure pricing: the price list, the cost of a turn and the next call's bound (no pandas: the loop imports this)."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from agent_core.cost import tokens
from agent_core.model import Run, Usage
from agent_core.vocab import Provider

# The model table (agent_core/lineup.py) carries the prices; its other columns are not prices and are skipped here.
PRICING_PATH = Path(__file__).parents[1] / "data" / "models.json"
PER_MILLION = 1_000_000
NO_PRICE_NOTE = "no price known"
NOTE_SCALED = "Split estimated and scaled to the API's reported total"
NOTE_OFFLINE = "Offline: every figure is the simulator's estimate"

PRICE_FIELDS = ("input", "output", "cache_write_5m", "cache_write_1h", "cache_read")
SIZE_FIELDS = ("context_window", "max_output")
TEXT_FIELDS = ("as_of", "source")
OPTIONAL_FIELDS = ("note", "long_prompt", "assumed")
LINEUP_FIELDS = (
    "display_name",
    "aliases",
    "lifecycle",
    "released",
    "deprecated_on",
    "retires_on",
    "thinking",
    "behaviour",
    "tool_prompt_tokens",
    "min_cache_tokens",
)


class PricingError(ValueError):
    """A pricing file that is missing, not JSON, or has a field the app cannot trust."""


@dataclass(frozen=True)
class ModelPrice:
    """One model's prices in USD per million tokens, plus its limits."""

    model: str
    input: float
    output: float
    cache_write_5m: float
    cache_write_1h: float
    cache_read: float
    context_window: int | None = None
    max_output: int | None = None
    as_of: str = ""
    source: str = ""
    note: str = ""
    known: bool = True
    # A second price band for long prompts: (threshold in prompt tokens, the band's ModelPrice). Haiku 5.5 bills a
    # request whose whole input passes 100K tokens at higher rates, on every token of that request, output too.
    long_prompt: tuple[int, ModelPrice] | None = None

    def for_prompt(self, prompt_tokens: int) -> ModelPrice:
        """The rates that apply to a request with this many input tokens (cache reads and writes included)."""
        if self.long_prompt and prompt_tokens > self.long_prompt[0]:
            return self.long_prompt[1]
        return self

    @property
    def label(self) -> str:
        return "" if self.known else NO_PRICE_NOTE


def unknown_price(model: str) -> ModelPrice:
    """A zero price for a model the file does not list (a local model, a new release)."""
    return ModelPrice(model, 0.0, 0.0, 0.0, 0.0, 0.0, note=NO_PRICE_NOTE, known=False)


@dataclass
class Pricing:
    """The price list as loaded from the model table (models.json) or an edited price file."""

    prices: dict[str, ModelPrice] = field(default_factory=dict)
    currency: str = "USD"
    as_of: str = ""
    path: str = ""

    @property
    def models(self) -> list[str]:
        return list(self.prices)

    def get(self, model: str) -> ModelPrice | None:
        """The listed price, also for dated ids such as 'claude-opus-4-5-20251101'."""
        if model in self.prices:
            return self.prices[model]
        prefixes = [m for m in self.prices if model.startswith(m + "-")]
        return self.prices[max(prefixes, key=len)] if prefixes else None

    def price_for(self, model: str) -> ModelPrice:
        """The listed price, or a zero price flagged 'no price known'."""
        return self.get(model) or unknown_price(model)


# ---------------------------------------------------------------- loading and validation


def load_pricing(path: str | Path | None = None) -> Pricing:
    """Read and validate a pricing file; any doubt raises PricingError naming the file, model and field."""
    path = Path(path) if path is not None else PRICING_PATH
    where = path.name
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise PricingError(f"{where}: cannot read the file ({exc.strerror or exc})") from exc
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise PricingError(f"{where}: not valid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}") from exc
    if not isinstance(data, dict):
        raise PricingError(f"{where}: the top level must be an object, got {_kind(data)}")
    currency = _text(data, "currency", where)
    as_of = _date(data, "as_of", where)
    models = data.get("models")
    if not isinstance(models, dict) or not models:
        raise PricingError(f"{where}: field 'models' must be a non-empty object, got {_show(models)}")
    prices = {name: _model_price(name, entry, f"{where}: model {name!r}") for name, entry in models.items()}
    return Pricing(prices=prices, currency=currency, as_of=as_of, path=str(path))


def _model_price(name: str, entry: Any, where: str) -> ModelPrice:
    if not isinstance(entry, dict):
        raise PricingError(f"{where}: must be an object, got {_kind(entry)}")
    unknown = sorted(set(entry) - set(PRICE_FIELDS + SIZE_FIELDS + TEXT_FIELDS + OPTIONAL_FIELDS + LINEUP_FIELDS))
    if unknown:
        raise PricingError(f"{where}: unknown field {unknown[0]!r} (a typo?)")
    values: dict[str, Any] = {f: _price(entry, f, where) for f in PRICE_FIELDS}
    values.update({f: _size(entry, f, where) for f in SIZE_FIELDS})
    values["as_of"] = _date(entry, "as_of", where)
    values["source"] = _text(entry, "source", where)
    note = entry.get("note", "")
    if not isinstance(note, str):
        raise PricingError(f"{where}: field 'note' must be text, got {_show(note)}")
    return ModelPrice(model=name, note=note, long_prompt=_long_prompt(name, entry.get("long_prompt"), where), **values)


def _long_prompt(name: str, band: Any, where: str) -> tuple[int, ModelPrice] | None:
    if band is None:
        return None
    where = f"{where}: long_prompt"
    if not isinstance(band, dict) or set(band) != {"threshold_tokens", *PRICE_FIELDS}:
        raise PricingError(f"{where}: must hold threshold_tokens and " + ", ".join(PRICE_FIELDS))
    rate = {f: _price(band, f, where) for f in PRICE_FIELDS}
    price = ModelPrice(
        name, rate["input"], rate["output"], rate["cache_write_5m"], rate["cache_write_1h"], rate["cache_read"]
    )
    return _size(band, "threshold_tokens", where), price


def _field(entry: dict[str, Any], name: str, where: str) -> Any:
    if name not in entry:
        raise PricingError(f"{where}: field {name!r} is missing")
    return entry[name]


def _price(entry: dict[str, Any], name: str, where: str) -> float:
    value = _field(entry, name, where)
    ok = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value) and value >= 0
    if not ok:
        raise PricingError(f"{where}: field {name!r} must be a non-negative number, got {_show(value)}")
    return float(value)


def _size(entry: dict[str, Any], name: str, where: str) -> int:
    value = _field(entry, name, where)
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        raise PricingError(f"{where}: field {name!r} must be a positive whole number of tokens, got {_show(value)}")
    return value


def _text(entry: dict[str, Any], name: str, where: str) -> str:
    value = _field(entry, name, where)
    if not isinstance(value, str) or not value.strip():
        raise PricingError(f"{where}: field {name!r} must be non-empty text, got {_show(value)}")
    return value


def _date(entry: dict[str, Any], name: str, where: str) -> str:
    value = _text(entry, name, where)
    try:
        date.fromisoformat(value)
    except ValueError:
        raise PricingError(f"{where}: field {name!r} must be a date like 2026-11-30, got {_show(value)}") from None
    return value


def _show(value: Any) -> str:
    return "nothing" if value is None else repr(value)


def _kind(value: Any) -> str:
    return {list: "a list", str: "text", int: "a number", float: "a number"}.get(type(value), type(value).__name__)


# ---------------------------------------------------------------- costs of one turn


def tokens_cost(
    price: ModelPrice, input_tokens: int, output_tokens: int, cache_write: int, cache_read: int, cache_write_1h: int = 0
) -> float:
    """USD for a token mix; cache_write_1h is the part of cache_write billed at the 1-hour rate."""
    write_1h = min(cache_write_1h, cache_write)
    micro = (
        input_tokens * price.input
        + output_tokens * price.output
        + (cache_write - write_1h) * price.cache_write_5m
        + write_1h * price.cache_write_1h
        + cache_read * price.cache_read
    )
    return micro / PER_MILLION


def turn_cost(model: str, usage: Usage | None, pricing: Pricing, cache_write_1h: int = 0) -> float:
    """USD for one API call; 0 with no usage or an unknown model (see Pricing.price_for)."""
    if usage is None:
        return 0.0
    return tokens_cost(
        pricing.price_for(model).for_prompt(usage.whole_input),
        usage.input_tokens,
        usage.output_tokens,
        usage.cache_creation_input_tokens,
        usage.cache_read_input_tokens,
        cache_write_1h,
    )


def cache_write_1h_tokens(response: dict[str, Any] | None) -> int:
    """The 1-hour part of the cache writes, from the raw usage (Usage itself keeps only the total)."""
    usage = (response or {}).get("usage") or {}
    detail = usage.get("cache_creation") or {}
    return int(detail.get("ephemeral_1h_input_tokens") or 0) if isinstance(detail, dict) else 0


def turn_components(request: dict[str, Any] | None, usage: Usage | None) -> dict[str, int]:
    """The input of one request split by component, summing to the reported whole input when there is one."""
    parts = tokens.split_components(request or {})
    total = usage.whole_input if usage else 0
    # Offline the simulator reports exactly this estimate, so scaling changes nothing there; with a real
    # tokenizer the estimate is off and the reported total is the figure that was billed.
    if total > 0 and sum(parts.values()) != total:
        return tokens.scale_components(parts, total)
    return parts


def components_note(provider: str) -> str:
    """The honest label for the component split of this provider."""
    return NOTE_OFFLINE if provider == Provider.OFFLINE else NOTE_SCALED


def cache_ttls(value: Any) -> set[str]:
    """Every cache_control TTL marked anywhere in a request ('5m' when none is given)."""
    found: set[str] = set()
    if isinstance(value, dict):
        marker = value.get("cache_control")
        if isinstance(marker, dict):
            found.add(str(marker.get("ttl") or "5m"))
        for item in value.values():
            found |= cache_ttls(item)
    elif isinstance(value, list):
        for item in value:
            found |= cache_ttls(item)
    return found


def estimate_next_cost(request: dict[str, Any], model: str, max_tokens: int, pricing: Pricing) -> float:
    """Upper bound in USD for the next call: the estimated input at its dearest rate plus max_tokens of output."""
    price = pricing.price_for(model)
    input_tokens = tokens.count_request({**request, "model": model})
    ttls = cache_ttls(request)
    # A marked prefix may be written to the cache this time, which costs more than plain input.
    rates = [price.input] + [price.cache_write_1h if ttl == "1h" else price.cache_write_5m for ttl in ttls]
    return (input_tokens * max(rates) + max_tokens * price.output) / PER_MILLION


def context_window(run: Run, pricing: Pricing) -> int | None:
    """The window this run works against: the simulator's override offline, else the model's listed window."""
    if run.config.provider == Provider.OFFLINE and run.config.sim.context_window:
        return run.config.sim.context_window
    return pricing.price_for(run.config.model).context_window
