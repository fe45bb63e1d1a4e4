"""Where a class server connects for a learner, and where its key goes (issue 22, "What to build" 4).

The attacks: a learner sets an Anthropic-compatible base URL to a service on the server's loopback, to a laptop on
the school network or to a cloud metadata address, and presses Next step or Test connection. Each is refused on a
class server, before a byte is sent; the server's key never leaves for anything but Anthropic's endpoint. In
personal mode the same URL is used as the person at the keyboard asked."""

from __future__ import annotations

import ipaddress
import json
import socket

import anthropic
import httpx2
import pytest
from loopback import Hit, start_listener, stop_listener

from agent_core.loop.stepper import run_task
from agent_core.model import RunConfig, SimSettings
from agent_core.serving import mode as serving
from agent_core.serving.url_guard import AddressRefused, Allowlist, GuardedTransport, refusal
from agent_core.sim import start_server
from agent_core.vocab import ErrorReason, Provider
from agent_core.wire.errors import explain
from lab_ui.settings.page import check_connection


def compatible(url: str) -> RunConfig:
    return RunConfig(task="What is 2 + 2?", provider=Provider.COMPATIBLE, base_url=url, tools=[])


def api_key_sent(hit: Hit) -> str | None:
    headers = {k.lower(): v for k, v in hit.headers.items()}
    return headers.get("x-api-key") or headers.get("authorization", "").removeprefix("Bearer ") or None


def refused_reason(run) -> str:
    error = run.turns[-1].error
    assert error is not None, run.turns[-1]
    return error.params.get("reason")


def test_a_loopback_base_url_is_refused_before_anything_is_sent(class_mode, listener):
    for url in (listener.url, listener.url + "/internal/admin?", listener.url.replace("127.0.0.1", "localhost")):
        run = run_task(compatible(url))
        assert refused_reason(run) == ErrorReason.ADDRESS_REFUSED
        assert "does not connect to" in explain(run.turns[-1].error) and "loopback" in explain(run.turns[-1].error)
    assert listener.hits == []


def test_personal_mode_still_goes_where_the_person_asked_with_their_own_key(personal_mode, listener):
    run = run_task(compatible(listener.url))
    assert refused_reason(run) == ErrorReason.STATUS and run.turns[-1].error.status == 401
    assert listener.carrying(personal_mode), "personal mode: the environment's key is the person's own"


def test_an_allowlisted_school_server_is_reached_without_the_servers_key(class_mode, listener, monkeypatch):
    port = listener.url.rsplit(":", 1)[1]
    monkeypatch.setenv(serving.ENV_ALLOW_HOSTS, f"ollama.school.example, 127.0.0.1:{port}")
    run_task(compatible(listener.url))
    assert len(listener.hits) == 1 and listener.carrying(class_mode) == []
    assert api_key_sent(listener.hits[0]) == "no-key"
    # A key the learner typed in their own session is theirs to send.
    typed = "sk-ant-api03-" + "typed-by-the-learner-0123456789"
    run_task(compatible(listener.url), api_key=typed)
    assert api_key_sent(listener.hits[-1]) == typed
    # The server's key typed back in (copied from somewhere) is still the server's.
    run_task(compatible(listener.url), api_key=class_mode)
    assert listener.carrying(class_mode) == []


def test_the_allowlist_opens_only_the_port_it_names(class_mode, listener, monkeypatch):
    monkeypatch.setenv(serving.ENV_ALLOW_HOSTS, "127.0.0.1:1")
    assert refused_reason(run_task(compatible(listener.url))) == ErrorReason.ADDRESS_REFUSED
    assert listener.hits == []


def test_the_anthropic_provider_ignores_any_base_url_and_goes_to_the_admins_endpoint(class_mode, listener, monkeypatch):
    sim, sim_url = start_server(SimSettings())
    try:
        monkeypatch.setenv("ANTHROPIC_BASE_URL", sim_url)  # the admin's endpoint (here the offline model)
        config = RunConfig(task="Hi", provider=Provider.ANTHROPIC, base_url=listener.url, tools=[])
        run = run_task(config, api_key=class_mode)  # the app passes the server's key to a learner allowed it
        assert run.turns[-1].error is None and run.turns[-1].exchanges[-1].url.startswith(sim_url)
    finally:
        sim.shutdown()
    assert listener.hits == []


def test_every_address_a_name_resolves_to_is_checked_and_the_checked_one_is_used(class_mode, listener, monkeypatch):
    port = int(listener.url.rsplit(":", 1)[1])
    real = socket.getaddrinfo

    def rebinding(host, *args, **kwargs):
        # A public answer alongside a loopback one (DNS rebinding tries exactly this).
        if host == "rebind.example":
            return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (a, port)) for a in ("93.184.215.14", "127.0.0.1")]
        return real(host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", rebinding)
    run = run_task(compatible(f"http://rebind.example:{port}"))
    assert refused_reason(run) == ErrorReason.ADDRESS_REFUSED and listener.hits == []


def test_a_redirect_to_a_refused_address_is_refused_at_its_connect(monkeypatch, class_mode):
    target = start_listener()
    hop = start_listener(lambda hit: (307, {"location": target.url + "/v1/messages"}, b"{}"))
    try:
        port = hop.url.rsplit(":", 1)[1]
        client = httpx2.Client(
            transport=GuardedTransport(Allowlist.parse([f"127.0.0.1:{port}"])), follow_redirects=True
        )
        with pytest.raises(AddressRefused):
            client.post(hop.url + "/v1/messages", json={})
        assert len(hop.hits) == 1 and target.hits == []
    finally:
        stop_listener(target)
        stop_listener(hop)


@pytest.mark.parametrize(
    "address",
    [
        "127.0.0.1",
        "::1",
        "::ffff:127.0.0.1",
        "10.1.2.3",
        "172.16.0.9",
        "192.168.1.20",
        "169.254.169.254",
        "fd00:ec2::254",
        "100.100.100.200",
        "0.0.0.0",
        "224.0.0.1",
        "fe80::1",
    ],  # fmt: skip
)
def test_private_link_local_metadata_and_odd_addresses_are_refused(address):
    assert refusal(ipaddress.ip_address(address)) is not None


def test_public_addresses_are_not_refused():
    for address in ("93.184.215.14", "2606:4700::1111", "160.79.104.10"):
        assert refusal(ipaddress.ip_address(address)) is None


def test_a_metadata_url_is_refused_without_a_connection(class_mode):
    run = run_task(compatible("http://169.254.169.254/latest/meta-data"))
    assert refused_reason(run) == ErrorReason.ADDRESS_REFUSED and "link-local" in explain(run.turns[-1].error)


def test_test_connection_obeys_the_same_rules(class_mode, listener):
    result = check_connection(compatible(listener.url), None)
    assert result.level == "error" and "does not connect to" in result.message
    assert listener.hits == []


def _html(hit: Hit) -> tuple[int, dict[str, str], bytes]:
    return 200, {"content-type": "text/html"}, b"<html><body>Admin panel: open ports 22, 5432</body></html>"


def test_a_non_api_answer_is_a_short_error_and_its_body_is_not_recorded(class_mode, monkeypatch):
    page = start_listener(_html)
    try:
        monkeypatch.setenv(serving.ENV_ALLOW_HOSTS, "127.0.0.1")
        run = run_task(compatible(page.url))
    finally:
        stop_listener(page)
    error = run.turns[-1].error
    assert error.params["reason"] == ErrorReason.NOT_API and "not with a Messages API reply" in explain(error)
    assert "Traceback" not in explain(error) and "Admin panel" not in json.dumps(run.to_dict())


def test_personal_mode_keeps_a_non_api_body_for_the_person_who_asked(personal_mode):
    page = start_listener(_html)
    try:
        run = run_task(compatible(page.url))
    finally:
        stop_listener(page)
    assert run.turns[-1].error.params["reason"] == ErrorReason.NOT_API
    assert b"Admin panel" in run.turns[-1].exchanges[-1].response_body


def test_the_servers_key_never_goes_to_a_compatible_url_even_as_the_sdks_own_header(class_mode, listener, monkeypatch):
    from agent_core.serving.url_guard import ServerKeyPin

    pin = ServerKeyPin(httpx2.HTTPTransport(), [class_mode])
    with pytest.raises(AddressRefused):
        httpx2.Client(transport=pin).post(listener.url, headers={"x-api-key": class_mode})
    assert listener.hits == []
    assert not issubclass(AddressRefused, anthropic.APIConnectionError), "the SDK must not retry a refusal"


def test_without_the_app_passing_it_the_servers_key_is_not_used_at_all(class_mode, monkeypatch):
    sim, sim_url = start_server(SimSettings())
    try:
        monkeypatch.setenv("ANTHROPIC_BASE_URL", sim_url)
        run = run_task(RunConfig(task="Hi", provider=Provider.ANTHROPIC, tools=[]))
    finally:
        sim.shutdown()
    assert "No API key for you on this class server" in explain(run.turns[-1].error)
    assert len(sim.sim.seen) == 0, "no request was made"
