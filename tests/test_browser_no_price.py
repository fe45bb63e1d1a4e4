"""A local server's run shows tokens and no price, and its typed URL reads as a custom server, in every language
(one run, then the learner switches the language: the run and the settings stay, every word changes)."""

from __future__ import annotations

import pytest
from browser import needs_chromium, pick, shot, wait_idle
from keys import LANGUAGE
from test_browser_call_cancel import _use_server

from agent_core.model import SimSettings
from agent_core.sim import start_server
from lab_ui.words.i18n import LANGUAGES

pytestmark = [pytest.mark.browser, needs_chromium]

CUSTOM = {"en": "Custom URL", "ru": "Свой URL", "pl": "Własny URL"}
NO_PRICE = {
    "en": "no price (a local or unknown server)",
    "ru": "нет цены (локальный или неизвестный сервер)",
    "pl": "brak ceny (serwer lokalny lub nieznany)",
}


def _preset_shown(page) -> str:
    preset = page.locator(".st-key-settings-preset")
    preset.wait_for(timeout=30_000)
    shown = preset.inner_text() + " " + " ".join(i.input_value() for i in preset.locator("input").all())
    return shown + " " + " ".join(preset.locator("[value]").evaluate_all("els => els.map(e => e.value)"))


def _no_dollar_figure(page, lang: str) -> None:
    page.get_by_text(NO_PRICE[lang]).first.wait_for(timeout=30_000)
    page.get_by_test_id("stMetric").first.wait_for(timeout=30_000)
    shot(page, f"local-no-price-{lang}")
    main = page.get_by_test_id("stMain").inner_text()
    assert "$" not in main, f"no dollar figure anywhere on the page ({lang})"
    assert "65536" in main, f"the run is still there, at its answer ({lang})"


def test_a_local_servers_run_shows_no_dollar_figure_in_every_language(app, pages):
    server, url = start_server(SimSettings())
    try:
        page = pages.new_page(viewport={"width": 1366, "height": 768})
        _use_server(page, app.url, url, "en")
        assert CUSTOM["en"] in _preset_shown(page), "not a preset's name"
        nav = page.get_by_test_id("stSidebarNavItems").get_by_role("link")
        nav.nth(1).click()  # the Playground
        page.locator(".st-key-btn-end button").wait_for(timeout=30_000)
        assert NO_PRICE["en"] in page.get_by_test_id("stMain").inner_text(), "said before the first step too"
        page.locator(".st-key-btn-end button").click()
        wait_idle(page)
        _no_dollar_figure(page, "en")
        for lang in ("ru", "pl"):
            pick(page, LANGUAGE, list(LANGUAGES).index(lang))
            _no_dollar_figure(page, lang)
            nav.last.click()  # Settings: the typed URL is still a custom server, named in this language
            wait_idle(page)
            shown = _preset_shown(page)
            assert CUSTOM[lang] in shown, f"not a preset's name in {lang}: {shown!r}"
            shot(page, f"settings-custom-{lang}")
            nav.nth(1).click()
            wait_idle(page)
    finally:
        server.shutdown()
