"""The Playground counts a server's requested wait down, and Cancel ends it with the run kept."""

from __future__ import annotations

import json

import pytest
from browser import button, field, nav_link, needs_chromium, option, shot, wait_idle
from keys import NEXT_PHASE, NEXT_STEP, PROVIDER
from loopback import Hit, start_listener, stop_listener

from agent_core.vocab import Provider
from lab_ui.playground.call_watch import CANCEL_KEY

pytestmark = [pytest.mark.browser, needs_chromium]


def _rate_limited(hit: Hit):
    if hit.path.startswith("/v1/models"):
        return 200, {}, json.dumps({"data": [{"id": "m", "type": "model"}], "has_more": False}).encode()
    body = {"type": "error", "error": {"type": "rate_limit_error", "message": "slow down"}}
    return 429, {"retry-after": "1000000"}, json.dumps(body).encode()


def test_a_long_requested_wait_counts_down_and_cancel_keeps_the_run(app, pages):
    listener = start_listener(_rate_limited)
    try:
        page = pages.new_page(viewport={"width": 1500, "height": 1100})
        page.goto(f"{app.url}/settings")
        compatible = option(page, PROVIDER, list(Provider).index(Provider.COMPATIBLE))
        compatible.wait_for(timeout=180_000)  # a cold start on a busy machine
        compatible.click()
        wait_idle(page)
        base = field(page, "settings:base_url")
        base.fill(listener.url)
        base.press("Enter")
        wait_idle(page)
        nav_link(page, "playground").click()
        button(page, NEXT_STEP).wait_for(timeout=30_000)
        button(page, NEXT_STEP).click()
        page.get_by_text("The server asked to wait 1e+06 s before retrying").first.wait_for(timeout=30_000)
        assert page.get_by_text("Waits are capped at 60 s.").first.is_visible()
        shot(page, "retry-wait-countdown")
        button(page, CANCEL_KEY).click()
        page.get_by_text("The wait was cancelled").first.wait_for(timeout=30_000)
        wait_idle(page)
        shot(page, "retry-wait-cancelled")
        assert button(page, NEXT_PHASE).is_enabled(), "the run goes on from where it was"
        assert 1 <= len([h for h in listener.hits if h.path.startswith("/v1/messages")]) <= 2
    finally:
        stop_listener(listener)
