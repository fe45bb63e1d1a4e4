"""Chains from a gap: a command on the result of the sum before it ('then add 8', 'и прибавь 15'), and a required
argument the question does not give found by calling first the tool that produces it, read from that tool's result."""

from __future__ import annotations

import json

from tests.sim_loop import agent_loop, tool

INTEGER = {"type": "integer"}


def _arith(name: str, verb: str) -> dict:
    return tool(name, f"{verb} two integers and returns the result integer", {"a": INTEGER, "b": INTEGER})


OPERATIONS = [_arith("multiply", "Multiply"), _arith("add", "Add"), _arith("subtract", "Subtract")]


def _run_arith(name: str, args: dict) -> tuple[str, bool]:
    a, b = args["a"], args["b"]
    return str({"add": a + b, "multiply": a * b, "subtract": a - b}[name]), False


def test_a_command_with_one_number_works_on_the_result_before_it():
    for question, steps, total in [
        ("What is 9 times 3, then add 5?", [("multiply", {9, 3}), ("add", {27, 5})], "32"),
        ("Умножь 6 на 4 и прибавь 10", [("multiply", {6, 4}), ("add", {24, 10})], "34"),
        ("Pomnóż 12 przez 3, a potem odejmij 6", [("multiply", {12, 3}), ("subtract", {36, 6})], "30"),
    ]:
        replies, answer = agent_loop(question, OPERATIONS, _run_arith)
        assert [[(n, set(a.values())) for n, a in r] for r in replies] == [[s] for s in steps], question
        assert total in answer, question


def test_a_second_sum_with_numbers_of_its_own_is_not_taken_for_a_command_on_the_first():
    replies, _ = agent_loop("Multiply 6 by 7, and add 2 and 3.", OPERATIONS, _run_arith)
    assert sorted((n, tuple(sorted(a.values()))) for r in replies for n, a in r) == [("add", (2, 3)), ("multiply", (6, 7))]
