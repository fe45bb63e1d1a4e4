"""The Settings page: provider and base URL, a session-only key shown only by its source, the server's model list,
the connection test, and the spend cap that the Playground compares with the whole tab's spend."""

from __future__ import annotations

import json
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from browser import free_port
from keys import FORGET_KEY, NEXT_PHASE, RELOAD_MODELS, RESET, RUN_TO_END, TEST_CONNECTION, USE_KEY
from lab_app import PLAYGROUND, click, everything_shown, lab_of, open_page, texts

from agent_core.cost import accounting
from agent_core.lineup import lineup
from agent_core.model import SimSettings
from agent_core.sim import start_server
from agent_core.wire import errors
from agent_core.wire.providers import LOCAL_PRESETS
from lab_ui.words.catalogue import stop_text

MODEL_IDS = [r.id for r in sorted(lineup().served, key=lambda r: r.released, reverse=True)]

SETTINGS = "pages/settings.py"
PRICING = accounting.load_pricing()


@pytest.fixture
def sim_server():
    server, url = start_server(SimSettings())
    yield url
    server.shutdown()


@pytest.fixture
def refusing_server():
    """A server that answers every request with a 401 error envelope."""
    body = json.dumps(
        {
            "type": "error",
            "error": {"type": "authentication_error", "message": "invalid x-api-key"},
            "request_id": "req_401",
        }
    ).encode()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(401)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    server.server_close()


def use_compatible(at, url: str) -> None:
    at.radio(key="settings:provider").set_value("compatible").run()
    at.selectbox(key="settings:preset").set_value("Custom URL").run()
    at.text_input(key="settings:base_url").set_value(url).run()
    assert not at.exception, [e.value for e in at.exception]


def test_offline_lists_the_servers_models_and_the_connection_test_says_ok(app_env):
    at = open_page(SETTINGS)
    assert at.radio(key="settings:provider").value == "offline"
    model = at.selectbox(key="settings:model:offline")
    assert list(MODEL_IDS) == [o for o in model.options if o in MODEL_IDS] and len(model.options) == len(MODEL_IDS)
    assert f"{len(MODEL_IDS)} model(s) from the server's GET /v1/models." in texts(at.caption)
    click(at, TEST_CONNECTION)
    assert f"OK: the server answered and lists {len(MODEL_IDS)} model(s)." in texts(at.success)


def test_presets_fill_the_base_url_and_show_each_servers_gaps(app_env):
    at = open_page(SETTINGS)
    at.radio(key="settings:provider").set_value("compatible").run()
    for name, (url, gaps) in LOCAL_PRESETS.items():
        at.selectbox(key="settings:preset").set_value(name).run()
        assert at.text_input(key="settings:base_url").value == url
        assert lab_of(at).config.base_url == url
        assert gaps in texts(at.info)
    table = str(at.table[0].value)
    assert all(name in table for name in LOCAL_PRESETS), "every local server's gaps are listed"


def test_compatible_server_choice_reaches_the_playground(app_env, sim_server, scripted_model):
    at = open_page(SETTINGS)
    use_compatible(at, sim_server)
    assert "press “Reload the model list” to ask the server" in texts(at.caption), "no fetch per URL edit"
    assert at.selectbox(key="settings:preset").value == "Custom URL", "a typed URL is no preset's"
    click(at, RELOAD_MODELS)  # the server's own list, on demand
    at.selectbox(key="settings:model:compatible").set_value("claude-haiku-4-5").run()
    assert f"{len(MODEL_IDS)} model(s) from the server's GET /v1/models." in texts(at.caption)
    click(at, TEST_CONNECTION)
    assert "OK: the server answered" in texts(at.success)
    cfg = lab_of(at).config
    assert (cfg.provider, cfg.base_url, cfg.model) == ("compatible", sim_server, "claude-haiku-4-5")
    at.switch_page(PLAYGROUND).run()
    assert f"claude-haiku-4-5 at {sim_server}" in texts(at.markdown)
    click(at, RUN_TO_END)
    run = lab_of(at).run
    assert run.stop.kind == "end_turn" and run.turns[0].exchanges[0].url == f"{sim_server}/v1/messages"
    assert run.turns[0].request["model"] == "claude-haiku-4-5"


def test_a_refused_connection_falls_back_to_the_pricing_list_and_says_why(app_env):
    at = open_page(SETTINGS)
    use_compatible(at, f"http://127.0.0.1:{free_port()}")
    click(at, RELOAD_MODELS)
    caption = next(c.value for c in at.caption if "Models from the pricing file" in c.value)
    assert "connection refused" in caption
    assert not re.search(r"\([^)]*\(", caption), f"brackets inside brackets: {caption}"  # the reason has its own
    options = at.selectbox(key="settings:model:compatible").options
    assert set(lineup().served_ids) <= set(options)  # the table's served models (retired ones are gone)
    click(at, TEST_CONNECTION)
    assert errors.REFUSED in texts(at.error)


def test_a_401_shows_plain_words_and_the_raw_error_json(app_env, refusing_server):
    at = open_page(SETTINGS)
    use_compatible(at, refusing_server)
    click(at, TEST_CONNECTION)
    assert "The API key was not accepted (401). Check the key in the API key box below." in texts(at.error)
    assert "invalid x-api-key" in texts(at.error) and "Settings page" not in texts(at.error)
    assert '"authentication_error"' in texts(at.code) and "req_401" in texts(at.code)


def test_anthropic_without_a_key_says_where_to_put_one(app_env):
    at = open_page(SETTINGS)
    at.radio(key="settings:provider").set_value("anthropic").run()
    assert lab_of(at).config.base_url is None
    assert "No key is set" in texts(at.info)
    click(at, TEST_CONNECTION)
    # On the Settings page itself: the key box below, not "paste it on the Settings page" (it is open already).
    assert "No API key" in texts(at.error) and "paste it in the API key box below" in texts(at.error)
    assert "Settings page" not in texts(at.error)


def test_a_model_typed_on_settings_is_the_one_the_playground_calls(app_env, sim_server, monkeypatch):
    """A name the lineup does not list (a new release) stays chosen on the Playground: its model picker once fell
    back to the lineup's first (dearest) model, so the run called another model than the one typed."""
    at = _real_model_playground(sim_server, monkeypatch)
    # As Settings' picker leaves a typed name (AppTest's set_value takes listed options only); so does a run reopened.
    lab_of(at).config.model = "claude-brand-new-9"
    at.run()
    assert lab_of(at).config.model == "claude-brand-new-9", "the Playground's own picker kept it"
    caption = texts(at.caption)
    assert "no list price is known for this model" in caption and "the spend cap cannot stop it" in caption
    assert "a local model costs nothing" not in caption, "the Anthropic API bills an unpriced model all the same"
    click(at, NEXT_PHASE)
    click(at, NEXT_PHASE)  # the call
    run = lab_of(at).run
    assert run.turns[0].request["model"] == "claude-brand-new-9"
    assert "claude-brand-new-9" in texts(at.markdown), "the badge names the model that was called"
    cost = next(m.value for m in at.metric if m.label == "Cost so far")
    assert cost == "—", "an unlisted price is unknown, not $0.0000"
    assert "No list price is known for claude-brand-new-9" in texts(at.caption)


def test_a_call_that_never_left_says_no_request_was_sent(app_env):
    at = open_page(SETTINGS)
    at.radio(key="settings:provider").set_value("anthropic").run()
    at.switch_page(PLAYGROUND).run()
    click(at, RUN_TO_END)
    run = lab_of(at).run
    assert run.stop.kind == "api_error" and not run.turns[-1].exchanges
    assert "No API key" in texts(at.error) and "paste it on the Settings page" in texts(at.error)  # elsewhere: go there
    caption = texts(at.caption)
    assert "No HTTP request was sent for this step" in caption and "0 HTTP attempt(s)" not in caption


def test_a_typed_key_is_kept_for_the_session_and_never_shown_back(app_env):
    key = "sk-ant-" + "settings-test-0123456789abcdef"  # split: no key-shaped literal in the repository
    at = open_page(SETTINGS)
    at.text_input(key="settings:key").input(key)
    click(at, USE_KEY)
    lab = lab_of(at)
    assert lab.api_key == key and lab.resolved_key() == key and lab.key_source() == "session"
    assert "A key is set (from: session" in texts(at.success)
    assert at.text_input(key="settings:key").value == "", "the field is emptied once the key is stored"
    assert key not in everything_shown(at) and key[-4:] not in everything_shown(at)
    click(at, FORGET_KEY)
    assert lab_of(at).api_key is None and "No key is set" in texts(at.info)


def test_the_key_source_is_named_for_the_environment_and_for_secrets(app_env, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-" + "from-the-environment-0000")
    at = open_page(SETTINGS)
    assert "A key is set (from: environment" in texts(at.success)
    assert "sk-ant-" + "from-the-environment" not in everything_shown(at)
    at.secrets["ANTHROPIC_API_KEY"] = "sk-ant-" + "from-secrets-1111"  # split: no key-shaped literal in the repository
    at.run()
    assert "A key is set (from: secrets" in texts(at.success), "secrets.toml wins over the environment"
    assert "sk-ant-" + "from-secrets" not in everything_shown(at)


def test_the_spend_cap_input_sets_the_cap_and_zero_means_none(app_env):
    at = open_page(SETTINGS)
    at.number_input(key="settings:cap").set_value(2.5).run()
    assert lab_of(at).spend_cap_usd == 2.5
    at.number_input(key="settings:cap").set_value(0.0).run()
    assert lab_of(at).spend_cap_usd is None


def _real_model_playground(sim_server: str, monkeypatch):
    """The Anthropic API provider, its requests sent to the offline model's server on loopback (the SDK's own
    ANTHROPIC_BASE_URL): the only provider whose calls are billed, so the one the estimate and the cap are for."""
    monkeypatch.setenv("ANTHROPIC_BASE_URL", sim_server)
    at = open_page(SETTINGS)
    at.radio(key="settings:provider").set_value("anthropic").run()
    at.text_input(key="settings:key").input("sk-ant-" + "spend-test-0123456789")  # split: no key-shaped literal
    click(at, USE_KEY)
    at.selectbox(key="settings:model:anthropic").set_value("claude-sonnet-4-6").run()  # a priced model
    at.number_input(key="settings:cap").set_value(0.0).run()
    at.switch_page(PLAYGROUND).run()
    return at


def _shown_estimate(at) -> str:
    line = next(c for c in texts(at.caption).splitlines() if c.startswith("Next step: up to"))
    return line.split("**")[1]


def _estimate(request: dict) -> str:
    return f"\\${accounting.estimate_next_cost(request, request['model'], request['max_tokens'], PRICING):.4f}"


def test_the_playground_shows_the_next_steps_estimate_and_it_bounds_the_real_cost(
    app_env, sim_server, scripted_model, monkeypatch
):
    at = _real_model_playground(sim_server, monkeypatch)
    predicted = _shown_estimate(at)  # before anything is built: the first request as it would be sent
    # Escaped dollars: two bare $ on one line would be typeset as LaTeX math
    assert "spent in this tab: **\\$0.0000** of no cap" in texts(at.caption)
    click(at, NEXT_PHASE)
    first = lab_of(at).run.turns[0].request
    assert predicted == _estimate(first) == _shown_estimate(at)
    for _ in range(4):  # call the model, read stop_reason, run the tools, append the results
        click(at, NEXT_PHASE)
    run = lab_of(at).run
    assert 0 < run.turns[0].cost_usd <= float(predicted[2:])
    predicted = _shown_estimate(at)
    assert f"spent in this tab: **\\${run.turns[0].cost_usd:.4f}**" in texts(at.caption)
    click(at, NEXT_PHASE)
    second = lab_of(at).run.turns[1].request
    assert len(second["messages"]) == 3 and predicted == _estimate(second), "the estimate was for the request sent"


def test_the_cap_compares_the_whole_tabs_spend_across_runs(app_env, sim_server, scripted_model, monkeypatch):
    at = _real_model_playground(sim_server, monkeypatch)
    click(at, RUN_TO_END)
    first = lab_of(at).run
    assert first.turns[0].exchanges[0].url == f"{sim_server}/v1/messages", "loopback only, never the real API"
    assert first.stop.kind == "end_turn" and first.total_cost_usd > 0
    assert lab_of(at).session_spend_usd == pytest.approx(first.total_cost_usd)
    # Below what this tab has spent, above what the next (empty) run has spent: only the tab's total stops it.
    at.switch_page(SETTINGS).run()
    cap = round(first.total_cost_usd * 0.9, 6)
    at.number_input(key="settings:cap").set_value(cap).run()
    assert lab_of(at).spend_cap_usd == cap
    at.switch_page(PLAYGROUND).run()
    click(at, RESET)
    click(at, RUN_TO_END)
    second = lab_of(at).run
    assert second.id != first.id and second.stop.kind == "spend_cap" and not second.turns
    assert "session spend cap" in stop_text(second) and f"${first.total_cost_usd:.4f}" in stop_text(second)
    assert "spend_cap" in texts(at.warning)


def test_the_offline_model_shows_no_spend_line_and_says_its_prices_are_simulated(app_env, scripted_model):
    at = open_page(PLAYGROUND)
    click(at, NEXT_PHASE)
    assert "Next step: up to" not in texts(at.caption)
    click(at, RUN_TO_END)
    run = lab_of(at).run
    assert run.total_cost_usd > 0 and f"${run.total_cost_usd:.4f}" in texts(at.metric)
    assert "what this run would cost on the Anthropic API at its list prices" in texts(at.caption)
    assert lab_of(at).session_spend_usd == 0, "nothing real was spent"


def test_a_local_server_shows_tokens_and_no_price_anywhere(app_env, sim_server, scripted_model):
    at = open_page(SETTINGS)
    use_compatible(at, sim_server)
    at.selectbox(key="settings:model:compatible").set_value("claude-sonnet-4-6").run()  # priced on the API, not here
    at.number_input(key="settings:cap").set_value(0.01).run()
    at.switch_page(PLAYGROUND).run()
    assert "no price (a local or unknown server)" in texts(at.caption) and "Next step: sends about" in texts(at.caption)
    click(at, RUN_TO_END)
    lab = lab_of(at)
    run = lab.run
    assert run.stop.kind == "end_turn" and len(run.turns) >= 2, "a tiny cap never stops a local server's run"
    assert run.total_cost_usd == 0 and all(t.cost_usd == 0 for t in run.turns) and lab.session_spend_usd == 0
    shown = "\n".join([texts(at.metric), texts(at.caption), texts(at.markdown), texts(at.info)])
    assert "$" not in shown, "no dollar figure for a server whose price is unknown"
    assert "Cost: no price (a local or unknown server). The figures are tokens" in texts(at.caption)
    out = sum(t.usage.output_tokens for t in run.turns)
    assert f"{out:,}" in texts(at.metric), "its tokens instead"


def test_test_connection_to_a_silent_server_ends_fast_and_says_what_is_wrong(app_env, monkeypatch):
    from loopback import start_silent

    from lab_ui.settings import page as settings_view

    monkeypatch.setattr(settings_view, "CHECK_TIMEOUT_S", 0.5)  # 5 s in the app; short here
    silent = start_silent()
    try:
        at = open_page(SETTINGS)
        use_compatible(at, silent.url)
        click(at, TEST_CONNECTION)
        shown = texts(at.error)
        assert f"The server at {silent.url} did not answer within 0.5 s." in shown
        assert "Retry this step" not in shown
        assert silent.requests == ["GET /v1/models?limit=100"], "asked once, not retried"
    finally:
        silent.stop()


def test_test_connection_and_the_model_list_wait_at_most_5_s():
    from lab_ui.settings import page as settings_view

    assert settings_view.CHECK_TIMEOUT_S <= 5
