"""Faults any client survives: counted per request sequence by the server, from settings, a server plan or a header."""

from __future__ import annotations

import anthropic
import httpx2
import pytest

from agent_core.cli import main
from agent_core.model import DEFAULT_MODEL, SimSettings
from agent_core.sim import SimHandler, start_server
from agent_core.sim.faults import FaultConfigError, parse_steps

API = {"x-api-key": "k", "anthropic-version": "2023-06-01"}


def body(text: str = "Hello there") -> dict:
    return {"model": DEFAULT_MODEL, "max_tokens": 200, "messages": [{"role": "user", "content": text}]}


@pytest.fixture
def serve():
    servers = []

    def build(settings: SimSettings | None = None, plan: list[str] | None = None):
        handler = SimHandler(settings or SimSettings(), fault_plan=plan)
        server, url = start_server(handler.settings, handler=handler)
        servers.append(server)
        return handler, url

    yield build
    for server in servers:
        server.shutdown()


def statuses(handler: SimHandler) -> list[int | None]:
    return [s.status for s in handler.seen if s.path == "/v1/messages"]


def test_a_client_without_the_sdks_retry_header_recovers_by_sending_again(serve):
    # litellm and curl send no x-stainless-retry-count: the server counts the same request itself.
    handler, url = serve(SimSettings(faults=[{"status": 529}]))
    first = httpx2.post(f"{url}/v1/messages", json=body(), headers=API)
    again = httpx2.post(f"{url}/v1/messages", json=body(), headers=API)
    assert (first.status_code, again.status_code) == (529, 200)
    assert first.json()["error"]["type"] == "overloaded_error"


def test_server_fault_plan_is_consumed_in_order(serve):
    handler, url = serve(plan=["429x2", "529"])
    codes = [httpx2.post(f"{url}/v1/messages", json=body(f"say {i}"), headers=API).status_code for i in range(4)]
    assert codes == [429, 429, 529, 200]


@pytest.mark.parametrize("spec", ["429", "500", "529", "drop", "429x2,529"])
def test_the_sdk_retries_through_each_fault_of_the_header(serve, spec):
    handler, url = serve()
    client = anthropic.Anthropic(api_key="k", base_url=url, max_retries=3, default_headers={"x-sim-fault": spec})
    reply = client.messages.create(**body())
    assert reply.stop_reason == "end_turn"
    expected = [None if s.get("kind") == "drop" else s["status"] for s in parse_steps(spec)]
    assert statuses(handler) == [*expected, 200]


def test_running_a_retry_demo_again_meets_the_same_faults(serve):
    """The issue's complaint: a body the server had seen never faulted again, so a second run showed nothing."""
    handler, url = serve()
    client = anthropic.Anthropic(api_key="k", base_url=url, max_retries=3, default_headers={"x-sim-fault": "429x2"})
    for _ in range(2):
        assert client.messages.create(**body()).stop_reason == "end_turn"
    assert statuses(handler) == [429, 429, 200, 429, 429, 200]


def test_settings_faults_hit_a_turn_each_time_it_is_sent_afresh(serve):
    handler, url = serve(SimSettings(faults=[{"status": 529, "attempts": 1}]))
    codes = [httpx2.post(f"{url}/v1/messages", json=body(), headers=API).status_code for _ in range(4)]
    assert codes == [529, 200, 529, 200]


def test_server_plan_steps_go_to_the_next_requests_whatever_their_bodies(serve):
    handler, url = serve(plan=["529x3"])
    # The same body three times and then others: the plan counts requests, not bodies.
    sent = [body(), body(), body(), body("another"), body()]
    codes = [httpx2.post(f"{url}/v1/messages", json=b, headers=API).status_code for b in sent]
    assert codes == [529, 529, 529, 200, 200]


def test_a_fault_that_outlasts_the_retries_reaches_the_caller(serve):
    handler, url = serve()
    client = anthropic.Anthropic(api_key="k", base_url=url, max_retries=1, default_headers={"x-sim-fault": "529x5"})
    with pytest.raises(anthropic.InternalServerError) as err:
        client.messages.create(**body())
    assert err.value.status_code == 529 and statuses(handler) == [529, 529]


def test_an_unreadable_fault_header_is_a_400(serve):
    _, url = serve()
    response = httpx2.post(f"{url}/v1/messages", json=body(), headers={**API, "x-sim-fault": "teapot"})
    assert response.status_code == 400 and "x-sim-fault" in response.json()["error"]["message"]


def test_fault_steps_parse_and_refuse():
    assert parse_steps("429x2, drop, slow:0.5") == [
        {"status": 429, "retry_after": 0},
        {"status": 429, "retry_after": 0},
        {"kind": "drop"},
        {"kind": "slow", "delay_s": 0.5},
    ]
    with pytest.raises(FaultConfigError):
        parse_steps("42")


def test_serve_refuses_an_unreadable_fault_plan(capsys):
    assert main(["serve", "--port", "0", "--fault", "nonsense"]) == 2
    assert "--fault" in capsys.readouterr().out
