"""A short file and a log read for a question are told in the question's language, composed from what they hold: a
note by its values kept whole, a log by the errors or warnings asked (sim/told.py), never pasted (issue 23)."""

from __future__ import annotations

import pytest
from sim_loop import agent_loop, tool

from agent_core.sim import retell

FETCH = tool(
    "open_document",
    "Opens a stored document and returns its text.",
    {"name": {"type": "string", "description": "The document's file name"}},
)
NOTE = "Dentist appointment moved to Monday at 09:30, office 12A."
LOG = (
    "09:00:01 INFO worker up\n"
    "09:02:10 WARNING Disk usage at 91 percent\n"
    "09:04:55 ERROR Queue consumer crashed\n"
    "09:05:30 WARNING Retrying job 77\n"
)


def _answer(question: str, text: str) -> tuple[list, str]:
    return agent_loop(question, [FETCH], lambda name, args: (text, False))


@pytest.mark.parametrize(
    "question, monday",
    [
        ("Open reminder.txt and tell me what it says.", "Monday"),
        ("Открой reminder.txt и расскажи, что там.", "понедельник"),
        ("Otwórz reminder.txt i powiedz, co tam jest.", "poniedziałek"),
    ],
)
def test_a_one_line_note_is_told_by_its_values_whole(question, monday):
    calls, answer = _answer(question, NOTE)
    assert calls[0] == [("open_document", {"name": "reminder.txt"})]
    assert "09:30" in answer and "12A" in answer and monday in answer, answer
    assert "```" not in answer and "09, 30" not in answer
    if not question.startswith("Open"):
        assert NOTE not in answer and "Dentist" not in answer, answer  # the English line is told, not copied


def test_a_note_asked_to_be_shown_is_shown_as_it_is():
    _, answer = _answer("Покажи reminder.txt", NOTE)
    assert f"```\n{NOTE}\n```" in answer


@pytest.mark.parametrize(
    "question, head, count",
    [
        ("Are there any warnings in worker.log?", "Warnings in the log", 2),
        ("Какие предупреждения в worker.log?", "Предупреждений в логе", 2),
        ("Jakie ostrzeżenia są w worker.log?", "Ostrzeżeń w logu", 2),
    ],
)
def test_a_log_asked_for_warnings_names_them(question, head, count):
    _, answer = _answer(question, LOG)
    assert answer.startswith(head) and f": {count}." in answer, answer
    assert "Disk usage at 91 percent" in answer and "Retrying job 77" in answer
    assert "Queue consumer crashed" not in answer and "worker up" not in answer


@pytest.mark.parametrize(
    "question",
    [
        "Open worker.log and tell me what went wrong",
        "Открой worker.log и скажи, что не так",
        "Otwórz worker.log i powiedz, co nie działa",
    ],
)
def test_a_question_told_of_what_a_clause_read_is_answered_from_it(question):
    _, answer = _answer(question, LOG)
    assert "Queue consumer crashed" in answer and "09:04:55" in answer
    # it asks about the log just read, not about the world: no offline-model note after the errors
    assert all(word not in answer for word in ("offline", "офлайн", "offline")), answer


def test_retold_items_keep_times_and_codes_whole_and_the_thing_they_number():
    said = retell.items("Team meeting moved to Thursday at 15:00, room 4B.", "pl")
    assert said == ["spotkanie", "czwartek", "15:00", "pokój 4B"]
    assert retell.items("Refunds take 14 days after Django 6.1 ships.", "ru") == [
        "возврат денег",
        "14 дней",
        "Django 6.1",
    ]
    said = retell.items("Version 1.0 of the app, released 2026-11-30.", "ru")
    assert said == ["версия 1.0", "приложение", "релиз 2026-11-30"]  # a date whole, a version with its noun


def test_a_line_that_is_no_sentence_is_shown_as_it_is():
    _, answer = _answer("Open columns.csv and tell me what it says.", "name,age,city")
    assert "```\nname,age,city\n```" in answer  # a header of a table, not a sentence to retell
