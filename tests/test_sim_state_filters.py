"""A clause that names a value of a tool's optional choice: the things in that state are what a reading tool lists,
the value is what a changing tool sets; a parameter that orders results filters nothing."""

from __future__ import annotations

import copy
import json

from agent_core.model import SimSettings
from agent_core.sim import allowed
from agent_core.sim.brain import think
from agent_core.sim.text.reader import _tool_key

_REPO = {
    "owner": {"type": "string", "description": "Repository owner"},
    "repo": {"type": "string", "description": "Repository name"},
}
LIST = {
    "name": "list_tickets",
    "description": "Lists the support tickets of a repository.",
    "input_schema": {
        "type": "object",
        "properties": {
            **_REPO,
            "state": {"type": "string", "description": "Filter by state", "enum": ["OPEN", "CLOSED"]},
            "orderBy": {"type": "string", "description": "Field to order tickets by", "enum": ["CREATED", "REPLIES"]},
        },
        "required": ["owner", "repo"],
    },
}
FIND = {
    "name": "search_projects",
    "description": "Finds projects by name, description or topic.",
    "input_schema": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]},
}
WRITE = {
    "name": "ticket_write",
    "description": "Creates a support ticket, or updates an existing one.",
    "input_schema": {
        "type": "object",
        "properties": {
            **_REPO,
            "method": {"type": "string", "enum": ["create", "update"]},
            "ticket_number": {"type": "integer", "description": "Number of the ticket to update"},
            "state": {"type": "string", "description": "New state", "enum": ["open", "closed"]},
        },
        "required": ["method", "owner", "repo"],
    },
}
REPLIES = {
    "name": "read_ticket_replies",
    "description": "Reads the replies to one support ticket.",
    "input_schema": {
        "type": "object",
        "properties": {**_REPO, "ticket_number": {"type": "integer"}},
        "required": ["owner", "repo", "ticket_number"],
    },
}
TOOLS = [FIND, LIST, WRITE, REPLIES]
LISTED = {
    "tickets": [
        {"number": 7, "title": "Printer queue stuck", "state": "open"},
        {"number": 9, "title": "VPN drops every hour", "state": "open"},
    ]
}


def _calls(messages: list[dict]) -> list[tuple[str, dict]]:
    body = {"model": "claude-sonnet-4-6", "max_tokens": 512, "tools": TOOLS, "messages": messages}
    draft = think(copy.deepcopy(body), SimSettings())
    return [(b["name"], b["input"]) for b in draft.content if b["type"] == "tool_use"]


def test_a_state_named_alone_lists_the_things_in_that_state() -> None:
    for question in ("What's open in acme/helpdesk right now?", "Что сейчас открыто в acme/helpdesk?"):
        assert _calls([{"role": "user", "content": question}]) == [
            ("list_tickets", {"owner": "acme", "repo": "helpdesk", "state": "OPEN"})
        ], question


def test_a_value_of_an_ordering_parameter_is_no_filter() -> None:
    key = _tool_key(LIST)
    assert allowed.names_a_filter("What has been closed in acme/helpdesk?", key)
    assert not allowed.names_a_filter("What do people say in the replies about the printer?", key)


def test_closing_the_one_described_sets_the_state_of_that_item() -> None:
    listed = [{"type": "tool_use", "id": "t1", "name": "list_tickets", "input": {"owner": "acme", "repo": "helpdesk"}}]
    messages = [
        {"role": "user", "content": "What's open in acme/helpdesk?"},
        {"role": "assistant", "content": listed},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": json.dumps(LISTED)}]},
        {"role": "assistant", "content": "Two are open: 7 Printer queue stuck, 9 VPN drops every hour."},
        {"role": "user", "content": "close the VPN one"},
    ]
    assert _calls(messages) == [
        (
            "ticket_write",
            {"method": "update", "owner": "acme", "repo": "helpdesk", "ticket_number": 9, "state": "closed"},
        )
    ]
