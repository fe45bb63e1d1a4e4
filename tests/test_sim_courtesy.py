"""A greeting or a goodbye goes to the tool made for it, and only to that one, with the first name the user gives
(ADK's say_hello(name) / say_goodbye); the answer greets in the user's language. 'Dodaj ...' adds a thing, no sum."""

from __future__ import annotations

from tests.sim_loop import agent_loop, tool

NAME = {"name": {"type": "string", "description": "Who to greet."}}
TOOLS = [
    tool("greet_user", "Welcomes the user, by name when they give one.", NAME, required=[]),
    tool("farewell_user", "Ends the conversation with a polite goodbye.", {}, required=[]),
    tool("get_time", "Current time in a city.", {"city": {"type": "string"}}),
]


def _run(name: str, args: dict) -> tuple[str, bool]:
    return {"greet_user": f"Welcome, {args.get('name', 'friend')}!", "farewell_user": "Bye now!"}.get(
        name, "12:00"
    ), False


def test_a_single_first_name_given_in_a_greeting_is_the_greeting_tools_name() -> None:
    for question, name, said in (
        ("Hello there, my name is Kuba.", "Kuba", "Hello, Kuba!"),
        ("Привет! Меня зовут Дима.", "Дима", "Здравствуйте, Дима!"),
        ("Dzień dobry, nazywam się Zosia.", "Zosia", "Cześć, Zosia!"),
    ):
        replies, answer = agent_loop(question, TOOLS, _run)
        assert replies == [[("greet_user", {"name": name})]], (question, replies)
        assert answer.startswith(said), answer


def test_a_goodbye_calls_the_goodbye_tool_alone() -> None:
    for question, said in (
        ("Do zobaczenia!", "Do widzenia!"),
        ("Ну всё, до свидания", "До свидания!"),
        ("bye!", "Goodbye!"),
    ):
        replies, answer = agent_loop(question, TOOLS, _run)
        assert replies == [[("farewell_user", {})]], (question, replies)
        assert answer.startswith(said), answer


def test_a_greeting_with_a_question_is_the_question() -> None:
    replies, _ = agent_loop("hi! what time is it in Oslo?", TOOLS, _run)
    assert replies[0] == [("get_time", {"city": "Oslo"})]


def test_a_polish_add_of_a_thing_is_no_sum() -> None:
    todo = [
        tool("add_note", "Adds a note to the user's notebook.", {"text": {"type": "string"}}),
        tool("calc", "Evaluates an arithmetic expression.", {"expr": {"type": "string"}}),
    ]
    replies, _ = agent_loop("Dodaj notatkę „Zadzwonić do mamy”", todo, lambda n, a: ("saved", False))
    assert replies[0] == [("add_note", {"text": "Zadzwonić do mamy"})], replies
    replies, _ = agent_loop("Dodaj 12 do 30", todo, lambda n, a: ("42", False))
    assert replies[0] == [("calc", {"expr": "12+30"})], replies
