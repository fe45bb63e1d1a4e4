"""Values in the form the user gave them: a parameter that takes a thing by its ID or its link or path takes
whichever the question holds ('ticket ID or URL', 'repository ID or owner/name path'), a description's bare example
code ('for example JFK or LHR') shapes the value taken from the question, and a calculator that says "not ^" gets
powers as **."""

from __future__ import annotations

import pytest
from sim_loop import agent_loop, tool

from agent_core.sim import examples, kinds

TICKET = tool(
    "fetch_ticket",
    "Load a support ticket and its history.",
    {"ticket_ref": {"type": "string", "description": "The ticket's ID or its link"}},
)
BOARD = tool(
    "list_cards",
    "List the cards on a project board.",
    {
        "board": {"type": "string", "description": "Board ID or owner/name path"},
        "column": {"type": "string", "description": "Only the cards of this column"},
    },
    required=["board"],
)


def first_call(question: str, tools: list[dict]) -> tuple[str, dict]:
    replies, _ = agent_loop(question, tools, lambda name, args: ("{}", False))
    return replies[0][0]


@pytest.mark.parametrize(
    ("question", "value"),
    [
        ("What's the status of ticket 88123?", "88123"),
        (
            "Открой тикет https://help.example.com/tickets/88123 и скажи, кто его завёл",
            "https://help.example.com/tickets/88123",
        ),
        ("Pokaż zgłoszenie 88123", "88123"),
        ("Pokaż zgłoszenie PAYMENTS-1042", "PAYMENTS-1042"),
    ],
)
def test_an_id_or_a_link_is_taken_as_given(question: str, value: str) -> None:
    assert kinds.kind_of("ticket_ref", TICKET["input_schema"]["properties"]["ticket_ref"], "{}") == "handle"
    name, args = first_call(question, [TICKET])
    assert (name, args) == ("fetch_ticket", {"ticket_ref": value})


@pytest.mark.parametrize(
    ("question", "said"),
    [("Open my ticket please", "ID"), ("Открой мой тикет", "ссылк"), ("Otwórz moje zgłoszenie", "link")],
)
def test_without_either_form_it_asks_for_what_the_user_knows(question: str, said: str) -> None:
    replies, answer = agent_loop(question, [TICKET], lambda name, args: ("{}", False))
    assert not replies and said in answer and "ticket_ref" not in answer


def test_an_owner_name_path_is_the_board_and_no_search_comes_first() -> None:
    name, args = first_call("Which cards are on the design-team/roadmap board?", [BOARD])
    assert name == "list_cards" and args["board"] == "design-team/roadmap"


AIRPORT = {"type": "string", "description": "Departure airport, for example JFK or LHR"}


def test_a_bare_example_code_shapes_the_value() -> None:
    assert examples.by_example(AIRPORT, ["Any cheap flights from WAW next Friday?"]) == "WAW"
    assert not examples.fits(AIRPORT, "Any cheap flights from WAW next Friday")
    assert examples.by_example({"type": "string", "description": "A city, such as London"}, ["to Paris"]) is None


@pytest.mark.parametrize(
    ("description", "stars"),
    [
        ("Evaluate arithmetic in Python syntax; write powers as ** (never ^).", True),
        ("Evaluate arithmetic; use ** for powers, not '^'.", True),
        ("Evaluate arithmetic; ^ or ** both mean a power.", False),
    ],
)
def test_a_caret_named_only_to_be_ruled_out(description: str, stars: bool) -> None:
    assert kinds.shows_power_as_stars('{"description": "' + description + '"}') is stars
