"""Untrusted text never loads anything: a run whose every text holds image and HTML payloads fetches no URL."""

from __future__ import annotations

import pytest
import scripted
from browser import by_key, needs_chromium, open_tab, shot, wait_idle, wait_layout
from keys import TURN_TABS
from loopback import start_listener, stop_listener

from agent_core.loop.stepper import Stepper
from agent_core.model import Run, RunConfig
from agent_core.storage.store import RunStore
from agent_core.tools.catalog import default_specs
from lab_ui.playground.turn import TABS

pytestmark = [pytest.mark.browser, needs_chromium]


def payload(url: str, where: str) -> str:
    return (
        f"![x]({url}/leak/{where}) and <img src='{url}/html/{where}'> and "
        f"[ref image][r{where}]\n\n[r{where}]: {url}/ref/{where}\n\nsee {url}/text/{where}"
    )


def hostile_run(url: str) -> Run:
    run = Run(config=RunConfig(task=f"Task {payload(url, 'task')}", tools=default_specs(["calculate"])))
    call = scripted.tool_use("calculate", {"expression": payload(url, "input")})
    script = scripted.Script(
        scripted.message(scripted.text(payload(url, "reply")), call, stop_reason="tool_use"),
        scripted.message(scripted.text(f"ANSWER {payload(url, 'answer')}")),
    )
    Stepper(run, transport=script).run_to_end()
    tool = run.turns[0].tools[0]
    tool.name = f"calc{payload(url, 'name')}"  # as an edited file could carry it
    tool.output, tool.is_error = f"Error: {payload(url, 'toolerror')}", True
    return run


def test_no_payload_url_is_fetched_by_the_browser(app, pages):
    listener = start_listener()
    try:
        db = app.db
        run = hostile_run(listener.url)
        with RunStore(db) as store:
            store.save_run(run)
        page = pages.new_page(viewport={"width": 1500, "height": 1100})
        asked = []  # every URL the page asks for, as the browser starts the request (before it reaches the listener)
        page.on("request", lambda request: asked.append(request.url))
        page.goto(f"{listener.url}/control")  # the control: this browser does reach the listener
        assert "/control" in [h.path for h in listener.hits]
        page.goto(f"{app.url}/playground?run={run.id}&mode=replay&turn=1")
        page.get_by_text("ANSWER").first.wait_for(timeout=60_000)  # the Answer tab, with the payload as text
        wait_idle(page)
        for name in ("Response", "Tools"):
            open_tab(page, TURN_TABS, TABS.index(name))
            wait_idle(page)
        assert page.get_by_text("/leak/toolerror").first.is_visible(), "the tool error is shown, as text"
        shot(page, "untrusted-playground")
        page.goto(f"{app.url}/runs")
        by_key(page, "runs:view").wait_for(timeout=60_000)
        wait_idle(page)
        shot(page, "untrusted-runs")
        wait_layout(page)
        page.wait_for_load_state("networkidle")  # a request the last paint started has reached the listener
        fetched = [h.path for h in listener.hits if h.path.startswith(("/leak/", "/html/", "/ref/", "/text/"))]
        assert fetched == []
        assert [u for u in asked if u.startswith(listener.url) and not u.endswith("/control")] == []
    finally:
        stop_listener(listener)
