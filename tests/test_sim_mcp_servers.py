"""The offline model on the MCP reference servers' tools (modelcontextprotocol/servers: time, filesystem, fetch) and
the MCP quickstart's weather server: times said in words, defaults a schema states, time differences, paths."""

from __future__ import annotations

import copy
import datetime
import json
from collections.abc import Callable
from zoneinfo import ZoneInfo

import pytest

from agent_core.model import SimSettings
from agent_core.sim.args import stated_default
from agent_core.sim.brain import think
from agent_core.sim.text import entities

Runner = Callable[[str, dict], tuple[str, bool]]
NOW = datetime.datetime(2026, 12, 1, 10, 0, tzinfo=datetime.UTC)


def loop(question: str, tools: list[dict], run: Runner, **extra) -> tuple[list[tuple[str, dict]], str]:
    """think() in an agent loop: every call run, its result sent back, until the model answers; (calls, answer)."""
    body = {"model": "claude-sonnet-4-6", "max_tokens": 1024, "messages": [{"role": "user", "content": question}]}
    body.update(tools=tools, **extra)
    calls = []
    for turn in range(8):
        draft = think(copy.deepcopy(body), SimSettings())
        content = [dict(b, id=f"t{turn}_{i}") if b["type"] == "tool_use" else b for i, b in enumerate(draft.content)]
        body["messages"].append({"role": "assistant", "content": content})
        if draft.stop_reason != "tool_use":
            return calls, " ".join(b["text"] for b in content if b["type"] == "text")
        results = []
        for block in (b for b in content if b["type"] == "tool_use"):
            calls.append((block["name"], block["input"]))
            output, failed = run(block["name"], block["input"])
            results.append({"type": "tool_result", "tool_use_id": block["id"], "content": output, "is_error": failed})
        body["messages"].append({"role": "user", "content": results})
    raise AssertionError("the loop did not end")


def _zone(description: str) -> dict:
    return {"type": "string", "description": description}


LOCAL = " Use 'Europe/Warsaw' as the local timezone when the user names none."
MCP_TIME = [
    {
        "name": "get_current_time",
        "description": "Get the current time in a given timezone",
        "input_schema": {
            "type": "object",
            "properties": {"timezone": _zone("IANA timezone name (e.g. 'America/New_York')." + LOCAL)},
            "required": ["timezone"],
        },
    },
    {
        "name": "convert_time",
        "description": "Convert a time from one timezone to another",
        "input_schema": {
            "type": "object",
            "properties": {
                "source_timezone": _zone("Source IANA timezone name." + LOCAL),
                "time": _zone("The time to convert, 24-hour format (HH:MM)"),
                "target_timezone": _zone("Target IANA timezone name." + LOCAL),
            },
            "required": ["source_timezone", "time", "target_timezone"],
        },
    },
]


def _stamp(moment: datetime.datetime, zone: str) -> dict:
    local = moment.astimezone(ZoneInfo(zone))
    return {"timezone": zone, "datetime": local.isoformat(), "day_of_week": local.strftime("%A")}


def time_server(name: str, args: dict) -> tuple[str, bool]:
    """What the MCP time server answers, at the fixed now 2026-12-01 10:00 UTC."""
    if name == "get_current_time":
        return json.dumps(_stamp(NOW, args["timezone"])), False
    hour, minute = map(int, args["time"].split(":"))
    source = datetime.datetime(2026, 12, 1, hour, minute, tzinfo=ZoneInfo(args["source_timezone"]))
    return json.dumps(
        {"source": _stamp(source, args["source_timezone"]), "target": _stamp(source, args["target_timezone"])}
    ), False


@pytest.mark.parametrize(
    ("text", "clock"),
    [
        ("Если в Нью-Йорке 9 утра, сколько времени в Москве?", "09:00"),
        ("Jest wpół do ósmej wieczorem w Tokio.", "19:30"),
        ("half past seven in the evening", "19:30"),
        ("половина восьмого", "07:30"),
        ("в 11 ночи", "23:00"),
        ("в 3 часа дня", "15:00"),
        ("quarter to eight", "07:45"),
        ("at noon", "12:00"),
        ("4 PM", "16:00"),
    ],
)
def test_a_time_said_in_words_is_a_time(text, clock):
    assert [e.value for e in entities.of_kind(text, "time")] == [clock]


@pytest.mark.parametrize("text", ["9 files here", "два дня назад", "через 2 часа", "wait 3 days"])
def test_a_number_with_no_part_of_the_day_is_no_time(text):
    assert entities.of_kind(text, "time") == []


def test_a_required_parameter_takes_the_default_its_schema_states():
    assert stated_default(MCP_TIME[0]["input_schema"]["properties"]["timezone"]) == "Europe/Warsaw"
    assert stated_default({"type": "integer", "description": "How many; defaults to 10"}) == 10
    assert stated_default({"type": "string", "default": "main"}) == "main"
    assert stated_default({"type": "string", "description": "The branch to read"}) is None


def test_here_is_the_local_timezone_the_description_names():
    calls, answer = loop("What time is it here right now?", MCP_TIME, time_server)
    assert calls == [("get_current_time", {"timezone": "Europe/Warsaw"})]
    assert "11:00" in answer


@pytest.mark.parametrize(
    ("question", "sent", "told"),
    [
        (
            "Если в Нью-Йорке 9 утра, сколько тогда времени в Москве?",
            {"source_timezone": "America/New_York", "time": "09:00", "target_timezone": "Europe/Moscow"},
            "17:00",
        ),
        (
            "Jest wpół do ósmej wieczorem w Tokio. Która to godzina w Warszawie?",
            {"source_timezone": "Asia/Tokyo", "time": "19:30", "target_timezone": "Europe/Warsaw"},
            "11:30",
        ),
    ],
)
def test_a_time_stated_in_one_place_is_converted_for_the_place_asked(question, sent, told):
    calls, answer = loop(question, MCP_TIME, time_server)
    assert calls == [("convert_time", sent)]
    assert told in answer


@pytest.mark.parametrize(
    ("question", "zones", "hours"),
    [
        ("How many hours ahead of New York is Tokyo right now?", {"America/New_York", "Asia/Tokyo"}, "14"),
        ("На сколько часов Москва сейчас опережает Лондон?", {"Europe/Moscow", "Europe/London"}, "3"),
    ],
)
def test_hours_ahead_are_worked_out_from_the_time_in_each_place(question, zones, hours):
    calls, answer = loop(question, MCP_TIME, time_server)
    assert {c[1]["timezone"] for c in calls if c[0] == "get_current_time"} == zones
    assert f"= {hours}" in answer


def test_the_weekday_is_told_in_the_users_language():
    calls, answer = loop("Jaki dzień tygodnia jest teraz w Auckland?", MCP_TIME, time_server)
    assert calls == [("get_current_time", {"timezone": "Pacific/Auckland"})]
    assert "wtorek" in answer
