"""Shop chains told from the record that holds what was asked, and a refused cancel in the user's words."""

from __future__ import annotations

import json
from pathlib import Path

from tests.sim_loop import agent_loop, tool

STRING = {"type": "string"}
_RETAIL = Path(__file__).parent / "fidelity" / "loops" / "cases" / "tau_bench_retail.json"
# τ-bench's retail tools as the benchmark defines them; the users, orders and questions below are made up
STORE = [t["definition"] for t in json.loads(_RETAIL.read_text(encoding="utf-8"))["tools"].values()]
MEMBER = {
    "email": "lena@example.com",
    "payment_methods": {"paypal_11": {"source": "paypal"}, "gift_card_22": {"source": "gift_card"}},
    "orders": ["#W1000001", "#W1000002"],
}
ORDER = {"order_id": "#W1000001", "items": [{"name": "Tea Kettle", "price": 40.5}], "status": "pending"}


def _run(name: str, args: dict) -> tuple[str, bool]:
    if name == "find_user_id_by_email":
        return "lena_ross_7120", False
    if name == "get_user_details":
        return json.dumps(MEMBER), False
    if name.startswith("cancel"):
        return "Order has already shipped. Can't cancel it.", False
    return json.dumps(ORDER), False


def test_the_members_record_answers_what_it_holds_not_the_one_order_fetched_after_it():
    _, answer = agent_loop("Which orders do I have? My email is lena@example.com", STORE, _run)
    assert "#W1000001" in answer and "#W1000002" in answer
    _, answer = agent_loop("Сколько у меня заказов? Почта lena@example.com", STORE, _run)
    assert "2 заказа" in answer


def test_saved_payment_methods_are_labelled_in_the_users_language():
    _, answer = agent_loop("Jakie metody płatności mam zapisane? Mój mail to lena@example.com", STORE, _run)
    assert "metody płatności" in answer and "paypal_11" in answer


def test_what_is_in_an_order_names_its_items():
    _, answer = agent_loop("Co jest w zamówieniu #W1000001?", STORE, _run)
    assert "Tea Kettle" in answer and "[{" not in answer


def test_a_refused_cancel_is_told_in_the_users_words():
    cancel = tool(
        "cancel_order", "Cancels the order with the given order_id.", {"order_id": {"description": "Like '#W0'."}}
    )
    _, answer = agent_loop("Anuluj zamówienie #W1000001", [cancel], _run)
    assert "nie można anulować" in answer and "Can't" not in answer


def test_a_username_written_with_an_apostrophe_s_fills_the_lookup():
    users = [
        tool(
            "get_user",
            "Finds a user by their email, phone number or username.",
            {"key": {"type": "string", "enum": ["email", "phone", "username"]}, "value": STRING},
        )
    ]
    replies, _ = agent_loop("hi, username's zed42 - what phone do you have for me?", users, lambda n, a: ("{}", False))
    assert replies[0] == [("get_user", {"key": "username", "value": "zed42"})]
