"""The public whole-loop corpus (tests/fidelity/loops): its cases are well formed and sourced, its harness tells a
careful loop from a careless one, and the offline model never scores below the figures recorded in record.json."""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest
from fidelity.loops.checks import check
from fidelity.loops.corpus import (
    KINDS,
    LANGS,
    RECORD,
    figures_of,
    load_cases,
    load_files,
    run_corpus,
    tools_for,
)
from fidelity.loops.fakes import FakeTool, same
from fidelity.loops.gold import load_gold, player
from fidelity.loops.runner import client, run_case
from fidelity.loops.text import claims_no_tool, fold, has_raw_json, language, untranslated

FILES = load_files()
CASES = load_cases(FILES)
BY_ID = {c["id"]: c for c in CASES}
SOURCE = re.compile(r"^https://\S+$|^[\w.-]+/[\w.-]+:\S+$")  # a URL, or owner/repo:path


def test_the_corpus_is_big_enough_in_every_kind_and_a_third_is_not_english():
    kinds, langs = Counter(c["kind"] for c in CASES), Counter(c["lang"] for c in CASES)
    assert len(CASES) >= 250
    assert set(kinds) == set(KINDS) and set(langs) == set(LANGS)
    # 20 cases or more per kind, so a kind's pass rate moves in steps of at most 5 points
    assert all(kinds[kind] >= 20 for kind in KINDS), kinds
    by_kind_lang = Counter((c["kind"], c["lang"]) for c in CASES)
    assert all(by_kind_lang[(kind, lang)] >= 4 for kind in KINDS for lang in LANGS), by_kind_lang
    assert langs["ru"] + langs["pl"] >= len(CASES) / 3, langs
    assert len(BY_ID) == len(CASES), "case ids are unique"
    assert len({c["source"] for c in CASES}) >= 15, "cases come from many public sources"


def test_every_case_names_its_source_and_uses_only_tools_it_offers():
    for case in CASES:
        assert SOURCE.match(case["source"]), case["id"]
        offered = tools_for(case, FILES)
        for item in case["expect"].get("calls", []) + case["expect"].get("forbid", []):
            assert item["tool"] in offered, (case["id"], item["tool"])
        for name in case["expect"].get("extra_calls", []):
            assert name in offered, (case["id"], name)


def _literal(value):
    """An expected argument that is a whole plain value (not a pattern, not an object matched by the keys named),
    which the tool's schema must then accept."""
    if isinstance(value, dict):
        return False
    if isinstance(value, list):
        return all(map(_literal, value))
    return value != "*" and value is not None


def test_expected_arguments_fit_the_tools_own_schemas():
    for case in CASES:
        offered = tools_for(case, FILES)
        for item in case["expect"].get("calls", []):
            tool = offered[item["tool"]]
            schema = tool.definition["input_schema"]
            args = item.get("args", {})
            assert set(args) <= set(schema.get("properties", {})), (case["id"], item["tool"], sorted(args))
            literal = {k: v for k, v in args.items() if _literal(v)}
            # Only the literal values are checked, so the schema's other required properties are not asked for.
            partial = tool.validator.evolve(schema={**schema, "required": sorted(literal)})
            errors = list(partial.iter_errors(literal))
            assert not errors, (case["id"], item["tool"], errors[0].message)


def test_a_fake_checks_every_input_against_the_tools_schema_as_mcp_servers_do():
    tool = FakeTool(
        {
            "name": "get_user",
            "description": "",
            "input_schema": {
                "type": "object",
                "properties": {"key": {"type": "string", "enum": ["email", "phone"]}},
                "required": ["key"],
            },
        },
        {"default": "found"},
    )
    assert tool.call({"key": "email"}).text == "found"
    bad = tool.call({"key": "name"})
    assert bad.is_error and "'name' is not one of ['email', 'phone']" in bad.text and bad.invalid
    assert tool.call({}).invalid.startswith("'key' is a required property")


def test_values_are_compared_as_a_reader_would():
    assert same("San Francisco", " san  francisco ") and same(18, "18") and same(18, 18.0)
    assert same(["bug", "frontend"], ["frontend", "bug"]) and not same({"ordered": [1, 2]}, [2, 1])
    assert same({"approx": 38.58, "tol": 0.1}, 38.5816) and not same({"approx": 38.58, "tol": 0.1}, 40)
    assert same({"author": {"name": "Ann"}}, {"author": {"name": "ann", "email": "a@b.c"}})
    assert not same(True, 1) and same({"min": 5}, 8) and not same({"min": 5}, 2)
    assert fold("2 345,50 zł") == fold("2345.50 zł") and fold("1,234,567") == "1234567"


def test_answers_are_read_for_their_language_and_for_pasted_json():
    assert language("Погода в Москве: −3 °C, снег.") == "ru"
    assert language("W Warszawie jest teraz 6°C i pochmurno.") == "pl"
    assert language("It is 6°C and overcast in Warsaw.") == "en"
    assert has_raw_json('Weather: {"city": "Moscow", "temp": -3}') and not has_raw_json("It is -3 °C {cold}.")


def test_a_quoted_name_keeps_the_answers_language_and_a_quoted_passage_does_not():
    # Russian and Polish quote marks are quotes too: a short quoted title is the tool's, the framing is the answer's.
    assert language("Событие «Flood Watch», район «Harris County», серьёзность умеренная.") == "ru"
    assert language("Zdarzenie „Winter Storm Warning” w „Erie County” jest poważne.") == "pl"
    passage = "«An agent is a model called in a loop; each turn it may ask for tools and it reads what they return.»"
    assert language(f"Коротко: {passage}") == "en"
    assert language("«Fix the login bug», «Write release notes»") == "en"
    # A path and a file shown in a fence are the tool's, as they are: the sentence around them is the answer's
    assert language("Вот что в файле /data/irena/notes/ideas.txt:\n```\nФонарь\nПодкаст\n```") == "ru"
    assert language("Here is /data/irena/notes/ideas.txt:\n```\nФонарь для велосипеда\n```") == "en"


def test_the_models_own_no_tool_and_no_knowledge_sentences_count_in_every_language_anywhere():
    diff = "Изменения в `notes.md`:\n```diff\n- old\n+ new\n```"
    assert claims_no_tool("Я офлайн-модель симулятора: кроме таблицы знаний нет.\n" + diff)
    assert claims_no_tool("Pogoda w Gdańsku: 4°C. Jestem modelem offline symulatora, więc reszty nie wiem.")
    assert claims_no_tool("Готово. Nie mam narzędzia, żeby to wysłać.") and claims_no_tool("У меня нет инструмента.")
    assert claims_no_tool("Sure. I\u2019m the offline simulated model, so that is all.")
    assert not claims_no_tool(diff) and not claims_no_tool("Инструмент вернул три файла: a.txt, b.txt, c.txt.")


def test_english_prose_copied_from_a_result_is_left_untranslated_but_names_and_code_are_not():
    result = '{"success": true, "message": "Rows archived without problems", "state": "pending"}'
    assert untranslated("Готово: «Rows archived without problems», статус «pending».", [result]) == [
        "archived",
        "without",
        "problems",
        "pending",
    ]
    assert untranslated("Gotowe, stan: pending.", [result]) == ["pending"]
    # A translated word may keep its original in brackets: the reader already has it in their language
    assert untranslated("Статус: ожидает («pending»).", [result]) == []
    record = json.dumps(
        {"title": "Sync stops after midnight", "branch": "fix/midnight-sync", "author_email": "jo@x.io"}
    )
    kept = (
        "Задача «Sync stops after midnight» в ветке fix/midnight-sync, автор jo@x.io; "
        "подробности: https://example.org/sync/stops, файл /srv/app/stops.log, вызов `archive_rows(stops=1)`."
    )
    assert untranslated(kept, [record, "the sync stops after midnight"]) == []
    assert untranslated("Продукт Sync Pro: работает.", ["sync pro works"], allowed=["Sync Pro"]) == []


@pytest.mark.parametrize("case_id", sorted(load_gold()))
def test_a_careful_loop_passes_its_case(case_id):
    case = BY_ID[case_id]
    run = run_case(case, tools_for(case, FILES), client(think=player(load_gold()[case_id])))
    assert check(case, run) == []


def _scripted(case_id, replies):
    case = BY_ID[case_id]
    return check(case, run_case(case, tools_for(case, FILES), client(think=player(replies))))


def test_a_careless_loop_fails_with_a_reason_a_planner_can_act_on():
    chain = "technova-orders-by-email-en"
    pasted = _scripted(
        chain,
        [
            {"calls": [["get_user", {"key": "email", "value": "john@gmail.com"}]]},
            {"calls": [["get_customer_orders", {"customer_id": "1213210"}]]},
            {
                "text": 'get_customer_orders answered: [{"id": "24601", "product": "Wireless Headphones"}, {"id": "13579"}]'
            },
        ],
    )
    assert any("raw JSON" in p for p in pasted)
    guessed = _scripted(
        chain,
        [
            {
                "calls": [
                    ["get_user", {"key": "email", "value": "john@gmail.com"}],
                    ["get_customer_orders", {"customer_id": "1213210"}],
                ]
            },
            {"text": "Your orders are 24601 (Wireless Headphones) and 13579 (Smartphone Case)."},
        ],
    )
    assert guessed == ["get_customer_orders was called before the get_user result it needs"]
    serial = _scripted(
        "technova-two-statuses-en",
        [
            {"calls": [["get_order_by_id", {"order_id": "24601"}]]},
            {"calls": [["get_order_by_id", {"order_id": "86420"}]]},
            {"text": "24601 has shipped and 86420 was delivered."},
        ],
    )
    assert any("not asked for in one response" in p for p in serial)
    article = (
        "The 2024 Australian Grand Prix was held on 24 March 2024 at the Albert Park Circuit in Melbourne. Carlos Sainz"
    )
    relayed = _scripted(
        "course-wiki-australian-gp-en",
        [
            {"calls": [["get_article", {"search_term": "2024 Australian Grand Prix"}]]},
            {
                "text": f"Here is what I found: {article} Jr. won for Ferrari, ahead of teammate Charles Leclerc and Lando Norris."
            },
        ],
    )
    assert any("pastes a tool's result" in p for p in relayed)
    english = _scripted("technova-cancel-no-id-ru", [{"text": "Which email, phone or username is on your account?"}])
    assert any("answer is in en" in p or "does not name" in p for p in english)


def test_a_loop_that_repeats_a_failing_call_or_sends_bad_input_is_caught():
    stuck = _scripted("technova-phone-format-en", [{"calls": [["get_user", {"key": "phone", "value": "5551234567"}]]}])
    assert any(p.startswith("loop: no end_turn") for p in stuck) and any("repeated get_user" in p for p in stuck)
    invalid = _scripted(
        "technova-phone-format-en",
        [
            {"calls": [["get_user", {"key": "telephone", "value": "555-123-4567"}]]},
            {"text": "That is Liam Nguyen."},
        ],
    )
    assert any(p.startswith("invalid input to get_user: 'telephone' is not one of") for p in invalid)


def _told(outcome) -> str:
    """A failing case's reason; a held-out probe's only by id (its expectations must stay unseen by those fixing)."""
    case = outcome.case
    return f"{case['id']} [{case['kind']}/{case['lang']}]" if "heldout" in case["file"] else outcome.reason()


# One test per source file, so the workers share the corpus's run (it is the suite's longest single piece of work).
@pytest.mark.parametrize("stem", sorted(FILES))
def test_no_case_of_a_source_fails_unless_the_record_lists_it(stem):
    record = json.loads(RECORD.read_text(encoding="utf-8"))
    outcomes = run_corpus(stem=stem)
    assert len(outcomes) == sum(c["file"] == stem for c in CASES)
    # A figure can hold while one case turns from passing to failing and another the other way: name the lost ones.
    lost = [_told(o) for o in outcomes if not o.passed and o.case["id"] not in record["failing"]]
    assert not lost, "passed when recorded, fail now:\n" + "\n".join(lost)


def test_the_recorded_figures_hold_for_the_corpus_as_it_is():
    """With every case passing unless listed as failing (the test above), these are the corpus's lowest figures:
    they must not fall below the record (cases removed, or a failing case added to the list by hand)."""
    record = json.loads(RECORD.read_text(encoding="utf-8"))
    figures = figures_of([(c, c["id"] not in record["failing"]) for c in CASES])
    assert figures["overall"]["cases"] >= record["overall"]["cases"], "cases were removed from the corpus"
    for key, recorded in record["figures"].items():
        assert figures.get(key, {"percent": 0.0})["percent"] >= recorded, f"{key} fell below {recorded}%"
    assert set(record["failing"]) <= set(BY_ID), "the record lists a failing case the corpus no longer has"
