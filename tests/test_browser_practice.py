"""The Practice page and predict-then-reveal in headless Chromium: every mode does its job in English, Russian and
Polish, at 1366x768 and 768 px wide, and a prediction is scored after Next step."""

from __future__ import annotations

import pytest
from browser import browser, needs_chromium, running_app, shot, wait_idle

from lab_ui.i18n import translate

pytestmark = [pytest.mark.browser, needs_chromium]
LANGUAGE_NAMES = {"en": "English", "ru": "Русский", "pl": "Polski"}
# Each mode: its label, the buttons a learner presses, and a sentence that proves the mode did its work.
MODES = {
    "model": ("You are the model", ["Send my reply"], "The server accepts the next request ({n} input tokens)."),
    "loop": (
        "You are the loop",
        ["Fill in the right answer", "Send this request"],
        "The server accepted your request; the model answered.",
    ),
    "order": ("Order the loop", ["Check the order"], "Put all {n} lines in order, each once."),
    "tool": ("Write a tool", ["Check my tool"], "Not yet: fix the checks marked ✗."),
    "fill": ("Fill a tool_result", ["Check my tool_result"], "The server rejects it: 400 {message}"),
}


def words(lang: str, key: str) -> str:
    """The sentence as the learner sees it, up to its first placeholder (enough to find it on the page)."""
    return translate(lang, key).split("{")[0].strip()


def choose_language(page, lang: str) -> None:
    if lang == "en":
        return
    page.locator("[data-testid='stSidebar'] [data-testid='stSelectbox']").first.click()
    page.get_by_role("option", name=LANGUAGE_NAMES[lang]).click()
    wait_idle(page)


def no_sideways_scroll(page, width: int) -> bool:
    return page.evaluate("document.documentElement.scrollWidth") <= width + 1


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    with running_app(tmp_path_factory.mktemp("practice") / "runs.db") as url, browser() as b:
        yield url, b


@pytest.mark.parametrize("lang", ["en", "ru", "pl"])
def test_every_mode_works_in_every_language_and_width(app, lang):
    url, b = app
    page = b.new_page(viewport={"width": 1366, "height": 768})
    page.goto(f"{url}/practice?mode=model")
    page.get_by_role("button", name=words("en", "Send my reply")).wait_for(timeout=180_000)
    choose_language(page, lang)
    assert page.get_by_role("heading", name=translate(lang, "Practice")).is_visible()
    for mode, (label, buttons, proof) in MODES.items():
        page.set_viewport_size({"width": 1366, "height": 768})
        page.get_by_role("radio", name=translate(lang, label), exact=True).click()
        wait_idle(page)
        for button in buttons:
            target = page.get_by_role("button", name=translate(lang, button), exact=True)
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


def test_you_are_the_model_shows_the_apis_rule_for_repeated_ids(app):
    url, b = app
    page = b.new_page(viewport={"width": 1366, "height": 768})
    page.goto(f"{url}/practice?mode=model")
    page.get_by_role("spinbutton", name="Tool calls").wait_for(timeout=180_000)
    page.get_by_role("spinbutton", name="Tool calls").fill("2")
    page.get_by_role("spinbutton", name="Tool calls").press("Enter")
    wait_idle(page)
    for i in (1, 2):
        field = page.get_by_label("id (optional)").nth(i - 1)
        field.fill("toolu_same")
        field.press("Enter")
        wait_idle(page)
    page.get_by_role("button", name="Send my reply").click()
    wait_idle(page)
    page.get_by_text("ids must be unique", exact=False).first.wait_for(timeout=180_000)  # `tool_use` shows as code
    shot(page, "practice-model-duplicate-ids")
    page.get_by_role("button", name="Take back my last reply").click()
    wait_idle(page)
    assert page.get_by_role("button", name="Send my reply").is_visible()
    page.close()


def test_order_the_loop_right_is_praised(app):
    url, b = app
    page = b.new_page(viewport={"width": 1366, "height": 900})
    page.goto(f"{url}/practice?mode=order")
    page.get_by_role("button", name="Check the order").wait_for(timeout=180_000)
    from agent_core.learn.exercises import ACCEPTED_ORDERS, line_text

    box = page.locator("[data-testid='stMultiSelect'] input")
    for line_id in ACCEPTED_ORDERS[0]:
        box.click()
        box.fill(line_text(line_id).strip())  # typing filters the list down to this line
        box.press("Enter")
        wait_idle(page)
    page.keyboard.press("Escape")
    page.get_by_role("button", name="Check the order").click()
    wait_idle(page)
    page.get_by_text("Right: this is the loop.").wait_for(timeout=30_000)
    shot(page, "practice-order-right")
    page.close()


def test_a_prediction_is_scored_after_next_step(app):
    url, b = app
    page = b.new_page(viewport={"width": 1366, "height": 900})
    page.goto(f"{url}/playground")
    page.get_by_text("Predict, then reveal").wait_for(timeout=180_000)
    page.get_by_text("Predict, then reveal").click()
    wait_idle(page)
    for label, option in (("stop_reason", "tool_use"), ("Which tool", "calculate"), ("What gets appended", None)):
        page.get_by_label(label).click()
        name = option or "the reply, then one user message with the tool results"
        page.get_by_role("option", name=name, exact=True).click()
    page.get_by_role("button", name="Lock in my prediction").click()
    wait_idle(page)
    page.get_by_text("Your prediction for turn 1 is locked in").wait_for(timeout=30_000)
    page.get_by_role("button", name="Next step").click()
    wait_idle(page)
    page.get_by_text("Turn 1: 3 of 3 right").wait_for(timeout=180_000)
    shot(page, "predict-reveal")
    page.close()


def test_the_loop_code_switches_to_typescript(app):
    url, b = app
    page = b.new_page(viewport={"width": 1366, "height": 900})
    page.goto(f"{url}/playground")
    page.get_by_role("radio", name="TypeScript").wait_for(timeout=180_000)
    page.get_by_role("radio", name="TypeScript").click()
    wait_idle(page)
    assert page.get_by_text('import Anthropic from "@anthropic-ai/sdk";').is_visible()
    page.get_by_role("button", name="Next phase").click()
    wait_idle(page)
    lit = page.locator(".lab-done").all_inner_texts()
    assert lit and any("messages" in line for line in lit)  # build_request lit in the TypeScript code
    shot(page, "loop-code-typescript")
    page.close()


def test_a_lesson_links_to_its_practice_mode_in_the_same_tab(app):
    url, b = app
    page = b.new_page(viewport={"width": 1366, "height": 900})
    page.goto(f"{url}/practice?mode=model")  # a mode chosen earlier in this tab must not win over the link
    page.get_by_role("button", name="Send my reply").wait_for(timeout=180_000)
    page.get_by_role("link", name="Lessons").click()
    link = page.get_by_role("link", name="Order the loop")
    link.wait_for(timeout=180_000)
    link.click()
    wait_idle(page)
    page.get_by_role("button", name="Check the order").wait_for(timeout=180_000)
    assert "/practice?mode=order" in page.url  # the page adds what every page keeps (language, learner)
    page.close()
