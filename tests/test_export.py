"""Export/import of runs, the runnable script, and the OpenAI form of a turn."""

from __future__ import annotations

import ast
import dataclasses
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agent_core import model
from agent_core.files.export import (
    SCHEMA_PATH,
    RunImportError,
    export_json,
    import_json,
)
from agent_core.files.export_script import to_python_script
from agent_core.model import Exchange, Run, RunConfig, StopCause, ToolExecution, ToolSpec, Turn, Usage
from agent_core.wire.openai_form import to_openai_messages, to_openai_response

CANARY = "sk-ant-" + "api03-CANARYcanary0123456789abcdefXYZ"  # split: no key-shaped literal in the repository
WEATHER = ToolSpec(
    "get_weather",
    "Current weather for a city.",
    {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
)
CALC = ToolSpec("calculator", "Arithmetic.", {"type": "object", "properties": {"expression": {"type": "string"}}})
PARALLEL_REPLY = {
    "id": "msg_1",
    "type": "message",
    "role": "assistant",
    "model": "claude-sonnet-4-6",
    "content": [
        {"type": "thinking", "thinking": "two cities", "signature": "sig"},
        {"type": "text", "text": "Checking both cities."},
        {"type": "tool_use", "id": "toolu_a", "name": "get_weather", "input": {"city": "Paris"}},
        {"type": "tool_use", "id": "toolu_b", "name": "get_weather", "input": {"city": "Łódź"}},
    ],
    "stop_reason": "tool_use",
    "stop_sequence": None,
    "usage": {
        "input_tokens": 500,
        "output_tokens": 60,
        "cache_creation_input_tokens": 0,
        "cache_read_input_tokens": 40,
    },
}
PARALLEL_REQUEST = {
    "model": "claude-sonnet-4-6",
    "max_tokens": 1024,
    "system": [{"type": "text", "text": "You are helpful.", "cache_control": {"type": "ephemeral"}}],
    "tools": [WEATHER.definition(), CALC.definition()],
    "tool_choice": {"type": "auto", "disable_parallel_tool_use": False},
    "stop_sequences": ["STOP"],
    "messages": [
        {"role": "user", "content": "Weather in Paris and Łódź?"},
        {"role": "assistant", "content": PARALLEL_REPLY["content"]},
        {
            "role": "user",
            "content": [
                {"type": "tool_result", "tool_use_id": "toolu_a", "content": "18°C"},
                {
                    "type": "tool_result",
                    "tool_use_id": "toolu_b",
                    "content": [{"type": "text", "text": "city not found"}],
                    "is_error": True,
                },
                {"type": "text", "text": "Be brief."},
            ],
        },
    ],
}


def sample_run() -> Run:
    run = Run(config=RunConfig(task="Weather in Paris and Łódź?", tools=[WEATHER, CALC]), title="two cities")
    run.turns = [
        Turn(
            index=1,
            request=PARALLEL_REQUEST,
            response=PARALLEL_REPLY,
            exchanges=[
                Exchange(
                    "POST",
                    "http://x.invalid/v1/messages",
                    {"a": "b"},
                    b"{}",
                    200,
                    {"request-id": "req_1"},
                    b"\x00\xffraw",
                    3.0,
                    0,
                )
            ],
            tools=[
                ToolExecution("toolu_a", "get_weather", {"city": "Paris"}, "18°C"),
                ToolExecution("toolu_b", "get_weather", {"city": "Łódź"}, "city not found", True),
            ],
            usage=Usage(500, 60, 0, 40),
            cost_usd=0.0021,
            stop_reason="tool_use",
        )
    ]
    run.stop = StopCause("step_limit", {"limit": 5})
    return run


def exported(**changes) -> dict:
    """A valid export with some nested values replaced (path "a.b.0.c" -> value)."""
    doc = json.loads(export_json(sample_run()))
    for path, value in changes.items():
        *parents, last = path.split("__")
        node = doc
        for part in parents:
            node = node[int(part)] if part.isdigit() else node[part]
        node[int(last) if last.isdigit() else last] = value
    return doc


# -- JSON export / import -------------------------------------------------------------------
def test_export_import_round_trip_keeps_everything_but_the_id():
    run = sample_run()
    back = import_json(export_json(run))
    assert back.id != run.id
    assert dataclasses.replace(back, id=run.id) == run
    assert import_json(export_json(run), keep_id=True) == run


def test_export_uses_exactly_the_run_models_encoding():
    run = sample_run()
    assert json.loads(export_json(run)) == run.to_dict()


def test_export_is_pretty_utf8_json_in_the_versioned_format():
    data = export_json(sample_run())
    text = data.decode("utf-8")
    assert "Łódź" in text and "\n  " in text
    assert json.loads(text)["schema_version"] == model.SCHEMA_VERSION


def test_export_never_contains_a_key():
    run = sample_run()
    run.config.task = f"use {CANARY}"
    run.turns[0].exchanges[0].request_headers = {"authorization": f"Bearer {CANARY}", "x-api-key": CANARY}
    run.turns[0].exchanges[0].response_body = b"\xff" + CANARY.encode()
    data = export_json(run)
    assert b"CANARYcanary" not in data
    assert b"CANARYcanary" not in to_python_script(run).encode()


@pytest.mark.parametrize(
    "data, expected",
    [
        (b"x" * 101, "larger than"),
        (b"\xff\xfe{}", "not UTF-8"),
        (b'{"schema_version": 1,\n "run": }', "not valid JSON: Expecting value at line 2, column 9"),
        (b"[1, 2]", "holds an array, not a run export"),
        (b'{"run": {}}', "no schema_version"),
        (b'{"schema_version": 99, "run": {}}', "newer Agent Loop Lab"),
        (b'{"schema_version": 0, "run": {}}', "old run format v0"),
        (b'{"schema_version": "1", "run": {}}', "whole number"),
        (b'{"schema_version": 1, "run": {"config": {"task": NaN}}}', "NaN"),
        (b"[" * 50_000, "nested too deeply"),
        (b'{"schema_version": 1}', "(top level): 'run' is a required property"),
    ],
)
def test_import_rejects_bad_files_with_clear_messages(data, expected):
    with pytest.raises(RunImportError) as info:
        import_json(data, max_bytes=100 if len(data) == 101 else 20_000_000)
    assert expected in str(info.value)


@pytest.mark.parametrize(
    "changes, expected",
    [
        ({"run__turns__0__usage__input_tokens": "x"}, "run.turns[0].usage.input_tokens: 'x' is not of type 'integer'"),
        ({"run__turns__0__exchanges__0__request_body": {"hex": "00"}}, "run.turns[0].exchanges[0].request_body"),
        ({"run__turns__0__exchanges__0__response_body": {"base64": "not base64!"}}, "does not match"),
        (
            {"run__messages__0__role": "tool"},
            "run.messages[0].role: 'tool' is not one of",
        ),  # system: a recorded run may hold one
        ({"run__config__limits__max_steps": -1}, "run.config.limits.max_steps: -1 is less than the minimum"),
        ({"run__phase": "thinking"}, "run.phase"),
        ({"run__turns__0__tools__0__approval": "maybe"}, "run.turns[0].tools[0].approval"),
    ],
)
def test_import_names_the_path_of_a_schema_violation(changes, expected):
    with pytest.raises(RunImportError) as info:
        import_json(json.dumps(exported(**changes)).encode())
    assert expected in str(info.value)


def test_missing_required_field_is_named():
    doc = exported()
    del doc["run"]["config"]["task"]
    with pytest.raises(RunImportError, match=r"run\.config: 'task' is a required property"):
        import_json(json.dumps(doc).encode())


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(st.binary(max_size=400))
def test_arbitrary_bytes_raise_only_run_import_error(data):
    try:
        import_json(data)
    except RunImportError:
        pass


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(
    st.sampled_from(
        [
            "run",
            "run__config",
            "run__turns__0",
            "run__turns__0__exchanges__0",
            "run__stop",
            "run__turns__0__tools__0",
            "run__messages__0",
            "run__turns__0__usage",
            "run__config__tools__0",
        ]
    ),
    st.text(max_size=20),
    json_values,
)
def test_damaged_exports_raise_only_run_import_error(where, key, value):
    doc = exported()
    node = doc
    for part in where.split("__"):
        node = node[int(part)] if part.isdigit() else node[part]
    node[key if key else "config"] = value
    try:
        import_json(json.dumps(doc).encode())
    except RunImportError:
        pass


def test_schema_covers_every_field_of_the_run_model():
    # A field added to model.py must be described in the schema (or it is never validated on import).
    defs = json.loads(SCHEMA_PATH.read_text())["$defs"]
    pairs = {
        "run": model.Run,
        "config": model.RunConfig,
        "turn": model.Turn,
        "exchange": model.Exchange,
        "toolExecution": model.ToolExecution,
        "usage": model.Usage,
        "apiError": model.ApiError,
        "stop": model.StopCause,
        "limits": model.Limits,
        "sim": model.SimSettings,
        "toolSpec": model.ToolSpec,
    }
    for name, cls in pairs.items():
        missing = {f.name for f in dataclasses.fields(cls)} - set(defs[name]["properties"])
        assert not missing, f"{name} lacks {missing}"


# -- OpenAI form --------------------------------------------------------------------------------
def test_parallel_tools_turn_in_openai_form():
    out = to_openai_messages(PARALLEL_REQUEST)
    msgs = out["messages"]
    assert [m["role"] for m in msgs] == ["system", "user", "assistant", "tool", "tool", "user"]
    assert msgs[0]["content"] == "You are helpful."
    assistant = msgs[2]
    assert assistant["content"] == "Checking both cities."
    assert assistant["tool_calls"] == [
        {"id": "toolu_a", "type": "function", "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'}},
        {"id": "toolu_b", "type": "function", "function": {"name": "get_weather", "arguments": '{"city": "Łódź"}'}},
    ]
    assert json.loads(assistant["tool_calls"][1]["function"]["arguments"]) == {"city": "Łódź"}
    assert msgs[3] == {"role": "tool", "tool_call_id": "toolu_a", "content": "18°C"}
    assert msgs[4] == {"role": "tool", "tool_call_id": "toolu_b", "content": "Error: city not found"}
    assert msgs[5] == {"role": "user", "content": "Be brief."}
    assert out["tools"][0] == {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "Current weather for a city.",
            "parameters": WEATHER.input_schema,
        },
    }
    assert (out["model"], out["max_tokens"], out["stop"], out["tool_choice"]) == (
        "claude-sonnet-4-6",
        1024,
        ["STOP"],
        "auto",
    )
    assert "parallel_tool_calls" not in out


@pytest.mark.parametrize(
    "choice, expected",
    [
        ({"type": "any"}, {"tool_choice": "required"}),
        ({"type": "none"}, {"tool_choice": "none"}),
        (
            {"type": "tool", "name": "calculator", "disable_parallel_tool_use": True},
            {"tool_choice": {"type": "function", "function": {"name": "calculator"}}, "parallel_tool_calls": False},
        ),
    ],
)
def test_tool_choice_in_openai_form(choice, expected):
    out = to_openai_messages({**PARALLEL_REQUEST, "tool_choice": choice})
    assert {k: out[k] for k in expected} == expected


def test_tool_only_assistant_message_has_null_content():
    request = {
        "model": "m",
        "system": "s",
        "messages": [
            {"role": "user", "content": [{"type": "text", "text": "hi"}]},
            {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "calculator", "input": {}}]},
        ],
    }
    msgs = to_openai_messages(request)["messages"]
    assert msgs[1] == {"role": "user", "content": "hi"}
    assert msgs[2]["content"] is None and msgs[2]["tool_calls"][0]["function"]["arguments"] == "{}"


@pytest.mark.parametrize(
    "stop, finish",
    [("tool_use", "tool_calls"), ("end_turn", "stop"), ("max_tokens", "length"), ("refusal", "content_filter")],
)
def test_response_in_openai_form(stop, finish):
    out = to_openai_response({**PARALLEL_REPLY, "stop_reason": stop})
    choice = out["choices"][0]
    assert choice["finish_reason"] == finish
    assert choice["message"]["content"] == "Checking both cities."
    assert [c["id"] for c in choice["message"]["tool_calls"]] == ["toolu_a", "toolu_b"]
    assert out["usage"] == {"prompt_tokens": 540, "completion_tokens": 60, "total_tokens": 600}


def test_text_only_response_has_no_tool_calls_key():
    reply = {**PARALLEL_REPLY, "content": [{"type": "text", "text": "Done."}], "stop_reason": "end_turn"}
    message = to_openai_response(reply)["choices"][0]["message"]
    assert message == {"role": "assistant", "content": "Done."}


# -- the script (static checks; the end-to-end run is in test_exported_script_*) -----------------
def test_script_is_valid_python_with_the_recorded_data():
    run = sample_run()
    run.config.task = 'Tricky """ task\r\nwith \x00 odd characters'
    source = to_python_script(run)
    tree = ast.parse(source)
    assignments = {
        node.targets[0].id: ast.literal_eval(node.value)
        for node in tree.body
        if isinstance(node, ast.Assign) and node.targets[0].id in ("PARAMS", "START_MESSAGES", "MAX_STEPS", "RECORDED")
    }
    assert assignments["PARAMS"]["model"] == "claude-sonnet-4-6"
    assert assignments["PARAMS"]["tools"] == PARALLEL_REQUEST["tools"]
    assert "messages" not in assignments["PARAMS"]
    assert assignments["START_MESSAGES"] == PARALLEL_REQUEST["messages"]
    assert assignments["MAX_STEPS"] == run.config.limits.effective_max_steps
    assert assignments["RECORDED"][("get_weather", '{"city":"Łódź"}')] == [("city not found", True)]
    assert "eval(" not in source and "exec(" not in source


# -- end to end: the real loop, the offline model over HTTP, the shipped examples --------------------
def _recorded_run(name: str) -> Run:
    """Run a shipped scenario live with the loop and the offline model (in-process)."""
    from agent_core.examples import load_scenarios
    from agent_core.examples.__main__ import record

    return record(name, load_scenarios()[name])


@pytest.mark.parametrize("name", ["weather_and_calculator", "stubborn_runaway"])
def test_exported_script_replays_the_run_against_the_offline_server(name, tmp_path):
    import os
    import subprocess
    import sys

    from agent_core.sim import start_server

    run = _recorded_run(name)
    assert run.final_text, "the scenario should end with some text to compare"
    script = tmp_path / "replay.py"
    script.write_text(to_python_script(run), encoding="utf-8")
    server, base_url = start_server(run.config.sim)
    try:
        env = {k: v for k, v in os.environ.items() if not k.startswith("ANTHROPIC_")}
        env["ANTHROPIC_BASE_URL"] = base_url
        done = subprocess.run(
            [sys.executable, str(script)], capture_output=True, text=True, env=env, timeout=120, cwd=tmp_path
        )
    finally:
        server.shutdown()
    assert done.returncode == 0, done.stderr
    printed = done.stdout.split("=== Final answer ===\n", 1)[1].rstrip("\n")
    assert printed == run.final_text
    assert done.stdout.count("--- turn ") == len(run.turns)


def test_script_without_key_or_base_url_says_what_to_set(tmp_path):
    import os
    import subprocess
    import sys

    script = tmp_path / "replay.py"
    script.write_text(to_python_script(sample_run()), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith("ANTHROPIC_")}
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode != 0
    assert "ANTHROPIC_API_KEY" in done.stderr


def test_shipped_examples_load_and_end_as_their_lesson_needs(tmp_path):
    from agent_core.examples import list_examples, load_example, load_scenarios
    from agent_core.storage.store import RunStore

    scenarios = load_scenarios()
    names = [name for name, _ in list_examples()]
    assert sorted(names) == sorted(scenarios), "run `python -m agent_core.examples` to regenerate"
    store = RunStore(tmp_path / "runs.db")
    for name in names:
        run = load_example(name)
        assert run.id == f"example-{name}" and run.title == scenarios[name]["title"]
        assert run.stop.kind == scenarios[name]["expect_stop"]
        assert run.turns and all(t.exchanges and t.usage for t in run.turns)
        for turn in run.turns:  # every tool call the model made was run and answered
            assert [c["id"] for c in turn.tool_calls] == [x.tool_use_id for x in turn.tools]
        store.save_run(run)
        assert store.load(run.id) == run
    with pytest.raises(KeyError, match="available"):
        load_example("no_such_example")
