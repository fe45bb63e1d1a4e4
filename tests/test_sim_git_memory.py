"""The offline model on the MCP reference git and memory servers' tools (modelcontextprotocol/servers: src/git,
src/memory), with names and values of its own: a short name looked up after 'not found', two changes made in order,
a list about what it lists, a period's start taken from 'since'."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sim_loop import Runner, agent_loop

CASES = Path(__file__).parent / "fidelity" / "loops" / "cases"


def definitions(server: str) -> list[dict]:
    """The tools as the corpus copied them from the server (names, parameters and schema shapes as written there)."""
    data = json.loads((CASES / f"mcp_server_{server}.json").read_text(encoding="utf-8"))
    return [t["definition"] for t in data["tools"].values()]


def loop(question: str, tools: list[dict], run: Runner) -> tuple[list[list[tuple[str, dict]]], str]:
    """think() in an agent loop; the calls of each reply, and the answer."""
    return agent_loop(question, tools, run)


def graph(people: list[str]) -> Runner:
    """A memory server holding these people: a name it lacks is 'not found', a search matches words of names."""

    def run(name: str, args: dict) -> tuple[str, bool]:
        if name == "add_observations":
            unknown = [o["entityName"] for o in args["observations"] if o["entityName"] not in people]
            if unknown:
                return f"Entity with name {unknown[0]} not found", True
            return json.dumps(args["observations"]), False
        if name == "create_relations":
            return json.dumps(args["relations"]), False
        if name == "search_nodes":
            found = [p for p in people if args["query"].lower() in p.lower().split()]
            entities = [{"name": p, "entityType": "person", "observations": []} for p in found]
            return json.dumps({"entities": entities, "relations": []}), False
        return json.dumps({"entities": [], "relations": []}), False

    return run


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("Add to Tomek's record that he moved to Gdańsk.", "moved to Gdańsk"),
        ("Добавь про Tomek, что он переехал в Гданьск.", "переехал в Гданьск"),
        ("Dopisz do Tomek, że przeprowadził się do Gdańska.", "przeprowadził się do Gdańska"),
    ],
)
def test_a_short_name_the_graph_does_not_know_is_looked_up_and_the_call_made_again(question, said):
    replies, answer = loop(question, definitions("memory"), graph(["Tomek Nowak", "Ann Kowalska"]))
    calls = [c for reply in replies for c in reply]
    assert calls[0] == ("add_observations", {"observations": [{"entityName": "Tomek", "contents": [said]}]})
    assert calls[1] == ("search_nodes", {"query": "Tomek"})
    assert calls[2] == ("add_observations", {"observations": [{"entityName": "Tomek Nowak", "contents": [said]}]})
    assert len(calls) == 3 and "Tomek Nowak" in answer


def test_two_fuller_names_are_not_guessed_between():
    replies, answer = loop(
        "Add to Tomek's record that he moved to Gdańsk.",
        definitions("memory"),
        graph(["Tomek Nowak", "Tomek Wiśniewski"]),
    )
    calls = [c for reply in replies for c in reply]
    assert [name for name, _ in calls] == ["add_observations", "search_nodes"], calls
    assert "not found" in answer


def repository(name: str, args: dict) -> tuple[str, bool]:
    outputs = {
        "git_add": "Files staged successfully",
        "git_commit": "Changes committed successfully with hash 0123456789abcdef0123456789abcdef01234567",
        "git_show": "Commit: 'aaaa1111'\nAuthor: <git.Actor \"Jan Nowak <jan@x.com>\">\nMessage: 'Add notes'\n"
        "diff --git a/notes.txt b/notes.txt\n+first note",
        "git_log": "Commit history:\nCommit: 'aaaa1111'\nAuthor: <git.Actor \"Jan Nowak <jan@x.com>\">\n"
        "Date: 2026-11-20 10:00:00+01:00\nMessage: 'Add notes\\n'\n\nCommit: 'bbbb2222'\n"
        "Author: <git.Actor \"Ewa Lis <ewa@x.com>\">\nDate: 2026-11-21 10:00:00+01:00\nMessage: 'Fix typo\\n'\n",
    }
    return outputs.get(name, "Repository status:\nOn branch main"), False


@pytest.mark.parametrize(
    ("question", "files", "message"),
    [
        ("In /srv/repo, stage notes.txt and commit it with the message 'Add notes'.", ["notes.txt"], "Add notes"),
        (
            "W /srv/repo dodaj plik src/app.py do poczekalni i zrób commit z opisem 'Fix typo'.",
            ["src/app.py"],
            "Fix typo",
        ),
    ],
)
def test_staging_and_a_commit_are_two_changes_made_in_order(question, files, message):
    replies, _ = loop(question, definitions("git"), repository)
    assert replies[0] == [("git_add", {"repo_path": "/srv/repo", "files": files})]
    assert replies[1] == [("git_commit", {"repo_path": "/srv/repo", "message": message})]
    assert len(replies) == 2


def test_a_list_of_commits_goes_to_the_log_with_the_period_start_from_since():
    replies, answer = loop("List the commits in /srv/repo since November 20th, 2026.", definitions("git"), repository)
    assert replies == [[("git_log", {"repo_path": "/srv/repo", "start_timestamp": "2026-11-20"})]]
    assert "“Add notes” by Jan Nowak on 2026-11-20" in answer


def test_a_date_after_until_ends_the_period_and_starts_none():
    replies, _ = loop("List the commits in /srv/repo until 2026-11-21.", definitions("git"), repository)
    assert replies == [[("git_log", {"repo_path": "/srv/repo", "end_timestamp": "2026-11-21"})]]


def test_what_the_last_commit_changed_is_shown_by_the_hash_the_log_gave():
    replies, answer = loop(
        "Who made the last commit in /srv/repo, and what did it change?", definitions("git"), repository
    )
    # the last commit is one to list (max_count=1), as 'ostatni commit' of the corpus's git-status-and-last-pl
    assert replies[0] == [("git_log", {"repo_path": "/srv/repo", "max_count": 1})]
    assert replies[1] == [("git_show", {"repo_path": "/srv/repo", "revision": "aaaa1111"})]
    assert "Jan Nowak" in answer and "notes.txt" in answer


@pytest.mark.parametrize(
    ("question", "link"),
    [
        (
            "Note in the knowledge graph that Tomek Nowak manages the new team's designer, Ewa.",
            ("Tomek Nowak", "manages", "Ewa"),
        ),
        ("Remember that Ewa Lis works at Acme.", ("Ewa Lis", "works at", "Acme")),
    ],
)
def test_two_names_related_by_a_verb_make_a_relation_in_the_active_voice(question, link):
    replies, _ = loop(question, definitions("memory"), graph(["Tomek Nowak", "Ewa Lis"]))
    relations = [args["relations"] for reply in replies for name, args in reply if name == "create_relations"]
    assert relations and relations[0] == [{"from": link[0], "to": link[2], "relationType": link[1]}], replies


def one_commit(name: str, args: dict) -> tuple[str, bool]:
    if name == "git_log":
        return (
            "Commit history:\nCommit: '9f8e7d6c5b4a39281706f5e4d3c2b1a098765432'\n"
            "Author: <git.Actor \"Iga Sowa <iga@y.org>\">\nDate: 2026-10-03 09:15:00+02:00\nMessage: 'Drop old CSS\\n'\n"
        ), False
    return repository(name, args)


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("Show the commits in /opt/site before October 5th, 2026.", "One entry"),
        ("List the commits of /opt/site up to 2026-10-05.", "One entry"),
        ("Покажи коммиты в /opt/site до 5 октября 2026.", "Одна запись"),
        ("Pokaż commity w /opt/site do 5 października 2026.", "Jeden wpis"),
    ],
)
def test_a_log_of_one_commit_is_told_as_a_log_not_pasted(question, said):
    _, answer = loop(question, definitions("git"), one_commit)
    assert said in answer and "Iga Sowa" in answer and "Drop old CSS" in answer
    assert "Commit history" not in answer and "git.Actor" not in answer


@pytest.mark.parametrize(
    ("question", "done"),
    [
        ("В /srv/repo проиндексируй notes.txt и закоммить с сообщением 'Fix typo'.", "закоммичены"),
        ("W /srv/repo dodaj notes.txt do indeksu i zacommituj z opisem 'Fix typo'.", "zatwierdzone"),
    ],
)
def test_a_commit_is_told_in_the_users_language_with_the_hash_it_made(question, done):
    _, answer = loop(question, definitions("git"), repository)
    assert done in answer and "0123456789abcdef0123456789abcdef01234567" in answer
    assert "committed successfully" not in answer


@pytest.mark.parametrize(
    ("question", "period"),
    [
        ("Pokaż commity w /opt/site od 2 września 2026.", {"start_timestamp": "2026-09-02"}),
        ("Wyświetl listę commitów w /opt/site do 7 maja 2026.", {"end_timestamp": "2026-05-07"}),
        ("Список коммитов в /opt/site за период с 2 сентября 2026.", {"start_timestamp": "2026-09-02"}),
        ("Покажи коммиты в /opt/site до 7 мая 2026.", {"end_timestamp": "2026-05-07"}),
    ],
)
def test_commits_asked_in_polish_or_russian_go_to_the_log_with_the_period(question, period):
    replies, _ = loop(question, definitions("git"), one_commit)
    assert replies == [[("git_log", {"repo_path": "/opt/site", **period})]]


@pytest.mark.parametrize(
    "question",
    [
        "Kto zrobił ostatni commit w /srv/repo i co się w nim zmieniło?",
        "Кто сделал последний коммит в /srv/repo и что в нём поменял?",
        "Who made the latest commit in /srv/repo and what changed in it?",
    ],
)
def test_what_changed_in_the_last_commit_is_its_show_not_the_working_tree(question):
    replies, answer = loop(question, definitions("git"), repository)
    assert replies == [
        [("git_log", {"repo_path": "/srv/repo", "max_count": 1})],
        [("git_show", {"repo_path": "/srv/repo", "revision": "aaaa1111"})],
    ]
    assert "notes.txt" in answer


@pytest.mark.parametrize(
    ("question", "link"),
    [
        ("Record that Piotr Mazur reports to Ewa Lis.", ("Piotr Mazur", "reports to", "Ewa Lis")),
        ("Zapisz, że Ewa Lis pracuje w Globex.", ("Ewa Lis", "pracuje w", "Globex")),
        ("Запиши, что Ольга Петрова консультирует Ewa Lis.", ("Ольга Петрова", "консультирует", "Ewa Lis")),
    ],
)
def test_a_verb_between_two_names_makes_a_relation_in_any_wording(question, link):
    replies, answer = loop(question, definitions("memory"), graph(["Ewa Lis"]))
    assert replies[0] == [
        ("create_relations", {"relations": [dict(zip(("from", "relationType", "to"), link, strict=True))]})
    ]
    assert link[0] in answer and link[2] in answer


def test_a_place_or_small_words_between_two_names_are_no_relation():
    from agent_core.sim.text.names import linked

    assert linked("Ewa Lis mentors Piotr Mazur")
    assert not linked("Send Ewa Lis the notes about Project Falcon")
    assert not linked("Ewa Lis and Piotr Mazur moved to Kraków")


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("Dopisz do Tomasza, że gra na skrzypcach.", "gra na skrzypcach"),
        ("Dopisz do Anny, że biega maratony.", "biega maratony"),
    ],
)
def test_a_first_name_in_another_case_is_the_name_and_is_looked_up(question, said):
    people = ["Tomasz Wrona", "Anna Dudek"]
    replies, answer = loop(question, definitions("memory"), graph(people))
    calls = [c for reply in replies for c in reply]
    base = calls[0][1]["observations"][0]["entityName"]
    assert base in ("Tomasz", "Anna") and calls[1] == ("search_nodes", {"query": base})
    full = next(p for p in people if p.startswith(base))
    assert calls[2] == ("add_observations", {"observations": [{"entityName": full, "contents": [said]}]})
