"""Fixes proven beyond the held-out probe's cases, on tools of other names and values: the number after a word for
the parameter's thing in the user's language is that parameter ('zgłoszenie 19', 'заявку 7')."""

from __future__ import annotations

import pytest
from test_sim_planner import first_calls, string, tool

TICKETS = [
    tool(
        "update_ticket",
        "Changes one ticket of the help desk.",
        {
            "ticket_number": {"type": "integer", "description": "Which ticket to change"},
            "status": string("The new status", enum=["open", "closed"]),
        },
        ["status"],
    ),
]


@pytest.mark.parametrize(
    "question",
    [
        "Close ticket 42 please.",
        "Zamknij zgłoszenie 42, proszę.",
        "Закрой тикет 42, пожалуйста.",
    ],
)
def test_the_number_after_the_things_word_in_any_language_is_its_number(question):
    calls = first_calls(question, TICKETS)
    assert calls == [("update_ticket", {"ticket_number": 42, "status": "closed"})]
