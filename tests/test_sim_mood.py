"""A tool that changes something is called only when the user asks for that change: a question that asks to be
shown something never posts, creates or cancels, whatever words it shares with a changing tool ('the checkout
button', 'a branch called fix/oven-checkout'), and a tool's action comes from its own definition (name verbs, its
description's first verb, MCP annotations)."""

from __future__ import annotations

import json

import pytest
from sim_loop import agent_loop, tool

from agent_core.sim.mood import asked_actions, tool_action

TRACKER = "bakery/ovens"
S, N = {"type": "string"}, {"type": "number"}
TOOLS = [
    tool("list_tickets", "Lists the tickets of a tracker project.", {"project": S}),
    tool("read_ticket_notes", "Reads the notes left on one ticket.", {"project": S, "ticket": N}),
    tool("post_ticket_note", "Posts a new note on a ticket.", {"project": S, "ticket": N, "text": S}),
    tool("start_branch", "Starts a new branch for a ticket.", {"project": S, "branch": S}),
    tool("list_branches", "Lists the branches of a tracker project.", {"project": S}),
]


def key(t: dict) -> str:
    return json.dumps(t, sort_keys=True, ensure_ascii=False)


def run(name: str, args: dict) -> tuple[str, bool]:
    if name == "list_branches":
        return json.dumps([{"name": "main"}, {"name": "oven-temp"}]), False
    if name == "read_ticket_notes":
        return json.dumps([{"author": "jo", "text": "Thermostat replaced."}]), False
    return json.dumps({"ok": True}), False


def calls(question: str) -> list[str]:
    replies, _ = agent_loop(question, TOOLS, run)
    return [name for reply in replies for name, _ in reply]


@pytest.mark.parametrize(
    "question",
    [
        f"Show me the notes on ticket 7 in {TRACKER} about the checkout screen",
        f"Покажи заметки к тикету 7 в {TRACKER} про экран checkout",
        f"Pokaż notatki do zgłoszenia 7 w {TRACKER} o ekranie checkout",
    ],
)
def test_a_question_to_be_shown_notes_never_posts_one(question):
    assert "post_ticket_note" not in calls(question)


@pytest.mark.parametrize(
    "question",
    [
        f"Does {TRACKER} already have a branch fix/oven-checkout?",
        f"Есть ли в {TRACKER} ветка fix/oven-checkout?",
        f"Czy w {TRACKER} jest gałąź fix/oven-checkout?",
    ],
)
def test_asking_whether_a_branch_exists_lists_branches_and_creates_none(question):
    assert calls(question)[:1] == ["list_branches"]
    assert "start_branch" not in calls(question)


@pytest.mark.parametrize(
    "question",
    [
        f"Leave a comment on ticket 7 in {TRACKER}: 'Oven fixed'",
        f"Напиши комментарий к тикету 7 в {TRACKER}: «Печь починили»",
        f"Skomentuj zgłoszenie 7 w {TRACKER}: „Piec naprawiony”",
    ],
)
def test_a_note_asked_for_is_posted(question):
    assert "post_ticket_note" in calls(question)


def test_a_name_in_the_clause_asks_for_no_change():
    assert asked_actions("Does the repo have a fix/safari-checkout branch?") == frozenset()
    assert asked_actions("Is there a file called commit_log.txt?") == frozenset()
    assert "commit" in asked_actions("Commit the staged files with the message 'x'")


def test_a_change_after_a_reading_verb_counts_only_after_a_conjunction():
    assert asked_actions("Pokaż komentarze do zgłoszenia o przycisku checkout") == frozenset()
    assert "update" in asked_actions("Show me issue 43 and then close it")
    assert "delete" in asked_actions("proszę usuń plik notes.txt")


def test_a_tool_says_what_it_does_by_its_annotations_or_its_first_verb():
    hinted = tool("orders", "Everything about orders.", {"id": S}, annotations={"readOnlyHint": True})
    destructive = tool("orders", "Everything about orders.", {"id": S}, annotations={"destructiveHint": True})
    assert tool_action(key(hinted)) == "read"
    assert tool_action(key(destructive)) == "delete"
    assert tool_action(key(tool("shop_desk", "Cancels an order by its id.", {"id": S}))) == "cancel"
    assert tool_action(key(tool("add_issue_comment", "Adds a comment.", {"owner": S, "n": N}))) == "create"
    assert tool_action(key(tool("add", "Adds two numbers.", {"a": N, "b": N}))) == ""
