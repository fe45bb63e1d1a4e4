"""'Open' said of a thing given a new title (Russian and Polish have no 'an'): a request to create it; opening one
named by its number or a file is reading it."""

from __future__ import annotations

import copy

from agent_core.model import SimSettings
from agent_core.sim.brain import think
from agent_core.sim.mood import asked_actions
from tests.test_sim_state_filters import LIST, WRITE

READ = {
    "name": "ticket_read",
    "description": "Gets information about one support ticket of a repository.",
    "input_schema": {
        "type": "object",
        "properties": {
            "owner": {"type": "string", "description": "Repository owner"},
            "repo": {"type": "string", "description": "Repository name"},
            "ticket_number": {"type": "number", "description": "The number of the ticket"},
        },
        "required": ["owner", "repo", "ticket_number"],
    },
}


def _calls(question: str) -> list[tuple[str, dict]]:
    body = {
        "model": "claude-sonnet-4-6",
        "max_tokens": 512,
        "tools": [WRITE, READ, LIST],
        "messages": [{"role": "user", "content": question}],
    }
    return [
        (b["name"], b["input"]) for b in think(copy.deepcopy(body), SimSettings()).content if b["type"] == "tool_use"
    ]


def test_opening_a_thing_with_a_new_title_creates_it_in_each_language() -> None:
    for question, title in (
        ("открой тикет в acme/helpdesk «Не печатает принтер»", "Не печатает принтер"),
        ("otwórz zgłoszenie w acme/helpdesk „Drukarka nie drukuje”", "Drukarka nie drukuje"),
    ):
        calls = _calls(question)
        assert [name for name, _ in calls] == ["ticket_write"], question
        assert calls[0][1]["method"] == "create" and calls[0][1].get("title", title) == title, question


def test_opening_one_named_by_its_number_or_a_file_is_no_creation() -> None:
    assert "create" not in asked_actions("открой тикет 7 в acme/helpdesk «Не печатает принтер»")
    assert "create" not in asked_actions("открой notes.txt «план»")
    assert "create" not in asked_actions("покажи открытые тикеты с меткой «баг»")
    assert [name for name, _ in _calls("открой тикет 7 в acme/helpdesk")] == ["ticket_read"]
