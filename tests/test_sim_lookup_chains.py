"""Chains from a gap: a command on the result of the sum before it ('then add 8', 'и прибавь 15'), and a required
argument the question does not give found by calling first the tool that produces it, read from that tool's result."""

from __future__ import annotations

import json

from tests.sim_loop import agent_loop, tool

INTEGER = {"type": "integer"}


def _arith(name: str, verb: str) -> dict:
    return tool(name, f"{verb} two integers and returns the result integer", {"a": INTEGER, "b": INTEGER})


OPERATIONS = [_arith("multiply", "Multiply"), _arith("add", "Add"), _arith("subtract", "Subtract")]


def _run_arith(name: str, args: dict) -> tuple[str, bool]:
    a, b = args["a"], args["b"]
    return str({"add": a + b, "multiply": a * b, "subtract": a - b}[name]), False


def test_a_command_with_one_number_works_on_the_result_before_it():
    for question, steps, total in [
        ("What is 9 times 3, then add 5?", [("multiply", {9, 3}), ("add", {27, 5})], "32"),
        ("Умножь 6 на 4 и прибавь 10", [("multiply", {6, 4}), ("add", {24, 10})], "34"),
        ("Pomnóż 12 przez 3, a potem odejmij 6", [("multiply", {12, 3}), ("subtract", {36, 6})], "30"),
    ]:
        replies, answer = agent_loop(question, OPERATIONS, _run_arith)
        assert [[(n, set(a.values())) for n, a in r] for r in replies] == [[s] for s in steps], question
        assert total in answer, question


def test_a_second_sum_with_numbers_of_its_own_is_not_taken_for_a_command_on_the_first():
    replies, _ = agent_loop("Multiply 6 by 7, and add 2 and 3.", OPERATIONS, _run_arith)
    assert sorted((n, tuple(sorted(a.values()))) for r in replies for n, a in r) == [
        ("add", (2, 3)),
        ("multiply", (6, 7)),
    ]


STRING = {"type": "string"}
# An account store in the shape of τ-bench's retail tools: an id finder, then the reader that takes the id.
ACCOUNTS = [
    tool(
        "find_account_id_by_phone",
        "Finds an account's id from its phone number.",
        {"phone": {"type": "string", "description": "The phone number, for example '555-010-0199'."}},
    ),
    tool(
        "find_account_id_by_name_postcode",
        "Finds an account's id from the holder's first and last name and their postcode.",
        {
            "first_name": {"type": "string", "description": "First name, for example 'Jane'."},
            "last_name": {"type": "string", "description": "Last name, for example 'Roe'."},
            "postcode": {"type": "string", "description": "The postcode, such as '90210'."},
        },
    ),
    tool(
        "get_account",
        "Returns an account's details.",
        {"account_id": {"type": "string", "description": "The account id, such as 'acc-1042'."}},
    ),
    tool(
        "get_invoice",
        "Returns one invoice.",
        {"invoice_id": {"type": "string", "description": "The invoice id, like 'INV-00000'."}},
    ),
]
ACCOUNT = {"holder": "Jane Roe", "billing_address": {"street": "12 Elm Row", "city": "Leeds", "postcode": "90210"}}


def _run_accounts(name: str, args: dict) -> tuple[str, bool]:
    if name == "find_account_id_by_phone":
        return ("acc-7731", False) if args["phone"] == "555-010-0199" else ("Error: not found", True)
    if name == "find_account_id_by_name_postcode":
        known = (args["first_name"], args["last_name"], args["postcode"]) == ("Jane", "Roe", "90210")
        return ("acc-7731", False) if known else ("Error: not found", True)
    if name == "get_account" and args["account_id"] == "acc-7731":
        return json.dumps(ACCOUNT), False
    return "Error: not found", True


def test_an_id_found_first_is_handed_to_the_tool_that_reads_it():
    replies, answer = agent_loop(
        "What billing address is on the account with phone 555-010-0199?", ACCOUNTS, _run_accounts
    )
    assert replies == [
        [("find_account_id_by_phone", {"phone": "555-010-0199"})],
        [("get_account", {"account_id": "acc-7731"})],
    ]
    assert "12 Elm Row" in answer and "acc-7731:" not in answer.split("\n")[0][:9]


def test_a_value_of_the_shape_the_description_shows_is_taken_not_the_sentence():
    for question in [
        "I'm Jane Roe, postcode 90210. What billing address do you have for me?",
        "Меня зовут Jane Roe, индекс 90210. Какой адрес указан в моём аккаунте?",
        "Nazywam się Jane Roe, kod pocztowy 90210. Jaki adres mam na koncie?",
    ]:
        replies, answer = agent_loop(question, ACCOUNTS[1:], _run_accounts)
        first = {"first_name": "Jane", "last_name": "Roe", "postcode": "90210"}
        assert replies[0] == [("find_account_id_by_name_postcode", first)], question
        assert replies[1] == [("get_account", {"account_id": "acc-7731"})], question
        assert "12 Elm Row" in answer, question


def test_an_id_whose_shape_the_description_shows_is_never_another_number():
    replies, answer = agent_loop("Show me my invoice, my postcode is 90210.", ACCOUNTS[3:], _run_accounts)
    assert replies == [] and "90210" not in answer


SHOP = [
    tool("find_customer", "Finds a customer by e-mail and returns their customer_id.", {"email": STRING}),
    tool("list_orders", "Lists a customer's orders, given the customer_id.", {"customer_id": STRING}),
    tool("cancel_order", "Cancels the order with the given order_id.", {"order_id": STRING}),
]
ORDERS = [
    {"order_id": "A-1", "product": "Desk Lamp", "status": "Shipped"},
    {"order_id": "A-2", "product": "Desk Lamp", "status": "Processing"},
    {"order_id": "A-3", "product": "Office Chair", "status": "Processing"},
]


def _run_shop(name: str, args: dict) -> tuple[str, bool]:
    if name == "find_customer":
        return json.dumps({"customer_id": "K9", "email": args["email"]}), False
    if name == "list_orders":
        return json.dumps(ORDERS), False
    return "Cancelled", False


def test_the_record_the_question_names_is_the_one_acted_on_not_the_first_listed():
    for question, order in [
        ("Cancel my Desk Lamp order that is still processing, account ann@example.com", "A-2"),
        ("Anuluj zamówienie Office Chair, konto ann@example.com", "A-3"),
    ]:
        replies, _ = agent_loop(question, SHOP, _run_shop)
        assert replies[-1] == [("cancel_order", {"order_id": order})], question


PLACE = [
    tool("get_location", "Gets the user's current location from their IP address.", {}),
    tool("get_weather", "Gets the current weather in a given city.", {"city": STRING}),
]


def test_a_clause_of_where_belongs_to_the_question_and_adds_no_search():
    for question in ["Какая погода там, где я сейчас нахожусь?", "Jaka jest pogoda w miejscu, w którym jestem?"]:
        replies, answer = agent_loop(
            question, PLACE, lambda n, a: ("Glasgow" if n == "get_location" else "8°C, light rain", False)
        )
        assert [r[0][0] for r in replies] == ["get_location", "get_weather"], question
        assert "8" in answer and "офлайн" not in answer and "offline" not in answer, question


def test_a_greeting_with_a_question_is_answered_as_the_question():
    replies, _ = agent_loop("Hi! What's the weather like where I am?", PLACE, lambda n, a: ("Oslo", False))
    assert [r[0][0] for r in replies] == ["get_location", "get_weather"]


NUMBER = {"type": "number"}
TRACKER = [
    tool("list_tickets", "Lists the tickets of a repository.", {"owner": STRING, "repo": STRING}),
    tool(
        "comment_ticket",
        "Adds a comment to a ticket of a repository.",
        {"owner": STRING, "repo": STRING, "ticket_number": NUMBER, "body": STRING},
    ),
]
TICKETS = {
    "tickets": [
        {"number": 7, "title": "Export to PDF fails", "url": "https://t.example/acme/7"},
        {"number": 9, "title": "Dark theme for settings", "url": "https://t.example/acme/9"},
    ]
}


def _run_tracker(name: str, args: dict) -> tuple[str, bool]:
    return (
        (json.dumps(TICKETS), False) if name == "list_tickets" else (json.dumps({"id": 1, "body": args["body"]}), False)
    )


def test_a_ticket_named_by_its_title_is_found_in_the_list_and_the_quoted_comment_is_the_body():
    for question, number, body in [
        ("Add the comment 'On it' to the PDF export ticket in acme/shop.", 7, "On it"),
        ("Напиши комментарий «Беру» в тикет «Dark theme for settings» репозитория acme/shop", 9, "Беру"),
    ]:
        replies, _ = agent_loop(question, TRACKER, _run_tracker)
        where = {"owner": "acme", "repo": "shop"}
        assert replies[0] == [("list_tickets", where)], question
        assert replies[1] == [("comment_ticket", {**where, "ticket_number": number, "body": body})], question
