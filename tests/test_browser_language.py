"""Every page in Russian and in Polish, in headless Chromium, holds no English sentence: what only a browser shows.

tests/test_language.py walks every page and every lesson step in every language in AppTest; this walk, one tab per
language, reads what the browser itself adds: the sidebar's page links, text Streamlit's frontend draws, lazy tabs
built by a click, what CSS hides or shows. It walks the Playground after a run with tool calls and a stop (each of
the turn's tabs, every expander open), a run that failed with an API error, a run shared by link, Runs (each view,
Compare included), Settings, Practice (each mode), Teacher with a class, and the Lessons page (its first lesson, run
to its end, its first exercise checked). tests/english.py finds English prose in the visible text, leaving out code,
raw JSON and API names. Few page loads: pages change through the sidebar."""

from __future__ import annotations

import pytest
from browser import ARTIFACTS, needs_chromium, wait_idle
from english import english_in, english_on_page
from playwright.sync_api import Error as PlaywrightError

from agent_core.loop.stepper import Stepper
from agent_core.model import Run, RunConfig, SimSettings
from agent_core.storage.store import RunStore
from agent_core.teaching.lessons import load_lessons
from agent_core.tools.catalog import default_specs

pytestmark = [pytest.mark.browser, needs_chromium]
SIZE = {"width": 1366, "height": 900}


def test_the_heuristic_finds_english_and_passes_russian_polish_and_api_names():
    assert english_in("Цикл остановлен (end_turn): stop_reason is end_turn: the model finished")
    assert english_in("Пока нет: the run stopped with 'end_turn'")
    assert english_in("Next phase Next step Run to end")
    assert english_in("Not found (404): usually an unknown model name")
    assert not english_in("Цикл остановлен (end_turn): stop_reason равен end_turn, вызов get_weather")
    assert not english_in("Pętla zatrzymana (end_turn): stop_reason to end_turn, więc pokaż odpowiedź")
    assert not english_in("Symulowany model (offline) · claude-sonnet-4-6 · Messages API · is_error")
    assert not english_in("Agent Loop Lab: to nie jest magia, a no i on to wie")
    assert not english_in("API отклоняет его с ошибкой 400 «prompt is too long» и „Error: city not found”")
    assert english_in("Пока нет: «ok» the run stopped")
    assert not english_in("❔ Что такое один проход цикла for у tool runner? Czym jest obrót pętli for w runnerze?")
    assert not english_in("klasa nie ma konta ani resetowania hasła; pokaż je w Polu „Zadanie”")


def _failed_run(db) -> tuple[str, str]:
    """Two saved runs: one whose second call failed with an API error (529), one that finished (for Compare)."""
    store = RunStore(db)
    ids = []
    for faults in ([{"status": 529, "turn": 2, "attempts": 99}], []):
        sim = SimSettings(faults=faults)
        run = Run(RunConfig(task="Какая погода в Осло?", tools=default_specs(["get_weather"]), sim=sim))
        Stepper(run, max_retries=0).run_to_end()
        store.save_run(run)
        ids.append(run.id)
    store.close()
    return ids[0], ids[1]


class Walk:
    """One tab walking the app in one language, collecting every English phrase with where it was seen."""

    def __init__(self, page, lang: str) -> None:
        self.page, self.lang, self.found = page, lang, []

    def check(self, where: str) -> None:
        wait_idle(self.page)
        for phrase in english_on_page(self.page):
            self.found.append(f"[{self.lang}] {where}: {phrase}")
            print(self.found[-1], flush=True)

    def open_expanders(self) -> None:
        """Open every closed expander on the page (one at a time: opening one may rerun the page)."""
        for _ in range(40):
            closed = self.page.locator("[data-testid='stExpander'] details:not([open]) > summary:visible")
            if not closed.count():
                return
            try:
                closed.first.click(timeout=10_000)
            except PlaywrightError:  # a rerun replaced it between the count and the click: look again
                pass
            wait_idle(self.page)

    def tabs(self, where: str) -> None:
        """Open each tab of the main area's tab bars and check what it shows."""
        tabs = self.page.locator("[data-testid='stMain'] [role='tab']")
        for i in range(tabs.count()):
            tabs.nth(i).click()
            self.check(f"{where}, tab {i + 1}")

    def segments(self, key: str, where: str) -> None:
        options = self.page.locator(f".st-key-{key} button")
        for i in range(options.count()):
            options.nth(i).click()
            wait_idle(self.page)  # else the old view's expanders, on their way out, are what open_expanders clicks
            self.open_expanders()
            self.check(f"{where}, view {i + 1}")

    def nav(self, path: str) -> None:
        self.page.locator(f"[data-testid='stSidebarNav'] a[href$='/{path}']").click()
        wait_idle(self.page)

    def goto(self, url: str, ready: str) -> None:
        self.page.goto(url)
        self.page.locator(ready).first.wait_for(timeout=180_000)
        wait_idle(self.page)


def _look(w: Walk, name: str) -> None:
    """A screenshot to look at (of the viewport: a full page of a long lesson can take minutes on a busy machine)."""
    try:
        w.page.screenshot(path=str(ARTIFACTS / f"language-{name}-{w.lang}.png"), timeout=20_000)
    except PlaywrightError:
        pass  # a picture for people; the walk's verdict does not depend on it


def _playground(w: Walk, url: str) -> None:
    w.goto(f"{url}/playground?lang={w.lang}", ".st-key-btn-end button")
    w.page.locator(".st-key-btn-end button").click()
    w.check("Playground after Run to end")
    w.tabs("Playground")
    w.open_expanders()
    w.check("Playground, every expander open")
    _look(w, "playground")


def _failed_and_shared(w: Walk, url: str, failed: str) -> None:
    w.goto(f"{url}/playground?lang={w.lang}&run={failed}", ".st-key-btn-end button")
    w.check("Playground, a run stopped by an API error")
    w.tabs("Playground, API error run")
    _look(w, "api-error")
    w.goto(f"{url}/playground?lang={w.lang}&run={failed}&view=shared", ".st-key-btn-end button")
    w.check("Share view")
    _look(w, "share")


def _pages(w: Walk) -> None:
    w.nav("runs")
    w.segments("runs-view", "Runs")  # a key's ":" is "-" in its class name
    w.nav("settings")
    w.open_expanders()
    w.check("Settings")
    w.nav("practice")
    w.segments("practice-mode", "Practice")
    w.nav("teacher")
    w.check("Teacher, no class")
    form = w.page.locator("[data-testid='stForm']").first
    form.locator("input").fill("Группа Б" if w.lang == "ru" else "Grupa B")
    form.locator("button").click()
    w.open_expanders()
    w.check("Teacher, a class")
    _look(w, "teacher")


def _a_lesson(w: Walk) -> None:
    """The Lessons page as the sidebar opens it: the first lesson's first two steps, its run to the end, its first
    exercise checked (every lesson step is walked in AppTest)."""
    lesson = load_lessons()[0]
    w.nav("lessons")
    w.page.locator(f".st-key-next-{lesson.id} button").wait_for()
    w.check("lesson 1, step 1")
    w.page.locator(f".st-key-next-{lesson.id} button").click()
    w.check("lesson 1, step 2")
    w.page.locator(".st-key-btn-end button").click()
    wait_idle(w.page)
    checks = w.page.locator(f"[class*='st-key-check-{lesson.id}-'] button")
    if checks.count():
        checks.first.click()
    w.open_expanders()
    w.check("lesson 1, run to its end, first exercise checked, every expander open")
    _look(w, "lesson")


@pytest.mark.timeout(900)  # a long walk: every page of one language
@pytest.mark.parametrize("lang", ["ru", "pl"])
def test_no_english_sentence_on_any_page(own_app, pages, lang):
    """A server of its own: the Runs page lists every run in its database, and must list no English task."""
    failed, _finished = _failed_run(own_app.db)
    url = own_app.url
    page = pages.new_page(viewport=SIZE)
    page.set_default_timeout(60_000)
    w = Walk(page, lang)
    _playground(w, url)
    _pages(w)
    _a_lesson(w)
    _failed_and_shared(w, url, failed)
    assert not w.found, f"{len(w.found)} English phrase(s):\n" + "\n".join(dict.fromkeys(w.found))
