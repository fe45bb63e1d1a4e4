"""The tool registry: lookup by name, schema validation before the call, errors as results, timeouts, call counts."""

import threading
import urllib.request

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agent_core.model import ToolSpec
from agent_core.tools import catalog
from agent_core.tools.catalog import CatalogTool, default_specs
from agent_core.tools.registry import ToolOutcome, ToolRegistry

SCHEMA = {
    "type": "object",
    "properties": {"city": {"type": "string"}, "days": {"type": "integer", "minimum": 1}},
    "required": ["city"],
    "additionalProperties": False,
}


@pytest.fixture
def spy(monkeypatch):
    """A catalog tool named 'spy' that records its calls; its behaviour is set per test."""
    calls = []
    behaviour = {"run": lambda ctx, **kw: f"ran with {kw}"}

    def spy(ctx, city, days=1):
        calls.append({"ctx": ctx, "city": city, "days": days})
        return behaviour["run"](ctx, city=city, days=days)

    monkeypatch.setitem(catalog._TOOLS, "spy", CatalogTool(ToolSpec("spy", "Spy.", SCHEMA), spy, "spy"))
    spy.calls, spy.behaviour = calls, behaviour
    return spy


def registry(*specs, **kwargs) -> ToolRegistry:
    return ToolRegistry(list(specs) or [ToolSpec("spy", "Spy.", SCHEMA)], **kwargs)


def test_valid_input_runs_the_function(spy):
    outcome = registry().execute("spy", {"city": "Oslo", "days": 2})
    assert outcome == ToolOutcome("ran with {'city': 'Oslo', 'days': 2}", False, outcome.duration_ms)
    assert outcome.duration_ms >= 0 and len(spy.calls) == 1


@pytest.mark.parametrize(
    "tool_input,reason",
    [
        ({}, "'city' is a required property"),
        ({"city": 5}, "5 is not of type 'string'"),
        ({"city": "Oslo", "days": 0}, "at 'days'"),
        ({"city": "Oslo", "town": "x"}, "'town' was unexpected"),
        (["Oslo"], "is not of type 'object'"),
        ("Oslo", "is not of type 'object'"),
    ],
)
def test_invalid_input_is_refused_before_the_function_runs(spy, tool_input, reason):
    outcome = registry().execute("spy", tool_input)
    assert outcome.is_error and spy.calls == []
    assert outcome.output.startswith("Invalid input for spy: ") and reason in outcome.output
    assert 'Expected schema: {"type":"object"' in outcome.output


def test_unknown_tool_names_the_available_ones():
    specs = default_specs(["get_weather", "calculate"])
    outcome = ToolRegistry(specs).execute("get_wether", {"city": "Oslo"})
    assert outcome.is_error
    assert outcome.output == "Unknown tool 'get_wether'. Available tools: get_weather, calculate."


def test_tool_known_to_the_catalog_but_not_offered_is_still_unknown():
    outcome = ToolRegistry(default_specs(["calculate"])).execute("delete_file", {"path": "notes.txt"})
    assert outcome.is_error and outcome.output.startswith("Unknown tool 'delete_file'")


def test_an_exception_becomes_an_error_result_with_its_type_and_message(spy):
    def explode(ctx, **kw):
        raise RuntimeError("disk on fire")

    spy.behaviour["run"] = explode
    outcome = registry().execute("spy", {"city": "Oslo"})
    assert outcome.is_error and outcome.output == "RuntimeError: disk on fire"


def test_a_slow_tool_times_out_and_is_told_to_stop(spy):
    started = threading.Event()

    def wait_forever(ctx, **kw):
        started.set()
        ctx.cancelled.wait()
        return "too late"

    spy.behaviour["run"] = wait_forever
    outcome = registry(tool_timeout_s=0.1).execute("spy", {"city": "Oslo"})
    assert started.is_set() and outcome.is_error
    assert outcome.output == "Timeout: spy took longer than 0.1 s and was stopped."
    assert spy.calls[0]["ctx"].cancelled.is_set()


def test_catalog_slow_report_outlasts_the_timeout():
    outcome = ToolRegistry(default_specs(["slow_report"]), tool_timeout_s=0.2).execute(
        "slow_report", {"topic": "sales"}
    )
    assert outcome.is_error and outcome.output.startswith("Timeout: slow_report took longer than 0.2 s")
    assert catalog.SLOW_REPORT_SECONDS > 5.0  # longer than the default timeout, so the lesson sees it fire


def test_a_tool_with_an_invalid_schema_says_so(spy):
    broken = ToolSpec("spy", "Spy.", {"type": "object", "properties": {"city": {"type": "strng"}}})
    outcome = registry(broken).execute("spy", {"city": "Oslo"})
    assert outcome.is_error and "invalid input_schema" in outcome.output and spy.calls == []


def test_a_remote_schema_reference_is_never_fetched(spy, monkeypatch):
    def no_network(*args, **kwargs):
        raise AssertionError("the registry fetched a remote schema")

    monkeypatch.setattr(urllib.request, "urlopen", no_network)
    remote = ToolSpec("spy", "Spy.", {"type": "object", "properties": {"city": {"$ref": "http://127.0.0.1:9/s.json"}}})
    outcome = registry(remote).execute("spy", {"city": "Oslo"})
    assert outcome.is_error and "cannot be resolved" in outcome.output and spy.calls == []


def test_an_edited_schema_that_no_longer_matches_the_function(spy):
    renamed = ToolSpec("spy", "Spy.", {"type": "object", "properties": {"location": {"type": "string"}}})
    outcome = registry(renamed).execute("spy", {"location": "Oslo"})
    assert outcome.is_error and "no parameter 'location'" in outcome.output and "city, days" in outcome.output
    outcome = registry(renamed).execute("spy", {})
    assert outcome.is_error and "'city' is required" in outcome.output and spy.calls == []


def test_a_renamed_tool_runs_its_implementation():
    spec = ToolSpec("weather_lookup", "Weather.", default_specs(["get_weather"])[0].input_schema, impl="get_weather")
    outcome = ToolRegistry([spec]).execute("weather_lookup", {"city": "Oslo"})
    assert not outcome.is_error and outcome.output.startswith("Oslo:")


def test_a_spec_without_implementation_is_an_error():
    spec = ToolSpec("teleport", "Moves you.", {"type": "object"})
    outcome = ToolRegistry([spec]).execute("teleport", {})
    assert outcome.is_error and "no implementation" in outcome.output


def test_definitions_and_approval_come_from_the_specs():
    specs = default_specs(["get_weather", "delete_file"])
    tools = ToolRegistry(specs)
    assert tools.definitions() == [s.definition() for s in specs]
    assert not tools.needs_approval("get_weather") and tools.needs_approval("delete_file")
    assert not tools.needs_approval("no_such_tool")


def _flaky_errors(tools: ToolRegistry, n: int) -> list[bool]:
    return [tools.execute("flaky_lookup", {"query": "Moon"}).is_error for _ in range(n)]


def test_flaky_tool_fails_every_other_call():
    tools = ToolRegistry(default_specs(["flaky_lookup"]))
    assert _flaky_errors(tools, 4) == [True, False, True, False]
    assert tools.calls == {"flaky_lookup": 4}


@pytest.mark.parametrize("prior,expected", [(0, [True, False]), (1, [False, True]), (4, [True, False])])
def test_flaky_tool_continues_from_prior_calls(prior, expected):
    tools = ToolRegistry(default_specs(["flaky_lookup"]), prior_calls={"flaky_lookup": prior})
    assert _flaky_errors(tools, 2) == expected


def test_prior_calls_by_tool_name_count_for_its_implementation():
    spec = ToolSpec("lookup", "Lookup.", default_specs(["flaky_lookup"])[0].input_schema, impl="flaky_lookup")
    tools = ToolRegistry([spec], prior_calls={"lookup": 1})
    outcome = tools.execute("lookup", {"query": "Moon"})
    assert not outcome.is_error and "Moon" in outcome.output


def test_the_unavailable_tool_always_fails_the_same_way():
    tools = ToolRegistry(default_specs(["get_stock_price"]))
    outcomes = [tools.execute("get_stock_price", {"symbol": "ACME"}) for _ in range(3)]
    assert all(o.is_error for o in outcomes)
    assert {o.output for o in outcomes} == {"Error: data unavailable for ACME right now. Try again later."}


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=10), inner, max_size=3),
    max_leaves=8,
)
_NAMES = st.sampled_from(list(catalog.CATALOG) + ["", "nope", "get_wether"]) | st.text(max_size=20)
_TEXT_INPUT = st.fixed_dictionaries(
    {}, optional={k: st.text(max_size=40) for k in ("city", "units", "expression", "query", "path", "symbol", "topic")}
)


@settings(max_examples=150, deadline=None)
@given(_NAMES, _JSON | _TEXT_INPUT)
def test_execute_never_raises(name, tool_input):
    tools = ToolRegistry(default_specs([n for n in catalog.CATALOG if n != "get_weather_terse"]), tool_timeout_s=0.2)
    outcome = tools.execute(name, tool_input)
    assert isinstance(outcome, ToolOutcome) and isinstance(outcome.output, str) and isinstance(outcome.is_error, bool)
    tools.close()
