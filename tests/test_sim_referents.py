"""Clauses that act on a thing named before: 'then close it', 'Закрой её', 'i następnie zamknij', a follow-up turn's
pronoun; each goal gets its own tool, filled with the thing the pronoun points at (text/referents.py)."""

from __future__ import annotations

import json

from sim_loop import agent_loop, tool

from agent_core.model import SimSettings
from agent_core.sim.text import reader, referents

_REPO = {
    "owner": {"type": "string", "description": "Repository owner"},
    "repo": {"type": "string", "description": "Repository name"},
}
TRACKER = [
    tool(
        "ticket_get",
        "Gets one issue of a repository.",
        {**_REPO, "issue_number": {"type": "number", "description": "The issue's number"}},
        ["owner", "repo", "issue_number"],
    ),
    tool(
        "ticket_update",
        "Updates an existing issue of a repository: its title, labels or state.",
        {
            **_REPO,
            "issue_number": {"type": "number", "description": "Number of the issue to update"},
            "title": {"type": "string", "description": "New title"},
            "state": {"type": "string", "enum": ["open", "closed"], "description": "New state"},
        },
        ["owner", "repo", "issue_number"],
    ),
    tool(
        "search_code",
        "Searches code across repositories.",
        {"query": {"type": "string", "description": "Search query"}},
        ["query"],
    ),
]
FILES = [
    tool("read_file", "Reads a text file.", {"path": {"type": "string", "description": "File path"}}, ["path"]),
    tool(
        "move_file",
        "Moves or renames a file.",
        {
            "source": {"type": "string", "description": "Path to move"},
            "destination": {"type": "string", "description": "New path"},
        },
        ["source", "destination"],
    ),
    tool(
        "find_files",
        "Finds files matching a glob pattern under a folder.",
        {
            "path": {"type": "string", "description": "Folder"},
            "pattern": {"type": "string", "description": "Glob pattern"},
        },
        ["path", "pattern"],
    ),
]


def _run(name: str, args: dict) -> tuple[str, bool]:
    if name == "ticket_get":
        return json.dumps(
            {"number": args["issue_number"], "title": "Cart total is rounded wrong", "state": "open"}
        ), False
    if name == "ticket_update":
        return json.dumps({"number": args["issue_number"], "url": "https://example.test/i/7"}), False
    if name == "read_file":
        return "milk\nbread", False
    if name == "move_file":
        return f"Moved {args['source']} to {args['destination']}", False
    if name == "find_files":
        return "/srv/data/q3.csv", False
    return json.dumps({"total_count": 0, "items": []}), False


def _calls(question: str, tools: list[dict], messages: list[dict] | None = None) -> tuple[list, str]:
    extra = {"messages": [*messages, {"role": "user", "content": question}]} if messages else {}
    replies, answer = agent_loop(question, tools, _run, **extra)
    return [call for reply in replies for call in reply], answer


def test_a_pronoun_after_and_then_is_the_thing_the_clause_before_named() -> None:
    calls, _ = _calls("Show me issue 7 in acme/shop and then close it.", TRACKER)
    assert ("ticket_get", {"owner": "acme", "repo": "shop", "issue_number": 7}) in calls
    update = next(args for name, args in calls if name == "ticket_update")
    assert update == {"owner": "acme", "repo": "shop", "issue_number": 7, "state": "closed"}  # no title made up
    assert not any(name == "search_code" for name, _ in calls)  # 'close it' is no search query


def test_a_dropped_object_in_russian_and_polish_is_filled_from_the_clause_before() -> None:
    for question in (
        "Прочитай задачу 7 в acme/shop, а потом закрой",
        "Przeczytaj zgłoszenie 7 w acme/shop i następnie zamknij",
    ):
        calls, _ = _calls(question, TRACKER)
        names = [name for name, _ in calls]
        assert names.count("ticket_update") == 1 and "search_code" not in names, question
        assert next(a for n, a in calls if n == "ticket_update")["issue_number"] == 7


def test_a_follow_up_turn_points_at_what_the_earlier_turn_named() -> None:
    first = [
        {"role": "user", "content": "Co jest w zgłoszeniu 7 w acme/shop?"},
        {"role": "assistant", "content": "Zgłoszenie 7: „Cart total is rounded wrong”, otwarte."},
    ]
    calls, answer = _calls("Zamknij je.", TRACKER, first)
    assert calls == [("ticket_update", {"owner": "acme", "repo": "shop", "issue_number": 7, "state": "closed"})]
    assert "7" in answer


def test_a_short_follow_up_with_no_sign_of_its_language_keeps_the_conversations() -> None:
    body = {
        "messages": [
            {"role": "user", "content": "Co jest w zgłoszeniu 7 w acme/shop?"},
            {"role": "assistant", "content": "Zgłoszenie 7."},
            {"role": "user", "content": "Zamknij je."},
        ]
    }
    assert reader.read(body, SimSettings()).lang == "pl"
    body["messages"][-1]["content"] = "Close it, please."
    assert reader.read(body, SimSettings()).lang == "en"  # 'please' says English


def test_the_moved_file_is_the_source_and_the_new_path_the_destination() -> None:
    calls, _ = _calls("Przeczytaj /srv/notes/todo.txt, a potem przenieś go do /srv/archive/todo.txt", FILES)
    assert ("move_file", {"source": "/srv/notes/todo.txt", "destination": "/srv/archive/todo.txt"}) in calls


def test_a_pronoun_after_a_search_is_its_result_not_the_folder_searched() -> None:
    clauses = ("Find the CSV file in /srv/data", "move it to /srv/archive/q3.csv")
    assert referents.resolve(clauses, (), "en") == clauses  # the chain passes the found path on


def test_what_the_reader_leaves_alone() -> None:
    same = ("Who stars in the movie Challengers", "and who wrote its score")
    assert referents.resolve(same, (), "en") == same  # a question about the same thing, no goal of its own
    staged = ("In /srv/app stage README.md", "commit it with the message 'Bump'")
    assert referents.resolve(staged, (), "en") == staged  # 'commit it': the lexicon's own phrase for what is staged
    made = ("In acme/shop create a branch fix/cart from main", "then open a pull request from it")
    assert referents.resolve(made, (), "en") == made  # what a clause makes comes from its call's result


def test_the_referent_is_the_thing_not_the_verb_or_the_quoted_text() -> None:
    assert referents.referent_of("Show me issue 7 in acme/shop") == "issue 7 in acme/shop"
    assert referents.referent_of("Что за задача номер 7 в acme/shop?") == "задача номер 7 в acme/shop"
    assert referents.referent_of("Add a comment 'Done in 1.4' to issue 7 in acme/shop.") == "issue 7 in acme/shop"
    assert referents.referent_of("Когда менялся /srv/q3.csv") == "/srv/q3.csv"  # a path names its thing itself
    assert referents.referent_of("What is the weather like?") == ""


def test_a_number_inside_quoted_text_is_no_number_to_send() -> None:
    comment = tool(
        "ticket_comment",
        "Adds a comment to an issue of a repository.",
        {
            **_REPO,
            "issue_number": {"type": "number", "description": "Issue to comment on"},
            "body": {"type": "string", "description": "Comment text"},
        },
        ["owner", "repo", "issue_number", "body"],
    )
    calls, _ = _calls("Add a comment 'Rounding fixed in 2.5' to issue 7 in acme/shop.", [*TRACKER, comment])
    assert (
        "ticket_comment",
        {"owner": "acme", "repo": "shop", "issue_number": 7, "body": "Rounding fixed in 2.5"},
    ) in calls


def test_a_reply_that_repeats_the_requested_change_is_read_with_the_request() -> None:
    write = tool(
        "write_file",
        "Creates a new file or overwrites an existing one with the given content.",
        {"path": {"type": "string", "description": "File path"}, "content": {"type": "string", "description": "Text"}},
        ["path", "content"],
    )
    first = [
        {"role": "user", "content": "Zapisz notatkę: Przegląd kodu w czwartek."},
        {"role": "assistant", "content": "Jak nazwać plik i w którym katalogu go zapisać?"},
    ]
    calls, _ = _calls("Nazwij ją przeglad.txt i zapisz w /srv/notes", [*FILES, write], first)
    assert calls and calls[-1][0] == "write_file"
    assert calls[-1][1]["path"] == "/srv/notes/przeglad.txt"
    assert "Przegląd kodu w czwartek" in calls[-1][1]["content"]


def test_each_file_of_and_gets_the_call_its_clause_asks_for() -> None:
    info = tool(
        "file_info",
        "Gets a file's metadata: size, creation and modification times, permissions.",
        {"path": {"type": "string", "description": "File path"}},
        ["path"],
    )
    body = {"messages": [{"role": "user", "content": "How large are /srv/a/notes.txt and /srv/a/plan.xlsx?"}]}
    replies, _ = agent_loop("", [*FILES, info], lambda name, args: ("size: 100", False), **body)
    assert replies[0] == [("file_info", {"path": "/srv/a/notes.txt"}), ("file_info", {"path": "/srv/a/plan.xlsx"})]
