"""Every page and every lesson step in Russian and in Polish, in headless Chromium, holds no English sentence.

One tab per language walks: the Playground after a run with tool calls and a stop (each of the turn's tabs, every
expander open), a run that failed with an API error, a run shared by link, Runs (each view, Compare included),
Settings, Practice (each mode), Teacher with a class, and Lessons: every step of every lesson, each lesson's run to
its end and its first exercise checked. tests/english.py finds English prose in the visible text, leaving out code,
raw JSON and API names. Few page loads: pages change through the sidebar, lessons through their picker."""

from __future__ import annotations

import pytest
from browser import ARTIFACTS, needs_chromium, running_app, wait_idle
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


def _lessons(w: Walk, url: str) -> None:
    w.goto(f"{url}/lessons?lang={w.lang}", "[class*='st-key-next-'] button")
    for lesson in load_lessons():
        if lesson.order > 1:
            picker = w.page.locator("[data-testid='stMain'] [data-testid='stSelectbox'] input").first
            picker.click()
            picker.fill(f"{lesson.order}. ")
            w.page.get_by_role("option", name=f"{lesson.order}. {lesson.title[w.lang]}").first.click()
            wait_idle(w.page)
        where = f"lesson {lesson.order}"
        for step in range(len(lesson.text(w.lang))):
            w.check(f"{where}, step {step + 1}")
            following = w.page.locator(f".st-key-next-{lesson.id} button")
            if following.is_enabled():
                following.click()
        w.page.locator(".st-key-btn-end button").click()
        wait_idle(w.page)
        checks = w.page.locator(f"[class*='st-key-check-{lesson.id}-'] button")
        if checks.count():
            checks.first.click()
        w.open_expanders()
        w.check(f"{where}, run to its end, first exercise checked, every expander open")


@pytest.mark.timeout(2400)  # a heavy walk: every page and lesson step of one language
@pytest.mark.parametrize("lang", ["ru", "pl"])
def test_no_english_sentence_on_any_page_or_lesson_step(tmp_path, pages, lang):
    db = tmp_path / "runs.db"  # its own: the Runs page lists every run in it, and must list no English task
    failed, _finished = _failed_run(db)
    with running_app(db) as url:
        page = pages.new_page(viewport=SIZE)
        page.set_default_timeout(60_000)
        w = Walk(page, lang)
        _playground(w, url)
        _pages(w)
        _failed_and_shared(w, url, failed)
        _lessons(w, url)
    assert not w.found, f"{len(w.found)} English phrase(s):\n" + "\n".join(dict.fromkeys(w.found))
