"""Fixes proven beyond the held-out probe's cases, on tools of other names and values: the number after a word for
the parameter's thing in the user's language is that parameter ('zgłoszenie 19', 'заявку 7')."""

from __future__ import annotations

import pytest
from test_sim_planner import first_calls, string, tool

from agent_core.model import SimSettings
from agent_core.sim.brain import think

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


MEMOS = [
    tool(
        "send_memo",
        "Sends a memo to a colleague by e-mail.",
        {
            "recipient": string("E-mail address of the colleague"),
            "title": string("Memo title"),
            "content": string("Memo text"),
        },
    ),
    tool("lookup_docs", "Looks a topic up in the team documentation.", {"topic": string("What to look up")}),
]


def answer(question: str, tools: list[dict]) -> list[dict]:
    body = {"model": "claude-sonnet-4-6", "max_tokens": 500, "tools": tools}
    return think({**body, "messages": [{"role": "user", "content": question}]}, SimSettings()).content


@pytest.mark.parametrize(
    ("question", "asked"),
    [
        ("Send a memo with title 'Lunch' and content 'Pizza at noon'.", "recipient"),
        ("Wyślij notatkę z tytułem 'Obiad' i treścią 'Pizza w południe'.", "odbiorcy"),
        ("Отправь записку с заголовком 'Обед' и текстом 'Пицца в полдень'.", "получателя"),
    ],
)
def test_a_clause_that_only_labels_a_quoted_part_of_the_message_is_no_request_of_its_own(question, asked):
    """'... and content 'Pizza at noon'' is the memo's text, not a topic to look up: only the recipient is asked."""
    content = answer(question, MEMOS)
    assert [b["type"] for b in content] == ["text"]
    assert asked in content[0]["text"] and "lookup_docs" not in content[0]["text"] and "\n" not in content[0]["text"]


# ---- a tool whose one input is a choice among listed values, and one that only shares a word ----------------------

EVENING = [
    tool("book_dinner", "Books a dinner table at a restaurant.", {"query": string("What to book")}),
    tool(
        "dress_code",
        "Tells the dress code for an event.",
        {"style": string('The kind of event. Allowed values: "casual", "formal".')},
    ),
]


@pytest.mark.parametrize(
    "question",
    [
        "What should I wear to an easygoing dinner with friends?",
        "Co założyć na luźną kolację ze znajomymi?",
        "Что надеть на непринуждённый ужин с друзьями?",
    ],
)
def test_the_tool_whose_allowed_value_the_request_names_beats_one_sharing_a_word(question):
    assert first_calls(question, EVENING) == [("dress_code", {"style": "casual"})]


def test_a_request_naming_no_allowed_value_still_goes_to_the_tool_it_names():
    assert [name for name, _ in first_calls("Book a dinner table for Friday.", EVENING)] == ["book_dinner"]


DISHES = [
    tool("web_search", "Runs a web search for the query and returns the top results.", {"query": string()}),
    tool(
        "plan_dishes",
        "Plans the dishes for an event.",
        {"event": string('The kind of event. Allowed values: "casual", "formal".')},
    ),
]


@pytest.mark.parametrize(
    "question",
    [
        "Jakie dania przygotować na uroczystą, oficjalną kolację w ambasadzie?",
        "Which dishes for a festive, formal dinner at the embassy?",
        "Какие блюда приготовить к торжественному, официальному ужину в посольстве?",
    ],
)
def test_a_clause_that_only_says_again_the_value_the_call_before_took_is_no_search(question):
    """'uroczystą, oficjalną kolację': the comma splits two words for one occasion; the second is no search."""
    assert first_calls(question, DISHES) == [("plan_dishes", {"event": "formal"})]


COSTUMES = [
    tool(
        "superhero_party_costume_finder",
        "Finds superhero party costumes for a party.",
        {"query": string("What to find")},
    ),
    tool(
        "plan_dishes",
        "Plans the dishes for an event.",
        {
            "event": string(
                'Allowed values: "casual" (a casual party), "formal" (a formal party), "superhero" (a superhero party).'
            )
        },
    ),
]


@pytest.mark.parametrize(
    "question",
    [
        "What dishes do we cook at a superhero party?",
        "Co ugotować na imprezę superbohaterów?",
        "Что приготовить на вечеринку супергероев?",
    ],
)
def test_a_tool_sharing_only_the_named_options_words_loses_to_the_tool_that_allows_it(question):
    assert first_calls(question, COSTUMES) == [("plan_dishes", {"event": "superhero"})]


def test_a_tool_sharing_more_than_the_options_words_keeps_its_request():
    calls = first_calls("Find a superhero costume for the party.", COSTUMES)
    assert [name for name, _ in calls] == ["superhero_party_costume_finder"]
