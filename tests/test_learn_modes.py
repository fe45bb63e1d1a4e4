"""The ways of learning: predict-then-reveal scores the real turn, the human model's reply runs through the real
loop and server, the learner's loop move is judged by the server's rules, and the exercises check what they say."""

from __future__ import annotations

import ast
import copy
import json
from pathlib import Path

import pytest

from agent_core.loop.stepper import Stepper
from agent_core.model import Limits, Run, RunConfig
from agent_core.sim import validate
from agent_core.teaching.learn import exercises as ex
from agent_core.teaching.learn import human, loop_player, predict
from agent_core.teaching.learn.loop_player import Move, ResultRow
from agent_core.teaching.learn.predict import Appended, Prediction
from agent_core.tools.catalog import default_specs
from lab_ui.words.catalogue import stop_text
from lab_ui.words.learn_text import TEXTS

ROOT = Path(__file__).resolve().parent.parent
TASK = "What's the weather in Oslo, and what is 2 to the power of 16?"
GOOD_DESCRIPTION = (
    "Gets the current share price of a company by its stock ticker symbol. Use it whenever the user asks what a "
    "stock or share costs now. The ticker parameter is the exchange symbol, e.g. ACME."
)
GOOD_SCHEMA = json.dumps(
    {
        "type": "object",
        "properties": {"ticker": {"type": "string", "description": "Stock ticker symbol, e.g. ACME"}},
        "required": ["ticker"],
    }
)


def config(**extra) -> RunConfig:
    return RunConfig(task=TASK, tools=default_specs(["get_weather", "calculate"]), limits=Limits(max_steps=6), **extra)


# ---- predict, then reveal ----------------------------------------------------------------------------
def test_a_right_prediction_scores_every_part_with_the_reason():
    run = Run(config=config())
    guess = Prediction(predict.target_turn(run), "tool_use", "calculate", Appended.REPLY_AND_RESULTS)
    stepper = Stepper(run)
    stepper.next_phase()
    assert not predict.ready(run, guess)  # only the request is built: nothing to reveal yet
    stepper.next_turn()
    assert predict.ready(run, guess)
    reveal = predict.reveal(run, guess)
    assert reveal.score == 3
    assert [v.why.kind for v in reveal.verdicts] == ["stop_tool_use", "tool_called", "appended_reply_and_results"]
    assert reveal.verdicts[2].why.params["n"] == 2


def test_a_wrong_prediction_is_scored_wrong_and_says_what_happened():
    run = Run(config=config())
    Stepper(run).next_turn()
    reveal = predict.reveal(run, Prediction(1, "end_turn", predict.NO_TOOL, Appended.REPLY_ONLY))
    assert reveal.score == 0
    assert [v.actual for v in reveal.verdicts] == ["tool_use", "get_weather, calculate", "reply_and_results"]


def test_the_last_turn_appends_only_the_reply_and_a_forgetful_loop_appends_nothing():
    run = Run(config=config())
    stepper = Stepper(run)
    stepper.next_turn()
    stepper.next_turn()
    reveal = predict.reveal(run, Prediction(2, "end_turn", predict.NO_TOOL, Appended.REPLY_ONLY))
    assert reveal.score == 3 and reveal.verdicts[0].why.kind == "stop_end_turn"
    forgetful = Run(config=config(bugs=["forget_assistant_reply"]))
    Stepper(forgetful).next_turn()
    verdict = predict.reveal(forgetful, Prediction(1, appended=Appended.REPLY_AND_RESULTS)).verdicts[0]
    assert not verdict.correct and verdict.actual == "nothing"


def test_a_failed_call_is_not_scored():
    cfg = config()
    cfg.sim.faults = [{"status": 500, "turn": 1, "attempts": 99}]
    run = Run(config=cfg)
    Stepper(run, max_retries=0).next_turn()
    reveal = predict.reveal(run, Prediction(1, "tool_use"))
    assert reveal.unscored is not None and reveal.unscored.kind == "call_failed" and not reveal.verdicts


# ---- you are the model -------------------------------------------------------------------------------
def weather_and_power(ids: tuple[str, str] = ("", "")) -> human.HumanReply:
    return human.from_form(
        "Let me check.", [("get_weather", '{"city": "Oslo"}', ids[0]), ("calculate", '{"expression": "2**16"}', ids[1])]
    )


def test_the_human_reply_runs_through_the_real_loop_and_the_next_request_is_accepted():
    run = Run(config=config())
    human.play(run, weather_and_power())
    first = run.turns[0]
    assert first.stop_reason == "tool_use"
    assert [(t.name, t.is_error) for t in first.tools] == [("get_weather", False), ("calculate", False)]
    assert first.tools[1].output == "65536"
    assert run.phase == "call_model" and len(run.turns) == 2  # the next request is built, waiting for the model
    verdict = human.referee(run)
    assert verdict.ok and verdict.input_tokens > 0
    human.play(run, human.from_form("Oslo is rainy; 2^16 is 65536.", []))
    assert run.stop.kind == "end_turn" and run.final_text.startswith("Oslo is rainy")


def test_duplicate_tool_use_ids_stop_the_loop_and_the_server_names_the_rule():
    run = Run(config=config())
    human.play(run, weather_and_power(("toolu_1", "toolu_1")))
    assert run.stop.kind == "invalid_reply" and run.turns[0].tools == []  # no tool runs twice under one id
    verdict = human.referee(run)
    assert not verdict.ok and verdict.status == 400
    # The default model thinks first, so the position of the second call depends on the reply's blocks.
    second = [i for i, b in enumerate(run.messages[1]["content"]) if b["type"] == "tool_use"][1]
    assert verdict.message == f"messages.1.content.{second}: `tool_use` ids must be unique"


def test_a_tool_use_id_with_a_space_breaks_the_id_pattern():
    run = Run(config=config())
    human.play(run, weather_and_power(("my id", "")))
    verdict = human.referee(run)
    assert "tool_use.id: String should match pattern" in verdict.message


def test_unknown_tools_and_bad_input_come_back_as_error_results():
    run = Run(config=config())
    human.play(run, human.from_form("", [("get_time", "{}", ""), ("calculate", '{"expr": 1}', "")]))
    unknown, bad = run.turns[0].tools
    assert unknown.is_error and unknown.output.startswith("Unknown tool 'get_time'")
    assert bad.is_error and bad.output.startswith("Invalid input for calculate")
    results = run.turns[0].tool_results_message["content"]
    assert [b["is_error"] for b in results] == [True, True]
    assert human.referee(run).ok  # reporting the failures is within the rules


def test_end_turn_on_a_reply_with_tool_use_stops_the_loop_without_running_the_tool():
    run = Run(config=config())
    human.play(run, human.from_form("", [("get_weather", '{"city": "Oslo"}', "")], stop_reason="end_turn"))
    assert run.stop.kind == "end_turn" and run.turns[0].tools == []


def test_a_reply_longer_than_max_tokens_is_cut_by_the_server():
    run = Run(config=config(max_tokens=5))
    human.play(run, human.from_form("word " * 200, []))
    assert run.turns[0].stop_reason == "max_tokens"
    assert len(run.turns[0].text) < len("word " * 200)


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("{not json", "reply_not_json"),
        ("[]", "reply_empty"),
        ('[{"type": "tool_result", "tool_use_id": "x", "content": "y"}]', "block_type"),
        ('[{"type": "tool_use", "input": {}}]', "name_missing"),
        ('[{"type": "tool_use", "name": "calculate", "input": "2+2"}]', "input_not_object"),
        ('{"content": [{"type": "text", "text": "hi"}], "stop_reason": "done"}', "bad_stop_reason"),
    ],
)
def test_replies_no_model_could_send_are_refused_with_a_reason(text, code):
    with pytest.raises(human.ReplyError) as caught:
        human.from_json(text)
    assert caught.value.problem.kind == code


def test_a_rejected_request_stops_the_run_with_the_apis_message():
    run = Run(config=config())
    human.play(run, weather_and_power(("toolu_1", "")))
    human.play(run, weather_and_power(("toolu_1", "")))  # turn 2 reuses turn 1's id: the loop cannot see it
    assert run.turns[1].tools and run.phase == "call_model"
    human.play(run, human.from_form("done", []))
    assert run.stop.kind == "api_error" and "`tool_use` ids must be unique" in stop_text(run)


# ---- you are the loop --------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def game() -> loop_player.LoopGame:
    return loop_player.start(config())


def test_the_right_move_is_accepted_and_the_model_answers(game):
    mine = copy.deepcopy(game)
    outcome = loop_player.play(mine, loop_player.suggested(mine))
    assert outcome.accepted and not outcome.notes
    assert mine.finished and "65536" in json.dumps(mine.reply)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"include_reply": False}, "unexpected `tool_use_id` found in `tool_result` blocks"),
        ({"text": "Here you go", "text_first": True}, "at the beginning of this message"),
        ({"one_message_per_result": True}, "ids were found without `tool_result` blocks immediately after"),
        ({"results": "drop_last"}, "ids were found without `tool_result` blocks immediately after"),
        ({"results": "made_up_id"}, "ids were found without `tool_result` blocks immediately after"),
        ({"prefill": "The answer is"}, "does not support assistant message prefill"),
    ],
)
def test_broken_moves_get_the_servers_400(game, change, message):
    mine = copy.deepcopy(game)
    move = loop_player.suggested(mine)
    if change.get("results") == "drop_last":
        move.results = move.results[:-1]
    elif change.get("results") == "made_up_id":
        move.results[0].tool_use_id = "toolu_made_up"
    else:
        for key, value in change.items():
            setattr(move, key, value)
    outcome = loop_player.play(mine, move)
    assert not outcome.accepted and outcome.status == 400 and message in outcome.error
    assert mine.messages == game.messages  # a rejected request changes nothing


def test_swapped_results_pass_the_server_but_the_coach_notices(game):
    mine = copy.deepcopy(game)
    first, second = loop_player.suggested(mine).results
    move = Move(results=[ResultRow(first.tool_use_id, second.content), ResultRow(second.tool_use_id, first.content)])
    outcome = loop_player.play(mine, move)
    assert outcome.accepted
    assert [n.kind for n in outcome.notes] == ["result_swapped", "result_swapped"]


def test_a_wrong_is_error_is_noticed(game):
    mine = copy.deepcopy(game)
    move = loop_player.suggested(mine)
    move.results[1].is_error = True
    outcome = loop_player.play(mine, move)
    assert [n.kind for n in outcome.notes] == ["is_error_wrong"]


# ---- exercises ---------------------------------------------------------------------------------------
def test_both_accepted_orders_pass_and_a_wrong_one_names_the_misplaced_line():
    for order in ex.ACCEPTED_ORDERS:
        assert ex.check_order(list(order)).correct
    results_before_reply = ["init", "loop", "call", "stop", "run", "send", "keep"]
    result = ex.check_order(results_before_reply)
    assert not result.correct and result.position == 5 and result.why.kind == "order_keep"
    assert ex.check_order(["init", "loop"]).why.kind == "order_incomplete"


@pytest.mark.parametrize("lang", ["en", "ru", "pl"])
def test_a_good_tool_passes_and_the_model_picks_it_in_every_language(lang):
    result = ex.check_tool("get_stock_price", GOOD_DESCRIPTION, GOOD_SCHEMA, lang)
    assert result.passed, [(c.kind, ok) for c, ok in result.checks]
    assert result.picked == "get_stock_price" and result.picked_input == {"ticker": "ACME"}


def test_a_one_line_description_without_parameter_descriptions_fails():
    schema = json.dumps({"type": "object", "properties": {"ticker": {"type": "string"}}})
    result = ex.check_tool("get_stock_price", "Gets a stock price.", schema)
    failed = {c.kind for c, ok in result.checks if not ok}
    assert failed == {
        "schema_params_described_missing",
        "desc_long_enough",
        "desc_says_when",
        "desc_names_params_missing",
    }


def test_a_tool_the_model_does_not_pick_fails_even_when_well_written():
    description = (
        "Looks up a word in the dictionary and returns its meanings. Use it when the user asks what a word "
        "means. The word parameter is the word to look up."
    )
    schema = json.dumps({"type": "object", "properties": {"word": {"type": "string", "description": "The word"}}})
    result = ex.check_tool("define_word", description, schema)
    assert not result.passed and result.picked != "define_word"
    assert [c.kind for c, ok in result.checks if not ok] == ["tool_picked"]


@pytest.mark.parametrize(
    ("schema", "code"),
    [
        ("{oops", "schema_not_json"),
        ('{"type": "object", "properties": 5}', "schema_invalid"),
        ('{"type": "string"}', "schema_object"),
    ],
)
def test_bad_schemas_are_named(schema, code):
    result = ex.check_tool("get_stock_price", GOOD_DESCRIPTION, schema)
    assert not result.passed and (code in {c.kind for c, ok in result.checks if not ok})


def test_the_fill_exercise_uses_the_servers_rules_then_checks_the_values():
    assert "without `tool_result` blocks" in ex.check_fill(ex.FILL_TEMPLATE).server_error
    right = {"type": "tool_result", "tool_use_id": ex.FILL_TOOL_USE_ID, "content": ex.FILL_OUTPUT, "is_error": True}
    assert ex.check_fill(json.dumps([right])).passed
    text_first = ex.check_fill(json.dumps([{"type": "text", "text": "Result:"}, right]))
    assert "Did not find 1 `tool_result` block(s) at the beginning" in text_first.server_error
    no_error_flag = ex.check_fill(json.dumps([{**right, "is_error": False}]))
    assert not no_error_flag.passed and [c.kind for c, ok in no_error_flag.checks if not ok] == [
        "fill_is_error_missing"
    ]
    assert ex.check_fill("[").checks[0][0].kind == "fill_not_json"


# ---- the server's new id rules, and every fact has words -----------------------------------------------
def test_tool_use_ids_are_unique_across_the_whole_history():
    def reply(tool_id):
        return {"role": "assistant", "content": [{"type": "tool_use", "id": tool_id, "name": "f", "input": {}}]}

    def result(tool_id):
        return {"role": "user", "content": [{"type": "tool_result", "tool_use_id": tool_id, "content": "ok"}]}

    messages = [
        {"role": "user", "content": "hi"},
        reply("toolu_a"),
        result("toolu_a"),
        reply("toolu_a"),
        result("toolu_a"),
    ]
    with pytest.raises(validate.InvalidRequest, match=r"messages\.3\.content\.0: `tool_use` ids must be unique"):
        validate.check_create({"model": "claude-sonnet-4-6", "max_tokens": 10, "messages": messages})


def test_every_fact_the_logic_can_state_has_a_sentence():
    codes = set()
    for path in (ROOT / "agent_core" / "teaching" / "learn").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "fact" and node.args:
                first = node.args[0]
                if isinstance(first, ast.Constant):
                    codes.add(first.value)
    codes |= {f"order_{line_id}" for line_id, _ in ex.LOOP_LINES}
    codes |= {"appended_reply_only", "appended_nothing", "appended_something_else", "appended_reply_and_results"}
    assert len(codes) > 40
    assert codes <= set(TEXTS), sorted(codes - set(TEXTS))


def test_the_lessons_link_to_practice_modes_that_exist():
    from agent_core.teaching.lessons import load_lessons
    from lab_ui.practice.page import FOR_LESSON, MODES

    ids = {lesson.id for lesson in load_lessons()}
    assert set(FOR_LESSON) <= ids, sorted(set(FOR_LESSON) - ids)
    assert {mode for modes in FOR_LESSON.values() for mode in modes} == set(MODES)  # every mode is reachable


def test_a_prefill_is_accepted_by_a_model_that_still_takes_one():
    older = loop_player.start(config(model="claude-haiku-4-5"))
    move = loop_player.suggested(older)
    move.prefill = "Here is"
    outcome = loop_player.play(older, move)
    assert outcome.accepted, outcome.error
    assert older.messages[-1] == {"role": "assistant", "content": "Here is"}


NATIVE_TOOLS = {
    "ru": (
        "Возвращает текущую цену акции компании по её тикеру. Используй, когда пользователь спрашивает, сколько "
        "стоят акции. Параметр ticker — биржевой символ, например ACME.",
        "Тикер акции, например ACME",
    ),
    "pl": (
        "Podaje bieżącą cenę akcji spółki według jej symbolu giełdowego. Użyj, gdy użytkownik pyta, ile kosztują "
        "akcje. Parametr ticker to symbol giełdowy, np. ACME.",
        "Symbol giełdowy akcji, np. ACME",
    ),
}


@pytest.mark.parametrize("lang", sorted(NATIVE_TOOLS))
def test_a_tool_written_in_the_learners_language_passes(lang):
    description, param = NATIVE_TOOLS[lang]
    schema = {
        "type": "object",
        "properties": {"ticker": {"type": "string", "description": param}},
        "required": ["ticker"],
    }
    result = ex.check_tool("get_stock_price", description, json.dumps(schema, ensure_ascii=False), lang)
    assert result.passed, [(c.kind, ok) for c, ok in result.checks]
