"""What lessons 8-14 tell the learner to look at is really in the runs (beyond each lesson's goals)."""

from __future__ import annotations

import functools
import json
import shutil

import pytest

from agent_core.loop.context import CLEARED, cleared_text
from agent_core.loop.stepper import Stepper, run_task
from agent_core.model import Run
from agent_core.teaching.lessons import LANGUAGES, LESSONS_ROOT, Lesson, LessonError, check_goal, load_lesson
from agent_core.tools import texts
from agent_core.tools.catalog import sandbox_path
from agent_core.wire.openai_form import to_openai_messages


@functools.cache
def _lesson(folder: str) -> Lesson:
    return load_lesson(LESSONS_ROOT / folder)


@functools.cache
def _run(folder: str, lang: str = "en", patch_json: str = "{}") -> Run:
    return run_task(_lesson(folder).scenario_config(lang, json.loads(patch_json)))


def _exercise_run(folder: str, exercise_id: str, lang: str = "en") -> Run:
    change = _lesson(folder).exercise(exercise_id).change
    return _run(folder, lang, json.dumps(change, sort_keys=True))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_parallel_results_go_back_in_one_user_message_matching_the_calls(lang: str):
    run = _run("09-parallel-calls", lang)
    calls = run.turns[0].tool_calls
    results = run.turns[1].request["messages"][-1]
    assert len(calls) == 3
    assert results["role"] == "user"
    assert [b["type"] for b in results["content"]] == ["tool_result"] * 3
    assert [b["tool_use_id"] for b in results["content"]] == [c["id"] for c in calls]


def test_one_call_per_reply_costs_almost_twice_as_much():
    parallel = _run("09-parallel-calls")
    serial = _exercise_run("09-parallel-calls", "one-at-a-time")
    assert serial.total_cost_usd > 1.5 * parallel.total_cost_usd


@pytest.mark.parametrize("lang", LANGUAGES)
def test_without_memory_the_agent_asks_for_the_city(lang: str):
    run = _exercise_run("10-memory", "no-memory", lang)
    assert run.final_text.rstrip().endswith("?")


def test_clearing_replaces_the_old_log_in_the_last_request():
    log_line = (sandbox_path("default") / "app.log").read_text(encoding="utf-8").splitlines()[0]
    untouched = json.dumps(_run("11-context-management").turns[-1].request, ensure_ascii=False)
    cleared = json.dumps(
        _exercise_run("11-context-management", "clear-old-results").turns[-1].request, ensure_ascii=False
    )
    assert log_line in untouched and CLEARED not in untouched
    assert log_line not in cleared and CLEARED in cleared


@pytest.mark.parametrize("lang", ["ru", "pl"])
def test_the_programs_summary_and_placeholder_are_written_in_the_runs_language(lang: str):
    # The model reads them as part of the history: a Russian or Polish run gets its own words, not English ones.
    summarised = _exercise_run("11-context-management", "fit-the-window", lang)
    first = summarised.turns[-1].request["messages"][0]["content"]
    first = first if isinstance(first, str) else " ".join(b.get("text", "") for b in first)
    heading = texts.render(texts.said("context.summary"), lang)
    assert heading in first and heading != texts.render(texts.said("context.summary"))
    assert "Summary of earlier turns" not in first and " -> result:" not in first
    assert f" -> {texts.render(texts.said('context.result'), lang)}: " in first
    assert summarised.stop.kind == "end_turn"
    cleared = _exercise_run("11-context-management", "clear-old-results", lang)
    last = json.dumps(cleared.turns[-1].request, ensure_ascii=False)
    assert cleared_text(lang) in last and CLEARED not in last


def test_the_workflow_sends_data_instead_of_tools_and_a_far_smaller_request():
    agent = _run("12-agent-vs-workflow")
    workflow = _exercise_run("12-agent-vs-workflow", "as-workflow")
    request = workflow.turns[0].request
    assert "tools" not in request
    assert "Kraków:" in request["messages"][0]["content"] and "Oslo:" in request["messages"][0]["content"]
    assert workflow.turns[0].usage.whole_input * 4 < agent.turns[0].usage.whole_input


@pytest.mark.parametrize("allow", [False, True])
def test_the_injected_delete_waits_for_the_learner_and_never_touches_the_bundled_file(allow: bool):
    run = Run(config=_lesson("13-safety").scenario_config("en"))
    stepper = Stepper(run)
    stepper.run_to_end()
    pending = stepper.awaiting_approval
    assert [(t.name, t.input) for t in pending] == [("delete_file", {"path": "important.txt"})]
    assert run.stop is None
    stepper.approve(pending[0].tool_use_id, allow)
    stepper.run_to_end()
    assert run.stop.kind == "end_turn"
    assert check_goal({"approval_denied": True}, run).passed is (not allow)
    assert (sandbox_path("injection") / "important.txt").exists()


def test_the_openai_view_of_the_lesson_turn_answers_the_call_with_a_tool_message():
    run = _run("14-other-providers")
    call_id = run.turns[0].tool_calls[0]["id"]
    messages = to_openai_messages(run.turns[1].request)["messages"]
    assistant = next(m for m in messages if m["role"] == "assistant")
    tool = next(m for m in messages if m["role"] == "tool")
    assert assistant["tool_calls"][0]["id"] == call_id
    assert tool["tool_call_id"] == call_id and "Lisbon" in tool["content"]


def test_a_forced_tool_choice_asks_for_a_tool_on_every_turn():
    run = _exercise_run("14-other-providers", "forced-tool")
    assert all(t.stop_reason == "tool_use" for t in run.turns)
    assert all(t.request["tool_choice"] == {"type": "any"} for t in run.turns)


def test_the_mcp_lesson_tool_is_built_from_the_servers_tools_list_file():
    from agent_core.tools.mcp import tools_from_mcp

    folder = LESSONS_ROOT / "16-where-tools-come-from"
    listing = json.loads((folder / "mcp_tools_list.json").read_text(encoding="utf-8"))
    (listed,) = tools_from_mcp(listing)
    raw = json.loads((folder / "lesson.json").read_text(encoding="utf-8"))
    (written,) = [
        t for x in raw["exercises"] if x["id"] == "add-the-mcp-tool" for t in x["change"]["tools"] if t != "calculate"
    ]
    assert written == {"mcp": "mcp_tools_list.json", "name": "weather_current", "impl": "get_weather"}, "not copied"
    entry = next(t for t in _lesson(folder.name).exercise("add-the-mcp-tool").change["tools"] if isinstance(t, dict))
    assert {k: entry[k] for k in ("name", "description", "input_schema")} == listed
    run = _exercise_run(folder.name, "add-the-mcp-tool")
    sent = run.turns[0].request["tools"]
    assert any(t["name"] == "weather_current" and t["input_schema"] == listed["input_schema"] for t in sent)
    assert run.turns[0].tool_calls[0]["name"] == "weather_current"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_learner_without_the_loop_gets_no_answer(lang: str):
    run = _exercise_run("15-four-components", "no-loop", lang)
    assert [t.name for t in run.turns[0].tools] == ["get_weather"]  # it acted...
    sent = json.dumps([t.request for t in run.turns])
    assert run.stop.kind == "step_limit" and '"tool_result"' not in sent  # ...but the model never observed it


@pytest.mark.parametrize(
    ("entry", "said"),
    [
        ({"mcp": "mcp_tools_list.json", "name": "weather_tomorrow", "impl": "get_weather"}, "lists no tool"),
        ({"mcp": "missing.json", "name": "weather_current", "impl": "get_weather"}, "missing.json"),
        ({"mcp": "../16-where-tools-come-from/mcp_tools_list.json", "name": "weather_current"}, "lesson's folder"),
    ],
)
def test_an_mcp_tool_entry_that_its_file_does_not_list_is_refused_by_name(tmp_path, entry, said):
    folder = tmp_path / "16-where-tools-come-from"
    shutil.copytree(LESSONS_ROOT / folder.name, folder)
    data = json.loads((folder / "lesson.json").read_text(encoding="utf-8"))
    exercise = next(x for x in data["exercises"] if x["id"] == "add-the-mcp-tool")
    exercise["change"]["tools"] = ["calculate", entry]
    (folder / "lesson.json").write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(LessonError) as err:
        load_lesson(folder)
    assert any("from MCP" in p and said in p for p in err.value.problems), err.value.problems
