"""A learner's state in headless Chromium: lesson Next/Previous, the URL and the language cookie across page changes,
reloads and a second tab, a second tab on the same run forking instead of overwriting, an unsent task kept."""

import re
from urllib.parse import parse_qs, urlparse

import pytest
from browser import button, click_key, field, nav_link, needs_chromium, shot, wait_idle
from keys import NEXT_PHASE, NEXT_STEP, TASK

from agent_core.storage.store import RunStore

pytestmark = [pytest.mark.browser, needs_chromium]
NEXT, PREVIOUS = "next:the-loop", "prev:the-loop"  # the first lesson's step buttons


def query(page) -> dict[str, str]:
    return {k: v[0] for k, v in parse_qs(urlparse(page.url).query).items()}


def selected_step(page) -> str:
    """The number shown as selected in the lesson's step control."""
    picked = page.locator("[data-testid='stButtonGroup'] button[aria-checked='true']")  # also Python/TypeScript
    return picked.filter(has_text=re.compile(r"^\s*\d+\s*$")).inner_text().strip()


def test_lesson_steps_learner_and_language_survive_page_changes_reloads_and_a_new_tab(app, pages):
    url = app.url
    ctx = pages.new_context(viewport={"width": 1366, "height": 768})
    page = ctx.new_page()
    page.goto(f"{url}/lessons?lang=ru")
    button(page, NEXT).wait_for(timeout=180_000)
    for _ in range(2):
        click_key(page, NEXT)
    assert selected_step(page) == "3"
    click_key(page, PREVIOUS)
    assert selected_step(page) == "2"
    state = query(page)
    assert state["lang"] == "ru" and state["step"] == "2" and state["lesson"] == "the-loop" and state["learner"]
    shot(page, "state-lesson-step2-ru")

    nav_link(page, "playground").click()
    wait_idle(page)
    assert query(page)["learner"] == state["learner"] and query(page)["lang"] == "ru"
    nav_link(page, "lessons").click()
    wait_idle(page)
    assert query(page) == state and selected_step(page) == "2"

    page.reload()
    button(page, NEXT).wait_for(timeout=120_000)
    wait_idle(page)
    assert query(page) == state and selected_step(page) == "2"

    fresh = ctx.new_page()  # no query at all: the cookie brings the language back
    fresh.goto(f"{url}/lessons")
    button(fresh, NEXT).wait_for(timeout=120_000)
    assert query(fresh)["lang"] == "ru"
    linked = ctx.new_page()  # the same URL in a second tab: the same learner, lesson and step
    linked.goto(page.url)
    button(linked, NEXT).wait_for(timeout=120_000)
    wait_idle(linked)
    assert query(linked) == state and selected_step(linked) == "2"


def test_a_second_tab_on_the_same_run_forks_and_an_unsent_task_survives_a_reload(app, pages):
    db = app.db
    url = app.url
    ctx = pages.new_context(viewport={"width": 1366, "height": 768})
    first = ctx.new_page()
    first.goto(f"{url}/playground")
    button(first, NEXT_PHASE).wait_for(timeout=180_000)
    button(first, NEXT_STEP).click()
    wait_idle(first)
    run_id = query(first)["run"]
    second = ctx.new_page()
    second.goto(first.url)
    button(second, NEXT_STEP).wait_for(timeout=120_000)
    wait_idle(second)
    button(second, NEXT_STEP).click()  # the second tab moves the run on
    wait_idle(second)
    assert query(second)["run"] == run_id
    button(first, NEXT_PHASE).click()  # the first tab's view is now stale
    wait_idle(first)
    first.get_by_text(f"Another tab changed run {run_id}").wait_for(timeout=10_000)
    copy_id = query(first)["run"]
    assert copy_id != run_id
    shot(first, "state-second-tab-forked")
    with RunStore(db) as store:
        assert len(store.load(run_id).turns) == 2, "the second tab's turn was not overwritten"
        forked = store.load(copy_id)
        assert forked.parent_id == run_id and forked.turns[0].response == store.load(run_id).turns[0].response

    task = field(first, TASK)
    task.fill("Wie warm ist es in Rom?")
    task.press("Control+Enter")
    wait_idle(first)
    assert query(first)["draft"] == "Wie warm ist es in Rom?"
    first.reload()
    field(first, TASK).wait_for(timeout=120_000)
    wait_idle(first)
    assert field(first, TASK).input_value() == "Wie warm ist es in Rom?"
    assert query(first)["run"] == copy_id
