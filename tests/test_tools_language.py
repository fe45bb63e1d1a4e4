"""The built-in tools answer in the learner's language, and the offline model's answer quotes them once, in that language."""

from __future__ import annotations

import pytest

from agent_core.loop import run_task
from agent_core.model import RunConfig
from agent_core.tools.catalog import default_specs
from agent_core.tools.lookups import weather_report


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
