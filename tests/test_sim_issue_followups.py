"""Issue-tracker follow-ups: a task that waits for the item the user picks, 'jedno' as one of them, confirming a
close first, 'just the title', and the comments of an issue named by what it is about."""

from __future__ import annotations

import copy
import json

from agent_core.model import SimSettings
from agent_core.sim import lookup
from agent_core.sim.brain import think
from agent_core.sim.text import entities, values
from agent_core.sim.text.results import Attempt
from tests.ticket_tools import COMMENT_TICKET, LIST_TICKETS

LISTED = {"tickets": [{"number": 7, "title": "Printer queue stuck"}, {"number": 9, "title": "VPN drops hourly"}]}


def _calls(messages: list[dict], tools: list[dict], system: str = "") -> list[dict]:
    body = {"model": "claude-sonnet-4-6", "max_tokens": 512, "tools": tools, "messages": messages}
    if system:
        body["system"] = system
    draft = think(copy.deepcopy(body), SimSettings())
    return [b for b in draft.content if b["type"] == "tool_use"]


def test_a_lone_one_with_no_noun_after_it_is_no_number() -> None:
    assert not entities.of_kind("Chcę jedno skomentować.", "number")
    assert not entities.of_kind("chcę dodać komentarz do jednego", "number")
    assert [e.value for e in entities.of_kind("w jednej skrzynce", "number")] == [1]


def test_the_task_said_with_the_listing_waits_for_the_item_picked() -> None:
    for request, pick in (
        ("Покажи открытые тикеты в acme/desk, хочу в один написать комментарий", "первый. текст: беру в работу"),
        ("Pokaż otwarte zgłoszenia w acme/desk, chcę dodać komentarz do jednego", "tak, pierwsze. treść: biorę to"),
    ):
        messages = [
            {"role": "user", "content": request},
            {
                "role": "assistant",
                "content": [
                    {"type": "tool_use", "id": "t1", "name": "list_tickets", "input": {"owner": "acme", "repo": "desk"}}
                ],
            },
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": json.dumps(LISTED)}]},
            {"role": "assistant", "content": "2: 7 Printer queue stuck, 9 VPN drops hourly."},
            {"role": "user", "content": pick},
        ]
        calls = _calls(messages, [LIST_TICKETS, COMMENT_TICKET])
        assert [c["name"] for c in calls] == ["add_ticket_comment"], pick
        assert calls[0]["input"]["ticket_number"] == 7, pick


TICKET_WRITE = {
    "name": "ticket_write",
    "description": "Creates a new support ticket in a repository, or updates an existing one.",
    "input_schema": {
        "type": "object",
        "properties": {
            "method": {"type": "string", "enum": ["create", "update"], "description": "'create' or 'update'"},
            "owner": {"type": "string", "description": "Repository owner"},
            "repo": {"type": "string", "description": "Repository name"},
            "ticket_number": {"type": "integer", "description": "Number of the ticket to update"},
            "state": {"type": "string", "enum": ["open", "closed"], "description": "New state"},
        },
        "required": ["method", "owner", "repo"],
    },
}


def test_a_rule_listing_several_verbs_asks_before_a_generic_write_closes() -> None:
    system = (
        "Before you close, reopen or change a ticket, tell the user what you are about to do and ask them to confirm."
    )
    body = {"model": "claude-sonnet-4-6", "max_tokens": 512, "tools": [TICKET_WRITE], "system": system}
    body["messages"] = [{"role": "user", "content": "Please close ticket 7 in acme/desk."}]
    draft = think(copy.deepcopy(body), SimSettings())
    assert not [b for b in draft.content if b["type"] == "tool_use"]
    text = " ".join(b["text"] for b in draft.content if b["type"] == "text")
    assert "close" in text and "7" in text and "?" in text, text


def test_people_saying_asks_what_was_said_and_dictates_nothing() -> None:
    question = "What are people saying in the comments on the Safari bug?"
    assert values.request_part(question) == question
    assert values.request_part("Send Ann a message saying the build is green") == "Send Ann a message "


def test_a_missing_file_is_no_short_name_to_look_up() -> None:
    error = "failed to get file contents: GET .../contents/CONTRIBUTING.md: 404 Not Found"
    assert lookup.unknown_name(Attempt("get_file_contents", {"path": "CONTRIBUTING.md"}, error, "error")) is None
