"""The stepper against a scripted model: phases, stop reasons, limits, tool errors, retries and redaction."""

import json

import pytest
from scripted import Script, message, text, tool_use

from agent_core.loop.stepper import Stepper, fork_run, iter_turns
from agent_core.model import Limits, Phase, Run, RunConfig, ToolSpec
from agent_core.tools.catalog import default_specs
from agent_core.vocab import PHASE_ORDER
from lab_ui.words.catalogue import decision_text, stop_text

WEATHER = default_specs(["get_weather", "calculate"])
ERR_529 = {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}, "request_id": "req_x"}


def stepper(script: Script, tools=WEATHER, **config) -> Stepper:
    limits = config.pop("limits", Limits())
    retries = config.pop("max_retries", 2)
    run = Run(RunConfig(task="Weather in Oslo and 2^16?", tools=list(tools), limits=limits, **config))
    return Stepper(run, transport=script, max_retries=retries)


def test_phases_run_in_order_and_the_turn_records_everything():
    script = Script(
        message(tool_use("get_weather", {"city": "Oslo"}), stop_reason="tool_use"),
        message(text("It is 4°C in Oslo."), stop_reason="end_turn"),
    )
    s = stepper(script)
    assert [s.next_phase() for _ in range(5)] == list(PHASE_ORDER)
    turn = s.run.turns[0]
    assert turn.request["messages"] == [{"role": "user", "content": "Weather in Oslo and 2^16?"}]
    assert [t["name"] for t in turn.request["tools"]] == ["get_weather", "calculate"]
    assert turn.stop_reason == "tool_use" and decision_text(turn).startswith("stop_reason is tool_use, so run 1 tool")
    assert turn.tools[0].name == "get_weather" and "Oslo" in turn.tools[0].output and not turn.tools[0].is_error
    assert len(turn.exchanges) == 1 and turn.exchanges[0].status == 200
    assert json.loads(turn.exchanges[0].request_body) == turn.request  # the bytes that crossed the wire
    assert turn.usage.input_tokens == 100 and turn.cost_usd > 0
    s.run_to_end()
    assert s.run.stop.kind == "end_turn" and s.run.final_text == "It is 4°C in Oslo."
    # the second request resent everything and appended the reply plus ONE user message of results
    second = script.requests[1]["messages"]
    assert [m["role"] for m in second] == ["user", "assistant", "user"]
    assert second[2]["content"][0]["type"] == "tool_result"


def test_parallel_calls_go_back_in_one_user_message_results_first():
    script = Script(
        message(
            text("Checking both."),
            tool_use("get_weather", {"city": "Oslo"}),
            tool_use("calculate", {"expression": "2^16"}),
            stop_reason="tool_use",
        ),
        message(text("4°C and 65536."), stop_reason="end_turn"),
    )
    s = stepper(script)
    s.run_to_end()
    results = script.requests[1]["messages"][2]
    assert results["role"] == "user"
    assert [b["type"] for b in results["content"]] == ["tool_result", "tool_result"]
    assert "65536" in results["content"][1]["content"]
    assert decision_text(s.run.turns[0]).startswith("stop_reason is tool_use, so run 2 tool(s)")


@pytest.mark.parametrize(
    "reason", ["end_turn", "max_tokens", "stop_sequence", "refusal", "model_context_window_exceeded"]
)
def test_final_stop_reasons_stop_the_loop(reason):
    extra = (
        {"stop_details": {"type": "refusal", "category": "cyber", "explanation": "no"}} if reason == "refusal" else {}
    )
    s = stepper(Script(message(text("partial"), stop_reason=reason, **extra)))
    s.run_to_end()
    assert s.run.stop.kind == reason and s.run.done and len(s.run.turns) == 1
    assert f"stop_reason is {reason}" in decision_text(s.run.turns[0])


def test_max_tokens_inside_a_tool_use_is_not_run():
    s = stepper(Script(message(tool_use("get_weather", {}), stop_reason="max_tokens")))
    s.run_to_end()
    assert s.run.stop.kind == "max_tokens" and s.run.turns[0].tools == []
    assert "cut off and cannot be run" in stop_text(s.run)


def test_pause_turn_sends_the_reply_back_and_continues():
    paused = message(text("Searching…"), stop_reason="pause_turn")
    script = Script(paused, message(text("Done."), stop_reason="end_turn"))
    s = stepper(script)
    s.run_to_end()
    assert s.run.stop.kind == "end_turn" and len(s.run.turns) == 2
    assert script.requests[1]["messages"][-1] == {"role": "assistant", "content": [text("Searching…")]}


def test_unknown_stop_reason_stops_with_a_message_and_the_bug_loops_on():
    s = stepper(Script(message(text("?"), stop_reason="future_reason")))
    s.run_to_end()
    assert s.run.stop.kind == "unknown_stop_reason" and "does not know" in stop_text(s.run)
    buggy = stepper(
        Script(*[message(text("?"), stop_reason="future_reason") for _ in range(3)]),
        limits=Limits(max_steps=3),
        bugs=["continue_on_unknown_stop"],
    )
    buggy.run_to_end()
    assert buggy.run.stop.kind == "step_limit" and len(buggy.run.turns) == 3


def test_thinking_blocks_go_back_unchanged():
    thinking = {"type": "thinking", "thinking": "Need weather.", "signature": "c2lnbmF0dXJl"}
    script = Script(
        message(thinking, tool_use("get_weather", {"city": "Oslo"}), stop_reason="tool_use"),
        message(text("ok"), stop_reason="end_turn"),
    )
    stepper(script, thinking_budget=1024).run_to_end()
    assert script.requests[0]["thinking"] == {"type": "enabled", "budget_tokens": 1024}
    assert script.requests[1]["messages"][1]["content"][0] == thinking


def test_529_then_200_is_two_exchanges_in_one_turn():
    script = Script((529, ERR_529, {"retry-after-ms": "1"}), message(text("fine"), stop_reason="end_turn"))
    s = stepper(script)
    s.run_to_end()
    exchanges = s.run.turns[0].exchanges
    assert [(x.status, x.retry) for x in exchanges] == [(529, 0), (200, 1)]
    assert exchanges[0].request_id == "req_1" and s.run.stop.kind == "end_turn"


def test_an_api_error_keeps_the_run_and_retry_this_step_works():
    script = Script(
        message(tool_use("get_weather", {"city": "Oslo"}), stop_reason="tool_use"),
        (529, ERR_529, {"retry-after-ms": "1"}),
        (529, ERR_529, {"retry-after-ms": "1"}),
    )
    s = stepper(script, max_retries=1)
    s.run_to_end()
    assert s.run.stop.kind == "api_error" and "overloaded" in stop_text(s.run).lower()
    assert s.run.turns[1].error.status == 529 and "overloaded_error" in s.run.turns[1].error.body
    assert len(s.run.turns) == 2 and s.run.turns[0].tools[0].output  # the run so far survived
    script.enqueue(message(text("Back."), stop_reason="end_turn"))
    s.retry()
    s.run_to_end()
    assert s.run.stop.kind == "end_turn" and s.run.final_text == "Back."
    assert [x.status for x in s.run.turns[1].exchanges] == [529, 529, 200]


def test_key_is_redacted_from_exchanges_and_the_saved_run():
    canary = "sk-ant-" + "canary-0123456789abcdef"  # split: no key-shaped literal in the repository
    script = Script(message(text("hi"), stop_reason="end_turn"))
    run = Run(RunConfig(task="hi", provider="compatible", base_url="http://localhost:9"))
    s = Stepper(run, api_key=canary, transport=script)
    s.run_to_end()
    headers = s.run.turns[0].exchanges[0].request_headers
    assert canary not in headers["authorization"] and "redacted" in headers["authorization"].lower()
    assert canary not in json.dumps(s.run.to_dict())


@pytest.mark.parametrize(
    "call,expected",
    [
        (("no_such_tool", {}), "Unknown tool"),
        (("get_weather", {"town": "Oslo"}), "city"),  # schema violation
        (("get_weather", {"city": "Atlantis"}), "Atlantis"),  # the function raises
    ],
)
def test_tool_errors_become_is_error_results_and_the_loop_goes_on(call, expected):
    script = Script(message(tool_use(*call), stop_reason="tool_use"), message(text("Sorry."), stop_reason="end_turn"))
    s = stepper(script)
    s.run_to_end()
    block = script.requests[1]["messages"][2]["content"][0]
    assert block["is_error"] is True and expected in block["content"]
    assert s.run.stop.kind == "end_turn"


def test_a_slow_tool_times_out_as_an_error_result():
    slow = default_specs(["slow_report"])
    script = Script(
        message(tool_use("slow_report", {"topic": "x"}), stop_reason="tool_use"),
        message(text("It timed out."), stop_reason="end_turn"),
    )
    s = stepper(script, tools=slow, limits=Limits(tool_timeout_s=0.2))
    s.run_to_end()
    assert s.run.turns[0].tools[0].is_error and "Timeout" in s.run.turns[0].tools[0].output


def _stubborn(n: int) -> Script:
    return Script(
        *[
            message(
                tool_use("get_stock_price", {"symbol": "ACME"}),
                stop_reason="tool_use",
                usage={"input_tokens": 1000, "output_tokens": 50},
            )
            for _ in range(n)
        ]
    )


@pytest.mark.parametrize(
    "limits,kind",
    [
        (Limits(max_steps=3), "step_limit"),
        (Limits(max_steps=None), "step_limit"),
        (Limits(max_total_tokens=2500), "token_budget"),
        (Limits(max_cost_usd=0.005), "cost_budget"),
        (Limits(stop_on_repeated_call=3), "repeated_call"),
        (Limits(max_tool_errors=2), "error_budget"),
        (Limits(timeout_s=0.0), "timeout"),
    ],
)
def test_each_limit_is_recorded_as_the_stop_cause(limits, kind):
    s = stepper(_stubborn(120), tools=default_specs(["get_stock_price"]), limits=limits)
    s.run_to_end()
    assert s.run.stop.kind == kind and s.run.stop.params, "the cause keeps its figures"
    assert kind.split("_")[0] in stop_text(s.run) or "time" in stop_text(s.run)
    if limits.max_steps is None and kind == "step_limit":
        assert len(s.run.turns) == 100 and "hard ceiling" in stop_text(s.run)


def test_dangerous_tool_waits_for_approval_and_a_denial_is_an_error_result():
    spec = ToolSpec(
        "delete_file",
        "Delete a file.",
        {"type": "object", "properties": {"path": {"type": "string"}}},
        needs_approval=True,
    )
    script = Script(
        message(tool_use("delete_file", {"path": "important.txt"}), stop_reason="tool_use"),
        message(text("Not deleted."), stop_reason="end_turn"),
    )
    s = stepper(script, tools=[spec])
    s.run_to_end()
    assert s.run.phase == Phase.RUN_TOOLS and [t.name for t in s.awaiting_approval] == ["delete_file"]
    s.approve(s.awaiting_approval[0].tool_use_id, False)
    s.run_to_end()
    block = script.requests[1]["messages"][2]["content"][0]
    assert block["is_error"] and "denied" in block["content"]


@pytest.mark.parametrize("bug", ["text_before_tool_result", "drop_one_tool_result"])
def test_protocol_bugs_send_what_a_buggy_program_would(bug):
    script = Script(
        message(
            tool_use("get_weather", {"city": "Oslo"}),
            tool_use("calculate", {"expression": "1+1"}),
            stop_reason="tool_use",
        ),
        message(text("x"), stop_reason="end_turn"),
    )
    stepper(script, bugs=[bug]).run_to_end()
    content = script.requests[1]["messages"][2]["content"]
    if bug == "text_before_tool_result":
        assert content[0]["type"] == "text"
    else:
        assert len(content) == 1


def test_forgetting_the_reply_resends_the_same_request():
    script = Script(*[message(tool_use("get_weather", {"city": "Oslo"}), stop_reason="tool_use") for _ in range(2)])
    stepper(script, bugs=["forget_assistant_reply"], limits=Limits(max_steps=2)).run_to_end()
    assert script.requests[0]["messages"] == script.requests[1]["messages"]


def test_iter_turns_yields_each_finished_turn_and_fork_links_runs():
    script = Script(
        message(tool_use("get_weather", {"city": "Oslo"}), stop_reason="tool_use"),
        message(text("done"), stop_reason="end_turn"),
    )
    run = Run(RunConfig(task="Weather in Oslo?", tools=WEATHER))
    turns = list(iter_turns(run, transport=script))
    assert [t.index for t in turns] == [1, 2]
    child = fork_run(run, 2)
    assert child.parent_id == run.id and child.parent_turn == 2 and len(child.turns) == 1
    assert child.messages == run.turns[1].request["messages"] and child.phase == Phase.BUILD_REQUEST


def test_run_json_round_trip_keeps_everything():
    script = Script(
        (529, ERR_529, {"retry-after-ms": "1"}),
        message(tool_use("get_weather", {"city": "Oslo"}), stop_reason="tool_use"),
        message(text("done"), stop_reason="end_turn"),
    )
    run = stepper(script).run_to_end()
    again = Run.from_dict(json.loads(json.dumps(run.to_dict())))
    assert again == run
    with pytest.raises(ValueError, match="schema_version"):
        Run.from_dict({"schema_version": 99, "run": {}})


def test_next_step_after_a_phase_finishes_only_the_current_turn():
    script = Script(
        message(tool_use("get_weather", {"city": "Oslo"}), stop_reason="tool_use"),
        message(text("done"), stop_reason="end_turn"),
    )
    s = stepper(script)
    s.next_phase()
    s.next_phase()
    turn = s.next_turn()
    assert turn.index == 1 and len(s.run.turns) == 1 and s.run.phase == Phase.BUILD_REQUEST
    assert len(script.requests) == 1


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", "The user denied permission to run delete_file"),
        ("ru", "Пользователь не разрешил"),
        ("pl", "nie zezwolił"),
    ],
)
def test_a_denial_goes_back_in_the_runs_language(lang, words):
    spec = ToolSpec("delete_file", "Delete a file.", {"type": "object"}, needs_approval=True)
    script = Script(
        message(tool_use("delete_file", {"path": "important.txt"}), stop_reason="tool_use"),
        message(text("ok"), stop_reason="end_turn"),
    )
    s = stepper(script, tools=[spec], language=lang)
    s.run_to_end()
    s.approve(s.awaiting_approval[0].tool_use_id, False)
    s.run_to_end()
    assert words in s.run.turns[0].tools[0].output and "delete_file" in s.run.turns[0].tools[0].output
    assert script.requests[1]["messages"][2]["content"][0]["content"] == s.run.turns[0].tools[0].output
