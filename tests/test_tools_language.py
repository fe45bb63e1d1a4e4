"""The built-in tools answer in the learner's language, and the offline model's answer quotes them once, in that language."""

from __future__ import annotations

import re

import pytest

from agent_core.loop.stepper import run_task
from agent_core.model import RunConfig
from agent_core.tools.catalog import CATALOG, default_specs
from agent_core.tools.lookups import encyclopedia_entry, weather_report
from agent_core.tools.registry import ToolRegistry
from agent_core.tools.sandbox import Sandbox


@pytest.mark.parametrize(
    "lang, report",
    [
        ("en", "Warsaw: 6°C, overcast, humidity 76%"),
        ("ru", "Погода в Варшаве: 6°C, пасмурно, влажность 76%"),
        ("pl", "Pogoda w Warszawie: 6°C, zachmurzenie całkowite, wilgotność 76%"),
    ],
)
def test_weather_report_speaks_the_learners_language(lang, report):
    assert weather_report("Warszawa", "celsius", lang).startswith(report)


def test_a_misspelt_city_gets_a_suggestion_in_the_learners_language():
    with pytest.raises(ValueError, match="вы имели в виду «Moscow»"):
        weather_report("Mscow", "celsius", "ru")
    with pytest.raises(ValueError, match="Czy chodziło o „Moscow”"):
        weather_report("Mscow", "celsius", "pl")


@pytest.mark.parametrize(
    "lang, task, line",
    [
        ("ru", "Какая погода в Варшаве?", "Погода в Варшаве: 6°C, пасмурно"),
        ("pl", "Jaka jest pogoda w Warszawie?", "Pogoda w Warszawie: 6°C, zachmurzenie całkowite"),
        ("ru", "Какая погода в Mscow?", "Погода в Москве: -3°C, небольшой снег"),
    ],
)
def test_an_offline_run_answers_in_the_learners_language_end_to_end(lang, task, line):
    run = run_task(RunConfig(task=task, tools=default_specs(["get_weather"]), language=lang))
    final = run.turns[-1].response["content"][-1]["text"]
    assert run.stop.kind == "end_turn"
    assert line in final and final.count("Погода") + final.count("Pogoda") == 1, final
    assert "overcast" not in final and "light snow" not in final


def test_memory_answers_in_the_learners_language_and_still_feeds_the_weather_chain():
    from agent_core.tools.lookups import search_facts

    assert "Анна живёт в Кракове" in search_facts("home city", "ru")
    assert "Anna mieszka w Krakowie" in search_facts("gdzie mieszkam", "pl")
    run = run_task(
        RunConfig(
            task="Какая погода там, где я живу?", tools=default_specs(["search_memory", "get_weather"]), language="ru"
        )
    )
    final = run.turns[-1].response["content"][-1]["text"]
    assert [t.name for turn in run.turns for t in turn.tools] == ["search_memory", "get_weather"]
    assert "Анна живёт в Кракове" in final and "Погода в Кракове: 5°C, туман" in final, final


# Every built-in tool's answers and errors in Russian and Polish: no English word but API, tool, file and Python
# names (the exception's class, the tool's own schema shown as JSON), which a learner sees as code.
_ENGLISH = re.compile(
    r"\b(the|is|not|of|in|file|files|folder|sandbox|error|found|available|allowed|expected|division|"
    r"unknown|tool|tools|input|invalid|topics|summary|none|deleted|bytes|report|try|again|later|result|number|"
    r"took|stopped|required|property|character|position|only|functions|constants|service|unavailable)\b",
    re.IGNORECASE,
)
_CODE = re.compile(
    r"\{.*\}|'[^']*'|\b\w+Error\b|\b[a-z]+_[a-z_]+\b|\b[\w-]+\.(?:txt|log|md)\b|sqrt, abs, round, floor, ceil"
)
CALLS = [
    ("read_file", {"path": "nope.txt"}, True),
    ("read_file", {"path": "../secret"}, True),
    ("read_file", {"path": "/etc/passwd"}, True),
    ("read_file", {"path": ""}, True),
    ("list_files", {}, False),
    ("delete_file", {"path": "notes.txt"}, False),
    ("calculate", {"expression": "1/0"}, True),
    ("calculate", {"expression": "2 +"}, True),
    ("calculate", {"expression": "2 x 3"}, True),
    ("calculate", {"expression": "foo(2)"}, True),
    ("calculate", {"expression": "2,5 * 2"}, True),
    ("calculate", {}, True),
    ("calculate", {"expr": "1"}, True),
    ("flaky_lookup", {"query": "Moon"}, True),
    ("flaky_lookup", {"query": "Moon"}, False),
    ("flaky_lookup", {"query": "zzz"}, True),
    ("flaky_lookup", {"query": "zzz"}, False),
    ("get_stock_price", {"symbol": "AAPL"}, True),
    ("get_weather", {"city": "Oslo", "units": "kelvin"}, True),
    ("get_weather", {"city": "Atlantis"}, True),
    ("search_memory", {"query": "zzz"}, False),
    ("no_such_tool", {}, True),
]


@pytest.mark.parametrize("lang", ["ru", "pl"])
def test_every_built_in_tool_answers_in_the_learners_language(lang):
    specs = [s for s in default_specs(list(CATALOG)) if not s.server_type and s.impl_key != "get_weather_terse"]
    with ToolRegistry(specs, language=lang, tool_timeout_s=0.3) as registry:
        outcomes = [(name, args, error, registry.execute(name, args)) for name, args, error in CALLS]
        slow = registry.execute("slow_report", {"topic": "sales"})
    for name, args, error, outcome in [*outcomes, ("slow_report", {}, True, slow)]:
        assert outcome.is_error == error, (name, args, outcome.output)
        text = _CODE.sub(" ", outcome.output.split("\n")[0] if name != "list_files" else outcome.output)
        assert not _ENGLISH.findall(text), (name, args, outcome.output)
    assert "деление на ноль" in outcomes[6][3].output or "dzielenie przez zero" in outcomes[6][3].output


@pytest.mark.parametrize(
    "lang, entry", [("ru", "Луна — единственный естественный спутник Земли"), ("pl", "Księżyc to jedyny")]
)
def test_the_encyclopedia_and_the_file_listing_speak_the_learners_language(lang, entry):
    assert entry in encyclopedia_entry("Moon", lang)
    listing = Sandbox().listing(lang)
    assert "app.log (" in listing and ("байт" in listing or "bajtów" in listing) and "bytes" not in listing


def test_english_stays_as_it_was():
    with ToolRegistry(default_specs(["read_file", "calculate"])) as registry:
        assert (
            "no file 'nope.txt' in the sandbox. Available files:"
            in registry.execute("read_file", {"path": "nope.txt"}).output
        )
        assert registry.execute("calculate", {"expression": "1/0"}).output == "CalculationError: division by zero."


def test_the_offline_model_still_corrects_a_file_name_from_a_russian_error():
    run = run_task(RunConfig(task="Покажи app.logs", tools=default_specs(["read_file"]), language="ru"))
    calls = [t.input for turn in run.turns for t in turn.tools]
    assert calls == [{"path": "app.logs"}, {"path": "app.log"}], calls
