"""The offline model telling texts a tool read (pages, task lists, logs, CSV tables) in the user's language: a page cut
by its tool read to the end, a question asked of it answered from the sentence that answers, never the text pasted."""

from __future__ import annotations

import re
from collections.abc import Callable

from sim_loop import agent_loop

from agent_core.sim import gist, pages
from agent_core.sim.text import values

Runner = Callable[[str, dict], str]

FETCH = {
    "name": "fetch",
    "description": "Fetches a URL from the internet and returns its contents as markdown.",
    "input_schema": {
        "type": "object",
        "properties": {
            "url": {"type": "string", "description": "URL to fetch"},
            "start_index": {"type": "integer", "description": "Return output starting at this character index."},
        },
        "required": ["url"],
    },
}
READ = {
    "name": "read_text_file",
    "description": "Reads a whole file as text. 'tail' reads only the last N lines.",
    "input_schema": {
        "type": "object",
        "properties": {
            "path": {"type": "string"},
            "tail": {"type": "number", "description": "If given, returns only the last N lines of the file"},
        },
        "required": ["path"],
    },
}


def loop(question: str, tools: list[dict], run: Runner) -> tuple[list[dict], str]:
    """think() in an agent loop until it answers: (the inputs it sent, the answer)."""
    replies, answer = agent_loop(question, tools, lambda name, args: (run(name, args), False), turns=6)
    return [args for reply in replies for _, args in reply], answer


def _manual(name: str, args: dict) -> str:
    if args.get("start_index") == 4000:
        return "Contents of https://docs.example.net/manual:\n## Limits\n\nLimit the steps of a run: eight is plenty."
    return (
        "Contents of https://docs.example.net/manual:\n# Manual\n\n## Setup\nInstall the package.\n\n"
        "<error>Content truncated. Call the fetch tool with a start_index of 4000 to get more content.</error>"
    )


def test_a_cut_page_is_fetched_again_and_the_question_answered_from_its_rest_in_polish_and_russian():
    for question in (
        "Przeczytaj https://docs.example.net/manual do końca i powiedz, ile kroków zaleca jako limit.",
        "Дочитай https://docs.example.net/manual до конца: сколько шагов советуют ставить пределом?",
    ):
        sent, answer = loop(question, [FETCH], _manual)
        assert sent == [
            {"url": "https://docs.example.net/manual"},
            {"url": "https://docs.example.net/manual", "start_index": 4000},
        ]
        assert "8" in answer and "Contents of" not in answer and "eight is plenty" not in answer


def test_the_wrapper_line_and_the_cut_note_are_no_part_of_the_page():
    out = _manual("fetch", {})
    page = pages.unwrapped(out, {"url": "https://docs.example.net/manual"})
    assert page.startswith("# Manual") and "truncated" not in page
    assert pages.unwrapped("Contents: none", {"url": "https://a.example"}) == "Contents: none"  # no line of its own


def test_a_task_list_is_told_by_its_counts_and_items():
    out = "# Shopping\n- [ ] Buy bread\n- [x] Pay the rent\n- [ ] Call the plumber"
    _, answer = loop("Ile mam niezrobionych zadań w /srv/notes/home.md?", [READ], lambda n, a: out)
    assert "Do zrobienia: 2" in answer and "„Buy bread”" in answer and "Zrobione: 1" in answer
    assert "- [ ]" not in answer


def test_a_log_read_for_itself_is_told_by_its_span_levels_and_errors():
    out = "\n".join(f"2026-12-02 10:0{m}:00 {'ERROR Disk full' if m == 3 else 'INFO ok'}" for m in range(1, 6))
    sent, answer = loop("Покажи последние пять строк файла /var/log/web/app.log", [READ], lambda n, a: out)
    assert sent == [{"path": "/var/log/web/app.log", "tail": 5}]
    assert "10:01:00" in answer and "10:05:00" in answer and "10:03:00 диск, заполнен («Disk full»)" in answer


def test_a_csv_table_is_summed_or_its_top_row_named():
    out = "region,units\nNorth,10\nSouth,25\nEast,5"
    _, total = loop("How many units are there in total in /srv/units.csv?", [READ], lambda n, a: out)
    assert "40" in total and "10 + 25 + 5" in total
    _, most = loop("Which region has the most units in /srv/units.csv?", [READ], lambda n, a: out)
    assert "South" in most and "25" in most
    assert gist.table("How many in total?", "en", "no,table\njust text") is None


def test_a_page_summarised_in_russian_quotes_short_pieces_and_names_its_terms_in_russian():
    out = (
        "# Tools and loops\n\nA loop sends the tool results back to the model: each tool answers once per turn, and "
        "the loop ends when no tool is asked for. Tools should be described precisely."
    )
    told = gist.tell("О чём статья? Коротко.", "ru", out)
    assert told is not None and "инструмент" in told and "цикл" in told
    quotes = re.findall(r"«([^»]*)»", told)
    assert quotes and all(len(q) <= 60 for q in quotes)  # a title, a clause: never a pasted passage


def test_a_clause_that_only_asks_when_belongs_to_the_clause_before():
    assert values.asks_when("and at what times?") and values.asks_when("i o której?") and values.asks_when("И когда?")
    assert not values.asks_when("and what time is it in Tokyo?")
    # What was found, asked when it happened, in words of a clause's own: still no time need of its own
    assert values.asks_when("and when did they occur?") and values.asks_when("a kiedy się pojawiły?")
    assert values.asks_when("и когда они возникли?") and values.asks_when("i o jakich godzinach miały miejsce")
    assert not values.asks_when("and when does the museum open?") and not values.asks_when("kiedy odjeżdża pociąg?")
    from agent_core.sim.text import reader

    asked = "Ile ostrzeżeń jest w /var/log/mail.log i o której godzinie się pojawiły?"
    assert reader._clauses(asked) == ("Ile ostrzeżeń jest w /var/log/mail.log, o której godzinie się pojawiły",)


def test_a_note_to_save_keeps_its_name_in_the_request_and_the_reply_out_of_its_text():
    from agent_core.sim.text import values

    assert values.request_part("Save a note that says: Meeting moved to Friday.").strip() == "Save a note"
    assert values.request_part("Zapisz notatkę: Spotkanie przeniesione na piątek.").strip() == "Zapisz notatkę"
    joined = "Save a note that says: Meeting moved to Friday.\nCall it meeting.txt, in my projects folder."
    assert values.body_before(joined, "Call it meeting.txt, in my projects folder.") == "Meeting moved to Friday"
    assert values.body_before("Save a note.\nBuy oat milk", "Buy oat milk") == "Buy oat milk"  # the reply is the text


def test_a_folder_or_file_name_asks_nothing_of_its_own():
    # '/srv/lists/' names a folder, not a request to list; 'weather.md' is a file, not a weather question
    listing = {
        "name": "list_directory",
        "description": "Lists the files and folders in a directory.",
        "input_schema": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]},
    }
    tasks = "# Home\n- [ ] Buy milk\n- [x] Call mum\n- [ ] Fix the tap"
    for question, path in (
        ("How many open tasks are in /srv/lists/home.md?", "/srv/lists/home.md"),
        ("Сколько задач в /home/ann/lists/todo.md?", "/home/ann/lists/todo.md"),
        ("Co jest w pliku /srv/notes/weather.md?", "/srv/notes/weather.md"),
    ):
        sent, answer = loop(question, [listing, READ], lambda n, a: tasks if n == "read_text_file" else "[FILE] x")
        assert sent == [{"path": path}], question
        assert "Buy milk" in answer, answer
