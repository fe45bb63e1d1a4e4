"""A known first name is one person in every case form (knowledge.json lists 'Ewa' once; its endings make 'Ewy',
'Ewą', 'Ewę'), and a lone first name fills a person's parameter as the list spells it."""

from __future__ import annotations

from agent_core.sim.text import names
from tests.sim_loop import agent_loop, tool

CONTACTS = [
    tool("find_contact", "Finds a person in the address book by first name.", {"first_name": {"type": "string"}})
]


def test_each_case_form_of_a_first_name_is_the_one_name() -> None:
    assert {names.base_name(w) for w in ("Ewa", "Ewy", "Ewą", "Ewę", "Ewie")} == {"Ewa"}
    assert names.base_name("Martą") == "Marta" and names.first_name("Ewę")


def test_a_lone_first_name_in_another_case_fills_the_lookup_in_its_own_form() -> None:
    for question, name in (
        ("Podaj mi numer do Ewy", "Ewa"),
        ("Umów spotkanie z Martą", "Marta"),
        ("What's Ewa's number?", "Ewa"),
    ):
        replies, _ = agent_loop(question, CONTACTS, lambda n, a: ('{"phone": "600 100 200"}', False))
        assert replies[0] == [("find_contact", {"first_name": name})], (question, replies)
