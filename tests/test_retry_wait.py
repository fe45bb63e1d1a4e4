"""Bounded waits: a server's retry-after / retry-after-ms is capped, counted down, and can be cancelled."""

from __future__ import annotations

import json

import anthropic
import httpx2
import pytest
import scripted
from loopback import Hit, start_listener, stop_listener

from agent_core import cli
from agent_core.wire.capture import ENV_MAX_RETRY_WAIT, CapturingTransport, Wait, asked_wait, max_retry_wait


class FakeClock:
    """Time that passes only when the transport sleeps: no real waiting, no timing in the test."""

    def __init__(self) -> None:
        self.now = 0.0
        self.slept = 0.0

    def clock(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds
        self.slept += seconds


def _client(script, clock, waits, max_wait_s=60.0, on_wait=None):
    exchanges = []
    transport = CapturingTransport(
        script,
        exchanges.append,
        max_retries=2,
        on_wait=on_wait or waits.append,
        max_wait_s=max_wait_s,
        sleep=clock.sleep,
        clock=clock.clock,
    )
    client = anthropic.Anthropic(
        api_key="no-key", base_url="http://model.test", http_client=httpx2.Client(transport=transport), max_retries=2
    )
    return client, exchanges


RATE_LIMITED = {"type": "error", "error": {"type": "rate_limit_error", "message": "slow down"}}


@pytest.mark.parametrize(
    "headers,asked",
    [({"retry-after": "1000000000"}, 1e9), ({"retry-after-ms": "1e15"}, 1e12), ({"retry-after": "1e999"}, None)],
)
def test_a_huge_requested_wait_is_capped_and_the_call_goes_on(headers, asked):
    script = scripted.Script((429, RATE_LIMITED, headers), scripted.message(scripted.text("done")))
    clock, waits = FakeClock(), []
    client, exchanges = _client(script, clock, waits)
    reply = client.messages.create(model="m", max_tokens=10, messages=[{"role": "user", "content": "hi"}])
    assert reply.content[0].text == "done" and len(script.requests) == 2
    assert clock.slept == pytest.approx(60.0), "waited the cap, not what the server asked"
    assert waits[0].waiting_s == 60.0 and waits[0].capped and waits[-1].left_s == 0
    assert [round(w.left_s) for w in waits[:3]] == [60, 60, 60] and waits[1].left_s < waits[0].left_s
    assert exchanges[0].response_headers.get(next(iter(headers))) == next(iter(headers.values())), "recorded as sent"
    if asked is not None:
        assert waits[0].asked_s == pytest.approx(asked)


def test_a_short_requested_wait_is_kept_as_asked():
    script = scripted.Script((429, RATE_LIMITED, {"retry-after": "3"}), scripted.message(scripted.text("ok")))
    clock, waits = FakeClock(), []
    client, _ = _client(script, clock, waits)
    client.messages.create(model="m", max_tokens=10, messages=[{"role": "user", "content": "hi"}])
    assert clock.slept == pytest.approx(3.0) and not waits[0].capped


class Cancelled(BaseException):
    """What Streamlit raises when the learner clicks Cancel mid-wait (its control exceptions are BaseException)."""


def test_raising_from_the_countdown_cancels_the_wait_and_the_call():
    script = scripted.Script((429, RATE_LIMITED, {"retry-after": "1000"}), scripted.message(scripted.text("never")))
    clock, seen = FakeClock(), []

    def cancel_after_two(wait: Wait) -> None:
        seen.append(wait)
        if len(seen) == 2:
            raise Cancelled

    client, _ = _client(script, clock, [], on_wait=cancel_after_two)
    with pytest.raises(Cancelled):
        client.messages.create(model="m", max_tokens=10, messages=[{"role": "user", "content": "hi"}])
    assert len(script.requests) == 1 and clock.slept < 1


def test_no_wait_when_the_sdk_will_not_retry():
    script = scripted.Script((429, RATE_LIMITED, {"retry-after": "1000", "x-should-retry": "false"}))
    clock, waits = FakeClock(), []
    client, _ = _client(script, clock, waits)
    with pytest.raises(anthropic.RateLimitError):
        client.messages.create(model="m", max_tokens=10, messages=[{"role": "user", "content": "hi"}])
    assert waits == [] and clock.slept == 0


def test_the_cap_is_configurable_and_bad_values_fall_back(monkeypatch):
    monkeypatch.setenv(ENV_MAX_RETRY_WAIT, "5")
    assert max_retry_wait() == 5
    for bad in ("soon", "-1", "nan", "inf"):
        monkeypatch.setenv(ENV_MAX_RETRY_WAIT, bad)
        assert max_retry_wait() == 60
    assert asked_wait(httpx2.Headers({"retry-after": "Wed, 21 Oct 2015 07:28:00 GMT"})) is None


def test_the_cli_says_plainly_that_the_wait_is_capped(monkeypatch, capsys):
    replies = iter(
        [
            (429, {"retry-after": "1000000000"}, json.dumps(RATE_LIMITED).encode()),
            (200, {}, json.dumps(scripted.message(scripted.text("Hello"))).encode()),
        ]
    )

    def reply(hit: Hit):
        return next(replies)

    server = start_listener(reply)
    try:
        monkeypatch.setenv(ENV_MAX_RETRY_WAIT, "0.1")
        code = cli.main(["run", "hi", "--provider", "compatible", "--base-url", server.url])
    finally:
        stop_listener(server)
    printed = capsys.readouterr()
    assert code == 0 and "Final answer: Hello" in printed.out
    assert "asked to wait 1e+09 s" in printed.err and "capped at 0.1 s" in printed.err
