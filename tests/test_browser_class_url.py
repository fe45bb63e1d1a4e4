"""The Teacher page's class stays in the URL (?class=) across pages, and the teacher comes back to the class
without retyping the key, which is never put into another page's URL (a projected page must not show it)."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest
from browser import needs_chromium, shot, wait_idle

pytestmark = [pytest.mark.browser, needs_chromium]


def query(page) -> dict[str, str]:
    return {k: v[0] for k, v in parse_qs(urlsplit(page.url).query).items()}


def nav(page, path: str) -> None:
    page.locator(f"[data-testid='stSidebarNav'] a[href$='/{path}']").click()
    wait_idle(page)


def test_the_class_is_kept_in_the_url_across_pages_and_the_key_only_on_the_teacher_page(app, pages):
    url = app.url
    page = pages.new_page(viewport={"width": 1366, "height": 768})
    page.goto(f"{url}/teacher?lang=ru")
    form = page.locator("[data-testid='stForm']").first
    form.locator("input").wait_for(timeout=180_000)
    form.locator("input").fill("Группа Б")
    form.locator("button").click()
    wait_idle(page)
    code = query(page)["class"]
    assert query(page).get("teacher"), "the teacher's own page carries the key"
    for path in ("lessons", "playground", "settings"):
        nav(page, path)
        assert query(page).get("class") == code, f"{path} dropped the class from the URL"
        assert "teacher" not in query(page), f"{path} shows the teacher key in its URL"
    shot(page, "class-url-settings-ru")
    nav(page, "teacher")
    page.get_by_text(code).first.wait_for(timeout=30_000)
    assert query(page)["class"] == code and query(page).get("teacher")
    assert page.locator("[data-testid='stForm']").count() == 0, "the class opens again, no form to fill"
    page.reload()
    page.get_by_text(code).first.wait_for(timeout=120_000)
    assert query(page)["class"] == code
