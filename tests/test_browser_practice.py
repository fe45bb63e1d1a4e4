"""The Practice page and predict-then-reveal in headless Chromium: every mode does its job in English, Russian and
Polish, at 1366x768 and 768 px wide, and a prediction is scored after Next step."""

from __future__ import annotations

import pytest
from browser import (
    button,
    by_key,
    click_key,
    field,
    nav_link,
    needs_chromium,
    option,
    pick,
    shot,
    toggle_expander,
    wait_idle,
)
from keys import LANGUAGE, NEXT_PHASE, NEXT_STEP

from agent_core.teaching.lessons import load_lessons
from lab_ui.playground.predict import APPENDED_WORDS
from lab_ui.practice import page as practice
from lab_ui.words.i18n import LANGUAGES, translate

pytestmark = [pytest.mark.browser, needs_chromium]
# Each mode: the keys of the buttons a learner presses, and a sentence that proves the mode did its work.
MODES = {
    "model": (["model-send-form"], "The server accepts the next request ({n} input tokens)."),
    "loop": (["loop-show", "loop-send"], "The server accepted your request; the model answered."),
    "order": (["order-check"], "Put all {n} lines in order, each once."),
    "tool": (["tool-check"], "Not yet: fix the checks marked ✗."),
    "fill": (["fill-check"], "The server rejects it: 400 {message}"),
}


def words(lang: str, key: str) -> str:
    """The sentence as the learner sees it, up to its first placeholder (enough to find it on the page)."""
    return translate(lang, key).split("{")[0].strip()


def choose_language(page, lang: str) -> None:
    if lang == "en":
        return
    pick(page, LANGUAGE, list(LANGUAGES).index(lang))


def no_sideways_scroll(page, width: int) -> bool:
    return page.evaluate("document.documentElement.scrollWidth") <= width + 1


@pytest.fixture
def site(app, pages):
    return app.url, pages


@pytest.mark.parametrize("lang", ["en", "ru", "pl"])
def test_every_mode_works_in_every_language_and_width(site, lang):
    url, b = site
    page = b.new_page(viewport={"width": 1366, "height": 768})
    page.goto(f"{url}/practice?mode=model")
    button(page, "model-send-form").wait_for(timeout=180_000)
    choose_language(page, lang)
    assert page.get_by_role("heading", name=translate(lang, "Practice")).is_visible()
    for mode, (keys, proof) in MODES.items():
        page.set_viewport_size({"width": 1366, "height": 768})
        option(page, "practice-mode", list(practice.MODES).index(mode)).click()
        wait_idle(page)
        for key in keys:
            target = button(page, key)
            target.wait_for(timeout=180_000)
            target.click()
            wait_idle(page)
        page.get_by_text(words(lang, proof)).first.wait_for(timeout=180_000)
        assert not page.locator("[data-testid='stException']").count()
        shot(page, f"practice-{mode}-{lang}-1366")
        page.set_viewport_size({"width": 768, "height": 1024})
        wait_idle(page)
        assert page.get_by_text(words(lang, proof)).first.is_visible()
        assert no_sideways_scroll(page, 768), f"{mode} scrolls sideways at 768 px"
        shot(page, f"practice-{mode}-{lang}-768")
    page.close()


def test_you_are_the_model_shows_the_apis_rule_for_repeated_ids(site):
    url, b = site
    page = b.new_page(viewport={"width": 1366, "height": 768})
    page.goto(f"{url}/practice?mode=model")
    field(page, "model-count").wait_for(timeout=180_000)
    field(page, "model-count").fill("2")
    field(page, "model-count").press("Enter")
    wait_idle(page)
    for i in (0, 1):
        box = field(page, f"model-id-{i}")
        box.fill("toolu_same")
        box.press("Enter")
        wait_idle(page)
    click_key(page, "model-send-form")
    page.get_by_text("ids must be unique", exact=False).first.wait_for(timeout=180_000)  # `tool_use` shows as code
    shot(page, "practice-model-duplicate-ids")
    click_key(page, "model-undo")
    assert button(page, "model-send-form").is_visible()
    page.close()


def test_order_the_loop_right_is_praised(site):
    url, b = site
    page = b.new_page(viewport={"width": 1366, "height": 900})
    page.goto(f"{url}/practice?mode=order")
    button(page, "order-check").wait_for(timeout=180_000)
    from agent_core.teaching.learn.exercises import ACCEPTED_ORDERS, line_text

    box = field(page, "order-lines")
    for line_id in ACCEPTED_ORDERS[0]:
        box.click()
        box.fill(line_text(line_id).strip())  # typing filters the list down to this line
        box.press("Enter")
        wait_idle(page)
    page.keyboard.press("Escape")
    click_key(page, "order-check")
    page.get_by_text("Right: this is the loop.").wait_for(timeout=30_000)
    shot(page, "practice-order-right")
    page.close()


def test_a_prediction_is_scored_after_next_step(site):
    url, b = site
    page = b.new_page(viewport={"width": 1366, "height": 900})
    page.goto(f"{url}/playground")
    by_key(page, "predict-panel").wait_for(timeout=180_000)
    toggle_expander(page, "predict-panel")
    wait_idle(page)
    for key, choice in (("predict-stop", "tool_use"), ("predict-tool", "calculate")):  # API names: never translated
        pick(page, key, name=choice)
    pick(page, "predict-appended", 1 + list(APPENDED_WORDS).index("reply_and_results"))  # after "—"
    click_key(page, "predict-lock")
    page.get_by_text("Your prediction for turn 1 is locked in").wait_for(timeout=30_000)
    click_key(page, NEXT_STEP)
    page.get_by_text("Turn 1: 3 of 3 right").wait_for(timeout=180_000)
    shot(page, "predict-reveal")
    page.close()


def test_the_loop_code_switches_to_typescript(site):
    url, b = site
    page = b.new_page(viewport={"width": 1366, "height": 900})
    page.goto(f"{url}/playground")
    typescript = option(page, "loop_code_language", 1)  # Python, TypeScript
    typescript.wait_for(timeout=180_000)
    typescript.click()
    wait_idle(page)
    assert page.get_by_text('import Anthropic from "@anthropic-ai/sdk";').is_visible()
    click_key(page, NEXT_PHASE)
    lit = page.locator(".lab-done").all_inner_texts()
    assert lit and any("messages" in line for line in lit)  # build_request lit in the TypeScript code
    shot(page, "loop-code-typescript")
    page.close()


def test_a_lesson_links_to_its_practice_mode_in_the_same_tab(site):
    url, b = site
    page = b.new_page(viewport={"width": 1366, "height": 900})
    page.goto(f"{url}/practice?mode=model")  # a mode chosen earlier in this tab must not win over the link
    button(page, "model-send-form").wait_for(timeout=180_000)
    nav_link(page, "lessons").click()
    lesson = load_lessons()[0]  # the Lessons page opens the first lesson, whose last step links to "order"
    assert "order" in practice.FOR_LESSON[lesson.id]
    last = option(page, f"seg:{lesson.id}", len(lesson.text("en")) - 1)
    last.wait_for(timeout=180_000)
    last.click()  # the links come under the exercises, at the end of the lesson's script
    wait_idle(page)
    link = page.locator("[data-testid='stMain'] a[href*='mode=order']").first  # the lesson's link to that mode
    link.wait_for(timeout=180_000)
    link.click()
    wait_idle(page)
    button(page, "order-check").wait_for(timeout=180_000)
    assert "/practice?mode=order" in page.url  # the page adds what every page keeps (language, learner)
    page.close()
