"""A memory entity found is told as what was saved about it, in a sentence of the user's language."""

from __future__ import annotations

import json

from tests.sim_loop import agent_loop, tool

SEARCH = [tool("search_nodes", "Searches the knowledge graph's entities by a query.", {"query": {"type": "string"}})]
FOUND = {
    "entities": [{"name": "Kasia Nowak", "entityType": "person", "observations": ["Likes jazz", "Lives in Gdańsk"]}]
}


def _run(name: str, args: dict) -> tuple[str, bool]:
    return json.dumps({**FOUND, "relations": []}), False


def test_a_stored_entity_is_told_as_what_was_saved_about_it() -> None:
    for question, opening in (
        ("Co pamiętasz o Kasi Nowak?", "O „Kasia Nowak” (osoba) zapisano:"),
        ("Что ты помнишь о Касе Новак?", "О «Kasia Nowak» (человек) сохранено:"),
        ("What do you remember about Kasia Nowak?", "About Kasia Nowak (person) I have saved:"),
    ):
        _, answer = agent_loop(question, SEARCH, _run)
        assert answer.startswith(opening), answer
        assert "jazz" in answer and "Gdańsk" in answer
