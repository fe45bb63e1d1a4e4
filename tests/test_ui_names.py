"""The same word for the same thing: every bold UI name in prose (the Home tour, each lesson step, its exercises and
hints) is a label that is really on screen in that language. AppTest renders the Playground and the Lessons page
after a run (every tab row, the form's panels) in en, ru and pl; their labels are what the prose may name."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from lab_app import APP, ok, widget
from streamlit.testing.v1 import AppTest

from agent_core.teaching.lessons import load_lessons
from lab_ui.words import ui_names
from lab_ui.words.i18n import translate

ROOT = Path(__file__).resolve().parent.parent
BOLD = re.compile(r"\*\*([^*]+?)\*\*")
QUOTED = re.compile(r"[\"“]([^\"“”]{2,60})[\"”]")  # an English text names a panel in quotes too: "HTTP attempts"
LESSONS = load_lessons()
PAGES = ("Home", "Playground", "Lessons", "Practice", "Runs", "Teacher", "Settings")  # app.py's page titles


def _labels(at: AppTest) -> set[str]:
    found: set[str] = set()

    def walk(node) -> None:
        for name in ("label", "value"):
            value = getattr(node, name, None) if name == "label" or type(node).__name__ == "Tab" else None
            if isinstance(value, str) and value.strip():
                found.add(value.strip())
        for child in (getattr(node, "children", None) or {}).values():
            walk(child)

    walk(at._tree)
    return found


def _screen(lang: str) -> set[str]:
    """The labels of the Playground and the Lessons page after a run to end, in `lang`."""
    labels = {translate(lang, p) for p in PAGES}
    for page, query in (("pages/playground.py", {}), ("pages/lessons.py", {"lesson": LESSONS[0].id})):
        at = AppTest.from_file(APP, default_timeout=120)
        at.query_params["lang"] = lang
        for name, value in query.items():
            at.query_params[name] = value
        at.run()
        at.switch_page(page).run()
        ok(at)
        widget(at, "btn-end").click().run()
        ok(at)
        labels |= _labels(at)
    return labels


@pytest.fixture(scope="module")
def screens(tmp_path_factory) -> dict[str, set[str]]:
    import os

    os.environ["AGENT_LOOP_LAB_DB"] = str(tmp_path_factory.mktemp("ui-names") / "runs.db")
    return {lang: _screen(lang) for lang in ("en", "ru", "pl")}


def _prose(lang: str) -> list[tuple[str, str]]:
    """(where, text) of every prose a learner reads that names UI: the Home tour (as rendered) and the lessons."""
    home = (ROOT / "lab_ui" / "content" / f"home.{lang}.md").read_text(encoding="utf-8")
    out = [("Home", ui_names.fill_in(lang, home))]
    for lesson in LESSONS:
        for n, step in enumerate(lesson.text(lang), 1):
            out.append((f"lesson {lesson.order} step {n}", step.body + "\n" + step.depth))
        for ex in lesson.exercises:
            out.append((f"lesson {lesson.order} exercise {ex.id}", ex.instructions[lang] + "\n" + ex.hint[lang]))
    return [(where, " ".join(text.split())) for where, text in out]  # a bold name may wrap over two lines


@pytest.mark.parametrize("lang", ["ru", "pl"])
def test_every_bold_ui_name_in_prose_is_a_label_on_screen(screens, lang):
    english, here = screens["en"], screens[lang]
    ours = {translate(lang, name): name for name in english}  # this language's label for each English one
    wrong = []
    for (where, text), (_, english_text) in zip(_prose(lang), _prose("en"), strict=True):
        for name in BOLD.findall(text):
            if name in english and name not in here:
                wrong.append(f"{where}: **{name}** is the English label; on screen it reads {translate(lang, name)!r}")
            elif name in ours and name not in here:
                wrong.append(f"{where}: **{name}** is not on screen")
        for name in BOLD.findall(english_text) + QUOTED.findall(english_text):  # a UI name English names: here too
            if name in english and translate(lang, name) != name and translate(lang, name) not in text:
                wrong.append(f"{where}: the English names **{name}**; this text never says {translate(lang, name)!r}")
    assert not wrong, f"{len(wrong)} UI name(s) in prose that the screen does not show:\n" + "\n".join(wrong)


def test_the_home_tour_names_the_buttons_as_they_read(screens):
    for lang in ("en", "ru", "pl"):
        text = ui_names.fill_in(lang, (ROOT / "lab_ui" / "content" / f"home.{lang}.md").read_text(encoding="utf-8"))
        named = BOLD.findall(text)
        assert "{ui:" not in text and named
        missing = [n for n in named if n in {translate(lang, x) for x in screens["en"]} and n not in screens[lang]]
        assert not missing, (lang, missing)
