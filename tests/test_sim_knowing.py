"""What the offline model knows without tools and how it reads numbers: facts from its small table answered without a
call even when a tool shares a word with them, and numbers said as a reader writes them (issue 23, items 1 and 5)."""

from __future__ import annotations

from test_sim_planner import loop, string, tool

# The tool-use overview's weather tools (docs.anthropic.com, tool-use overview): a location tool and a weather tool.
GET_LOCATION = tool("get_location", "Get the current user location based on their IP address.", {})
GET_WEATHER = tool(
    "get_weather",
    "Get the current weather in a given location, temperature included.",
    {"location": string("The city and state, e.g. San Francisco, CA")},
)


def _weather(name: str, args: dict) -> tuple[str, bool]:
    return ("Glasgow, Scotland, UK", False) if name == "get_location" else ("8°C, light rain", False)


def test_a_known_fact_that_shares_a_word_with_a_tool_is_answered_without_calling_it():
    for question, fragment in (
        ("At what temperature does water boil?", "100"),
        ("При какой температуре кипит вода на уровне моря?", "100"),
        ("W jakiej temperaturze wrze woda na poziomie morza?", "100"),
    ):
        calls, answer, _ = loop(question, [GET_LOCATION, GET_WEATHER], _weather)
        assert calls == [] and fragment in answer, (question, calls, answer)
    calls, answer, _ = loop("What's the temperature in Glasgow right now?", [GET_LOCATION, GET_WEATHER], _weather)
    assert calls == [("get_weather", {"location": "Glasgow"})] and "8°C" in answer


def test_a_tool_the_system_prompt_keeps_for_what_the_model_does_not_know_is_not_called_for_what_it_knows():
    # Anthropic's tool-use course, lesson 4: get_article only "if answering requires data you were not trained on".
    system = (
        "If answering the question requires data you were not trained on, you can use the get_article tool. "
        "If you can answer the question without needing to get more information, please do so."
    )
    article = tool("get_article", "Fetch a Wikipedia article.", {"search_term": string("The article to look up")})
    for question, fragment in (
        ("How many legs does an octopus have?", "eight"),
        ("Сколько ног у осьминога?", "восемь"),
        ("Kto napisał książkę „Życie Pi”?", "Yann Martel"),
    ):
        calls, answer, _ = loop(question, [article], lambda n, a: ("No article.", False), system=system)
        assert calls == [] and fragment in answer, (question, calls, answer)
