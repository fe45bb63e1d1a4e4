"""What the offline model knows and how it fills structured outputs honestly (issue 23, items 5 and 6): terms it can
define, landmarks it can place, units it can convert with no number said, output fields read from results by their
unit and meaning, and its own 'no tool' sentences never handed over as a field's value."""

from __future__ import annotations

from test_sim_planner import loop, string, tool

from agent_core.sim import knowledge

CALCULATOR = tool("calculate", "Evaluates an arithmetic expression.", {"expression": string("The expression")})
CLOCK = tool("current_time", "Returns the time now in an IANA time zone.", {"zone": string("IANA zone name")})


def _never(name: str, args: dict) -> tuple[str, bool]:
    raise AssertionError(f"{name} should not be called: {args}")


def test_a_term_asked_for_its_meaning_is_defined_without_a_tool_in_every_language():
    for question, fragment in (
        ("Could you explain what an exponent is?", "multipl"),
        ("Что означает GMT?", "Гринвич"),
        ("Wyjaśnij, co oznacza UTC", "koordynowany"),
    ):
        calls, answer, _ = loop(question, [CALCULATOR, CLOCK], _never)
        assert calls == [] and fragment in answer, (question, answer)


def test_a_sum_or_a_time_asked_with_the_same_words_is_no_definition():
    assert knowledge.definition("What is 3 to the power of 4?", "en") is None
    assert knowledge.definition("What is the time in GMT right now?", "en") is None
    assert knowledge.definition("Что такое степень числа?", "ru") is not None


def test_a_landmark_is_placed_by_its_city_and_country_only_when_asked_where():
    assert knowledge.landmark("In which country is the Acropolis?", "en") == "The Acropolis is in Athens, Greece."
    assert "Барселона" in (knowledge.landmark("Где находится Саграда Фамилия?", "ru") or "")
    assert "Moskwa" in (knowledge.landmark("Gdzie jest Kreml?", "pl") or "")
    assert knowledge.landmark("How old is the Acropolis?", "en") is None


def test_how_many_of_one_unit_make_another_is_answered_for_one_of_the_unit_named_last():
    assert knowledge.answer("How many feet are in a mile?", "en") == "1 mi is about 5280 ft."
    assert "1000" in (knowledge.answer("Сколько миллилитров в литре?", "ru") or "")
    assert knowledge.convert(10, "m/s", "km/h") == 36.0
    assert knowledge.convert(1, "kg", "km") is None  # no conversion across dimensions


def test_an_output_field_takes_a_measure_from_the_result_in_its_own_unit_and_form():
    report = tool("wind_report", "Reports the wind in a city.", {"city": {"type": "string", "enum": ["la", "dc"]}})
    out = tool(
        "WindResponse",
        "Respond to the user with this",
        {
            "speed": {"type": "number", "description": "Wind speed in km/h"},
            "heading": {"type": "string", "description": "Wind direction, abbreviated"},
        },
    )

    def run(name: str, args: dict) -> tuple[str, bool]:
        assert args == {"city": "la"}  # 'Los Angeles' is the option written by its initials
        return "Winds of 10 mph from the south-west.", False

    calls, _, _ = loop(
        "Jaki wiatr jest teraz w Los Angeles?", [report, out], run, until=("WindResponse",), tool_choice={"type": "any"}
    )
    assert calls[0][0] == "wind_report" and calls[-1][0] == "WindResponse"
    assert calls[-1][1]["heading"] == "SW" and abs(calls[-1][1]["speed"] - 16.09) < 0.05


def test_a_structured_field_never_holds_the_models_own_no_tool_sentence():
    out = tool(
        "final_result",
        "The final response which ends this conversation",
        {"advice": {"type": "string"}, "block_card": {"type": "boolean"}},
    )
    for question, fragment in (("Somebody stole my credit card!", "blocking"), ("Zgubiłem kartę", "blokuję")):
        calls, _, _ = loop(question, [out], _never, until=("final_result",), tool_choice={"type": "any"})
        advice = calls[-1][1]["advice"]
        assert calls[-1][1]["block_card"] is True and fragment in advice.lower(), advice
        assert "tool" not in advice and "narzędz" not in advice and "offline" not in advice


def test_a_city_location_output_gets_the_country_of_the_city_or_of_the_capital_asked_for():
    out = tool(
        "final_result",
        "The final response which ends this conversation",
        {"city": {"type": "string"}, "country": {"type": "string"}},
    )
    for question, city, country in (
        ("My cousin just moved to Lisbon.", "Lisbon", "Portugal"),
        ("Какая столица у Норвегии?", "Осло", "Норвегия"),
    ):
        calls, _, _ = loop(question, [out], _never, until=("final_result",), tool_choice={"type": "any"})
        assert calls[-1][1] == {"city": city, "country": country}, (question, calls)


def test_a_clause_that_only_restates_what_the_calls_covered_adds_no_offline_note():
    show = tool(
        "show_commit",
        "Shows the contents of a commit.",
        {"repo_path": string("Path to the Git repository"), "revision": string("The commit to show")},
    )

    def run(name: str, args: dict) -> tuple[str, bool]:
        assert args == {"repo_path": "/srv/shop", "revision": "9f8e7d6"}
        return (
            "Commit 9f8e7d6\nMessage: Fix cart total\n\ndiff --git a/cart.py b/cart.py\n-    return 0\n+    return s",
            False,
        )

    calls, answer, drafts = loop("show me commit 9f8e7d6. repo is /srv/shop", [show], run)
    assert calls and "offline" not in answer and drafts[-1].note == "", answer
    _, answer, drafts = loop("Who painted The Starry Night?", [show], _never)
    assert "offline" in answer and drafts[-1].note == knowledge.NOTE  # outside the table it still says so
