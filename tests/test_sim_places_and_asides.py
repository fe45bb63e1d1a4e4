"""Places in any case and follow-ups naming one, asides that ask nothing, units by their letter, and web addresses."""

from __future__ import annotations

import datetime
import json
from zoneinfo import ZoneInfo

from fidelity.loops.text import untranslated
from sim_loop import agent_loop, conversation, tool

from agent_core.sim.text import entities, gazetteer
from agent_core.sim.text import language as lx
from agent_core.sim.weather import asked_unit

NOW = datetime.datetime(2026, 12, 1, 10, 0, tzinfo=datetime.UTC)
TIME = tool("get_time", "Get the current time in a given time zone.", {"timezone": {"type": "string"}})
WEATHER = tool("get_weather", "Get the current weather in a given location.", {"location": {"type": "string"}})
LACKS = ("don't have a tool", "нет инструмента", "nie mam narzędzia")


def world(name: str, args: dict) -> tuple[str, bool]:
    if name == "get_time":
        local = NOW.astimezone(ZoneInfo(args["timezone"]))
        return json.dumps({"timezone": args["timezone"], "datetime": local.isoformat()}), False
    return json.dumps({"location": args.get("location"), "temperature": "14°C", "conditions": "cloudy"}), False


def test_a_city_listed_in_some_cases_is_found_in_the_others():
    # only the nominative, prepositional and genitive are listed: the dative is declined from the nominative
    assert [c.name for c in gazetteer.find_cities("скинь погоду по денверу и остину")] == ["Denver", "Austin"]


def test_a_follow_up_naming_a_city_of_two_words_asks_the_same_there():
    made = conversation(["ktora godzina jest teraz w tokio", "a w los angeles?"], [TIME, WEATHER], world)
    assert made[1] == [("get_time", {"timezone": "America/Los_Angeles"})]


def test_a_follow_up_asking_for_something_else_is_a_request_of_its_own():
    made = conversation(["Która godzina jest w Berlinie?", "a pogoda tam jaka?"], [TIME, WEATHER], world)
    assert [name for name, _ in made[1]] == ["get_weather"]


def test_between_x_and_y_is_one_pair_not_two_clauses():
    assert lx.split_clauses("What's the difference between CET and CEST?") == [
        "What's the difference between CET and CEST"
    ]


def test_a_clause_about_how_to_answer_and_one_setting_the_scene_ask_for_no_tool():
    for question in (
        "heading to a picnic in Berlin later, is it nice out?",
        "What's the difference between UTC and GMT? Plain words please.",
    ):
        _, answer = agent_loop(question, [TIME, WEATHER], world)
        assert not any(lack in answer for lack in LACKS), answer


def test_a_unit_said_by_its_letter_after_a_degree_word():
    assert asked_unit("podaj w stopniach C") == "C"
    assert asked_unit("how warm is it, in degrees F?") == "F"
    assert asked_unit("Cats and Frogs") is None


def test_a_www_address_is_opened_over_https():
    assert [e.value for e in entities.of_kind("открой www.example.org/docs/", "url")] == [
        "https://www.example.org/docs/"
    ]


def test_the_only_tool_taking_an_address_is_called_for_a_texting_style_question():
    fetch = tool("fetch", "Fetches a URL from the internet.", {"url": {"type": "string", "format": "uri"}})
    replies, _ = agent_loop("can u check what https://example.org/plans says?", [fetch], lambda n, a: ("Free.", False))
    assert replies[0] == [("fetch", {"url": "https://example.org/plans"})]


def test_a_state_sent_by_its_code_is_named_as_the_question_names_it():
    alerts = tool("get_alerts", "Get weather alerts for a US state.", {"state": {"type": "string"}})

    def run(name: str, args: dict) -> tuple[str, bool]:
        return json.dumps([{"event": "Wind Advisory", "area": "Lane County"}] if args["state"] == "OR" else []), False

    _, answer = agent_loop("Есть ли предупреждения в Орегоне и в Неваде?", [alerts], run)
    assert "В Орегоне" in answer and "В Неваде" in answer


def test_the_checker_keeps_polish_words_spelled_as_in_english():
    results = ["An agent is a model called in a loop."]
    assert untranslated("Główne tematy: agent, model, pętla.", results, lang="pl") == []
    assert untranslated("Główne tematy: agent, called.", results, lang="pl") == ["called"]
