"""Secrets by value: an upstream that echoes the key (plain, JSON-escaped, URL-encoded, split) leaks it nowhere."""

from __future__ import annotations

import json
import urllib.parse

import pytest
from loopback import Hit, start_listener, stop_listener

from agent_core import cli
from agent_core.files.export import export_json
from agent_core.files.export_script import to_python_script
from agent_core.model import Decision, Run, RunConfig, StopCause, Turn
from agent_core.secrets import FRAGMENT, REDACTED, scrub_bytes, scrub_record, scrub_secrets, secret_forms
from agent_core.storage.store import RunStore
from lab_ui.controller.click import Action
from lab_ui.controller.session import LabSession

# Not key-shaped (the shape net would not catch it), with characters JSON and URLs escape. Split for scanners.
CANARY = "CANARY-" + 'Zq8"Lm\\9Xv+4Rt/8Wk=3Hs6' + "Jd1Nf5Bg0Yc7Pe2Ua"


def pieces(secret: str) -> list[str]:
    """Every form of the secret and every FRAGMENT-long piece of each: none may survive."""
    out = []
    for form in secret_forms(secret):
        out += [form[i : i + FRAGMENT] for i in range(len(form) - FRAGMENT + 1)]
    return out


def traces(secret: str, data: bytes | str) -> list[str]:
    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    return [p for p in pieces(secret) if p in text]


def echoes(secret: str) -> str:
    half = len(secret) // 2
    return (
        f"key {secret} | json {json.dumps(secret)[1:-1]} | url {urllib.parse.quote(secret, safe='')} | "
        f"plus {urllib.parse.quote_plus(secret)} | split {secret[:half]} … {secret[half:]}"
    )


def _echo_401(hit: Hit) -> tuple[int, dict[str, str], bytes]:
    # An upstream that repeats whatever credential it was sent, in every form, in the body and a header.
    sent = hit.headers.get("Authorization", hit.headers.get("authorization", "")).removeprefix("Bearer ")
    body = json.dumps({"type": "error", "error": {"type": "authentication_error", "message": echoes(sent)}})
    return 401, {"x-echo": urllib.parse.quote(sent, safe="")}, body.encode()


@pytest.fixture
def echo_server():
    server = start_listener(_echo_401)
    yield server
    stop_listener(server)


@pytest.mark.parametrize(
    "text",
    [
        f"plain {CANARY} end",
        json.dumps({"message": CANARY}),
        urllib.parse.quote(CANARY, safe=""),
        f"first {CANARY[:20]} then {CANARY[20:]}",
        f"cut off: {CANARY[3 : 3 + FRAGMENT]}",
    ],
)
def test_every_form_and_long_piece_of_a_known_secret_is_scrubbed(text):
    assert traces(CANARY, scrub_secrets(text, [CANARY])) == []
    assert traces(CANARY, scrub_bytes(text.encode(), [CANARY])) == []


def test_pieces_shorter_than_the_rule_are_left_alone():
    key = "sk-ant-api03-" + "Yy7Tt6Rr5Ee4Ww3Qq2Zz1Xx0Cc9Vv8Bb7Nn6Mm5"
    short = key[20 : 20 + FRAGMENT - 1]  # one character shorter than the rule
    assert scrub_secrets(f"x {short} y", [key]) == f"x {short} y"


def test_scrub_record_walks_every_string_of_any_record_shape():
    turn = Turn(
        index=1,
        decisions=[Decision("text", {"text": f"said {CANARY}"})],
        response={"content": [{"text": CANARY[5:30]}]},
    )
    run = Run(config=RunConfig(task="t"), turns=[turn], stop=StopCause("api_error", {"text": echoes(CANARY)}))
    scrub_record(run, [CANARY])
    assert traces(CANARY, json.dumps(run.to_dict())) == [] and REDACTED in run.stop.params["text"]


def test_an_upstream_echoing_the_key_leaks_it_into_no_record_database_or_export(echo_server, tmp_path, app_env):
    lab = LabSession(api_key=CANARY)
    lab.config.provider, lab.config.base_url = "compatible", echo_server.url
    lab.start()
    lab.step(Action.TURN)  # the click: the step, and the session saves the run to its own database
    run = lab.run
    assert echo_server.carrying(CANARY), "the key really went to the learner's own server, which echoed it"
    assert run.stop.kind == "api_error" and REDACTED in run.turns[0].error.body
    db = tmp_path / "runs.db"
    with RunStore(db) as store:
        store.save_run(run)
        files = {p.name: p.read_bytes() for p in tmp_path.iterdir()}  # the database and its WAL, still open
    places = {
        "record": json.dumps(run.to_dict()),
        "export": export_json(run),
        "script": to_python_script(run),
        **files,
    }
    assert {name: traces(CANARY, data) for name, data in places.items() if traces(CANARY, data)} == {}


def test_the_cli_prints_and_writes_no_piece_of_an_echoed_key(echo_server, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("ANTHROPIC_API_KEY", CANARY)
    out_file = tmp_path / "run.json"
    code = cli.main(["run", "hi", "--provider", "compatible", "--base-url", echo_server.url, "--json", str(out_file)])
    printed = capsys.readouterr()
    assert code == 1 and "401" in printed.out
    assert echo_server.carrying(CANARY)
    assert traces(CANARY, printed.out + printed.err) == [] and traces(CANARY, out_file.read_bytes()) == []


def test_the_settings_connection_check_shows_no_piece_of_an_echoed_key(echo_server):
    from lab_ui.settings.page import check_connection, model_list

    config = RunConfig(task="t", provider="compatible", base_url=echo_server.url)
    result = check_connection(config, CANARY)
    assert echo_server.carrying(CANARY) and result.level == "error"
    assert traces(CANARY, result.message + (result.raw or "")) == []
    assert traces(CANARY, model_list(config, CANARY).note) == []
