"""A run shared by link: read-only for others, never with its own settings; "Make my copy" continues it as theirs."""

import pytest
from keys import RETRY_STEP, STEP_BUTTONS
from lab_app import APP, click, widget
from streamlit.testing.v1 import AppTest

from agent_core.files.share import own_copy
from agent_core.loop.stepper import Stepper
from agent_core.model import Limits, Run, RunConfig, SimSettings, ToolSpec
from agent_core.storage.store import RunStore
from agent_core.tools.catalog import default_specs
from agent_core.vocab import StopKind

ELSEWHERE = "http://127.0.0.1:9/not-my-server"


pytestmark = pytest.mark.usefixtures("app_env")  # its own runs database, no key from the environment


def _finished_run(
    turns_wanted: int = 99, task: str = "What's the weather in Oslo, and what is 2 to the power of 16?"
) -> Run:
    """An offline run of two or more turns, saved; then dressed as someone else's: their server, sandbox and a
    delete tool set to run without asking."""
    config = RunConfig(
        task=task,
        tools=default_specs(["get_weather", "calculate", "delete_file"]),
        limits=Limits(max_steps=turns_wanted),
    )
    run = Run(config=config)
    Stepper(run).run_to_end()
    run.config.provider, run.config.base_url, run.config.model = "compatible", ELSEWHERE, "their-model"
    run.config.sandbox = "/etc"
    for spec in run.config.tools:
        spec.needs_approval = False
    with RunStore() as store:
        store.save_run(run)
    return run


def test_my_copy_keeps_the_conversation_and_takes_none_of_the_risky_settings():
    shared = _finished_run()
    shared.config.tools.append(ToolSpec("lookup", "Looks things up.", {"type": "object"}, impl="get_weather"))
    mine = RunConfig(task="anything", limits=Limits(max_steps=7), sandbox=None)
    copy, unreviewed = own_copy(shared, mine)
    assert copy.id != shared.id and (copy.parent_id, copy.parent_turn) == (shared.id, len(shared.turns) + 1)
    assert [t.response for t in copy.turns] == [t.response for t in shared.turns]
    assert copy.messages == shared.messages and copy.messages is not shared.messages
    assert (copy.config.provider, copy.config.base_url, copy.config.sandbox) == ("offline", None, None)
    assert copy.config.limits == Limits(max_steps=7)  # the viewer's limits, not the shared run's
    assert copy.config.task == shared.config.task
    approvals = {s.name: s.needs_approval for s in copy.config.tools}
    assert approvals == {"get_weather": False, "calculate": False, "delete_file": True}
    assert [s.name for s in unreviewed] == ["lookup"]  # not built-in: left out until the viewer reviews it
    assert shared.config.base_url == ELSEWHERE and shared.config.sandbox == "/etc"  # the shared run is unchanged


def _open_shared(run_id: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["run"] = run_id
    at.query_params["view"] = "shared"
    at.run()
    at.switch_page("pages/playground.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_a_shared_link_opens_read_only_and_my_copy_runs_on_my_settings():
    shared = _finished_run(turns_wanted=1, task="What's the weather in Lisbon?")  # the step limit stops it
    at = _open_shared(shared.id)
    assert any("shared with you" in i.value for i in at.info)
    assert all(widget(at, key).disabled for key in STEP_BUTTONS)  # read-only: nothing calls the model
    assert not any(b.key == "fork" for b in at.button)  # no re-run from a turn on someone else's settings
    assert not any(ELSEWHERE in i.value for i in at.text_input)  # the viewer's settings stay their own
    assert widget(at, "cfg-task").value == shared.config.task, "the Task box shows the shared run's task"
    click(at, "share:copy")
    new_id = at.query_params["run"]
    new_id = new_id[0] if isinstance(new_id, list) else new_id
    assert new_id != shared.id and "view" not in at.query_params
    with RunStore() as store:
        copy = store.load(new_id)
        original = store.load(shared.id)
    assert copy.parent_id == shared.id and len(copy.turns) == len(shared.turns)
    assert copy.config.provider == "offline" and copy.config.base_url is None and copy.config.sandbox is None
    assert original.config.base_url == ELSEWHERE and len(original.turns) == len(shared.turns)  # untouched
    assert not any("shared with you" in i.value for i in at.info)


def test_a_shared_run_stopped_by_an_api_error_offers_no_retry():
    run = Run(config=RunConfig(task="What is 2 + 2?", sim=SimSettings(faults=[{"status": 529, "attempts": 9}])))
    Stepper(run, max_retries=0).run_to_end()
    assert run.stop is not None and run.stop.kind == StopKind.API_ERROR
    with RunStore() as store:
        store.save_run(run)
    at = _open_shared(run.id)
    assert any("shared with you" in i.value for i in at.info) and at.error, "the error is shown, read-only"
    assert not any(b.key == RETRY_STEP for b in at.button), "a retry would call the model on someone else's run"


def test_a_link_to_a_missing_run_says_so():
    at = _open_shared("0123456789ab")
    assert any("0123456789ab" in w.value for w in at.warning)
