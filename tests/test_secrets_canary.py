"""Secret hygiene: a canary key used for a whole session must appear nowhere but on the wire to the model server.

Scanned: every byte the app's server sent to the browser (websocket frames), the rendered HTML of every page and
of the raw views, the app's own log output (at debug level), the runs database file, and every export of the run.
The model server records the Authorization header it received, which proves the canary was really used.
"""

from __future__ import annotations

import contextlib
import logging
import secrets
from pathlib import Path

import pytest
from browser import (
    button,
    by_key,
    click_key,
    field,
    nav_link,
    needs_chromium,
    open_tab,
    option,
    running_app,
    shot,
    wait_idle,
    wait_layout,
)
from keys import KEY_FIELD, PROVIDER, RUN_TO_END, TEST_CONNECTION, TURN_TABS, USE_KEY
from lab_app import PLAYGROUND, click, everything_shown, lab_of, open_page
from test_settings_page import use_compatible

from agent_core.files.export import export_json
from agent_core.files.export_script import to_python_script
from agent_core.storage.store import RunStore
from agent_core.vocab import Provider
from agent_core.wire.openai_form import to_openai_messages, to_openai_response
from lab_ui.playground.turn import TABS


def canary(prefix: str) -> str:
    return prefix + secrets.token_hex(16)


def traces(key: str) -> list[bytes]:
    """The key, and two pieces of its random tail, each long enough (10 hex digits) never to occur by chance."""
    return [key.encode(), key[-10:].encode(), key[-20:-10].encode()]


def leaks(key: str, places: dict[str, bytes]) -> list[str]:
    return [name for name, data in places.items() if any(t in data for t in traces(key))]


def exports_of(db: Path) -> dict[str, bytes]:
    store, out = RunStore(db), {}
    for summary in store.list_runs():
        run = store.load(summary.id)
        out[f"{run.id}.json"] = export_json(run)
        out[f"{run.id}.py"] = to_python_script(run).encode()
        for turn in run.turns:
            out[f"{run.id} turn {turn.index} OpenAI"] = repr(
                (to_openai_messages(turn.request or {}), to_openai_response(turn.response or {}))
            ).encode()
    assert out, "the session saved at least one run"
    return out


def database_bytes(db: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in db.parent.glob(db.name + "*")}


# -- the real app in headless Chromium ------------------------------------------------------------------------
def app_logging_to(db: Path, log: Path):
    """`streamlit run app.py` with debug logging into a file the test then scans."""
    return running_app(db, log_path=log, extra_args=("--logger.level", "debug"))


def settings_with_key(page, server_url: str, key: str) -> None:
    option(page, PROVIDER, list(Provider).index(Provider.COMPATIBLE)).click()
    wait_idle(page)
    base = field(page, "settings:base_url")
    base.fill(server_url)
    base.press("Enter")
    wait_idle(page)
    field(page, KEY_FIELD).fill(key)
    click_key(page, USE_KEY)
    page.get_by_text("A key is set (from: session").wait_for(timeout=10_000)
    click_key(page, TEST_CONNECTION)
    page.get_by_text("OK: the server answered").wait_for(timeout=10_000)


def run_to_the_end(page) -> None:
    # Through the sidebar: the same session goes on (a new URL would start a fresh one, without the key).
    nav_link(page, "playground").click()
    button(page, RUN_TO_END).wait_for(timeout=30_000)
    click_key(page, RUN_TO_END)
    page.get_by_text("Loop stopped").wait_for(timeout=30_000)


def open_raw_views(page, html: dict[str, bytes]) -> None:
    for name in ("Request", "Response", "Raw JSON", "HTTP attempts", "Tools", "Diff"):
        open_tab(page, TURN_TABS, TABS.index(name))
        if name == "HTTP attempts":
            for attempt in by_key(page, TURN_TABS).locator("[data-testid='stExpander'] summary:visible").all():
                attempt.click()  # every attempt's expander on this tab
            for viewer in page.locator("[data-testid='stJson'] [role='button']").all()[:40]:
                with contextlib.suppress(Exception):
                    viewer.click(timeout=500)  # unfold the header trees too
        wait_layout(page)  # the expanders and trees just opened are drawn
        html[f"playground {name}"] = page.content().encode()


@pytest.mark.browser
@needs_chromium
def test_a_canary_key_used_for_a_whole_browser_session_is_found_nowhere(tmp_path, pages, model_server):
    server_url, handler = model_server
    key = canary("sk-ant-canary-")
    db, log = tmp_path / "runs.db", tmp_path / "streamlit.log"
    html: dict[str, bytes] = {}
    frames: list[bytes] = []
    with app_logging_to(db, log) as url:  # a server of its own: the test reads its whole log and database
        page = pages.new_page(viewport={"width": 1500, "height": 1100})
        page.on(
            "websocket",
            lambda ws: ws.on(
                "framereceived", lambda data: frames.append(data if isinstance(data, bytes) else data.encode())
            ),
        )
        page.goto(f"{url}/settings")
        by_key(page, PROVIDER).wait_for(timeout=180_000)  # a cold start on a busy machine
        settings_with_key(page, server_url, key)
        html["settings"] = page.content().encode()
        shot(page, "settings-with-session-key")
        run_to_the_end(page)
        open_raw_views(page, html)
        for name in ("home", "lessons", "runs", "settings"):
            nav_link(page, name).click()
            wait_idle(page)
            html[f"page {name}"] = page.content().encode()
        assert "A key is set (from: session" in html["page settings"].decode(), "the same session all along"
    assert f"Bearer {key}" in handler.credentials, "the canary really went to the model server"
    places = {
        **html,
        "websocket frames to the browser": b"".join(frames),
        "streamlit log": log.read_bytes(),
        **database_bytes(db),
        **exports_of(db),
    }
    assert len(frames) > 10 and log.stat().st_size > 0
    assert not leaks(key, places), f"the key leaked into: {leaks(key, places)}"


# -- the same session through AppTest, with a key that looks like no key at all ------------------------------------
def test_a_canary_that_is_not_key_shaped_is_found_nowhere_either(app_env, model_server, caplog, capsys):
    """Pattern scrubbing cannot catch 'lab-canary-…'; only never copying the key can."""
    server_url, handler = model_server
    key = canary("lab-canary-")
    caplog.set_level(logging.DEBUG)
    shown: dict[str, bytes] = {}
    at = open_page("pages/settings.py")
    use_compatible(at, server_url)
    at.text_input(key=KEY_FIELD).input(key)
    click(at, USE_KEY)
    click(at, TEST_CONNECTION)
    shown["settings"] = everything_shown(at).encode()
    at.switch_page(PLAYGROUND).run()
    click(at, RUN_TO_END)
    assert lab_of(at).run.stop.kind == "end_turn"
    shown["playground"] = everything_shown(at).encode()
    shown["run in memory"] = repr(lab_of(at).run).encode()
    for page in ("pages/home.py", "pages/lessons.py", "pages/runs.py", "pages/settings.py"):
        at.switch_page(page).run()
        shown[page] = everything_shown(at).encode()
    captured = capsys.readouterr()
    places = {
        **shown,
        "log records": caplog.text.encode(),
        "stdout": captured.out.encode(),
        "stderr": captured.err.encode(),
        **database_bytes(app_env),
        **exports_of(app_env),
    }
    assert f"Bearer {key}" in handler.credentials
    assert not leaks(key, places), f"the key leaked into: {leaks(key, places)}"
