"""Values as the user wrote them and asked them: a power written '**' is sent so (Python's eval reads ^ as XOR); a
day of no year takes the year the conversation gives and is said as a day, never '--12-12'; an id that no listed
record has is said to be missing, never answered with another record."""

from __future__ import annotations

import json

from tests.sim_loop import agent_loop, tool

STRING = {"type": "string"}
EVAL = [tool("evaluate", "Evaluates a maths expression and returns the number.", {"expr": STRING})]
BOOK = [tool("reserve_room", "Reserves a meeting room for a day.", {"day": {**STRING, "description": "YYYY-MM-DD"}})]
PARCELS = [tool("list_parcels", "Lists every parcel of the account.", {}, required=[])]
ROWS = [{"parcel_id": "P-310", "status": "delivered"}, {"parcel_id": "P-311", "status": "in transit"}]


def test_a_power_written_with_two_stars_is_sent_with_two_stars() -> None:
    for question in ("Сколько будет 3**12?", "Ile to jest 3**12?", "what's 3**12"):
        replies, answer = agent_loop(question, EVAL, lambda n, a: ("531441", False))
        assert replies[0] == [("evaluate", {"expr": "3**12"})], (question, replies)
        assert "531441" in answer


def test_a_day_of_no_year_takes_the_conversations_year_and_is_said_as_a_day() -> None:
    replies, _ = agent_loop(
        "Reserve a room for March 3rd", BOOK, lambda n, a: ("ok", False), system="Today: 2027-02-20."
    )
    assert replies[0] == [("reserve_room", {"day": "2027-03-03"})], replies
    _, answer = agent_loop("Zarezerwuj salę na 3 marca", BOOK, lambda n, a: ("ok", False))
    assert "--03-03" not in answer and "3 marca" in answer, answer


def test_an_id_no_listed_record_has_is_said_to_be_missing() -> None:
    for question, said in (
        ("Where is parcel P-999?", "P-999"),
        ("Gdzie jest paczka P-999?", "nie ma P-999"),
        ("Где посылка P-999?", "нет P-999"),
    ):
        _, answer = agent_loop(question, PARCELS, lambda n, a: (json.dumps(ROWS), False))
        assert said in answer and "P-310" not in answer and "delivered" not in answer, answer
    _, answer = agent_loop("Where is parcel P-311?", PARCELS, lambda n, a: (json.dumps(ROWS), False))
    assert "P-311" in answer and "transit" in answer and "P-310" not in answer, answer
