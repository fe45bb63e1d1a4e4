"""A class server in real Chromium, two browsers as two learners: the identity is the server's HttpOnly signed
cookie (deploy/class_app.py), so a second tab and a reload are the same learner, a copied link is nobody, and
neither learner sees or opens the other's runs. Screenshots of the class-mode pages in en, ru and pl."""

from __future__ import annotations

import re

import pytest
from browser import button, needs_chromium, shot, wait_idle
from keys import NEXT_STEP

from agent_core.serving.identity import COOKIE
from agent_core.teaching.classes import ClassStore

pytestmark = [pytest.mark.browser, needs_chromium]
# Not key-shaped: it signs identity cookies on this test's class server only.
CLASS_ENV = {"AGENT_LOOP_LAB_MODE": "class", "AGENT_LOOP_LAB_SECRET": "class-server-browser-test-secret"}
WIDE, NARROW = {"width": 1366, "height": 768}, {"width": 768, "height": 1024}


@pytest.fixture
def class_app(app_servers):
    return app_servers.get(CLASS_ENV, script="deploy/class_app.py")


def _open(page, url: str, text: str | None = None) -> None:
    page.goto(url)
    wait_idle(page)
    if text:
        page.get_by_text(text).first.wait_for(timeout=60_000)


def _learner_cookie(context) -> dict:
    return next(c for c in context.cookies() if c["name"] == COOKIE)


def test_two_browsers_are_two_learners_and_neither_reaches_the_others_runs(class_app, pages, monkeypatch):
    monkeypatch.setenv("AGENT_LOOP_LAB_DB", str(class_app.db))  # this test's class, in the server's database
    code = ClassStore().create("Group B").code
    url = class_app.url

    ada = pages.new_page(viewport=WIDE)
    _open(ada, f"{url}/lessons?class={code}", "Join class")
    ada.get_by_label("Your name (as your teacher should see it)").fill("Ada")
    ada.locator(".st-key-class-join-button button").click()
    ada.get_by_text("you are Ada").first.wait_for(timeout=60_000)
    cookie = _learner_cookie(ada.context)
    assert cookie["httpOnly"], "no page script can read or change the identity"
    assert ada.evaluate("document.cookie").find(COOKIE) < 0
    shot(ada, "class-server-lessons-en-1366")
    link = ada.url

    # A second tab of the same browser, and a reload: the same learner, the same row on the board.
    second = ada.context.new_page()
    _open(second, f"{url}/lessons", "you are Ada")
    second.reload()
    wait_idle(second)
    second.get_by_text("you are Ada").first.wait_for(timeout=60_000)
    assert [m.name for m in ClassStore().members(code)] == ["Ada"]

    _open(ada, f"{url}/playground")
    button(ada, NEXT_STEP).click()
    wait_idle(ada)
    ada.get_by_role("heading", name="Turn 1").first.wait_for(timeout=60_000)
    run_id = re.search(r"[?&]run=([0-9a-f]+)", ada.url)[1]

    # Another browser, with Ada's own link copied: not Ada.
    boris = pages.new_page(viewport=WIDE)
    _open(boris, link, "Join class")
    assert _learner_cookie(boris.context)["value"] != cookie["value"]
    assert not boris.get_by_text("you are Ada").count()
    _open(boris, f"{url}/playground?run={run_id}", "is not shared with you")
    _open(boris, f"{url}/runs", "No saved runs yet")
    assert run_id not in boris.content()
    shot(boris, "class-server-not-shared-en-1366")


@pytest.mark.parametrize("lang", ["ru", "pl"])
def test_the_class_mode_settings_and_lessons_in_russian_and_polish(class_app, pages, lang):
    page = pages.new_page(viewport=NARROW)
    _open(page, f"{class_app.url}/settings?lang={lang}")
    page.locator("[data-testid='stAlert']").first.wait_for(timeout=60_000)
    shot(page, f"class-server-settings-{lang}-768")
    page.set_viewport_size(WIDE)
    _open(page, f"{class_app.url}/lessons?lang={lang}")
    shot(page, f"class-server-lessons-{lang}-1366")
