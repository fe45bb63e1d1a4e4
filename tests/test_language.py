"""Every page and every lesson step in English, Russian and Polish, in AppTest: nothing raises, and in Russian and
Polish no block of text is English (tests/english.py's heuristic, on the blocks tests/page_text.py reads).

The walk is the browser walk's (tests/test_browser_language.py), in process: the Playground after a run with tool
calls and a stop (each of the turn's tabs and the insights' tabs, every expander open, the lazy ones too), a run
that failed with an API error, the same run shared by link, Runs (each view, Compare included), Settings, Practice
(each mode), Teacher without and with a class, and Lessons: every step of every lesson, simply and in depth, each
lesson's run to its end and its first exercise checked. The browser walk keeps what only a browser shows."""

from __future__ import annotations

from pathlib import Path

import pytest
from lab_app import APP, ok, widget
from page_text import blocks, english_on, markdown_blocks
from streamlit.runtime.scriptrunner import get_script_run_ctx
from streamlit.testing.v1 import AppTest

from agent_core.loop.stepper import Stepper
from agent_core.model import Run, RunConfig, SimSettings
from agent_core.storage.store import RunStore
from agent_core.teaching.lessons import load_lessons
from agent_core.tools.catalog import default_specs
from lab_ui.practice import page as practice
from lab_ui.runs.page import VIEWS
from lab_ui.words import i18n

LANGS = ("en", "ru", "pl")
WALKING: list[AppTest] = []  # the session a walk is in, for _format_in_its_language
LESSONS = load_lessons()
TASK = {"en": "What's the weather in Oslo?", "ru": "Какая погода в Осло?", "pl": "Jaka jest pogoda w Oslo?"}


@pytest.fixture(autouse=True)
def _format_in_its_language(monkeypatch):
    """AppTest formats a select box's chosen option again outside the script (to send its state with the next run),
    where t() knows no session and speaks English, so a translated option is not found among the options the
    page showed. There, t() reads the walked session's own language (what the page itself was drawn in)."""
    inside = i18n.current_language

    def current_language() -> str:
        if get_script_run_ctx(suppress_warning=True) is None and WALKING:
            state = WALKING[0].session_state
            return state[i18n.LANGUAGE_KEY] if i18n.LANGUAGE_KEY in state else "en"
        return inside()

    monkeypatch.setattr(i18n, "current_language", current_language)


class Walk:
    """One AppTest session walking the app in one language, collecting every English phrase with where it was."""

    def __init__(self, lang: str, page: str, **query: str) -> None:
        self.lang, self.found = lang, []
        self.at = AppTest.from_file(APP, default_timeout=120)
        WALKING[:] = [self.at]
        self.at.query_params["lang"] = lang
        for name, value in query.items():
            self.at.query_params[name] = value
        self.at.run()
        self.go(page)

    def go(self, page: str) -> None:
        """Another page in the same session (as the sidebar's link)."""
        self.at.switch_page(page)
        self.run()

    def run(self) -> None:
        WALKING[:] = [self.at]
        self.at.run()
        ok(self.at)

    def click(self, key: str) -> None:
        widget(self.at, key).click()
        self.run()

    def check(self, where: str) -> None:
        """Nothing raised; in Russian and Polish, no English block."""
        ok(self.at)
        if self.lang == "en":
            return
        for phrase in english_on(self.at):
            self.found.append(f"[{self.lang}] {where}: {phrase}")

    def open_expanders(self) -> None:
        """Open every keyed expander (a lazy one builds its content only while open), until no new one appears."""
        opened: set[str] = set()
        for _ in range(10):
            closed = [e.key for e in _expanders(self.at) if e.key and e.key not in opened]
            if not closed:
                return
            for key in closed:
                self.at.session_state[key] = True
                opened.add(key)
            self.run()

    def tabs(self, key: str, where: str) -> None:
        """Open each tab of the tab bar keyed `key` (lazy tabs build their panel on the rerun) and check it."""
        labels = [t.label for t in self.at.get_by_key(key).tabs] if _has(self.at, key) else []
        assert labels or key == "turn-tabs", f"no tabs keyed {key}"
        for i, label in enumerate(labels):
            self.at.session_state[key] = label
            self.run()
            self.open_expanders()
            self.check(f"{where}, tab {i + 1}")

    def assert_clean(self) -> None:
        assert not self.found, f"{len(self.found)} English phrase(s):\n" + "\n".join(dict.fromkeys(self.found))


def _expanders(at: AppTest) -> list:
    out = []

    def walk(node) -> None:
        if type(node).__name__ == "Expander":
            out.append(node)
        for child in (getattr(node, "children", None) or {}).values():
            walk(child)

    walk(at._tree)
    return out


def _shows(at: AppTest, markdown: str) -> bool:
    return any(e.value == markdown for e in at.markdown)


def _has(at: AppTest, key: str) -> bool:
    try:
        at.get_by_key(key)
    except KeyError:
        return False
    return True


def _failed_run(db: Path, lang: str) -> str:
    """A saved run whose second call failed with an API error (529), and a finished one beside it (for Compare)."""
    store = RunStore(db)
    ids = []
    for faults in ([{"status": 529, "turn": 2, "attempts": 99}], []):
        run = Run(RunConfig(task=TASK[lang], tools=default_specs(["get_weather"]), sim=SimSettings(faults=faults)))
        Stepper(run, max_retries=0).run_to_end()
        store.save_run(run)
        ids.append(run.id)
    store.close()
    return ids[0]


def test_the_blocks_are_what_the_browser_walk_reads_code_links_and_the_models_words_left_out():
    text = (
        "## Шаг первый\n\nЦикл вызывает `for message in\nrunner:` и [the docs](https://example.com/docs) или "
        "[страницу](/practice?mode=order).\n\n- первый пункт\n- **второй** пункт\n\n| колонка | ещё |\n|---|---|\n"
        "| the answer is | here |\n\n```python\nfor the in this: pass\n```\n\n"
        "<div data-model-words>\n\nThe model says this is the answer.\n\n</div>"
    )
    assert markdown_blocks(text) == [
        "Шаг первый",
        "Цикл вызывает ¦ и ¦ или страницу.",
        "первый пункт",
        "второй пункт",
        "колонка",
        "ещё",
        "the answer is",
        "here",
    ]


def test_the_walk_finds_english_on_the_english_page(app_env):
    """The check can fail: on the English Playground it finds English in labels, buttons and the stop banner."""
    w = Walk("en", "pages/playground.py")
    w.click("btn-end")
    shown = list(blocks(w.at))
    assert "Run to end" in shown and "Playground" in shown
    assert len(english_on(w.at)) >= 10


@pytest.mark.parametrize("lang", LANGS)
def test_the_playground_runs_and_every_page_in_every_language(app_env, lang):
    failed = _failed_run(app_env, lang)
    w = Walk(lang, "pages/playground.py")
    w.check("Playground")
    w.click("btn-end")
    w.check("Playground after Run to end")
    w.open_expanders()
    w.check("Playground, every expander open")
    w.tabs("turn-tabs", "Playground, the turn")
    w.tabs("insights", "Playground, insights")

    w.go("pages/runs.py")
    for i, name in enumerate(VIEWS):
        widget(w.at, "runs:view").set_value(name)
        w.run()
        w.open_expanders()
        w.check(f"Runs, view {i + 1}")
    w.go("pages/settings.py")
    w.open_expanders()
    w.check("Settings")
    modes = [Walk(lang, "pages/practice.py", mode=mode) for mode in practice.MODES]  # a link opens each mode
    for i, mode in enumerate(modes):
        mode.check(f"Practice, mode {i + 1}")
    w.go("pages/teacher.py")
    w.check("Teacher, no class")
    widget(w.at, "teacher:class-name").input({"en": "Group B", "ru": "Группа Б", "pl": "Grupa B"}[lang])
    w.click("teacher:create-class")
    w.open_expanders()
    w.check("Teacher, a class")
    w.go("pages/home.py")
    w.check("Home")

    shared = Walk(lang, "pages/playground.py", run=failed)
    shared.check("Playground, a run stopped by an API error")
    shared.tabs("turn-tabs", "Playground, API error run")
    view = Walk(lang, "pages/playground.py", run=failed, view="shared")
    view.check("Share view")
    for walk in (w, *modes, shared, view):
        walk.assert_clean()


@pytest.mark.parametrize("lang", LANGS)
def test_every_step_of_every_lesson_in_every_language(app_env, lang):
    """One session walks the lessons as a learner does, picking each in turn from the lesson picker."""
    w = Walk(lang, "pages/lessons.py")
    for index, lesson in enumerate(LESSONS):
        # "In depth" shows each step's in-depth part under its simple one: switched on as the lesson opens
        w.at.session_state[f"depth:{lesson.id}"] = True
        if index:
            widget(w.at, "lesson-picker").set_value(index)
        w.run()
        assert w.at.query_params["lesson"] == lesson.id, "the picker opened the lesson"
        _walk_lesson(w, lesson, lang)
    w.assert_clean()


def _walk_lesson(w: Walk, lesson, lang: str) -> None:
    steps = lesson.text(lang)
    for step in range(len(steps)):
        assert not steps[step].depth or _shows(w.at, steps[step].depth), "the in-depth part is on the page"
        w.check(f"lesson {lesson.order}, step {step + 1}, simply and in depth")
        if step < len(steps) - 1:
            w.click(f"next:{lesson.id}")
    assert w.at.query_params["step"] == str(len(steps)), f"lesson {lesson.order}: the walk reached its last step"
    w.click("btn-end")
    if lesson.exercises:
        first = lesson.exercises[0]
        if first.step:  # an exercise shows under the step it belongs to (lessons' "step"; none: the last one)
            w.at.session_state[f"seg:{lesson.id}"] = first.step - 1
            w.run()
        w.click(f"check:{lesson.id}:{first.id}")
    w.open_expanders()
    w.check(f"lesson {lesson.order}, run to its end, first exercise checked, every expander open")
