"""Fault walk-through in the Playground: every error status, a dropped and a refused connection, a timeout.

Each failure must show a plain message and the raw error JSON, keep the earlier turns, and "Retry this step"
(after the cause is gone) must finish the run. The model here is scripted (the simulated model's HTTP side with
a fixed brain, tests/scripted_brain.py) so these tests pin the Playground's error handling, not the brain's wording.
"""

from __future__ import annotations

import json

import anthropic
import httpx2
import pytest
from browser import free_port
from keys import NEXT_STEP, RETRY_STEP, RUN_TO_END
from lab_app import click, lab_of, open_page, pick_faults, texts

from agent_core.loop.stepper import Stepper
from agent_core.model import Run, RunConfig, SimSettings
from agent_core.sim import faults, start_server
from agent_core.storage.store import RunStore
from agent_core.tools.catalog import default_specs
from agent_core.wire import errors
from lab_ui.words.catalogue import stop_text

# -- the walk-through --------------------------------------------------------------------------------
STATUSES = [400, 401, 403, 404, 413, 429, 500, 529]
# The SDK retries these by itself (messages-api-facts.md), so one click makes three HTTP attempts.
RETRIED = {429, 500, 529}


@pytest.mark.parametrize("status", STATUSES)
def test_status_error_shows_plain_words_and_raw_json_keeps_turn_1_and_retry_finishes(status, app_env, scripted_model):
    at = open_page()
    pick_faults(at, f"{status} on turn 2, every attempt")
    click(at, RUN_TO_END)
    run = lab_of(at).run
    assert run.stop.kind == "api_error" and len(run.turns) == 2
    shown = texts(at.error)
    assert f"Stopped by an API error: {errors.PLAIN[status]}" in shown
    assert faults.FAULT_MESSAGES[status] in shown, "the server's own words are quoted"
    raw = texts(at.code)
    assert f'"type": "{faults.ERROR_TYPES[status]}"' in raw and '"request_id"' in raw, "the raw error JSON is shown"
    attempts = 3 if status in RETRIED else 1
    assert [x.status for x in run.turns[1].exchanges] == [status] * attempts
    assert f"{attempts} HTTP attempt(s) for this step" in texts(at.caption)
    first = run.turns[0]
    assert first.stop_reason == "tool_use" and first.tools[0].output == "65536", "turn 1 is intact"
    saved = RunStore(app_env).load(run.id)
    assert saved.turns[1].error.status == status, "the failed step is saved with its error"

    pick_faults(at)  # the cause is gone
    click(at, RETRY_STEP)
    click(at, RUN_TO_END)
    run = lab_of(at).run
    assert run.stop.kind == "end_turn", run.stop
    assert run.turns[0].tools[0].output == "65536" and "65536" in run.final_text
    assert run.turns[1].exchanges[-1].status == 200
    assert [x.status for x in run.turns[1].exchanges[:-1]] == [status] * attempts, (
        "the failed attempts stay visible next to the one that worked"
    )
    assert "end_turn" in texts(at.success)


def test_a_fault_the_sdk_retries_once_shows_as_two_attempts_and_the_run_goes_on(app_env, scripted_model):
    at = open_page()
    pick_faults(at, "500 on turn 2")
    click(at, RUN_TO_END)
    run = lab_of(at).run
    assert run.stop.kind == "end_turn" and not at.error
    assert [x.status for x in run.turns[1].exchanges] == [500, 200]
    assert [x.retry for x in run.turns[1].exchanges] == [0, 1]


def test_dropped_connection_every_attempt_then_retry(app_env, scripted_model):
    at = open_page()
    pick_faults(at, "dropped connection on turn 2, every attempt")
    click(at, RUN_TO_END)
    run = lab_of(at).run
    assert run.stop.kind == "api_error" and run.turns[1].error.kind == "connection"
    assert errors.DROPPED in texts(at.error)
    assert [x.status for x in run.turns[1].exchanges] == [None, None, None]
    assert all("RemoteProtocolError" in x.error for x in run.turns[1].exchanges)
    assert run.turns[0].tools[0].output == "65536"
    pick_faults(at)
    click(at, RETRY_STEP)
    click(at, RUN_TO_END)
    assert lab_of(at).run.stop.kind == "end_turn"


def test_connection_refused_then_the_server_starts_and_retry_finishes(app_env, scripted_model):
    port = free_port()  # nothing listens here yet
    at = open_page()
    lab = lab_of(at)
    lab.config.provider, lab.config.base_url = "compatible", f"http://127.0.0.1:{port}"
    at.run()
    assert f"127.0.0.1:{port}" in texts(at.markdown), "the badge names the server"
    click(at, NEXT_STEP)
    run = lab_of(at).run
    assert run.stop.kind == "api_error" and run.turns[0].error.kind == "connection"
    assert errors.REFUSED in texts(at.error)
    assert all(x.error and "ConnectError" in x.error for x in run.turns[0].exchanges)
    server, _ = start_server(SimSettings(), port=port)
    try:
        click(at, RETRY_STEP)
        click(at, RUN_TO_END)
    finally:
        server.shutdown()
    run = lab_of(at).run
    assert run.stop.kind == "end_turn" and "65536" in run.final_text


def test_a_timeout_reads_plainly_and_keeps_the_run():
    """httpx2's read timeout, as the SDK sees it on every attempt, becomes one plain message."""

    def too_slow(request: httpx2.Request) -> httpx2.Response:
        raise httpx2.ReadTimeout("The read operation timed out", request=request)

    run = Run(RunConfig(task="What is 2^16?", tools=default_specs(["calculate"])))
    stepper = Stepper(run, transport=httpx2.MockTransport(too_slow), max_retries=1)
    stepper.next_turn()
    assert run.stop.kind == "api_error" and run.turns[0].error.kind == "timeout"
    # Which server, and within how long: the attempt's own read timeout.
    assert stop_text(run) == errors.NO_ANSWER_IN.format(url="http://simulated-model.invalid", seconds="60")
    assert len(run.turns[0].exchanges) == 2 and all("ReadTimeout" in x.error for x in run.turns[0].exchanges)
    assert run.messages == [{"role": "user", "content": "What is 2^16?"}], "nothing half-done was appended"


@pytest.mark.parametrize("status", sorted(errors.PLAIN))
def test_every_plain_message_names_its_status_and_quotes_the_server(status):
    body = faults.error_body(faults.error_type_for(status), "the server's own words", "req_1")
    response = httpx2.Response(status, json=body, request=httpx2.Request("POST", "http://x/v1/messages"))
    error = errors.describe_api_error(anthropic.APIStatusError("failed", response=response, body=body))
    words = errors.explain(error)
    assert f"({status})" in words and words.endswith('The server said: "the server\'s own words"')
    assert error.status == status and json.loads(error.body)["error"]["type"] == faults.error_type_for(status)
