"""The tool catalog: well-formed specs, and what the demo tools answer (weather, memory, lookups, failures)."""

import re

import pytest
from jsonschema import Draft202012Validator

from agent_core.tools import catalog
from agent_core.tools.catalog import CATALOG, default_specs
from agent_core.tools.lookups import city_names
from agent_core.tools.registry import ToolRegistry

ALL = ToolRegistry(default_specs([n for n in CATALOG if n != "get_weather_terse"]))


def run(name: str, **tool_input):
    return ALL.execute(name, tool_input)


@pytest.mark.parametrize("key", list(CATALOG))
def test_every_spec_is_a_valid_api_tool_with_a_real_description(key):
    spec = CATALOG[key].spec
    assert re.fullmatch(r"[a-zA-Z0-9_-]{1,64}", spec.name)
    Draft202012Validator.check_schema(spec.input_schema)
    assert spec.input_schema["type"] == "object"
    assert all(p.get("description") for p in spec.input_schema.get("properties", {}).values())
    sentences = [s for s in re.split(r"(?<=[.;])\s+", spec.description) if s.strip()]
    assert len(sentences) >= 3 and CATALOG[key].summary
    assert spec.impl_key == key


def test_default_specs_are_the_common_tools_and_fresh_copies():
    assert [s.name for s in default_specs()] == ["get_weather", "calculate", "search_memory", "read_file"]
    spec = default_specs(["get_weather"])[0]
    spec.description = "Does stuff."
    spec.input_schema["properties"].clear()
    assert CATALOG["get_weather"].spec.description != "Does stuff."
    assert "city" in default_specs(["get_weather"])[0].input_schema["properties"]
    with pytest.raises(KeyError, match="nope"):
        default_specs(["nope"])


def test_only_delete_needs_approval():
    assert {k for k, t in CATALOG.items() if t.spec.needs_approval} == {"delete_file"}


# -- weather ------------------------------------------------------------------------------------
def test_weather_is_deterministic_and_labelled_as_demo_data():
    first, second = run("get_weather", city="Oslo"), run("get_weather", city="Oslo")
    assert not first.is_error and first.output == second.output
    assert first.output.startswith("Oslo: ") and "°C" in first.output
    assert first.output.endswith("(demo data, not a live forecast)")
    assert re.search(r"humidity \d+%, wind \d+ m/s", first.output)


def test_there_are_about_forty_distinct_cities():
    outputs = {run("get_weather", city=c).output for c in city_names()}
    assert len(city_names()) >= 40 and len(outputs) == len(city_names())


@pytest.mark.parametrize(
    "spelling,city",
    [
        ("oslo", "Oslo"),
        ("OSLO", "Oslo"),
        ("Осло", "Oslo"),
        ("Warszawa", "Warsaw"),
        ("Warszawie", "Warsaw"),
        ("Варшава", "Warsaw"),
        ("Москва", "Moscow"),
        ("Moskwa", "Moscow"),
        ("krakow", "Kraków"),
        ("Kraków", "Kraków"),
        ("Краков", "Kraków"),
        ("St. Petersburg", "Saint Petersburg"),
        ("Санкт-Петербург", "Saint Petersburg"),
        ("Nowy Jork", "New York"),
        ("Oslo, Norway", "Oslo"),
    ],
)
def test_weather_accepts_other_spellings_and_languages(spelling, city):
    assert run("get_weather", city=spelling).output == run("get_weather", city=city).output


def test_fahrenheit_is_the_same_temperature():
    celsius = int(re.search(r": (-?\d+)°C", run("get_weather", city="Moscow").output).group(1))
    fahrenheit = run("get_weather", city="Moscow", units="fahrenheit").output
    assert f": {round(celsius * 9 / 5 + 32)}°F," in fahrenheit


def test_a_misspelt_city_gets_a_suggestion():
    outcome = run("get_weather", city="Mscow")
    assert outcome.is_error
    assert outcome.output == "ValueError: city 'Mscow' not found. Did you mean 'Moscow'?"


def test_an_unknown_city_lists_the_known_ones():
    outcome = run("get_weather", city="Atlantis")
    assert outcome.is_error and "'Atlantis' not found" in outcome.output
    assert all(name in outcome.output for name in city_names())


def test_the_terse_variant_looks_the_same_but_only_says_failed():
    terse = default_specs(["get_weather_terse"])[0]
    assert terse.definition() == CATALOG["get_weather"].spec.definition()
    tools = ToolRegistry([terse])
    assert tools.execute("get_weather", {"city": "Oslo"}).output == run("get_weather", city="Oslo").output
    outcome = tools.execute("get_weather", {"city": "Mscow"})
    assert outcome.is_error and outcome.output == "failed"


# -- memory -------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "query", ["home city", "where do I live", "gdzie mieszkam", "Gdzie mieszka?", "где я живу", "город"]
)
def test_memory_finds_the_home_city_in_three_languages(query):
    outcome = run("search_memory", query=query)
    assert not outcome.is_error and "- home: Anna lives in Kraków" in outcome.output


@pytest.mark.parametrize(
    "query,topic",
    [
        ("favourite food", "food"),
        ("ulubione jedzenie", "food"),
        ("любимая еда", "food"),
        ("upcoming trip", "trip"),
        ("podróż", "trip"),
        ("поездка", "trip"),
        ("cat", "pets"),
        ("what is my name", "name"),
    ],
)
def test_memory_matches_by_topic(query, topic):
    assert f"- {topic}: " in run("search_memory", query=query).output


def test_memory_without_a_match_says_so_and_lists_topics():
    outcome = run("search_memory", query="xyzzy")
    assert not outcome.is_error
    assert outcome.output.startswith("No stored facts match 'xyzzy'.") and "home" in outcome.output


def test_memory_profile_returns_every_fact():
    assert run("search_memory", query="everything").output.count("\n- ") >= 8


# -- failing and flaky --------------------------------------------------------------------------
def test_flaky_lookup_answers_from_its_data_when_it_works():
    tools = ToolRegistry(default_specs(["flaky_lookup"]), prior_calls={"flaky_lookup": 1})
    found = tools.execute("flaky_lookup", {"query": "eiffel tower"})
    assert not found.is_error and found.output.startswith("Eiffel Tower: ")
    tools = ToolRegistry(default_specs(["flaky_lookup"]), prior_calls={"flaky_lookup": 1})
    missing = tools.execute("flaky_lookup", {"query": "qwerty"})
    assert not missing.is_error and "No summary for 'qwerty'" in missing.output and "Moon" in missing.output


def test_slow_report_finishes_when_given_the_time(monkeypatch):
    monkeypatch.setattr(catalog, "SLOW_REPORT_SECONDS", 0.01)
    outcome = ToolRegistry(default_specs(["slow_report"])).execute("slow_report", {"topic": "sales"})
    assert not outcome.is_error and "sales" in outcome.output
