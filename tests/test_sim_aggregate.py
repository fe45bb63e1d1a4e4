"""The offline model answers the figure a question asks of a listed result (sim/aggregate.py): the record with
the most or least of a field, how many records match, a field's total; in the question's language."""

from __future__ import annotations

import json
from types import SimpleNamespace

from sim_loop import agent_loop, tool

from agent_core.sim import aggregate

TASKS = [
    {"number": 3, "title": "Write the onboarding guide", "state": "open", "labels": ["docs"], "points": 5},
    {"number": 8, "title": "Migrate the billing cron", "state": "open", "labels": ["ops", "urgent"], "points": 13},
    {"number": 11, "title": "Rename the staging bucket", "state": "closed", "labels": ["ops"], "points": 2},
]
LIST_TASKS = tool(
    "list_tasks", "Lists the tasks of a project board with their points and labels.", {"board": {"type": "string"}}
)


def _answer(question: str, rows: list[dict] = TASKS) -> str:
    _, answer = agent_loop(question, [LIST_TASKS], lambda name, args: (json.dumps({"tasks": rows}), False))
    return answer


def test_the_record_with_most_of_the_named_field_is_the_answer_not_the_list():
    answer = _answer("Which task on the board 'core' has the most points?")
    assert "8" in answer and "13" in answer and "Rename" not in answer


def test_least_in_russian_and_polish():
    view = SimpleNamespace(question="У какой задачи меньше всего points?", lang="ru")
    russian = aggregate.line(view, TASKS, "list_tasks")
    assert russian is not None and "11" in russian and "Минимум" in russian and "8 (" not in russian
    polish = aggregate.line(SimpleNamespace(question="Które zadanie ma najmniej points?", lang="pl"), TASKS)
    assert polish is not None and "11" in polish and "Minimum" in polish


def test_a_count_counts_the_records_the_question_names_by_a_value():
    answer = _answer("How many tasks with the label ops are on the board core?")
    assert "2" in answer and "3" not in answer.replace("13", "")


def test_a_total_adds_up_the_named_field():
    assert "20" in _answer("How many points do the tasks on the board core have in total?")


def test_a_bound_asks_no_figure():
    assert aggregate.asked("List tasks, five at most") is None
    assert aggregate.asked("O ile stopni cieplej w Krakowie?") is None
    assert aggregate.asked("Какой заказ самый дешёвый?") == aggregate.Ask("min", "price")
    assert aggregate.asked("Kiedy będzie najcieplej?") == aggregate.Ask("max", "temperature")


def test_a_count_of_a_measure_inside_the_records_is_no_count_of_them():
    # 'Сколько дней' asks a number inside a record, not how many records came back
    assert not aggregate._counts_things("Сколько дней хранятся логи?", "search_kb", [{}, {}])
    assert aggregate._counts_things("Сколько моих заказов отправлено?", "get_customer_orders", [{}, {}])
