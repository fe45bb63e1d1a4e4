"""A request to switch a thing on or off ('turn on the kettle', «выключи лампу», 'włącz lampkę') is a change: the tool
that changes it takes the thing's bare id, so the tool that lists the things goes first, the one meant is picked by
its name (in any of the three languages), and the state flag comes from the verb (on: true, off: false)."""

from __future__ import annotations

import json

import pytest
from sim_loop import agent_loop, conversation, tool

from agent_core.sim.things import state_flag

PLUGS = [{"id": 7, "name": "Desk lamp"}, {"id": 8, "name": "Kettle"}, {"id": 9, "name": "Heater"}]
TOOLS = [
    tool("plugs_list", "Lists the smart plugs of the flat and whether each is powered.", {}),
    tool(
        "plugs_set",
        "Turns one smart plug on or off.",
        {"id": {"type": "integer"}, "enabled": {"type": "boolean"}},
    ),
]


def run(name: str, args: dict) -> tuple[str, bool]:
    if name == "plugs_list":
        return json.dumps(PLUGS), False
    return json.dumps({**next(p for p in PLUGS if p["id"] == args["id"]), "enabled": args["enabled"]}), False


@pytest.mark.parametrize(
    ("question", "plug", "on"),
    [
        ("turn on the kettle", 8, True),
        ("please switch off the heater", 9, False),
        ("выключи лампу", 7, False),
        ("włącz lampkę", 7, True),
    ],
)
def test_the_thing_switched_is_found_in_the_list_first(question, plug, on):
    replies, _ = agent_loop(question, TOOLS, run)
    assert replies == [[("plugs_list", {})], [("plugs_set", {"id": plug, "enabled": on})]]


def test_two_things_named_for_one_change_are_two_calls_in_one_reply():
    replies, _ = agent_loop("switch on the kettle and the heater", TOOLS, run)
    assert replies[-1] == [("plugs_set", {"id": 8, "enabled": True}), ("plugs_set", {"id": 9, "enabled": True})]


def test_the_second_one_of_a_list_shown_before_is_switched():
    made = conversation(["pokaż listę wtyczek", "włącz drugą"], TOOLS, run)
    assert made[0] == [("plugs_list", {})]
    assert ("plugs_set", {"id": 8, "enabled": True}) in made[1]


def test_a_question_about_the_state_changes_nothing():
    replies, _ = agent_loop("Which plugs are powered right now?", TOOLS, run)
    assert replies == [[("plugs_list", {})]]


@pytest.mark.parametrize(
    ("text", "pname", "expected"),
    [
        ("switch off the fan", "is_on", False),
        ("погаси свет", "enabled", False),
        ("zapal światło", "power", True),
        ("turn on the fan", "include_forecast", None),  # no state flag
    ],
)
def test_a_state_flag_is_read_from_the_verb(text, pname, expected):
    assert state_flag(text, pname) is expected
