"""A tool the user calls by its name is the one used, whatever its description suggests ('use shout', 'прогони
через shout', 'wywołaj formatDate'), while a name that is only a word of the question calls nothing; and enum options
of a message's kind (error, success, debug) are read in the user's own words."""

from __future__ import annotations

import pytest
from sim_loop import agent_loop, tool

from agent_core.sim import slots
from agent_core.sim.text import guidance

SHOUT = tool("shout", "Sends the text back in capitals", {"text": {"type": "string", "description": "What to send"}})
FORMAT = tool(
    "formatDate",
    "Formats a date for people to read.",
    {"date": {"type": "string", "description": "The date, YYYY-MM-DD"}},
)
LOOKUP = tool("lookup_word", "Looks a word up in the dictionary.", {"word": {"type": "string"}})


def calls(question: str, tools: list[dict]) -> list[str]:
    replies, _ = agent_loop(question, tools, lambda name, args: ("done", False))
    return [name for reply in replies for name, _ in reply]


@pytest.mark.parametrize(
    "question",
    [
        "use shout on 'deploy finished'",
        "прогони через shout фразу «доброе утро»",
        "wywołaj narzędzie shout z tekstem „dzień dobry”",
    ],
)
def test_a_plain_word_name_called_with_a_calling_word(question: str) -> None:
    assert calls(question, [SHOUT, LOOKUP])[:1] == ["shout"]


def test_a_name_written_as_code_is_called_by_itself() -> None:
    assert calls("вызови formatDate для 2026-12-01", [FORMAT, LOOKUP])[:1] == ["formatDate"]


@pytest.mark.parametrize(
    ("clause", "name", "said"),
    [
        ("why do people shout at each other?", "shout", False),
        ("the `shout` one, please", "shout", True),
        ("also shout back the word hello", "shout", True),
        ("check formatdate for me", "formatDate", True),
    ],
)
def test_what_calls_a_tool_by_name(clause: str, name: str, said: bool) -> None:
    assert guidance.called(clause, name) is said


@pytest.mark.parametrize(
    ("text", "option"),
    [
        ("pokaż komunikat o błędzie", "error"),
        ("покажи сообщение об успехе", "success"),
        ("give me the debugging message", "debug"),
        ("дай отладочное сообщение", "debug"),
    ],
)
def test_a_message_kind_in_the_users_words(text: str, option: str) -> None:
    assert slots.enum_value(text, ("error", "success", "debug"), "messageType") == option
