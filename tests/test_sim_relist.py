"""A file name a reading tool does not know: its folder is listed and the entry that is that name is read instead."""

from __future__ import annotations

from tests.sim_loop import agent_loop, tool

READ = tool("open_text", "Reads a text file from the shared drive.", {"path": {"type": "string"}})
LIST = tool("show_folder", "Lists the entries of a directory on the shared drive.", {"path": {"type": "string"}})
DRIVE = {
    "/srv/share/Budget.txt": "Total: 4100 PLN",
    "/srv/share/minutes.txt": "Next: 2026-12-09",
    "/srv/share/notes.txt": "Room: B-12",
}


def _drive(name: str, args: dict) -> tuple[str, bool]:
    if name == "show_folder":
        if args["path"].rstrip("/") == "/srv/share":
            return "Budget.txt\nminutes.txt\nnotes.txt\nsummary-q4.txt", False
        return f"ENOENT: no such file or directory, scandir '{args['path']}'", True
    if args["path"] in DRIVE:
        return DRIVE[args["path"]], False
    return f"ENOENT: no such file or directory, open '{args['path']}'", True


def test_a_name_in_another_case_is_found_in_the_folder_and_read() -> None:
    replies, answer = agent_loop("What is the total in /srv/share/budget.txt?", [READ, LIST], _drive)
    assert replies[0] == [("open_text", {"path": "/srv/share/budget.txt"})]
    assert replies[1] == [("show_folder", {"path": "/srv/share"})]
    assert replies[2] == [("open_text", {"path": "/srv/share/Budget.txt"})]
    assert "4100" in answer


def test_a_name_said_in_polish_or_russian_is_the_entry_with_the_same_meaning() -> None:
    for question in ("Przeczytaj /srv/share/notatki.txt", "Открой /srv/share/заметки.txt"):
        replies, answer = agent_loop(question, [READ, LIST], _drive)
        assert replies[-1] == [("open_text", {"path": "/srv/share/notes.txt"})], question
        assert "B-12" in answer
    replies, answer = agent_loop("Przeczytaj /srv/share/mintues.txt", [READ, LIST], _drive)
    assert replies[-1] == [("open_text", {"path": "/srv/share/minutes.txt"})], replies  # a typo
    assert "2026-12-09" in answer


def test_no_entry_like_the_name_means_no_guess_and_an_honest_answer() -> None:
    replies, answer = agent_loop("Прочитай /srv/share/plan.txt", [READ, LIST], _drive)
    assert [c for r in replies for c in r if c[0] == "open_text"] == [("open_text", {"path": "/srv/share/plan.txt"})]
    assert "не нашёл `/srv/share/plan.txt`" in answer, answer


def test_without_a_tool_that_lists_folders_it_tells_the_miss_at_once() -> None:
    replies, answer = agent_loop("Read /srv/share/budget.txt", [READ], _drive)
    assert len(replies) == 1
    assert "was not found" in answer


def test_a_lookup_that_answers_not_found_in_plain_text_is_a_miss_not_data() -> None:
    find = tool(
        "get_user",
        "Finds a user by their email, phone number or username.",
        {
            "key": {"type": "string", "enum": ["email", "phone", "username"], "description": "Which attribute."},
            "value": {"type": "string", "description": "The value that attribute must match."},
        },
    )

    def club(name: str, args: dict) -> tuple[str, bool]:
        return f"Couldn't find a user with {args['key']} of {args['value']}", False

    replies, answer = agent_loop("Найди пользователя с почтой olga@klub.pl", [find], club)
    assert len(replies) == 1  # not asked again: the member is not there
    assert "olga@klub.pl" in answer and "Couldn't find" not in answer.replace("`Couldn't find", "")


def test_a_time_written_with_a_dot_is_a_time_only_where_the_text_says_so() -> None:
    from agent_core.sim.text import entities

    def times(text: str) -> list[str]:
        return [e.value for e in entities.find(text) if e.kind == "time"]

    assert times("Która godzina będzie w Tokio, gdy w Warszawie jest 16.30?") == ["16:30"]
    assert times("It's 7.15pm in London") == ["19:15"]
    assert times("Сколько будет в Нью-Йорке, когда в Москве 18.45?") == ["18:45"]
    assert times("Ile to 12.50 razy 3?") == [] and times("The price is 18.45 USD") == []
