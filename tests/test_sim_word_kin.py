"""A word that starts a longer one is a form of it only when the data does not tell them apart: Polish 'konto'
(an account) is no 'kontakt' (a contact), English 'check' no 'checkout', while inflections still meet their
words ('отмена' and 'отменяет', 'orders' and 'order')."""

from __future__ import annotations

import json

import pytest
from sim_loop import agent_loop, tool

from agent_core.sim.text import language as lx
from agent_core.sim.text import meaning

S = {"type": "string"}


def ok(name: str, args: dict) -> tuple[str, bool]:
    return json.dumps({"ok": True}), False


def first_calls(question: str, tools: list[dict]) -> list[str]:
    replies, _ = agent_loop(question, tools, ok)
    return [name for name, _ in replies[0]] if replies else []


def test_an_account_is_no_contact():
    assert "contact" not in meaning.concepts("Jaki jest stan mojego konta?")
    tools = [
        tool("get_contact_details", "Returns the contact details (address and phone) of a user.", {"user_id": S}),
        tool("get_account", "Returns a user's account: plan and settings.", {"user_id": S}),
    ]
    assert first_calls("Pokaż moje konto, id u7", tools) == ["get_account"]


def test_checkout_is_no_reading_verb_check():
    assert lx.hits(lx.words("Checkout the dev branch"), lx.lexicon()["reading_verbs"]) == []
    tools = [
        tool("git_checkout", "Switches branches.", {"repo_path": S, "branch_name": S}),
        tool("git_log", "Shows the commit logs.", {"repo_path": S}),
    ]
    assert first_calls("Checkout the dev branch in /home/ann/app", tools) == ["git_checkout"]


def test_inflections_still_meet_their_words():
    assert lx.stems_match(lx.stem("отмена"), lx.stem("отменяет"))
    assert lx.stems_match(lx.stem("работа"), lx.stem("работает"))
    assert lx.hits(lx.words("checking the logs"), lx.lexicon()["reading_verbs"]) == ["check"]
    assert "cancel" in meaning.concepts("Отменяет заказ")


PRIORITY = {"type": "string", "enum": ["high", "medium", "low"]}
TICKETS = [
    tool("create_ticket", "Creates a support ticket with a title and a priority.", {"title": S, "priority": PRIORITY})
]


@pytest.mark.parametrize(
    ("question", "priority"),
    [
        ("Create a ticket 'Printer jams', not urgent", "low"),
        ("Create a ticket 'Printer jams', it isn't urgent", "low"),
        ("Create a ticket 'Printer jams', it's urgent", "high"),
        ("Создай тикет «Принтер мнёт бумагу», не срочно", "low"),
        ("Создай тикет «Принтер мнёт бумагу», срочно", "high"),
        ("Utwórz zgłoszenie 'Drukarka się zacina', nie pilne", "low"),
        ("Utwórz zgłoszenie 'Drukarka się zacina', niepilne", "low"),
        ("Utwórz zgłoszenie 'Drukarka się zacina', to nie jest pilne", "low"),
        ("Utwórz zgłoszenie 'Drukarka nie drukuje', pilne", "high"),
    ],
)
def test_a_negated_urgency_is_no_high_priority(question, priority):
    replies, _ = agent_loop(question, TICKETS, ok)
    assert replies[0][0][1]["priority"] == priority


@pytest.mark.parametrize(
    "text", ["Find a user id by email address", "адрес электронной почты", "Podaj adres e-mail klienta"]
)
def test_an_email_address_is_no_postal_address(text):
    assert "email" in meaning.concepts(text)
    assert "contact" not in meaning.concepts(text)


def test_an_address_beside_an_email_of_its_own_is_still_one():
    assert {"email", "contact"} <= meaning.concepts("the email and the home address")
    assert "contact" in meaning.concepts("key: email, phone or username")
