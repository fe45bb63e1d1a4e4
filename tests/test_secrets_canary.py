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
from browser import browser, needs_chromium, running_app, shot, wait_idle
from test_errors_playground import click, lab_of, open_page, scripted_think  # noqa: F401
from test_settings_page import everything_shown, use_compatible

from agent_core.export import export_json, to_openai_messages, to_openai_response, to_python_script
from agent_core.model import SimSettings
from agent_core.sim import SimHandler
from agent_core.store import RunStore


class RecordingHandler(SimHandler):
    """The simulated model, remembering the credentials each request carried."""

    def __init__(self) -> None:
        super().__init__(SimSettings(), think=scripted_think)
        self.credentials: list[str] = []

    def handle(self, method, path, headers, body):
        lowered = {k.lower(): v for k, v in headers.items()}
        self.credentials += [lowered[h] for h in ("authorization", "x-api-key") if h in lowered]
        return super().handle(method, path, headers, body)


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
    page.get_by_text("Anthropic-compatible URL").click()
    wait_idle(page)
    base = page.get_by_label("Base URL", exact=True)
    base.fill(server_url)
    base.press("Enter")
    wait_idle(page)
    page.get_by_label("Paste an API key for this tab only", exact=True).fill(key)
    page.get_by_role("button", name="Use this key").click()
    wait_idle(page)
    page.get_by_text("A key is set (from: session").wait_for(timeout=10_000)
    page.get_by_role("button", name="Test connection").click()
    wait_idle(page)
    page.get_by_text("OK: the server answered").wait_for(timeout=10_000)


def run_to_the_end(page) -> None:
    # Through the sidebar: the same session goes on (a new URL would start a fresh one, without the key).
    page.get_by_test_id("stSidebarNavItems").get_by_role("link", name="Playground").click()
    page.get_by_role("button", name="Run to end").wait_for(timeout=30_000)
    page.get_by_role("button", name="Run to end").click()
    wait_idle(page)
    page.get_by_text("Loop stopped").wait_for(timeout=30_000)


def open_raw_views(page, html: dict[str, bytes]) -> None:
    for tab in ("Request", "Response", "Raw JSON", "HTTP attempts", "Tools", "Diff"):
        page.get_by_role("tab", name=tab).first.click()
        wait_idle(page)  # the turn's tabs are lazy: a click reruns the page to build the one it opens
        if tab == "HTTP attempts":
            for attempt in page.get_by_text("Attempt 1 ·").all():
                attempt.click()
            for viewer in page.locator("[data-testid='stJson'] [role='button']").all()[:40]:
                with contextlib.suppress(Exception):
                    viewer.click(timeout=500)  # unfold the header trees too
        page.wait_for_timeout(200)
        html[f"playground {tab}"] = page.content().encode()


@pytest.mark.browser
@needs_chromium
def test_a_canary_key_used_for_a_whole_browser_session_is_found_nowhere(tmp_path, model_server):
    server_url, handler = model_server
    key = canary("sk-ant-canary-")
    db, log = tmp_path / "runs.db", tmp_path / "streamlit.log"
    html: dict[str, bytes] = {}
    frames: list[bytes] = []
    with app_logging_to(db, log) as url, browser() as b:
        page = b.new_page(viewport={"width": 1500, "height": 1100})
        page.on(
            "websocket",
            lambda ws: ws.on(
                "framereceived", lambda data: frames.append(data if isinstance(data, bytes) else data.encode())
            ),
        )
        page.goto(f"{url}/settings")
        page.get_by_text("Provider").first.wait_for(timeout=30_000)
        settings_with_key(page, server_url, key)
        html["settings"] = page.content().encode()
        shot(page, "settings-with-session-key")
        run_to_the_end(page)
        open_raw_views(page, html)
        for name in ("Home", "Lessons", "Runs", "Settings"):
            page.get_by_test_id("stSidebarNavItems").get_by_role("link", name=name).click()
            wait_idle(page)
            html[f"page {name}"] = page.content().encode()
        assert "A key is set (from: session" in html["page Settings"].decode(), "the same session all along"
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
    at.text_input(key="settings:key").input(key)
    click(at, "Use this key")
    click(at, "Test connection")
    shown["settings"] = everything_shown(at).encode()
    at.switch_page("pages/playground.py").run()
    click(at, "Run to end")
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
