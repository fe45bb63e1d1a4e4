"""The offline model on issue trackers and code hosts shaped like GitHub's MCP server: a labels filter from the
words of the question, a search query written in the syntax its description shows."""

from __future__ import annotations

import copy
import json

import pytest

from agent_core.model import SimSettings
from agent_core.sim.brain import think


def first_calls(question: str, tools: list[dict]) -> list[tuple[str, dict]]:
    """The calls of the model's first reply to one question."""
    body = {"model": "claude-sonnet-4-6", "max_tokens": 1024, "messages": [{"role": "user", "content": question}]}
    draft = think(copy.deepcopy({**body, "tools": tools}), SimSettings())
    return [(b["name"], b["input"]) for b in draft.content if b["type"] == "tool_use"]


def _string(description: str, **extra: object) -> dict:
    return {"type": "string", "description": description, **extra}


LIST_TICKETS = {
    "name": "list_tickets",
    "description": "Lists the issues of a project, open or closed.",
    "input_schema": {
        "type": "object",
        "properties": {
            "project": _string("Project key, e.g. 'acme/shop'"),
            "state": _string("Filter by state", enum=["open", "closed"]),
            "labels": {"type": "array", "items": {"type": "string"}, "description": "Only tickets with these labels"},
        },
        "required": ["project"],
    },
}
FIND_PROJECTS = {
    "name": "find_projects",
    "description": "Searches the code host's projects (repositories) by name, description or topic.",
    "input_schema": {
        "type": "object",
        "properties": {
            "query": _string("Search text in the host's query syntax, e.g. 'http client language:go stars:>500'."),
        },
        "required": ["query"],
    },
}
PLAIN_SEARCH = {
    "name": "find_projects",
    "description": "Searches the code host's projects (repositories) by name, description or topic.",
    "input_schema": {"type": "object", "properties": {"query": _string("What to look for")}, "required": ["query"]},
}


@pytest.mark.parametrize(
    "question",
    ["Show the open bugs in acme/shop.", "Покажи открытые баги в acme/shop", "Pokaż otwarte błędy w acme/shop"],
)
def test_a_label_the_question_names_by_its_word_filters_the_list(question):
    [(name, args)] = first_calls(question, [LIST_TICKETS])
    assert name == "list_tickets"
    assert args.get("labels") == ["bug"]


def test_no_label_word_leaves_the_filter_out_and_a_quoted_one_is_no_filter():
    [(_, args)] = first_calls("Show the open tickets in acme/shop.", [LIST_TICKETS])
    assert "labels" not in args
    [(_, args)] = first_calls("Which open tickets in acme/shop mention 'bug'?", [LIST_TICKETS])
    assert "labels" not in args


@pytest.mark.parametrize(
    ("question", "parts"),
    [
        ("Find Rust projects about http clients with more than 500 stars.", ("language:rust", "stars:>500", "http")),
        ("Найди проекты на Python про парсинг с не менее чем 200 звёздами", ("language:python", "stars:>=200")),
        ("Znajdź projekty w Ruby z ponad 1000 gwiazdek", ("language:ruby", "stars:>1000")),
    ],
)
def test_a_query_is_written_in_the_syntax_its_description_shows(question, parts):
    [(_, args)] = first_calls(question, [FIND_PROJECTS])
    for part in parts:
        assert part in args["query"]
    assert "500 stars" not in args["query"] and "more" not in args["query"]


def test_a_query_with_no_syntax_shown_keeps_the_words():
    [(_, args)] = first_calls("Find Rust projects about http clients with more than 500 stars.", [PLAIN_SEARCH])
    assert "language:" not in args["query"] and "stars:" not in args["query"]


UPDATE_TICKET = {
    "name": "ticket_write",
    "description": "Creates or updates a ticket of a project.",
    "input_schema": {
        "type": "object",
        "properties": {
            "method": _string("'create' or 'update'", enum=["create", "update"]),
            "project": _string("Project key, e.g. 'acme/shop'"),
            "ticket_number": {"type": "number", "description": "The ticket to update"},
            "title": _string("Ticket title"),
            "state": _string("New state", enum=["open", "closed"]),
        },
        "required": ["method", "project"],
    },
}


def answer_after(question: str, tools: list[dict], result: dict) -> tuple[list[tuple[str, dict]], str]:
    """The model's calls for a question and its answer once each call got `result`."""
    body = {"model": "claude-sonnet-4-6", "max_tokens": 1024, "messages": [{"role": "user", "content": question}]}
    body["tools"] = tools
    draft = think(copy.deepcopy(body), SimSettings())
    uses = [b for b in draft.content if b["type"] == "tool_use"]
    body["messages"] += [
        {"role": "assistant", "content": draft.content},
        {
            "role": "user",
            "content": [{"type": "tool_result", "tool_use_id": b["id"], "content": json.dumps(result)} for b in uses],
        },
    ]
    final = think(body, SimSettings())
    return [(b["name"], b["input"]) for b in uses], " ".join(b["text"] for b in final.content if b["type"] == "text")


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("Close ticket 7 in acme/shop.", "closed"),
        ("Закрой тикет 7 в acme/shop", "закрыто"),
        ("Zamknij zgłoszenie 7 w acme/shop", "zamknięte"),
    ],
)
def test_a_change_acknowledged_by_its_ids_is_told_as_done_never_by_its_internal_id(question, said):
    result = {"id": 99887766, "number": 7, "url": "https://tracker.example/acme/shop/7"}
    calls, answer = answer_after(question, [UPDATE_TICKET], result)
    assert calls[0][1].get("state") == "closed"
    assert "7" in answer and said in answer and "99887766" not in answer


DUPLICATE_TICKET = {
    **UPDATE_TICKET,
    "input_schema": {
        **UPDATE_TICKET["input_schema"],
        "properties": {
            **UPDATE_TICKET["input_schema"]["properties"],
            "resolution": _string("Why it closes", enum=["fixed", "duplicate", "wontfix"]),
            "duplicate_of": {"type": "number", "description": "The original; required when resolution is 'duplicate'."},
        },
    },
}


def test_a_statement_of_numbers_is_what_the_request_after_it_acts_on_and_a_conditional_number_is_sent():
    question = "Ticket 9 in acme/shop is the same as ticket 5. Close it as a duplicate."
    [(name, args)] = first_calls(question, [DUPLICATE_TICKET])
    assert name == "ticket_write"
    assert (args["ticket_number"], args["state"], args["resolution"], args.get("duplicate_of")) == (
        9,
        "closed",
        "duplicate",
        5,
    )


def test_a_conditional_number_is_left_out_when_its_condition_is_not_set():
    [(_, args)] = first_calls("Close ticket 9 in acme/shop, it is fixed.", [DUPLICATE_TICKET])
    assert args["ticket_number"] == 9 and "duplicate_of" not in args


COMMENT_TICKET = {
    "name": "add_ticket_comment",
    "description": "Adds a comment to a ticket of a project.",
    "input_schema": {
        "type": "object",
        "properties": {
            "project": _string("Project key, e.g. 'acme/shop'"),
            "ticket_number": {"type": "number", "description": "Ticket to comment on"},
            "body": _string("Comment text"),
        },
        "required": ["project", "ticket_number", "body"],
    },
}


def test_the_ticket_a_comment_goes_on_is_found_by_listing_never_by_changing_one():
    question = "Comment 'On it' on the newest open ticket in acme/shop."
    listing = {**LIST_TICKETS, "description": "Lists the tickets of a project, with their numbers and titles."}
    [(name, _)] = first_calls(question, [UPDATE_TICKET, listing, COMMENT_TICKET])
    assert name == "list_tickets"
