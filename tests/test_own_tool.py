"""Your own tool, for real: the tool editor holds a Python function for a new tool, its signature is held to the
schema at Apply (a clear message on a mismatch, also for a built-in function under an edited schema), and each
call runs in a child process with a time and a memory limit (agent_core/tools/user_code.py, the runner lesson 10
uses too). On a class server nothing of a learner's runs unless the class's teacher allows it, and then shut in:
no network, no file beyond Python's own (not the server's environment, not its databases), no other process.

The issue's case: rename `calculate` to `power` with {base, exponent}; Apply used to accept it and every call
then failed with "the tool has no parameter 'base'"."""

from __future__ import annotations

import json
import os

import keys
import pytest
from lab_app import APP, click, lab_of, ok, open_page, texts, widget
from scripted import Script, message, text, tool_use
from streamlit.testing.v1 import AppTest

from agent_core.files.trust import adopt
from agent_core.loop.stepper import Stepper
from agent_core.model import Limits, Run, RunConfig, ToolSpec
from agent_core.teaching.classes import ClassStore
from agent_core.tools.own_code import OWN_IMPL, OwnCode, check_source
from agent_core.tools.registry import ToolRegistry
from agent_core.tools.user_code import can_confine, run_python
from lab_ui.playground.controls import tool_from_editor
from lab_ui.serving import who

SCHEMA = {
    "type": "object",
    "properties": {
        "base": {"type": "number", "description": "The number to raise."},
        "exponent": {"type": "number", "description": "The power to raise it to."},
    },
    "required": ["base", "exponent"],
}
POWER = "def power(base, exponent):\n    return base ** exponent\n"
OWN_LABEL = "my own function (write it below)"  # the picker's option, as it reads
DESCRIPTION = "Raise a number to a power (base ** exponent) and return the result."
needs_confinement = pytest.mark.skipif(not can_confine(), reason="this kernel cannot confine (no Landlock)")


def _tool(code: str = POWER) -> ToolSpec:
    return tool_from_editor("power", DESCRIPTION, json.dumps(SCHEMA), OWN_IMPL, False, code)


def _call(spec: ToolSpec, tool_input: dict, own: OwnCode | None = None, timeout: float = 5.0, lang: str = "en"):
    with ToolRegistry([spec], tool_timeout_s=timeout, language=lang, own_code=own) as registry:
        return registry.execute(spec.name, tool_input)


# ---------------------------------------------------------------- Apply: the signature against the schema


def test_a_builtin_function_under_a_schema_it_cannot_take_is_refused_at_apply_by_name():
    with pytest.raises(ValueError) as refused:
        tool_from_editor("power", DESCRIPTION, json.dumps(SCHEMA), "calculate", False)
    said = str(refused.value)
    assert "base" in said and "exponent" in said and "expression" in said, said


@pytest.mark.parametrize(
    ("code", "words"),
    [
        ("def power(x, y):\n    return x ** y\n", ["base", "no parameter of that name", "` x `, ` y `"]),
        ("def power(base, exponent, modulo):\n    return 1\n", ["modulo", "does not have"]),
        ("def power(base, exponent:\n    return 1\n", ["syntax error on line 1"]),
        ("x = 1\n", ["defines no function"]),
        ("def a(base, exponent):\n    return 1\ndef b():\n    return 2\n", ["several functions", "power"]),
        ("def power(base, exponent, /):\n    return 1\n", ["only by position"]),
    ],
)
def test_own_code_that_does_not_fit_the_schema_is_refused_with_what_to_change(code: str, words: list[str]):
    with pytest.raises(ValueError) as refused:
        _tool(code)
    for word in words:
        assert word in str(refused.value), str(refused.value)


def test_a_parameter_the_schema_does_not_require_is_a_warning_not_a_refusal():
    loose = {**SCHEMA, "required": ["base"]}
    spec = tool_from_editor("power", DESCRIPTION, json.dumps(loose), OWN_IMPL, False, POWER)
    assert spec.code == POWER
    (warning,) = check_source(POWER, "power", loose)
    assert warning.code == "not_required" and not warning.blocking and warning.values["param"] == "exponent"


def test_extra_keyword_arguments_and_defaults_fit():
    assert not check_source("def power(base, **rest):\n    return base\n", "power", SCHEMA)
    assert not check_source("def power(base, exponent, modulo=None):\n    return 1\n", "power", SCHEMA)


# ---------------------------------------------------------------- a call: in a child process, with limits


def test_the_learners_function_answers_the_call_in_a_child_process():
    spec = _tool()
    outcome = _call(spec, {"base": 2, "exponent": 10})
    assert (outcome.output, outcome.is_error) == ("1024", False)
    data = _call(
        _tool("def power(base, exponent):\n    return {'value': base ** exponent}\n"), {"base": 3, "exponent": 2}
    )
    assert json.loads(data.output) == {"value": 9}
    pid = _call(_tool("import os\ndef power(base, exponent):\n    return os.getpid()\n"), {"base": 1, "exponent": 1})
    assert int(pid.output) != os.getpid(), "the app never executes the learner's code itself"


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_an_error_in_the_function_comes_back_as_an_error_result_with_its_line(lang: str):
    spec = _tool("def power(base, exponent):\n    scale = 0\n    return base / scale\n")
    outcome = _call(spec, {"base": 2, "exponent": 1}, lang=lang)
    assert outcome.is_error and "ZeroDivisionError" in outcome.output
    assert ("line 3" if lang == "en" else "строка 3") in outcome.output, outcome.output


def test_an_endless_loop_and_a_memory_hog_are_stopped_by_their_limits():
    endless = _call(
        _tool("def power(base, exponent):\n    while True:\n        pass\n"), {"base": 1, "exponent": 1}, timeout=1
    )
    assert endless.is_error and "took longer than 1.0 s" in endless.output
    hog = _call(_tool("def power(base, exponent):\n    return len('x' * 10**9)\n"), {"base": 1, "exponent": 1})
    assert hog.is_error and "memory" in hog.output, hog.output


def test_a_print_flood_is_stopped_without_filling_the_apps_memory():
    result = run_python("while True:\n    print('x' * 10000)\n", "report(1)", timeout_s=20)
    assert result.limit == "output" and len(result.printed) <= 64_000


def test_a_wrong_input_is_refused_before_anything_runs():
    outcome = _call(_tool("def power(base, exponent):\n    raise SystemExit('ran')\n"), {"base": 2})
    assert outcome.is_error and "exponent" in outcome.output and "ran" not in outcome.output


def test_a_raising_a_looping_and_a_hogging_function_are_tool_errors_the_model_sees_and_the_run_goes_on():
    code = (
        "def power(base, exponent):\n"
        "    if base == 1:\n        raise ValueError('no ones, please')\n"
        "    if base == 2:\n        while True:\n            pass\n"
        "    return len('x' * 10**9)\n"
    )
    calls = [tool_use("power", {"base": b, "exponent": 2}) for b in (1, 2, 3)]
    script = Script(
        *(message(call, stop_reason="tool_use") for call in calls),
        message(text("All three failed."), stop_reason="end_turn"),
    )
    run = Run(RunConfig(task="Powers", tools=[_tool(code)], limits=Limits(tool_timeout_s=1)))
    stepper = Stepper(run, transport=script, own_code=OwnCode.RUN)
    stepper.run_to_end()
    sent = [script.requests[i]["messages"][-1]["content"][0] for i in (1, 2, 3)]
    assert all(block["is_error"] is True for block in sent), sent
    raised, looped, hogged = (block["content"] for block in sent)
    assert "ValueError: no ones, please" in raised and "line 3" in raised, raised
    assert "took longer than 1.0 s" in looped, looped
    assert "more memory than its limit" in hogged, hogged
    assert run.stop is not None and run.stop.kind == "end_turn" and len(run.turns) == 4


def test_a_recorded_runs_own_code_does_not_run_until_the_learner_reviews_it():
    recorded = RunConfig(task="Powers", tools=[_tool("import os\ndef power(base, exponent):\n    os.remove('x')\n")])
    adopted = adopt(recorded, RunConfig(task="my own task"))
    assert adopted.config.tools == [] and [s.code for s in adopted.unreviewed_tools] == [recorded.tools[0].code]


# ---------------------------------------------------------------- a class server


def test_a_class_server_runs_no_learner_code_unless_told(monkeypatch):
    monkeypatch.setenv("AGENT_LOOP_LAB_MODE", "class")
    outcome = _call(_tool(), {"base": 2, "exponent": 10})  # the registry's default on a class server: off
    assert outcome.is_error and "teacher allows" in outcome.output and "1024" not in outcome.output


@needs_confinement
def test_confined_code_reads_no_secret_opens_no_socket_and_starts_no_process(monkeypatch, tmp_path):
    canary = "canary-" + "q" * 24
    monkeypatch.setenv("ANTHROPIC_API_KEY", canary)  # the server's environment, which /proc would show
    runs_db = tmp_path / "runs.db"
    runs_db.write_text("another learner's run")
    attempts = {
        "environ": "open(f'/proc/{os.getppid()}/environ', 'rb').read()",
        "database": f"open({str(runs_db)!r}).read()",
        "network": "socket.create_connection(('127.0.0.1', 9))",
        "unix socket": "socket.socket(socket.AF_UNIX)",
        "process": "subprocess.run(['true'])",
        "signal": "os.kill(os.getppid(), 0)",
        "write": "open('/tmp/own-tool-wrote', 'w')",
    }
    for what, line in attempts.items():
        code = f"import os, socket, subprocess\ndef power(base, exponent):\n    return repr({line})\n"
        outcome = _call(_tool(code), {"base": 1, "exponent": 1}, own=OwnCode.CONFINED)
        assert outcome.is_error and ("Permission" in outcome.output or "not permitted" in outcome.output), (
            what,
            outcome.output,
        )
        assert canary not in outcome.output
    fine = _call(
        _tool("import math, json\ndef power(base, exponent):\n    return math.pow(base, exponent)\n"),
        {"base": 2, "exponent": 3},
        own=OwnCode.CONFINED,
    )
    assert fine.output == "8.0", "confined, the standard library still works"


@needs_confinement
def test_a_class_server_confines_the_child_whatever_the_caller_asked(monkeypatch):
    monkeypatch.setenv("AGENT_LOOP_LAB_MODE", "class")
    result = run_python("import socket\n", "report(repr(socket.socket()))", confine=False)
    assert not result.ok and "not permitted" in result.error


# ---------------------------------------------------------------- the editor on the Playground (AppTest)


def _edit_first_tool(at, impl: str, schema: dict, code: str | None = None) -> None:
    widget(at, "cfg-tool-impl").set_value(impl).run()
    ok(at)
    widget(at, "cfg-tool-name").set_value("power")
    widget(at, "cfg-tool-description").set_value(DESCRIPTION)
    widget(at, "cfg-tool-schema").set_value(json.dumps(schema))
    if code is not None:
        widget(at, "own-code-editor").set_value(code)
    click(at, "cfg-tool-apply")


def test_the_playground_runs_a_tool_written_in_the_editor(app_env):
    at = open_page()
    widget(at, keys.TASK).set_value("What is 2 to the power of 10?").run()
    _edit_first_tool(at, "calculate", SCHEMA)  # the case: refused at Apply, and said why
    assert "base" in texts(at.error) and lab_of(at).config.tools[0].name != "power"
    _edit_first_tool(at, OWN_IMPL, SCHEMA, POWER)
    assert not at.error, texts(at.error)
    tool = lab_of(at).config.tools[0]
    assert (tool.name, tool.impl, tool.code) == ("power", OWN_IMPL, POWER)
    assert "process of its own" in texts(at.caption)
    click(at, keys.RUN_TO_END)
    ran = [x for turn in lab_of(at).run.turns for x in turn.tools]
    assert [(x.name, x.output, x.is_error) for x in ran] == [("power", "1024", False)]


def _as(monkeypatch, at, me: str):
    """Run the AppTest as the browser whose identity cookie names `me` (tests/security/test_class_app.py does so)."""
    monkeypatch.setattr(who, "from_cookie", lambda: me)
    at.run()
    ok(at)
    return at


def _open(monkeypatch, me: str, page: str, **params: str):
    at = AppTest.from_file(APP, default_timeout=90)
    for name, value in params.items():
        at.query_params[name] = value
    _as(monkeypatch, at, me)
    at.switch_page(page)
    return _as(monkeypatch, at, me)


def test_on_a_class_server_own_code_is_off_and_says_why_until_the_teacher_allows_it(app_env, monkeypatch):
    monkeypatch.setenv("AGENT_LOOP_LAB_MODE", "class")
    teacher, ada = "7eac4e7000000000", "ada0000000000000"
    store = ClassStore()
    made = store.create("Group B")
    store.join(made.code, ada, "Ada")
    at = _open(monkeypatch, ada, "pages/playground.py")
    assert OWN_LABEL not in widget(at, "cfg-tool-impl").options
    assert "only when the teacher allows it" in texts(at.info)
    board = _open(monkeypatch, teacher, "pages/teacher.py", **{"class": made.code, "teacher": made.teacher_key})
    switch = board.toggle(key="teacher:own-code")
    if not can_confine():  # a server that cannot shut code in offers no switch to turn on
        assert switch.disabled and not switch.value
        return
    switch.set_value(True)
    _as(monkeypatch, board, teacher)
    assert store.own_code_on(made.code)
    at = _open(monkeypatch, ada, "pages/playground.py")
    widget(at, keys.TASK).set_value("What is 2 to the power of 10?")
    _edit_first_tool(at, OWN_IMPL, SCHEMA, POWER)
    assert "shut in" in texts(at.caption) and not at.error
    at.button(key=keys.RUN_TO_END).click()
    _as(monkeypatch, at, ada)
    ran = [x for turn in lab_of(at).run.turns for x in turn.tools]
    assert [(x.name, x.output, x.is_error) for x in ran] == [("power", "1024", False)]
