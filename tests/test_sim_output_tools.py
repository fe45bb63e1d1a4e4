"""Which tools are output tools, and how the loop ends around them: a tool that carries no result is an ordinary tool
whatever its description says, and an output tool that took the answer is not called again with it."""

from __future__ import annotations

import json

import pytest
from test_sim_planner import loop, string, tool

from agent_core.model import SimSettings
from agent_core.sim.brain import think

WEATHER = tool("get_weather", "Current weather for a city", {"city": string("City name")})


def weather(name: str, args: dict) -> tuple[str, bool]:
    return ('{"temp": 4, "sky": "cloudy"}' if name == "get_weather" else "ok"), False


def test_a_farewell_tool_that_ends_the_conversation_is_not_the_output_tool():
    end = tool("end_session", "Says a polite goodbye to end the conversation.", {})
    calls, answer, drafts = loop("What's the weather in Oslo?", [WEATHER, end], weather)
    assert calls == [("get_weather", {"city": "Oslo"})]
    assert drafts[-1].stop_reason == "end_turn" and "4" in answer, answer


def test_an_output_tool_that_took_the_answer_is_not_called_again_with_it():
    respond = tool("respond", "Sends the final answer to the user", {"text": string("The answer")})
    calls, answer, drafts = loop("Какая погода в Осло?", [WEATHER, respond], weather)
    assert [name for name, _ in calls] == ["get_weather", "respond"], calls
    assert drafts[-1].stop_reason == "end_turn" and "4" in answer, answer


def _answer(question: str, system: str, **extra) -> str:
    body = {
        "model": "claude-sonnet-4-6",
        "max_tokens": 512,
        "system": system,
        "messages": [{"role": "user", "content": question}],
        **extra,
    }
    draft = think(body, SimSettings())
    return " ".join(b["text"] for b in draft.content if b["type"] == "text")


def test_an_example_object_in_the_system_prompt_is_the_answer_format():
    system = 'Given a country name, reply with JSON only, in this format: {"capital_city": "name of the capital"}'
    assert json.loads(_answer("Germany", system)) == {"capital_city": "Berlin"}
    assert json.loads(_answer("Италия", system)) == {"capital_city": "Рим"}


def test_an_example_object_the_prompt_does_not_ask_for_leaves_the_answer_in_prose():
    system = 'The weather service sends results such as {"temp": 4}. Be brief and friendly.'
    assert not _answer("Hello!", system).startswith("{")


def test_a_capital_field_of_the_output_schema_is_filled_from_the_knowledge_table():
    schema = {
        "type": "object",
        "properties": {"capital": {"type": "string", "description": "The country's capital city"}},
        "required": ["capital"],
        "additionalProperties": False,
    }
    system = "You are a Geography Helper Agent. Answer with the capital of the country the user names."
    text = _answer("Hiszpania", system, output_config={"format": {"type": "json_schema", "schema": schema}})
    assert json.loads(text)["capital"] in ("Madryt", "Madrid")


MEETING = {
    "type": "object",
    "properties": {
        "title": {"type": "string"},
        "when": {"type": "string"},
        "attendees": {"type": "array", "items": {"type": "string"}},
    },
    "required": ["title", "when", "attendees"],
    "additionalProperties": False,
}


@pytest.mark.parametrize(
    ("text", "title", "people"),
    [
        ("Design review next Tuesday with Alice, Tom and Priya.", "Design review", ["Alice", "Tom", "Priya"]),
        ("В четверг, 4 июня, планёрка отдела продаж. Придут Анна, Олег и Вера.", "Планёрка", ["Анна", "Олег", "Вера"]),
        ("Urodziny Marty w sobotę, przyjdą Ewa, Piotr i Zosia.", "Urodziny", ["Ewa", "Piotr", "Zosia"]),
    ],
)
def test_an_event_output_has_its_title_and_every_person_of_the_list(text, title, people):
    format_ = {"type": "json_schema", "schema": MEETING}
    result = json.loads(_answer(text, "Pull the meeting out of the message.", output_config={"format": format_}))
    assert result["title"].startswith(title), result
    assert set(people) <= set(result["attendees"]), result


# ---- in-band errors and status envelopes (ADK's tools return {"status": ..., "report" | "error_message": ...}) ----

FORECAST = tool("lookup_forecast", "Looks up the current weather of a town.", {"town": string()})
LOCAL_TIME = tool("local_time", "Tells the local time of a place.", {"location": string()})


def test_an_in_band_error_that_has_no_data_for_the_value_is_not_retried_and_is_told_plainly():
    def run(name: str, args: dict) -> tuple[str, bool]:
        return json.dumps({"status": "error", "error_message": f"No information for town '{args['town']}'."}), False

    calls, answer, _ = loop("Какая погода в Берлине?", [FORECAST], run)
    assert calls == [("lookup_forecast", {"town": "Berlin"})]
    assert "Берлин" in answer and "{" not in answer and "status" not in answer, answer


def test_a_clock_report_in_an_envelope_is_told_by_its_time_and_place_in_the_users_language():
    def run(name: str, args: dict) -> tuple[str, bool]:
        report = f"Local time in {args['location']} is 2026-03-14 09:30:00 CET"
        return json.dumps({"status": "success", "report": report}), False

    calls, answer, _ = loop("Która godzina jest teraz w Berlinie?", [LOCAL_TIME], run)
    assert calls == [("local_time", {"location": "Berlin"})]
    assert "09:30" in answer and "Berlin" in answer and "Local time" not in answer and "status" not in answer, answer


def test_a_weather_report_in_an_envelope_is_told_with_its_degrees_not_the_status():
    def run(name: str, args: dict) -> tuple[str, bool]:
        report = f"It is cloudy in {args['town']} with a temperature of 4 degrees Celsius."
        return json.dumps({"status": "ok", "report": report}), False

    _, answer, _ = loop("Какая погода в Осло?", [FORECAST], run)
    assert "4 °C" in answer and "облачно" in answer and "status" not in answer and "градус" not in answer, answer
