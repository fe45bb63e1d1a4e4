"""Asking which item: the question names the items a tool just listed, and 'one of them' is no number one."""

from __future__ import annotations

import copy
import json

from agent_core.model import SimSettings
from agent_core.sim.brain import think
from agent_core.sim.text import entities
from tests.ticket_tools import COMMENT_TICKET, LIST_TICKETS

TICKETS = {"tickets": [{"number": 7, "title": "Printer queue stuck"}, {"number": 9, "title": "VPN drops hourly"}]}


def _turn(question: str) -> tuple[list[dict], str]:
    """The calls of the first reply, and the text of the reply after the listing's result."""
    body = {"model": "claude-sonnet-4-6", "max_tokens": 512, "tools": [LIST_TICKETS, COMMENT_TICKET]}
    body["messages"] = [{"role": "user", "content": question}]
    first = think(copy.deepcopy(body), SimSettings())
    uses = [b for b in first.content if b["type"] == "tool_use"]
    content = [dict(b, id=f"u{i}") if b["type"] == "tool_use" else b for i, b in enumerate(first.content)]
    ids = [b["id"] for b in content if b["type"] == "tool_use"]
    results = [{"type": "tool_result", "tool_use_id": i, "content": json.dumps(TICKETS)} for i in ids]
    body["messages"] += [{"role": "assistant", "content": content}, {"role": "user", "content": results}]
    second = think(copy.deepcopy(body), SimSettings())
    return uses, " ".join(b["text"] for b in second.content if b["type"] == "text")


def test_the_model_lists_first_then_asks_by_the_items() -> None:
    for question in (
        "Add the comment 'fixed on staging' to one of the open tickets in acme/desk. Which are there?",
        "Хочу добавить комментарий «исправлено» к одному из открытых тикетов в acme/desk. Какие там есть?",
        "Dodaj komentarz 'naprawione' do jednego z otwartych zgłoszeń w acme/desk. Jakie są?",
    ):
        uses, asked = _turn(question)
        assert [u["name"] for u in uses] == ["list_tickets"], question
        assert "?" in asked and "Printer queue stuck" in asked and "9" in asked, asked
        assert "ticket_number" not in asked and "add_ticket_comment" not in asked


def test_one_of_several_is_no_number() -> None:
    assert not entities.of_kind("в одной из открытых задач", "number")
    assert not entities.of_kind("do jednego z otwartych zgłoszeń", "number")
    assert [e.value for e in entities.of_kind("в одной коробке", "number")] == [1]
