"""The tool catalog: each tool's spec (from data/tools.json) next to the Python function that runs it."""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from agent_core.model import ToolSpec
from agent_core.tools import calculator
from agent_core.tools.base import ToolContext, ToolFailure
from agent_core.tools.lookups import encyclopedia_entry, load_data, search_facts, weather_report
from agent_core.tools.sandbox import bundled_sandboxes, sandbox_path
from agent_core.tools.texts import error, render, said

__all__ = ["CATALOG", "CatalogTool", "bundled_sandboxes", "default_specs", "sandbox_path"]

# Longer than the default tool timeout (5 s), so the timeout lesson has something to stop.
SLOW_REPORT_SECONDS = 8.0


@dataclass(frozen=True)
class CatalogTool:
    """A ready-made tool: the spec the model sees, the function the program runs, a line for the picker."""

    spec: ToolSpec
    function: Callable[..., str]
    summary: str
    common: bool = False


# -- the functions (each takes the run's ToolContext first, then the model's input) ---------
def get_weather(ctx: ToolContext, city: str, units: str = "celsius") -> str:
    return weather_report(city, units, ctx.language)


def get_weather_terse(ctx: ToolContext, city: str, units: str = "celsius") -> str:
    """Same data; errors say only 'failed', to compare with the descriptive ones."""
    try:
        return weather_report(city, units, ctx.language)
    except ValueError:
        raise error(ToolFailure, "tool.failed") from None


def calculate(ctx: ToolContext, expression: str) -> str:
    return calculator.calculate(expression)


def search_memory(ctx: ToolContext, query: str) -> str:
    return search_facts(query, ctx.language)


def read_file(ctx: ToolContext, path: str) -> str:
    return ctx.sandbox.read(path, ctx.language)


def list_files(ctx: ToolContext) -> str:
    return ctx.sandbox.listing(ctx.language)


def get_stock_price(ctx: ToolContext, symbol: str) -> str:
    """Never has data: the 'break the loop' exercises watch a model retry it."""
    raise error(ToolFailure, "stock.unavailable", symbol=symbol)


def flaky_lookup(ctx: ToolContext, query: str) -> str:
    """Fails on odd calls (1st, 3rd, ...) of the run, succeeds on even ones: recovery is always possible."""
    if ctx.call_number % 2 == 1:
        raise error(ToolFailure, "flaky.unavailable")
    return encyclopedia_entry(query, ctx.language)


def slow_report(ctx: ToolContext, topic: str) -> str:
    # Waiting on the stop signal instead of sleeping lets the worker thread end as soon as the call times out.
    if ctx.cancelled.wait(SLOW_REPORT_SECONDS):
        return ""
    return render(said("slow.report", topic=topic), ctx.language)


def delete_file(ctx: ToolContext, path: str) -> str:
    """Deletes only inside the run's private copy of the sandbox (see Sandbox.delete)."""
    return render(said("sandbox.deleted", path=repr(ctx.sandbox.delete(path))), ctx.language)


def web_search(ctx: ToolContext, query: str) -> str:
    """Never runs here: a server tool is executed by the API, and the loop never sends it to the registry."""
    raise error(ToolFailure, "web_search.server")


_FUNCTIONS: dict[str, Callable[..., str]] = {
    f.__name__: f
    for f in (
        get_weather,
        get_weather_terse,
        calculate,
        search_memory,
        read_file,
        list_files,
        get_stock_price,
        flaky_lookup,
        slow_report,
        delete_file,
        web_search,
    )
}


def _load_catalog() -> dict[str, CatalogTool]:
    entries = load_data("tools.json")["tools"]
    if set(entries) != set(_FUNCTIONS):
        raise RuntimeError(f"tools.json and catalog functions disagree: {sorted(set(entries) ^ set(_FUNCTIONS))}")
    catalog = {}
    for key, entry in entries.items():
        name = entry.get("name", key)
        spec = ToolSpec(
            name=name,
            description=entry["description"],
            input_schema=entry["input_schema"],
            impl="" if name == key else key,
            needs_approval=bool(entry.get("needs_approval")),
            server_type=entry.get("server_type", ""),
        )
        catalog[key] = CatalogTool(spec, _FUNCTIONS[key], entry["summary"], bool(entry.get("common")))
    return catalog


# Keyed by implementation name (ToolSpec.impl_key); for every tool but get_weather_terse that is its name.
_TOOLS: dict[str, CatalogTool] = _load_catalog()
CATALOG: Mapping[str, CatalogTool] = MappingProxyType(_TOOLS)  # read-only for the app; specs are copied out


def default_specs(names: list[str] | None = None) -> list[ToolSpec]:
    """Fresh copies of catalog specs by implementation name; None gives the common set."""
    if names is None:
        names = [key for key, tool in CATALOG.items() if tool.common]
    unknown = [n for n in names if n not in CATALOG]
    if unknown:
        raise KeyError(f"unknown catalog tool {unknown[0]!r}; available: {', '.join(CATALOG)}")
    return [copy.deepcopy(CATALOG[n].spec) for n in names]
