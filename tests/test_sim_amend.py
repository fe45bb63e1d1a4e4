"""A follow-up that corrects or narrows the request before it is that request read again, changed: the value named
again gives way to the new one, 'only the second' keeps one of the listed values, another bare file is in the same
folder; what was answered already is not called again."""

from __future__ import annotations

import json

import pytest
from sim_loop import conversation, tool

CLOCK = [tool("zone_time", "Tells the current time in a time zone (IANA name).", {"zone": {"type": "string"}})]
FORECAST = [
    tool(
        "forecast",
        "Current weather for a city.",
        {"city": {"type": "string"}, "scale": {"type": "string", "enum": ["celsius", "fahrenheit"]}},
        required=["city"],
    )
]
FILES = [tool("open_file", "Reads one text file and returns its content.", {"path": {"type": "string"}})]


def run(name: str, args: dict) -> str:
    return json.dumps({"tool": name, **args, "value": "21"})


def turns(texts: list[str], tools: list[dict]) -> list[list[tuple[str, dict]]]:
    """The calls each user turn made, every loop run to its answer."""
    return conversation(texts, tools, lambda name, args: (run(name, args), False))


@pytest.mark.parametrize(
    ("first", "fix"),
    [
        ("What time is it in Paris and in Chicago?", "No, not Chicago - Denver."),
        ("Который час в Париже и в Чикаго?", "нет, не в Чикаго, а в Денвере"),
        ("Która godzina jest w Paryżu i w Chicago?", "nie w Chicago, chodziło mi o Denver"),
    ],
)
def test_a_value_named_again_gives_way_to_the_new_one_and_only_that_is_called(first, fix):
    calls = turns([first, fix], CLOCK)
    assert sorted(c[1]["zone"] for c in calls[0]) == ["America/Chicago", "Europe/Paris"]
    assert calls[1] == [("zone_time", {"zone": "America/Denver"})]


@pytest.mark.parametrize(
    ("first", "only", "city"),
    [
        ("Weather in Oslo and Madrid in fahrenheit?", "Only the second one, in celsius.", "Madrid"),
        ("Какая погода в Осло и в Мадриде по Фаренгейту?", "только первый, по Цельсию", "Oslo"),
        ("Jaka pogoda w Oslo i w Madrycie w stopniach Fahrenheita?", "tylko Madryt, w Celsjuszach", "Madrid"),
    ],
)
def test_only_one_of_the_listed_values_is_asked_again_in_the_new_unit(first, only, city):
    calls = turns([first, only], FORECAST)
    assert len(calls[0]) == 2
    assert calls[1] == [("forecast", {"city": city, "scale": "celsius"})]


@pytest.mark.parametrize("fix", ["Sorry, I meant plan.md", "нет, я имел в виду plan.md", "nie, chodziło o plan.md"])
def test_another_bare_file_is_read_from_the_folder_of_the_one_before(fix):
    calls = turns(["Open /srv/team/notes.md", fix], FILES)
    assert calls[1] == [("open_file", {"path": "/srv/team/plan.md"})]


TICKETS = [
    tool(
        "list_tickets",
        "Lists the tickets of a project, optionally only those with the given labels.",
        {
            "project": {"type": "string", "description": "Project key"},
            "labels": {"type": "array", "items": {"type": "string"}},
        },
        required=["project"],
    )
]


@pytest.mark.parametrize(
    ("first", "only"),
    [("List the tickets of project APOLLO.", "Only the bugs."), ("Покажи тикеты проекта APOLLO", "только баги")],
)
def test_a_narrowing_that_names_no_value_is_the_same_listing_with_one_more_filter(first, only):
    calls = turns([first, only], TICKETS)
    assert calls[0] and "labels" not in calls[0][0][1]
    assert len(calls[1]) == 1 and calls[1][0][1]["labels"] == ["bug"]
    assert "APOLLO" in calls[1][0][1]["project"]  # the same listing asked again, of the same project
