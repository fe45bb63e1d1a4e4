"""A model call in flight shows its seconds and a Cancel; Cancel keeps the run so far (a server that never answers)."""

from __future__ import annotations

import json
import re

import pytest
from browser import needs_chromium, pick, shot, wait_idle
from keys import LANGUAGE
from loopback import start_silent
from test_call_timeouts import TOOL_USE

from agent_core.wire.providers import ENV_LOCAL_READ_TIMEOUT
from lab_ui.words.i18n import LANGUAGES

pytestmark = [pytest.mark.browser, needs_chromium]

CANCELLED = {
    "en": "The model call was cancelled after",
    "ru": "Вызов модели отменён через",
    "pl": "Wywołanie modelu anulowano po",
}
TIMER = {"en": r"Calling the model… (\d+) s", "ru": r"Вызываем модель… (\d+) с", "pl": r"Wywołuję model… (\d+) s"}


def _use_server(page, app: str, url: str, lang: str) -> None:
    page.goto(f"{app}/settings?lang={lang}")
    provider = page.locator(".st-key-settings-provider")
    provider.wait_for(timeout=90_000)
    provider.get_by_role("radio").nth(2).check(force=True)  # offline, Anthropic, Anthropic-compatible
    wait_idle(page)
    base = page.locator(".st-key-settings-base_url input")
    base.fill(url)
    base.press("Enter")
    wait_idle(page)


def _cancel_the_call_in_flight(page, lang: str) -> None:
    """The step that sent a request the server never answers: its seconds count up, Cancel ends the wait."""
    timer = page.get_by_text(re.compile(TIMER[lang]))
    timer.first.wait_for(timeout=30_000)
    page.get_by_text(re.compile(TIMER[lang].replace(r"(\d+)", r"([1-9]\d*)"))).first.wait_for(timeout=30_000)
    seconds = int(re.search(TIMER[lang], timer.first.inner_text()).group(1))
    assert seconds >= 1, "the seconds count up while the call is in flight"
    cancel = page.locator(".st-key-call-cancel button")
    assert cancel.is_visible()
    shot(page, f"call-in-flight-{lang}")
    cancel.click()
    page.get_by_text(CANCELLED[lang]).first.wait_for(timeout=30_000)
    wait_idle(page)
    shot(page, f"call-cancelled-{lang}")
    assert not page.get_by_text(re.compile(TIMER[lang])).count(), "the timer is gone"
    assert page.locator(".st-key-btn-phase button").is_enabled(), "the run goes on from where it was"
    assert page.get_by_role("cell", name="calculate", exact=True).count(), "turn 1 is still in the run"


def test_a_call_in_flight_shows_its_seconds_and_cancel_keeps_the_run_in_every_language(app_servers, pages):
    silent = start_silent([json.dumps(TOOL_USE).encode()])  # answers turn 1, then never again
    try:
        env = {ENV_LOCAL_READ_TIMEOUT: "120"}  # longer than the test: only Cancel ends the wait
        app = app_servers.get(extra_env=env).url
        page = pages.new_page(viewport={"width": 1366, "height": 768})
        _use_server(page, app, silent.url, "en")
        page.get_by_test_id("stSidebarNavItems").get_by_role("link").nth(1).click()  # the Playground
        step = page.locator(".st-key-btn-turn button")
        step.wait_for(timeout=30_000)
        step.click()  # turn 1: the canned tool call, run and appended
        wait_idle(page)
        for sent, lang in enumerate(["en", "ru", "pl"], start=2):
            if lang != "en":  # the learner switches the language; the run stays, and the next call is theirs
                pick(page, LANGUAGE, list(LANGUAGES).index(lang))
            step.click()  # turn 2: the server reads the request and never answers
            _cancel_the_call_in_flight(page, lang)
            assert [r for r in silent.requests if r.startswith("POST")] == ["POST /v1/messages"] * sent
    finally:
        silent.stop()
