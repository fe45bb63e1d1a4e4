"""The offline model picks a tool by what the user's words mean, not by the words a tool happens to use: a synonym or
a paraphrase of the tool's verb in English, Russian or Polish ('przejdź na gałąź' is git_checkout, 'out of the
staging area' git_reset, 'not staged yet' git_diff_unstaged), and an option of several words by the meaning of each
('в духе классических супергероев' is 'classic heroes')."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sim_loop import agent_loop

from agent_core.model import SimSettings
from agent_core.sim.brain import think
from agent_core.sim.mood import asked_actions
from agent_core.sim.text import backrefs, meaning
from agent_core.sim.text.option_meaning import by_meaning

CASES = Path(__file__).parent / "fidelity" / "loops" / "cases"
REPO = "/srv/repos/bakery"


def definitions(source: str) -> list[dict]:
    data = json.loads((CASES / f"{source}.json").read_text(encoding="utf-8"))
    return [t["definition"] for t in data["tools"].values() if t.get("definition")]


def git(name: str, args: dict) -> tuple[str, bool]:
    """A repository with the branches main and pastry; every change succeeds."""
    if name == "git_checkout":
        known = args["branch_name"] in ("main", "pastry", "fix/oven")
        return (f"Switched to branch '{args['branch_name']}'", False) if known else ("Error: no such ref", True)
    if name == "git_diff_unstaged":
        return "Unstaged changes:\ndiff --git a/menu.txt b/menu.txt\n-rye\n+sourdough", False
    return {"git_reset": "All staged changes reset", "git_create_branch": "Created branch 'fix/oven' from 'main'"}.get(
        name, "ok"
    ), False


def first_calls(question: str) -> list[tuple[str, dict]]:
    replies, _ = agent_loop(question, definitions("mcp_server_git"), git)
    return [call for reply in replies for call in reply]


@pytest.mark.parametrize(
    "question",
    [
        f"Jump over to the pastry branch in {REPO}.",
        f"Переключись на ветку pastry в {REPO}",
        f"Przejdź na gałąź pastry w {REPO}",
    ],
)
def test_going_to_a_branch_in_other_words_checks_it_out(question):
    assert first_calls(question) == [("git_checkout", {"repo_path": REPO, "branch_name": "pastry"})]


@pytest.mark.parametrize(
    "question",
    [
        f"Take every file out of the staging area in {REPO}.",
        f"Убери всё из индекса в {REPO}",
        f"Wycofaj wszystkie pliki z poczekalni w {REPO}.",
    ],
)
def test_taking_changes_out_of_the_index_is_a_reset_not_an_add_or_a_diff(question):
    assert first_calls(question) == [("git_reset", {"repo_path": REPO})]


@pytest.mark.parametrize(
    "question",
    [
        f"Which edits in {REPO} have I not staged?",
        f"Что в {REPO} ещё не добавлено в индекс?",
        f"Co w {REPO} nie jest jeszcze w indeksie?",
    ],
)
def test_changes_said_not_to_be_in_the_index_are_the_unstaged_diff(question):
    assert first_calls(question)[0] == ("git_diff_unstaged", {"repo_path": REPO})


@pytest.mark.parametrize(
    "question",
    [
        f"In {REPO} create the branch fix/oven and then switch to it.",
        f"В {REPO} создай ветку fix/oven и переключись на неё.",
        f"W {REPO} utwórz gałąź fix/oven i przejdź na nią.",
    ],
)
def test_a_branch_made_and_then_gone_to_by_a_pronoun_is_two_calls_in_order(question):
    made = {"repo_path": REPO, "branch_name": "fix/oven"}
    assert first_calls(question) == [("git_create_branch", made), ("git_checkout", made)]


def test_a_negation_turns_a_concept_into_its_opposite_only_where_it_is_said():
    assert "unstaged" in meaning.concepts("edits that were never staged")
    assert "stage" not in meaning.concepts("edits that were never staged")
    assert {"stage", "unstaged"} <= meaning.concepts("which files are staged and which are not staged")
    assert "unstaged" not in meaning.concepts("Show the staged files")


def test_a_concept_can_ask_for_an_action_whatever_its_verb():
    assert "commit" in asked_actions("Get everything out of the staging area")
    assert asked_actions("What is in the staging area?") == frozenset()


def test_a_clause_with_a_request_of_its_own_does_not_join_the_one_before():
    assert not backrefs.refers_back("и переключись на неё")
    assert backrefs.refers_back("and what did it change?")


THEMES = ("classic heroes", "villain masquerade", "futuristic Gotham")


@pytest.mark.parametrize(
    ("text", "option"),
    [
        ("a party with old-school comic heroes", "classic heroes"),
        ("вечеринка в духе классических супергероев", "classic heroes"),
        ("маскарад для злодеев", "villain masquerade"),
        ("bal maskowy dla złoczyńców", "villain masquerade"),
        ("impreza w futurystycznym Gotham", "futuristic Gotham"),
        ("a superhero party", None),  # heroes, but no word says which kind
        ("classic villains", None),  # half of two options: neither
    ],
)
def test_an_option_of_several_words_is_chosen_by_the_meaning_of_each(text, option):
    assert by_meaning(text, THEMES) == option


def test_a_theme_said_in_russian_reaches_the_theme_tool_as_its_listed_category():
    body = {
        "model": "claude-sonnet-4-6",
        "max_tokens": 1024,
        "messages": [{"role": "user", "content": "Придумай тему вечеринки: бал-маскарад злодеев."}],
        "tools": definitions("hf_agents_course_party"),
        "tool_choice": {"type": "any"},
    }
    calls = [(b["name"], b["input"]) for b in think(body, SimSettings()).content if b["type"] == "tool_use"]
    assert calls == [("superhero_party_theme_generator", {"category": "villain masquerade"})]


def memory_of(people: dict[str, list[str]]) -> tuple[list[tuple[str, dict]], object]:
    """A memory server holding these people's notes; the calls made, and the runner."""
    made: list[tuple[str, dict]] = []

    def run(name: str, args: dict) -> tuple[str, bool]:
        made.append((name, args))
        if name in ("search_nodes", "open_nodes", "read_graph"):
            found = [{"name": p, "entityType": "person", "observations": n} for p, n in people.items()]
            return json.dumps({"entities": found, "relations": []}), False
        return json.dumps({"success": True}), False

    return made, run


@pytest.mark.parametrize(
    ("question", "gone"),
    [
        ("Marek Nowak is no longer an engineer, remove that from memory.", "Is an engineer at Orbis"),
        ("Забудь, что Marek Nowak работает инженером.", "Is an engineer at Orbis"),
        ("Zapomnij, że Marek Nowak mieszka w Poznaniu.", "Lives in Poznań"),
    ],
)
def test_a_fact_to_forget_is_the_note_as_stored_looked_up_first(question, gone):
    notes = ["Has espresso before bed", "Is an engineer at Orbis", "Lives in Poznań"]
    made, run = memory_of({"Marek Nowak": notes})
    agent_loop(question, definitions("mcp_server_memory"), run)
    removed = [args for name, args in made if name == "delete_observations"]
    assert made[0][0] in ("search_nodes", "open_nodes", "read_graph")  # what is stored is read before it goes
    assert removed == [{"deletions": [{"entityName": "Marek Nowak", "observations": [gone]}]}]
    assert not [name for name, _ in made if name == "delete_entities"]  # the person stays


def test_the_stored_note_is_the_one_sharing_most_meaning_and_none_before_a_lookup():
    from agent_core.sim import stored

    kept = json.dumps({"entities": [{"name": "Ola", "observations": ["Prefers tea to coffee", "Lives in Łódź"]}]})
    assert stored.notes([kept], "Ola", "Ola nie pije już herbaty") == ["Prefers tea to coffee"]
    assert stored.notes([kept], "Ola", "Ola больше не живёт в Лодзи") == ["Lives in Łódź"]
    assert stored.notes([kept], "Ola", "Ola has a dog") == []
    assert stored.notes([], "Ola", "Ola nie pije już herbaty") is None
