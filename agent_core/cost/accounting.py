"""The tabular report over a run: the run table, CSV, repricing, caching savings and projections (pandas lives here).

The pure prices and per-turn costs are in agent_core.cost.pricing (the loop imports only that); they are re-exported here
so a report reads as one module.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from agent_core.cost import tokens
from agent_core.cost.pricing import (
    NO_PRICE_NOTE,
    NOTE_OFFLINE,
    NOTE_SCALED,
    PER_MILLION,
    PRICING_PATH,
    ModelPrice,
    Pricing,
    PricingError,
    cache_ttls,
    cache_write_1h_tokens,
    components_note,
    context_window,
    estimate_next_cost,
    load_pricing,
    tokens_cost,
    turn_components,
    turn_cost,
    unknown_price,
)
from agent_core.model import Run, Turn, Usage

__all__ = [
    "NO_PRICE_NOTE",
    "NOTE_OFFLINE",
    "NOTE_SCALED",
    "PER_MILLION",
    "PRICING_PATH",
    "ModelPrice",
    "Pricing",
    "PricingError",
    "cache_saving",
    "cache_ttls",
    "cache_write_1h_tokens",
    "components_note",
    "context_window",
    "estimate_next_cost",
    "load_pricing",
    "projection_table",
    "reprice",
    "run_table",
    "table_csv",
    "tokens_cost",
    "turn_components",
    "turn_cost",
    "unknown_price",
]

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


# ---------------------------------------------------------------- the run table


def _turn_row(turn: Turn, run: Run, pricing: Pricing) -> dict[str, Any]:
    usage = turn.usage or Usage()
    model = str((turn.request or {}).get("model") or run.config.model)
    if turn.request is not None:
        parts = turn_components(turn.request, turn.usage)
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
    csv: str = df.to_csv(index=False)
    return csv.encode("utf-8")


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
        costs: np.ndarray = np.clip(whole_ahead * rate, 0, None)
        return costs
    last_input_cost = float(last[COL_COST]) - float(last[COL_OUTPUT]) * out_price / PER_MILLION
    output_cost = float(df[COL_OUTPUT].mean()) * out_price / PER_MILLION
    growth = (whole_ahead - float(last[COL_WHOLE])) * in_price / PER_MILLION
    costs = np.clip(last_input_cost + growth + output_cost, 0, None)
    return costs


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
