"""A new fact about something a knowledge graph holds is added to it, not made a duplicate: the store is read first
when nothing has shown what it holds, and a request to keep the fact ('..., remember that', 'Zapamiętaj, że ...') is
no part of the fact. Also: a clause that is only another ID is one more call of the clause before."""

from __future__ import annotations

import json

import pytest
from sim_loop import agent_loop, conversation, tool
from test_sim_git_memory import definitions

HELD = {"Marek Zieliński": ["Plays the violin"], "Northwind": ["Sells tea"]}


def store(name: str, args: dict) -> tuple[str, bool]:
    """A memory server holding HELD: a search matches whole names the query holds; the graph is everything."""
    records = [{"name": n, "entityType": "person", "observations": o} for n, o in HELD.items()]
    if name == "search_nodes":
        found = [r for r in records if r["name"].lower() in args["query"].lower()]
        return json.dumps({"entities": found, "relations": []}), False
    if name in ("read_graph", "open_nodes"):
        return json.dumps({"entities": records, "relations": []}), False
    if name == "add_observations":
        unknown = [o["entityName"] for o in args["observations"] if o["entityName"] not in HELD]
        return (f"Entity with name {unknown[0]} not found", True) if unknown else (json.dumps(args), False)
    return json.dumps(args), False


def calls_of(question: str | list[str]) -> list[tuple[str, dict]]:
    replies, _ = agent_loop(question, definitions("memory"), store)
    return [c for reply in replies for c in reply]


@pytest.mark.parametrize(
    ("question", "fact"),
    [
        ("Marek Zieliński has taken up chess, please remember that.", "chess"),
        ("Запомни, что Marek Zieliński начал играть в шахматы.", "шахмат"),
        ("Zapamiętaj, że Marek Zieliński gra w szachy.", "szachy"),
    ],
)
def test_a_fact_about_a_stored_person_is_read_first_then_added_to_them(question, fact):
    calls = calls_of(question)
    assert calls[0] == ("search_nodes", {"query": "Marek Zieliński"})
    added = [args for name, args in calls if name == "add_observations"]
    assert added and added[0]["observations"][0]["entityName"] == "Marek Zieliński"
    contents = added[0]["observations"][0]["contents"]
    assert any(fact in c for c in contents)
    # the request to keep it is not stored as a fact
    assert not any(w in c.lower() for c in contents for w in ("remember", "запомни", "zapamiętaj"))
    assert "create_entities" not in [name for name, _ in calls]


def test_a_fact_about_someone_the_store_lacks_makes_a_new_entity():
    calls = calls_of("Remember that my cousin Olga Lis is a pilot.")
    names = [name for name, _ in calls]
    assert "create_entities" in names and "add_observations" not in names
    created = next(args for name, args in calls if name == "create_entities")["entities"][0]
    assert created["name"] == "Olga Lis" and any("pilot" in o for o in created["observations"])


def test_a_name_only_the_graph_shows_is_read_with_the_whole_graph():
    calls = calls_of("Northwind ma nowy magazyn w Łodzi, zapisz to")  # no known name: the graph says who it is
    assert calls[0] == ("read_graph", {})
    assert calls[1][0] == "add_observations"
    assert calls[1][1]["observations"][0]["entityName"] == "Northwind"


def test_a_follow_up_pointing_back_adds_to_the_one_shown_before():
    replies, _ = agent_loop("What do you know about Marek Zieliński?", definitions("memory"), store)
    assert replies  # the first turn reads the store
    body_calls = calls_of_turns(["What do you know about Marek Zieliński?", "Note that he now teaches music too."])
    added = [args for name, args in body_calls if name == "add_observations"]
    assert added and added[-1]["observations"][0]["entityName"] == "Marek Zieliński"
    assert "create_entities" not in [name for name, _ in body_calls]


def calls_of_turns(turns: list[str]) -> list[tuple[str, dict]]:
    """Every call of a conversation of several user turns, each turn's loop run to its answer."""
    return [call for made in conversation(turns, definitions("memory"), store) for call in made]


ACCOUNTS = [
    tool(
        "get_account",
        "Looks up an account by its account ID: owner, plan and balance.",
        {"account_id": {"type": "string"}},
    ),
    tool(
        "get_invoice",
        "Looks up one invoice by its invoice ID: amount and due date.",
        {"invoice_id": {"type": "string"}},
    ),
]


def books(name: str, args: dict) -> tuple[str, bool]:
    value = next(iter(args.values()))
    return json.dumps({"id": value, "owner": f"owner of {value}", "plan": "pro"}), False


@pytest.mark.parametrize(
    "question",
    ["Who owns accounts A7 and A9?", "Кто владелец аккаунтов A7 и A9?", "Kto jest właścicielem kont A7 i A9?"],
)
def test_a_clause_that_is_only_another_id_is_one_more_call_of_the_same_tool(question):
    replies, _ = agent_loop(question, ACCOUNTS, books)
    assert replies[0] == [("get_account", {"account_id": "A7"}), ("get_account", {"account_id": "A9"})]


PAGES = [tool("read_page", "Fetches a web page by its URL and returns its text.", {"url": {"type": "string"}})]


def test_two_addresses_in_one_clause_are_two_fetches_in_one_reply():
    replies, _ = agent_loop("Read https://a.example.org/x and https://b.example.net/y for me.", PAGES, books)
    assert replies[0] == [
        ("read_page", {"url": "https://a.example.org/x"}),
        ("read_page", {"url": "https://b.example.net/y"}),
    ]
