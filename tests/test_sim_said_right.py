"""Requests said in the user's own words reach the tool, and what the model says back reads right: 'Пересади меня
на 14C' changes the seat, and the confirmation question names the thing in lower case mid-sentence."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sim_loop import agent_loop, tool

S = {"type": "string"}
CONFIRM = "Before you cancel an order or delete a file, always ask the user to confirm."


def ok(name: str, args: dict) -> tuple[str, bool]:
    return json.dumps({"ok": True}), False


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Cancel order 13579", "Do you want me to cancel order 13579? Please confirm."),
        ("Отмени заказ 13579", "Отменить заказ 13579? Подтвердите, пожалуйста."),
        ("Anuluj zamówienie 13579", "Czy mam anulować zamówienie 13579? Potwierdź, proszę."),
    ],
)
def test_the_confirmation_question_names_the_thing_mid_sentence(question, expected):
    tools = [tool("cancel_order", "Cancels an order.", {"order_id": S})]
    replies, answer = agent_loop(question, tools, ok, system=CONFIRM)
    assert replies == [] and answer == expected


SEATS = [
    tool("update_seat", "Update the seat for a given confirmation number.", {"confirmation_number": S, "new_seat": S}),
    tool("change_seat", "Change the passenger's seat on a reservation.", {"reservation_id": S, "seat": S}),
]


@pytest.mark.parametrize(
    "question",
    [
        "Пересади меня на 14C, бронь HG52KD",
        "Пересадите меня на место 14C, номер брони HG52KD",
        "Przesadź mnie na 14C, rezerwacja HG52KD",
        "Please move me to seat 14C, confirmation number HG52KD",
    ],
)
@pytest.mark.parametrize("seats", [SEATS[:1], SEATS[1:]], ids=["update_seat", "change_seat"])
def test_a_request_to_move_seats_changes_the_seat(question, seats):
    replies, _ = agent_loop(
        question, seats + [tool("faq_lookup_tool", "Lookup frequently asked questions.", {"question": S})], ok
    )
    ((name, sent),) = replies[0]
    assert name == seats[0]["name"]
    assert sorted(sent.values()) == ["14C", "HG52KD"]


def test_a_lower_case_english_i_splits_no_clause():
    from agent_core.sim.text import language as lx

    assert lx.split_clauses("what cards do i have saved?") == ["what cards do i have saved"]
    assert len(lx.split_clauses("Sprawdź pogodę w Krakowie i sprawdź godzinę w Tokio")) == 2


def test_a_labelled_id_after_the_question_belongs_to_it():
    tau = Path(__file__).parent / "fidelity" / "loops" / "cases" / "tau_bench_retail.json"
    defined = json.loads(tau.read_text(encoding="utf-8"))["tools"]
    tools = [defined[name]["definition"] for name in ("find_user_id_by_email", "get_user_details", "get_order_details")]
    replies, _ = agent_loop("what cards or wallets do i have saved? my user id is mei_ahmed_5058", tools, ok)
    assert replies[0] == [("get_user_details", {"user_id": "mei_ahmed_5058"})]
