"""Search tools told apart by what their descriptions serve: a place to eat in a city goes to the tool for local
businesses (restaurants, cafés), not to the general web search; a version written in a question ('Node 22.11') is
one word of the query and never a count of results."""

from __future__ import annotations

import pytest
from sim_loop import agent_loop, tool

S, N = {"type": "string"}, {"type": "number", "description": "How many results to return"}
TOOLS = [
    tool("web_lookup", "Looks things up on the web: news, articles, documentation.", {"q": S, "limit": N}, ["q"]),
    tool(
        "places_nearby",
        "Finds local businesses such as restaurants, cafés and shops, with their addresses and ratings.",
        {"q": S, "limit": N},
        ["q"],
    ),
]


def first_call(question: str) -> tuple[str, dict]:
    replies, _ = agent_loop(question, TOOLS, lambda name, args: ("Name: Somewhere\nAddress: Main St 1", False))
    return replies[0][0]


@pytest.mark.parametrize(
    "question",
    ["Where can I get a good ramen restaurant in Oslo?", "где поесть в Казани?", "polecisz kawiarnię w Poznaniu?"],
)
def test_a_place_to_eat_goes_to_the_local_business_search(question):
    assert first_call(question)[0] == "places_nearby"


def test_a_version_in_the_question_stays_in_the_query_and_sets_no_count():
    name, args = first_call("what changed in node 22.11?")
    assert name == "web_lookup"
    assert "22.11" in args["q"] and "limit" not in args


def test_places_found_are_told_by_their_names():
    found = "Name: Noodle Bar Oslo\nAddress: Storgata 1\nDescription: Tonkotsu ramen\n\nName: Ramen Hut\nAddress: Torget 2\nDescription: Miso ramen"
    _, answer = agent_loop("a good ramen restaurant in Oslo?", TOOLS, lambda name, args: (found, False))
    assert "Noodle Bar Oslo" in answer and "Ramen Hut" in answer
