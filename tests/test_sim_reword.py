"""A lookup that found nothing is tried once more in other words (sim/reword.py), on a help-centre tool of our own
naming: the query's key words in English, one retry, and the answer told in the user's language."""

from __future__ import annotations

from typing import Any

from agent_core.model import SimSettings
from agent_core.sim import reword
from agent_core.sim.brain import think
from agent_core.sim.words import value

HELP = {
    "name": "help_centre",
    "description": "Searches the help centre for articles on orders, delivery and refunds.",
    "input_schema": {
        "type": "object",
        "properties": {"query": {"type": "string", "description": "What to look for."}},
        "required": ["query"],
    },
}
ANSWER = "Delivery is free on orders over 50 euros. Refunds are paid within 14 days."


def _uses(draft: Any) -> list[dict[str, Any]]:
    return [b for b in draft.content if b["type"] == "tool_use"]


def _loop(question: str, results: list[str]) -> tuple[list[dict[str, Any]], str]:
    """Runs the question, answering the model's calls with the results in turn; its calls and its last text."""
    messages: list[dict[str, Any]] = [{"role": "user", "content": question}]
    calls: list[dict[str, Any]] = []
    for result in [*results, None]:
        draft = think({"model": "claude-sonnet-4-6", "tools": [HELP], "messages": messages}, SimSettings())
        uses = _uses(draft)
        if not uses or result is None:
            return calls, " ".join(b["text"] for b in draft.content if b["type"] == "text")
        for n, use in enumerate(uses):
            use["id"] = f"toolu_{len(calls)}_{n}"
        calls += [u["input"] for u in uses]
        messages.append({"role": "assistant", "content": draft.content})
        replies = [{"type": "tool_result", "tool_use_id": u["id"], "content": result} for u in uses]
        messages.append({"role": "user", "content": replies})
    return calls, ""


def test_key_words_in_english() -> None:
    assert reword.english("самолёте мест бизнес класса", "ru") == "plane seat business"
    assert reword.english("zwrot pieniędzy", "pl") == "refund money"
    assert reword.english("Найди лучшего друга", "ru") == "best friend"  # the verb of searching is no key word
    assert reword.english("rows exit rows", "en") == "rows exit seats"  # an English query gets a broader word


def test_an_empty_answer_is_retried_once_in_english_and_answered_in_russian() -> None:
    calls, text = _loop("Когда мне вернут деньги за возврат?", ["No matching articles found.", ANSWER])
    assert len(calls) == 2 and calls[1]["query"] != calls[0]["query"]
    assert "refund" in calls[1]["query"] and not any("\u0400" <= c <= "\u04ff" for c in calls[1]["query"])
    assert "14" in text and "не подошло" in text


def test_a_second_empty_answer_is_not_retried_again() -> None:
    calls, text = _loop("Когда мне вернут деньги за возврат?", ["[]", "[]", ANSWER])
    assert len(calls) == 2
    assert "ничего не" in text


def test_a_lookup_that_found_something_is_not_retried() -> None:
    calls, _ = _loop("Когда мне вернут деньги за возврат?", [ANSWER, ANSWER])
    assert len(calls) == 1


def test_a_long_english_sentence_is_told_by_its_figures_and_terms_never_copied() -> None:
    said = value("Refunds are issued within 14 days of purchase to the original payment method.", "ru")
    assert "14 дней" in said and "возврат денег" in said and "Refunds" not in said and "issued" not in said
    assert value("Refunds are issued within 2 days.", "pl") == "„Refunds are issued within 2 days.”"


def test_names_paths_and_ids_are_not_reworded() -> None:
    """An empty answer to a call by a name, a path or an id is an answer ('no open issues'), not a query to reword."""
    listing = {
        "name": "list_issues",
        "description": "Lists the issues of a repository.",
        "input_schema": {
            "type": "object",
            "properties": {"owner": {"type": "string"}, "repo": {"type": "string"}},
            "required": ["owner", "repo"],
        },
    }
    use = {
        "type": "tool_use",
        "id": "toolu_1",
        "name": "list_issues",
        "input": {"owner": "octo-org", "repo": "webshop"},
    }
    messages = [
        {"role": "user", "content": "List the issues of the repository octo-org/webshop."},
        {"role": "assistant", "content": [use]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "[]"}]},
    ]
    draft = think({"model": "claude-sonnet-4-6", "tools": [listing], "messages": messages}, SimSettings())
    assert draft.stop_reason == "end_turn" and not _uses(draft)


def test_a_retry_translates_known_words_and_names_and_drops_the_opening_function_word():
    # a known city goes by its English name, a question's capitalised first word is no name to spell in Latin
    assert reword.english("Часто ли задерживают рейсы в Чикаго", "ru") == "Chicago"
    assert reword.english("Сколько стоит перелёт в Лондон", "ru") == "price flight London"
    assert reword.english("Czy w Berlinie jest sieć", "pl") == "Berlin wifi"
    assert reword.english("Kto wygrał Grand Prix Monako w 2023 roku", "pl") == "won grand prix Monako 2023 year"
    assert reword.english("Кто такая Ада Лавлейс", "ru") == "Ada Lavleis"  # a name further on is still spelled


def test_a_relative_clause_is_part_of_the_question_and_a_measure_is_told_with_its_unit():
    from agent_core.sim import prose
    from agent_core.sim.text import reader, values

    assert values.belongs_before("którą wczoraj kupiłem") and values.belongs_before("которую я заказал")
    assert not values.belongs_before("a ile kosztuje bilet") and not values.belongs_before("который там час?")
    assert not values.belongs_before("która godzina jest w Oslo?")
    assert reader._clauses("Ile kosztuje bilet, którego szukam?") == ("Ile kosztuje bilet, którego szukam",)
    out = "Each guest may bring one suitcase. It must be under 23 pounds."
    told = prose.answer("Сколько может весить чемодан, которым я пользуюсь?", "ru", out)
    assert told is not None and "23" in told and " 1" not in told
