"""A local server's run shows tokens and no price, and its typed URL reads as a custom server, in every language."""

from __future__ import annotations

import pytest
from browser import needs_chromium, shot, wait_idle
from test_browser_call_cancel import _use_server

from agent_core.model import SimSettings
from agent_core.sim import start_server

pytestmark = [pytest.mark.browser, needs_chromium]

CUSTOM = {"en": "Custom URL", "ru": "Свой URL", "pl": "Własny URL"}
NO_PRICE = {
    "en": "no price (a local or unknown server)",
    "ru": "нет цены (локальный или неизвестный сервер)",
    "pl": "brak ceny (serwer lokalny lub nieznany)",
}


@pytest.mark.parametrize("lang", ["en", "ru", "pl"])
def test_a_local_servers_run_shows_no_dollar_figure(app, pages, lang):
    server, url = start_server(SimSettings())
    try:
        page = pages.new_page(viewport={"width": 1366, "height": 768})
        _use_server(page, app.url, url, lang)
        preset = page.locator(".st-key-settings-preset")
        shown = preset.inner_text() + " " + " ".join(i.input_value() for i in preset.locator("input").all())
        shown += " " + " ".join(preset.locator("[value]").evaluate_all("els => els.map(e => e.value)"))
        assert CUSTOM[lang] in shown, f"not a preset's name: {shown!r}"
        shot(page, f"settings-custom-{lang}")
        page.get_by_test_id("stSidebarNavItems").get_by_role("link").nth(1).click()
        page.locator(".st-key-btn-end button").wait_for(timeout=30_000)
        assert NO_PRICE[lang] in page.get_by_test_id("stMain").inner_text(), "said before the first step too"
        page.locator(".st-key-btn-end button").click()
        wait_idle(page)
        page.get_by_text(NO_PRICE[lang]).first.wait_for(timeout=30_000)
        page.get_by_test_id("stMetric").first.wait_for(timeout=30_000)
        shot(page, f"local-no-price-{lang}")
        main = page.get_by_test_id("stMain").inner_text()
        assert "$" not in main, "no dollar figure anywhere on the page"
        assert "65536" in main, "the run ran to its answer"
    finally:
        server.shutdown()
