"""English prose of a result is told in Russian and Polish by what it names and the terms it uses, never copied
(sim/retell.py); names (titles, logins) stay as they came."""

from __future__ import annotations

import json

from sim_loop import agent_loop, tool

from agent_core.sim import retell
from agent_core.sim.words import value

ISSUE = {
    "number": 5,
    "title": "Crash on empty cart",
    "state": "open",
    "user": "kasia-b",
    "body": "The app crashes when the cart is empty; see the error in the console of Firefox 131.",
}
GET_ISSUE = tool("get_ticket", "Reads one ticket of the tracker by its number.", {"number": {"type": "integer"}})


def _answer(question: str) -> str:
    _, answer = agent_loop(question, [GET_ISSUE], lambda name, args: (json.dumps(ISSUE), False))
    return answer


def test_a_body_in_russian_names_its_names_and_terms_and_copies_no_english():
    answer = _answer("Что в тикете 5?")
    assert "Firefox 131" in answer and "ошибка" in answer and "консоль" in answer
    assert "crashes" not in answer and "empty;" not in answer
    assert "«Crash on empty cart»" in answer  # the title is a name


def test_polish_alike():
    answer = _answer("Co jest w zgłoszeniu 5?")
    assert "Firefox 131" in answer and "błąd" in answer and "crashes" not in answer


def test_retold_keeps_versions_and_figures_with_units():
    said = retell.retold("Refunds take 14 days after Django 6.1 ships.", "ru")
    assert "14 дней" in said and "Django 6.1" in said and "Refunds" not in said


def test_a_name_key_keeps_its_value_and_english_is_untouched():
    assert value("Fix the login bug", "ru", "title") == "«Fix the login bug»"
    assert "логин" not in value("Fix the login bug", "ru", "title")
    assert "логин" in value("Fix the login bug", "ru", "message")
    assert value("Fix the login bug", "en", "message") == "Fix the login bug"
