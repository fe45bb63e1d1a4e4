"""A local server that accepts the connection but never answers ends the call with a plain message, once, fast."""

from __future__ import annotations

import json

import pytest
from browser import free_port
from loopback import start_silent

from agent_core.loop.stepper import Stepper
from agent_core.model import Limits, Run, RunConfig
from agent_core.tools.catalog import default_specs
from agent_core.vocab import Provider, StopKind
from agent_core.wire.errors import describe_api_error
from agent_core.wire.providers import (
    CONNECT_TIMEOUT_S,
    ENV_LOCAL_READ_TIMEOUT,
    LOCAL_READ_TIMEOUT_S,
    call_timeout,
    local_read_timeout,
)
from lab_ui.words.catalogue import error_text, stop_text
from lab_ui.words.i18n import translate

TOOL_USE = {
    "id": "msg_1",
    "type": "message",
    "role": "assistant",
    "model": "local-model",
    "content": [{"type": "tool_use", "id": "toolu_1", "name": "calculate", "input": {"expression": "2^16"}}],
    "stop_reason": "tool_use",
    "stop_sequence": None,
    "usage": {"input_tokens": 50, "output_tokens": 10},
}


def _config(url: str) -> RunConfig:
    return RunConfig(
        task="What is 2 to the power of 16?",
        provider=Provider.COMPATIBLE,
        base_url=url,
        model="local-model",
        tools=default_specs(None),
        limits=Limits(max_steps=5),
    )


@pytest.fixture
def quick_timeout(monkeypatch):
    monkeypatch.setenv(ENV_LOCAL_READ_TIMEOUT, "0.5")


def test_a_silent_local_server_stops_the_step_once_with_a_plain_message_and_the_run_survives(quick_timeout):
    silent = start_silent([json.dumps(TOOL_USE).encode()])  # answers turn 1, then goes quiet
    try:
        run = Run(config=_config(silent.url))
        with Stepper(run) as stepper:
            stepper.run_to_end()
        assert run.stop.kind == StopKind.API_ERROR
        first, second = run.turns
        assert first.stop_reason == "tool_use" and first.tools[0].output.strip().startswith("65536")
        error = second.error
        assert error.kind == "timeout" and error.params["url"] == silent.url and error.params["seconds"] == "0.5"
        assert f"The server at {silent.url} did not answer within 0.5 s." in stop_text(run)
        assert "accepted the connection" in error_text(error)
        # One attempt only: a retry would queue behind the request the server is still working on.
        assert [r for r in silent.requests if r.startswith("POST")] == ["POST /v1/messages"] * 2
        assert len(second.exchanges) == 1 and "NoAnswer" in second.exchanges[0].error
        stepper.retry()  # the run so far stays usable: the same step can be tried again
        assert run.stop is None and len(run.turns) == 2
    finally:
        silent.stop()


def test_the_message_is_in_the_learners_language(quick_timeout):
    silent = start_silent()
    try:
        run = Run(config=_config(silent.url))
        with Stepper(run) as stepper:
            stepper.next_turn()
        error = run.turns[0].error
        for lang, words in (("ru", "не ответил"), ("pl", "nie odpowiedział")):
            text = error_text(error, lambda key, lang=lang, **v: translate(lang, key, **v))
            assert words in text and silent.url in text and "0,5" not in text and "0.5" in text
    finally:
        silent.stop()


def test_nothing_listening_is_told_apart_from_a_silent_server(quick_timeout):
    run = Run(config=_config(f"http://127.0.0.1:{free_port()}"))
    with Stepper(run) as stepper:
        stepper.next_turn()
    assert run.turns[0].error.kind == "connection" and "connection refused" in error_text(run.turns[0].error)


def test_a_connect_timeout_names_the_server_and_the_seconds():
    import anthropic
    import httpx2

    request = httpx2.Request("POST", "http://user:pw@10.255.255.1:11434/v1/messages")
    request.extensions["timeout"] = call_timeout(Provider.COMPATIBLE).as_dict()
    exc = anthropic.APITimeoutError(request)
    exc.__cause__ = httpx2.ConnectTimeout("timed out")
    error = describe_api_error(exc)
    assert error.params == {"reason": "timeout", "url": "http://10.255.255.1:11434", "seconds": "3", "connecting": True}
    assert error_text(error).startswith(
        "The server at http://10.255.255.1:11434 did not accept a connection within 3 s"
    )
    assert "pw" not in error_text(error), "a password in the URL is never shown"


def test_local_timeouts_are_short_and_configurable(monkeypatch):
    limits = call_timeout(Provider.COMPATIBLE)
    assert (limits.connect, limits.read) == (CONNECT_TIMEOUT_S, LOCAL_READ_TIMEOUT_S) == (3.0, 60.0)
    assert call_timeout(Provider.COMPATIBLE, 5.0).connect == 3.0 and call_timeout(Provider.COMPATIBLE, 2.0).connect == 2
    monkeypatch.setenv(ENV_LOCAL_READ_TIMEOUT, "12.5")
    assert local_read_timeout() == 12.5 and call_timeout(Provider.COMPATIBLE).read == 12.5
    for bad in ("soon", "0", "-3", "nan", "inf"):
        monkeypatch.setenv(ENV_LOCAL_READ_TIMEOUT, bad)
        assert local_read_timeout() == LOCAL_READ_TIMEOUT_S
    assert call_timeout(Provider.ANTHROPIC).read == 60.0, "the API's own timeout is not the local one"


def test_the_playground_shows_the_timeout_plainly_and_keeps_turn_1(app_env, quick_timeout):
    from keys import NEXT_STEP
    from lab_app import PLAYGROUND, click, lab_of, open_page, texts
    from test_settings_page import SETTINGS, use_compatible

    silent = start_silent([json.dumps(TOOL_USE).encode()])
    try:
        at = open_page(SETTINGS)
        use_compatible(at, silent.url)
        at.switch_page(PLAYGROUND).run()
        click(at, NEXT_STEP)  # turn 1: answered
        click(at, NEXT_STEP)  # turn 2: never answered
        shown = texts(at.error)
        assert f"The server at {silent.url} did not answer within 0.5 s." in shown
        run = lab_of(at).run
        assert run.stop.kind == StopKind.API_ERROR and run.turns[0].stop_reason == "tool_use"
        assert run.turns[0].tools[0].output.strip().startswith("65536"), "the run so far is kept"
    finally:
        silent.stop()
