"""The offline model's words for the reference git and filesystem servers: a pronoun that asks of no change, a count
inside a phrase, a plural said as written, the newest one in the singular, a person's commits, the branch checked
out, and a short English note glossed in the user's language."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sim_loop import agent_loop

from agent_core.sim import gist, numeric, told
from agent_core.sim.text import meaning

CASES = Path(__file__).parent / "fidelity" / "loops" / "cases"
LOG = (
    "Commit history:\nCommit: 'aaaa1111'\nAuthor: <git.Actor \"Jan Nowak <jan@x.com>\">\n"
    "Date: 2026-11-22 10:00:00+01:00\nMessage: 'Add notes\\n'\n\nCommit: 'bbbb2222'\n"
    "Author: <git.Actor \"Ewa Lis <ewa@x.com>\">\nDate: 2026-11-21 10:00:00+01:00\nMessage: 'Fix typo\\n'\n\n"
    "Commit: 'cccc3333'\nAuthor: <git.Actor \"Jan Nowak <jan@x.com>\">\nDate: 2026-11-20 10:00:00+01:00\n"
    "Message: 'Initial commit\\n'\n"
)


def definitions(server: str) -> list[dict]:
    data = json.loads((CASES / f"mcp_server_{server}.json").read_text(encoding="utf-8"))
    return [t["definition"] for t in data["tools"].values()]


def test_a_pronoun_asks_of_no_change():
    # 'меня' (me) starts 'менял' (changed): 'что у меня записано' asks what the file says, not when it changed
    assert "modified" not in meaning.concepts("что у меня записано в notes.txt?")
    assert "modified" in meaning.concepts("когда менялся notes.txt?")


@pytest.mark.parametrize(
    "text", ["show me the last 2 commits", "Wypisz 3 najnowsze commity z /repo", "Покажи 5 последних коммитов"]
)
def test_a_count_inside_a_phrase_is_no_word_of_it(text):
    assert "history" in meaning.concepts(text)


def test_a_plural_marked_as_written_is_not_said_by_the_singular():
    assert "history" in meaning.concepts("Pokaż commity w /repo")
    assert "history" not in meaning.concepts("pokaż commit b2c3d4e5f6 w /repo")


@pytest.mark.parametrize(
    ("text", "one"),
    [
        ("show the last commit", True),
        ("pokaż ostatni commit", True),
        ("покажи последний коммит", True),
        ("show the last commits", False),
        ("commits since last week", False),
    ],
)
def test_the_newest_one_in_the_singular_is_one_to_list(text, one):
    assert numeric._newest_one(text, "Shows the commit logs") is one


def test_the_status_and_the_last_commit_list_one_commit():
    replies, _ = agent_loop(
        "pokaż status repozytorium /home/ann/app i ostatni commit",
        definitions("git"),
        lambda name, args: (LOG if name == "git_log" else "On branch main", False),
    )
    logs = [args for reply in replies for name, args in reply if name == "git_log"]
    assert logs == [{"repo_path": "/home/ann/app", "max_count": 1}]


def test_a_persons_commits_are_counted_with_the_newest():
    said = gist.records("how many commits has Jan Nowak made, and what was his most recent one?", "en", LOG)
    assert said is not None and "2 of 3" in said and "Add notes" in said and "2026-11-22" in said
    assert gist.records("who made the most commits?", "en", LOG) == "Most of them by Jan Nowak (2 of 3)."


@pytest.mark.parametrize(("lang", "word"), [("en", "The current one is main"), ("ru", "`main`"), ("pl", "`main`")])
def test_the_branch_checked_out_is_named(lang, word):
    said = gist.tell("which branch am I on?", lang, "  dev\n  feature/search\n* main")
    assert said is not None and word in said and said.count("main") == 2


def test_a_short_english_note_is_glossed_in_russian_and_polish():
    note = "Buy milk\nCall the bank at 3pm"
    assert "молоко" in told.gloss("ru", note) and "банк" in told.gloss("ru", note)
    assert "mleko" in told.gloss("pl", note) and "bank" not in told.gloss("pl", note)  # the quote has it
    assert told.gloss("en", note) == ""


def test_when_a_file_was_last_touched_is_its_metadata():
    replies, _ = agent_loop(
        "when did I last touch /home/ann/data.csv",
        definitions("filesystem"),
        lambda name, args: ("modified: Sat Nov 28 2026 17:42:10 GMT+0100", False),
    )
    assert replies[0][0][0] == "get_file_info"
