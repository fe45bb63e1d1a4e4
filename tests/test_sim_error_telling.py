"""A failed call told in the user's language from the error's facts: what failed, why, what to do; raw text as code."""

from __future__ import annotations

import re

from agent_core.sim.failure import sort_of
from tests.sim_loop import agent_loop, tool

OPEN = tool("open_document", "Opens a document of the team archive by its path.", {"path": {"type": "string"}})
BRANCH = tool("git_checkout", "Switches branches", {"repo_path": {"type": "string"}, "branch_name": {"type": "string"}})
# English words an English error holds that a Russian or Polish sentence has no reason to keep outside code.
_ENGLISH = re.compile(r"\b(?:denied|outside|allowed|failed|match|found|known|such|directory)\b", re.I)


def _prose(answer: str) -> str:
    return re.sub(r"`[^`]*`", " ", answer)


def _outside(name: str, args: dict) -> tuple[str, bool]:
    return f"Permission denied: {args['path']} is outside the allowed directory /data/team", True


def test_a_denied_path_is_told_in_russian_and_polish_with_the_allowed_folder_and_no_english_prose() -> None:
    for question, words in (
        ("Открой документ /mnt/usb/plan.odt", ("разрешено", "/data/team")),
        ("otwórz dokument /mnt/usb/plan.odt", ("dostęp", "/data/team")),
    ):
        replies, answer = agent_loop(question, [OPEN], _outside)
        assert replies == [[("open_document", {"path": "/mnt/usb/plan.odt"})]], question
        assert all(w in answer for w in words), answer
        assert not _ENGLISH.search(_prose(answer)), answer  # the error's words only inside a code span
        assert "«Permission" not in answer and "„Permission" not in answer


def _no_ref(name: str, args: dict) -> tuple[str, bool]:
    return f"fatal: invalid reference: {args['branch_name']} did not match any known branch", True


def test_a_missing_name_is_told_as_not_found_with_what_the_user_can_do() -> None:
    replies, answer = agent_loop("Переключи репозиторий /srv/shop на ветку hotfix-7", [BRANCH], _no_ref)
    assert len(replies) == 1  # a name that is not there is not asked again
    assert "не нашёл `hotfix-7`" in answer and "Проверьте" in answer, answer
    assert not _ENGLISH.search(_prose(answer)), answer
    replies, answer = agent_loop("Switch /srv/shop to branch hotfix-7", [BRANCH], _no_ref)
    assert "`hotfix-7` was not found" in answer, answer


def test_an_error_of_no_known_sort_is_still_told_in_the_users_language() -> None:
    def broken(name: str, args: dict) -> tuple[str, bool]:
        return "segfault in worker thread 3", True

    _, answer = agent_loop("Pokaż dokument /data/team/a.txt", [OPEN], broken)
    assert answer.startswith("Nie udało się"), answer
    assert "`segfault in worker thread 3`" in answer  # the raw text only as code


def test_sorts_are_read_from_the_errors_words_in_three_languages() -> None:
    assert sort_of("ENOENT: no such file or directory, open '/a/B.md'") == "not_found"
    assert sort_of("Доступ запрещён: /etc вне разрешённых каталогов") == "outside"
    assert sort_of("Nie znaleziono pliku raport.txt") == "not_found"
    assert sort_of("The sites robots.txt specifies that autonomous fetching is not allowed") == "robots"
    assert sort_of("Unable to fetch forecast data for this location.") == "location"
    assert sort_of("disk quota exceeded") == "other"
