"""A model call the learner cancels is not recorded, the run so far stays, and an abandoned call's late attempt
never lands in a later turn."""

from __future__ import annotations

import json
import threading
import time

import pytest
from loopback import start_silent
from test_call_timeouts import TOOL_USE, _config

from agent_core.loop.stepper import Stepper
from agent_core.model import Phase, Run
from agent_core.wire.capture import Wait
from agent_core.wire.providers import ENV_LOCAL_READ_TIMEOUT
from lab_ui.controller.click import Level
from lab_ui.controller.session import LabSession
from lab_ui.playground.call_watch import CallAbandoned, CallWatch

END_TURN = {
    **TOOL_USE,
    "id": "msg_2",
    "content": [{"type": "text", "text": "2^16 is 65536."}],
    "stop_reason": "end_turn",
}


class Cancelled(BaseException):
    """Stands in for Streamlit stopping the script run when Cancel is clicked (it is a BaseException too)."""


def abandoning(after_s: float, workers: list[threading.Thread]):
    """A call_runner that starts the call in a worker thread and gives up on it, as the page does on Cancel."""

    def runner(send):
        worker = threading.Thread(target=lambda: _swallow(send), daemon=True)
        workers.append(worker)
        worker.start()
        worker.join(after_s)
        raise Cancelled

    return runner


def _swallow(send) -> None:
    try:
        send()
    except Exception:  # noqa: BLE001 - the abandoned call's own end (a timeout) is nobody's business now
        pass


def test_a_cancelled_call_is_not_recorded_and_the_next_call_is_clean(monkeypatch):
    monkeypatch.setenv(ENV_LOCAL_READ_TIMEOUT, "0.6")
    silent = start_silent([json.dumps(TOOL_USE).encode()])
    try:
        run = Run(config=_config(silent.url))
        with Stepper(run) as stepper:
            stepper.next_turn()  # turn 1: a tool call, run and appended
            messages = [*run.messages]
            workers: list[threading.Thread] = []
            stepper.call_runner = abandoning(0.1, workers)
            with pytest.raises(Cancelled):
                stepper.next_turn()
            second = run.turns[1]
            assert run.phase == Phase.CALL_MODEL and run.stop is None and len(run.turns) == 2
            assert second.exchanges == [] and second.error is None and second.response is None
            assert run.messages == messages and run.turns[0].stop_reason == "tool_use", "the run so far stays"
            workers[0].join(5)  # the abandoned call ends at its own timeout, in its worker
            assert not workers[0].is_alive() and second.exchanges == [] and second.error is None
            silent.replies.append(json.dumps(END_TURN).encode())
            stepper.call_runner = None
            stepper.next_phase()  # Next phase calls the model again, from where the run was
        assert second.stop_reason == "end_turn" and len(second.exchanges) == 1 and second.exchanges[0].status == 200
    finally:
        silent.stop()


def test_the_watch_hands_back_the_calls_result_or_its_error():
    watch = CallWatch(LabSession())
    assert watch.run(lambda: 42) == 42
    with pytest.raises(ValueError, match="bad"):
        watch.run(lambda: (_ for _ in ()).throw(ValueError("bad")))


def test_a_slow_call_is_watched_until_it_ends():
    watch = CallWatch(LabSession())
    assert watch.run(lambda: time.sleep(0.5) or "late") == "late"
    assert watch.flight.done.is_set() and not watch.flight.abandoned


def test_an_abandoned_calls_wait_ends_instead_of_retrying():
    watch = CallWatch(LabSession())
    release = threading.Event()
    waited: list[str] = []

    def send():
        release.wait(5)
        try:
            watch.on_wait(Wait(30.0, 30.0, 29.0, True))
        except CallAbandoned:
            waited.append("ended")
            raise
        waited.append("retried")

    calls: list[BaseException] = []
    thread = threading.Thread(target=lambda: _run_and_keep(watch, send, calls))
    thread.start()
    time.sleep(0.3)
    watch.flight.abandoned = True  # what the watch's finally does when Streamlit stops the run on Cancel
    release.set()
    thread.join(5)
    assert waited == ["ended"] and isinstance(calls[0], CallAbandoned)


def _run_and_keep(watch: CallWatch, send, out: list) -> None:
    try:
        watch.run(send)
    except BaseException as exc:  # noqa: BLE001
        out.append(exc)


def test_a_cancel_says_so_and_keeps_the_run():
    lab = LabSession()
    saved: list[bool] = []
    watch = CallWatch(lab, after_cancel=lambda: saved.append(True))
    watch.run(lambda: None)
    watch._cancelled(watch.flight)
    [notice] = lab.take_notices()
    assert notice.level == Level.INFO and "cancelled after" in notice.text and "not recorded" in notice.text
    assert saved == [True], "what the click finished before the cancelled call is saved"
