"""Arguments and output fields filled by type and meaning: a list ends where another parameter's name begins and is
named by other words too ('tag it', 'назначь на', 'przypisz do'), a clause that only gives the reason for an option
the call already took is no request of its own, a name said in the genitive is written in the nominative, and a
thing refused with a word between ('демо пока не нужно') is refused."""

from __future__ import annotations

import json

import pytest
from sim_loop import agent_loop, structured, tool

from agent_core.sim import judged
from agent_core.sim.text import entities, names

LIST = {"type": "array", "items": {"type": "string"}}
TICKETS = tool(
    "issue_write",
    "Creates a new issue in a GitHub repository, or updates an existing one.",
    {
        "method": {"type": "string", "enum": ["create", "update"], "description": "'create' makes a new issue"},
        "owner": {"type": "string", "description": "Repository owner"},
        "repo": {"type": "string", "description": "Repository name"},
        "issue_number": {"type": "number", "description": "Number of the issue to update"},
        "title": {"type": "string", "description": "Issue title"},
        "labels": {**LIST, "description": "Labels to apply to this issue"},
        "assignees": {**LIST, "description": "Usernames to assign to this issue"},
        "state": {"type": "string", "enum": ["open", "closed"]},
        "state_reason": {"type": "string", "enum": ["completed", "not_planned", "duplicate"]},
        "milestone": {"type": "number", "description": "Milestone number"},
    },
    required=["method", "owner", "repo"],
)


def run(name: str, args: dict) -> tuple[str, bool]:
    return json.dumps({"number": args.get("issue_number", 7), "url": "https://example.com/7"}), False


def only_call(question: str) -> tuple[dict, str]:
    replies, answer = agent_loop(question, [TICKETS], run)
    made = [args for reply in replies for _, args in reply]
    assert len(made) == 1, made
    return made[0], answer


@pytest.mark.parametrize(
    ("question", "tags", "assignees"),
    [
        (
            "Create an issue in bakery-co/ovens: title 'Door sensor flickers', labels hardware & sensor, assignees jo-b and kim-l.",
            ["hardware", "sensor"],
            ["jo-b", "kim-l"],
        ),
        (
            "Создай issue в bakery-co/ovens с заголовком «Датчик двери мигает», метки hardware и sensor, назначь на jo-b.",
            ["hardware", "sensor"],
            ["jo-b"],
        ),
        (
            "Utwórz zgłoszenie w bakery-co/ovens, tytuł „Czujnik drzwi miga”, etykiety hardware, sensor, przypisz do kim-l.",
            ["hardware", "sensor"],
            ["kim-l"],
        ),
    ],
)
def test_a_list_ends_where_the_next_parameter_is_named(question, tags, assignees):
    args, _ = only_call(question)
    assert args["labels"] == tags
    assert args["assignees"] == assignees


def test_a_list_is_taken_after_another_word_for_the_parameter():
    args, _ = only_call("please open a new issue in bakery-co/ovens titled 'Door sticks' and tag it hinge and door")
    assert args["labels"] == ["hinge", "door"]
    assert "assignees" not in args  # nobody was named: the optional list is left out


@pytest.mark.parametrize(
    ("question", "reason"),
    [
        ("Close issue 12 in bakery-co/ovens, it was fixed in release 3.", "completed"),
        ("Zamknij zgłoszenie 12 w bakery-co/ovens, nie planujemy tego robić.", "not_planned"),
    ],
)
def test_a_clause_that_only_says_why_is_part_of_the_call(question, reason):
    args, answer = only_call(question)
    assert args["state"] == "closed" and args["state_reason"] == reason
    assert "milestone" not in args  # 'release 3' says when it was fixed, it sets no milestone
    assert "tool" not in answer.lower() and "narzędzi" not in answer.lower()  # no search of 'fixed release'


@pytest.mark.parametrize(
    ("text", "lang", "name"),
    [
        ("Письмо от Ольги Петровой: нужен счёт", "ru", "Ольга Петрова"),
        ("Вопрос от Дмитрия Орлова про тариф", "ru", "Дмитрий Орлов"),
        ("Zapytanie od Tomasza Wójcika w sprawie faktury", "pl", "Tomasz Wójcik"),
        ("Wiadomość od Anny Kowalskiej o planie", "pl", "Anna Kowalska"),
        ("Ольга Петрова просит счёт", "ru", "Ольга Петрова"),  # already the nominative: no word before asks otherwise
        ("A note from Tom Baker about the plan", "en", "Tom Baker"),
    ],
)
def test_a_name_said_in_the_genitive_is_written_in_the_nominative(text, lang, name):
    person = entities.of_kind(text, "person")[0]
    assert names.nominative(text, person, lang) == name


@pytest.mark.parametrize(
    ("text", "wanted"),
    [
        ("Клиент выбрал тариф Team, демо пока не нужно.", False),
        ("Klient pyta o plan Pro, prezentacji na razie nie chce.", False),
        ("They picked Pro; the demo is still not needed.", False),
        ("They picked Pro and would love a demo, not a whitepaper.", True),
    ],
)
def test_a_thing_refused_with_a_word_between_is_refused(text, wanted):
    assert judged.flag(text, "demo_requested") is wanted


LEAD = {
    "type": "object",
    "properties": {
        "person": {
            "type": "object",
            "properties": {"name": {"type": "string"}, "email": {"type": "string"}},
            "required": ["name", "email"],
        },
        "interests": {"type": "array", "items": {"type": "string"}},
    },
    "required": ["person", "interests"],
}


@pytest.mark.parametrize(
    ("question", "email", "interests"),
    [
        (
            "Lead: Ben Ortiz (ben.ortiz@kite.dev) is interested in invoices and payroll, call him Monday.",
            "ben.ortiz@kite.dev",
            ["invoices", "payroll"],
        ),
        (
            "Лид: Вера Котова, vera.kotova@list.ru, интересы: склад и доставка, перезвонить в понедельник.",
            "vera.kotova@list.ru",
            ["склад", "доставка"],
        ),
        (
            "Lead: Jan Kos, jan.kos@o2.pl, zainteresowania: magazyn i dostawy, oddzwonić w poniedziałek.",
            "jan.kos@o2.pl",
            ["magazyn", "dostawy"],
        ),
    ],
)
def test_a_nested_object_takes_typed_values_and_a_list_ends_after_its_last_item(question, email, interests):
    out = structured(question, LEAD)
    assert out["person"]["email"] == email  # the e-mail of the text, inside the nested object too
    assert out["interests"] == interests  # no 'in' before the first, no clause after the one joined by 'and'
