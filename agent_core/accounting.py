"""Money and tokens per turn: the price list, turn costs, the input split by component, and the run table."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from agent_core import tokens
from agent_core.model import Run, Turn, Usage

PRICING_PATH = Path(__file__).parent / "data" / "pricing.json"
PER_MILLION = 1_000_000
NO_PRICE_NOTE = "no price known"
NOTE_SCALED = "Split estimated and scaled to the API's reported total"
NOTE_OFFLINE = "Offline: every figure is the simulator's estimate"

PRICE_FIELDS = ("input", "output", "cache_write_5m", "cache_write_1h", "cache_read")
SIZE_FIELDS = ("context_window", "max_output")
TEXT_FIELDS = ("as_of", "source")
OPTIONAL_FIELDS = ("note",)

# run_table columns. The UI, the CSV export and the charts rely on these names: keep them stable.
COL_TURN = "turn"
COL_MODEL = "model"
COMPONENT_COLUMNS = tokens.COMPONENTS  # one column per input component, in tokens
COL_INPUT = "input_tokens"  # uncached input, as reported
COL_OUTPUT = "output_tokens"
COL_CACHE_WRITE = "cache_write"  # cache_creation_input_tokens (5 min and 1 h together)
COL_CACHE_WRITE_1H = "cache_write_1h"  # the part of cache_write written with the 1 h TTL
COL_CACHE_READ = "cache_read"
COL_WHOLE = "whole_input"  # the context this turn: input + cache_write + cache_read
COL_CUM_INPUT = "cum_billed_input"  # every input token billed so far, at whatever rate
COL_CUM_OUTPUT = "cum_output"
COL_COST = "cost_usd"
COL_CUM_COST = "cum_cost_usd"
COL_WINDOW_SHARE = "window_share"  # whole_input / context window (NaN when the window is unknown)
COL_PROJECTED = "projected"  # projection_table only: False for turns that happened
TABLE_COLUMNS = (
    COL_TURN,
    COL_MODEL,
    *COMPONENT_COLUMNS,
    COL_INPUT,
    COL_OUTPUT,
    COL_CACHE_WRITE,
    COL_CACHE_WRITE_1H,
    COL_CACHE_READ,
    COL_WHOLE,
    COL_CUM_INPUT,
    COL_CUM_OUTPUT,
    COL_COST,
    COL_CUM_COST,
    COL_WINDOW_SHARE,
)
_DERIVED = (COL_CUM_INPUT, COL_CUM_OUTPUT, COL_CUM_COST, COL_WINDOW_SHARE)
# reprice() columns: the same run under every model of the price list.
REPRICE_COLUMNS = ("model", "input_usd", "output_usd", "cache_write_usd", "cache_read_usd", "total_usd", "fits_window")


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

    @property
    def label(self) -> str:
        return "" if self.known else NO_PRICE_NOTE


def unknown_price(model: str) -> ModelPrice:
    """A zero price for a model the file does not list (a local model, a new release)."""
    return ModelPrice(model, 0.0, 0.0, 0.0, 0.0, 0.0, note=NO_PRICE_NOTE, known=False)


@dataclass
class Pricing:
    """The price list as loaded from pricing.json."""

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
    unknown = sorted(set(entry) - set(PRICE_FIELDS + SIZE_FIELDS + TEXT_FIELDS + OPTIONAL_FIELDS))
    if unknown:
        raise PricingError(f"{where}: unknown field {unknown[0]!r} (a typo?)")
    values: dict[str, Any] = {f: _price(entry, f, where) for f in PRICE_FIELDS}
    values.update({f: _size(entry, f, where) for f in SIZE_FIELDS})
    values["as_of"] = _date(entry, "as_of", where)
    values["source"] = _text(entry, "source", where)
    note = entry.get("note", "")
    if not isinstance(note, str):
        raise PricingError(f"{where}: field 'note' must be text, got {_show(note)}")
    return ModelPrice(model=name, note=note, **values)


def _field(entry: dict, name: str, where: str) -> Any:
    if name not in entry:
        raise PricingError(f"{where}: field {name!r} is missing")
    return entry[name]


def _price(entry: dict, name: str, where: str) -> float:
    value = _field(entry, name, where)
    ok = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value) and value >= 0
    if not ok:
        raise PricingError(f"{where}: field {name!r} must be a non-negative number, got {_show(value)}")
    return float(value)


def _size(entry: dict, name: str, where: str) -> int:
    value = _field(entry, name, where)
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        raise PricingError(f"{where}: field {name!r} must be a positive whole number of tokens, got {_show(value)}")
    return value


def _text(entry: dict, name: str, where: str) -> str:
    value = _field(entry, name, where)
    if not isinstance(value, str) or not value.strip():
        raise PricingError(f"{where}: field {name!r} must be non-empty text, got {_show(value)}")
    return value


def _date(entry: dict, name: str, where: str) -> str:
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
        pricing.price_for(model),
        usage.input_tokens,
        usage.output_tokens,
        usage.cache_creation_input_tokens,
        usage.cache_read_input_tokens,
        cache_write_1h,
    )


def cache_write_1h_tokens(response: dict | None) -> int:
    """The 1-hour part of the cache writes, from the raw usage (Usage itself keeps only the total)."""
    usage = (response or {}).get("usage") or {}
    detail = usage.get("cache_creation") or {}
    return int(detail.get("ephemeral_1h_input_tokens") or 0) if isinstance(detail, dict) else 0


def turn_components(request: dict | None, usage: Usage | None, provider: str) -> dict[str, int]:
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
    return NOTE_OFFLINE if provider == "offline" else NOTE_SCALED


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


def estimate_next_cost(request: dict, model: str, max_tokens: int, pricing: Pricing) -> float:
    """Upper bound in USD for the next call: the estimated input at its dearest rate plus max_tokens of output."""
    price = pricing.price_for(model)
    input_tokens = tokens.count_request({**request, "model": model})
    ttls = cache_ttls(request)
    # A marked prefix may be written to the cache this time, which costs more than plain input.
    rates = [price.input] + [price.cache_write_1h if ttl == "1h" else price.cache_write_5m for ttl in ttls]
    return (input_tokens * max(rates) + max_tokens * price.output) / PER_MILLION


# ---------------------------------------------------------------- the run table


def context_window(run: Run, pricing: Pricing) -> int | None:
    """The window this run works against: the simulator's override offline, else the model's listed window."""
    if run.config.provider == "offline" and run.config.sim.context_window:
        return run.config.sim.context_window
    return pricing.price_for(run.config.model).context_window


def _turn_row(turn: Turn, run: Run, pricing: Pricing) -> dict[str, Any]:
    usage = turn.usage or Usage()
    model = str((turn.request or {}).get("model") or run.config.model)
    if turn.request is not None:
        parts = turn_components(turn.request, turn.usage, run.config.provider)
    else:  # an imported run may keep only the split the loop stored
        parts = {k: int(turn.components.get(k, 0)) for k in COMPONENT_COLUMNS}
    write_1h = cache_write_1h_tokens(turn.response)
    return {
        COL_TURN: turn.index,
        COL_MODEL: model,
        **parts,
        COL_INPUT: usage.input_tokens,
        COL_OUTPUT: usage.output_tokens,
        COL_CACHE_WRITE: usage.cache_creation_input_tokens,
        COL_CACHE_WRITE_1H: write_1h,
        COL_CACHE_READ: usage.cache_read_input_tokens,
        COL_WHOLE: usage.whole_input,
        COL_COST: turn_cost(model, turn.usage, pricing, write_1h),
    }


def run_table(run: Run, pricing: Pricing) -> pd.DataFrame:
    """One row per turn that got a response; columns are TABLE_COLUMNS (see the COL_* constants)."""
    rows = [_turn_row(t, run, pricing) for t in run.turns if t.response is not None]
    df = pd.DataFrame(rows, columns=[c for c in TABLE_COLUMNS if c not in _DERIVED])
    # An empty run still gets numeric columns, so sums and charts work on it.
    df = df.astype({c: "int64" for c in df.columns if c not in (COL_MODEL, COL_COST)} | {COL_COST: "float64"})
    window = context_window(run, pricing)
    df[COL_CUM_INPUT] = df[COL_WHOLE].cumsum()
    df[COL_CUM_OUTPUT] = df[COL_OUTPUT].cumsum()
    df[COL_CUM_COST] = df[COL_COST].astype(float).cumsum()
    df[COL_WINDOW_SHARE] = df[COL_WHOLE] / window if window else np.nan
    df = df[list(TABLE_COLUMNS)]
    price = pricing.price_for(run.config.model)
    df.attrs.update(
        model=run.config.model,
        price_known=price.known,
        context_window=window,
        input_price=price.input,
        output_price=price.output,
        provider=run.config.provider,
        components_note=components_note(run.config.provider),
    )
    return df


def table_csv(df: pd.DataFrame) -> bytes:
    """The run table as UTF-8 CSV, for the download button."""
    return df.to_csv(index=False).encode("utf-8")


# ---------------------------------------------------------------- what-ifs on a run table


def reprice(df: pd.DataFrame, pricing: Pricing) -> pd.DataFrame:
    """The same token counts priced under every model of the list (tokenizers differ: a what-if, not a quote)."""
    sums = {c: int(df[c].sum()) for c in (COL_INPUT, COL_OUTPUT, COL_CACHE_WRITE, COL_CACHE_WRITE_1H, COL_CACHE_READ)}
    peak = int(df[COL_WHOLE].max()) if len(df) else 0
    rows = []
    for model in pricing.models:
        p = pricing.prices[model]
        write_1h = min(sums[COL_CACHE_WRITE_1H], sums[COL_CACHE_WRITE])
        parts = (
            sums[COL_INPUT] * p.input,
            sums[COL_OUTPUT] * p.output,
            (sums[COL_CACHE_WRITE] - write_1h) * p.cache_write_5m + write_1h * p.cache_write_1h,
            sums[COL_CACHE_READ] * p.cache_read,
        )
        usd = [x / PER_MILLION for x in parts]
        fits = p.context_window is None or peak <= p.context_window
        rows.append([model, *usd, sum(usd), fits])
    return pd.DataFrame(rows, columns=list(REPRICE_COLUMNS))


def cache_saving(df: pd.DataFrame, price: ModelPrice) -> pd.Series:
    """USD saved per turn by caching versus sending the same input uncached (write premiums count against it)."""
    write_1h = np.minimum(df[COL_CACHE_WRITE_1H], df[COL_CACHE_WRITE])
    write_5m = df[COL_CACHE_WRITE] - write_1h
    micro = (
        df[COL_CACHE_READ] * (price.input - price.cache_read)
        - write_5m * (price.cache_write_5m - price.input)
        - write_1h * (price.cache_write_1h - price.input)
    )
    return (micro / PER_MILLION).astype(float)


def _linear_fit(x: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """Intercept and slope; with a single turn there is no growth to measure yet."""
    if len(x) < 2:
        return (float(y[0]) if len(y) else 0.0), 0.0
    slope, intercept = np.polyfit(x, y, 1)
    return float(intercept), float(slope)


def _projected_costs(df: pd.DataFrame, whole_ahead: np.ndarray) -> np.ndarray:
    """Future turn costs: the last turn's input bill, plus the growth at the plain input rate, plus typical output."""
    last = df.iloc[-1]
    in_price, out_price = df.attrs.get("input_price"), df.attrs.get("output_price")
    if in_price is None or out_price is None:
        # Without the prices, the last turn's cost per context token stands in for every rate.
        rate = float(last[COL_COST]) / float(last[COL_WHOLE]) if last[COL_WHOLE] else 0.0
        return np.clip(whole_ahead * rate, 0, None)
    last_input_cost = float(last[COL_COST]) - float(last[COL_OUTPUT]) * out_price / PER_MILLION
    output_cost = float(df[COL_OUTPUT].mean()) * out_price / PER_MILLION
    growth = (whole_ahead - float(last[COL_WHOLE])) * in_price / PER_MILLION
    return np.clip(last_input_cost + growth + output_cost, 0, None)


def projection_table(df: pd.DataFrame, extra_turns: int) -> pd.DataFrame:
    """Actual turns plus extra_turns more, the context growing linearly per turn (so the totals grow quadratically)."""
    cols = [COL_TURN, COL_WHOLE, COL_COST, COL_CUM_INPUT, COL_CUM_COST, COL_PROJECTED]
    if df.empty:
        dtypes = dict.fromkeys(cols, "float64") | {COL_TURN: "int64", COL_PROJECTED: "bool"}
        return pd.DataFrame({c: pd.Series(dtype=t) for c, t in dtypes.items()})
    turns = df[COL_TURN].to_numpy(dtype=float)
    future = np.arange(turns[-1] + 1, turns[-1] + 1 + max(extra_turns, 0), dtype=float)
    a, b = _linear_fit(turns, df[COL_WHOLE].to_numpy(dtype=float))
    whole = np.clip(a + b * future, 0, None)  # a shrinking context cannot go below zero
    actual = pd.DataFrame(
        {
            COL_TURN: df[COL_TURN].astype(int),
            COL_WHOLE: df[COL_WHOLE].astype(float),
            COL_COST: df[COL_COST].astype(float),
            COL_PROJECTED: False,
        }
    )
    ahead = pd.DataFrame(
        {COL_TURN: future.astype(int), COL_WHOLE: whole, COL_COST: _projected_costs(df, whole), COL_PROJECTED: True}
    )
    out = pd.concat([actual, ahead], ignore_index=True) if len(ahead) else actual
    out[COL_CUM_INPUT] = out[COL_WHOLE].cumsum()
    out[COL_CUM_COST] = out[COL_COST].cumsum()
    out.attrs.update(df.attrs)
    return out[cols]
