"""The numbers a teacher reads in a lesson's notes are the numbers the class will see: each stated figure is
measured from a real offline run of the lesson (or of one exercise's change) in every language."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from lesson_runs import FOLDERS
from lesson_runs import lesson as _lesson
from lesson_runs import run as _run

from agent_core.teaching.lessons import LANGUAGES, LESSONS_ROOT, LessonError, load_lesson
from agent_core.teaching.lessons.figures import Figure, figures_of, measure, render, rendered_numbers
from agent_core.teaching.teacher_notes import lesson_notes


def _numbers(folder: Path) -> dict:
    notes = json.loads((folder / "lesson.json").read_text(encoding="utf-8")).get("teacher_notes") or {}
    return notes.get("numbers") or {}


def _figure_params() -> list:
    params = []
    for folder in FOLDERS:
        for name in _numbers(folder).get("figures") or {}:
            params += [pytest.param(folder, name, lang, id=f"{folder.name}:{name}:{lang}") for lang in LANGUAGES]
    return params


@pytest.mark.parametrize(("folder", "name", "lang"), _figure_params())
def test_each_stated_figure_is_what_the_run_shows(folder: Path, name: str, lang: str):
    figure = figures_of(_numbers(folder))[name]
    measured = measure(figure, _run(folder, lang, figure.exercise))
    assert figure.holds(measured), f"{name}: the notes say {figure.stated('en')}, the {lang} run shows {measured!r}"


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda f: f.name)
def test_every_lesson_states_measured_numbers_on_the_teacher_page(folder: Path):
    notes = lesson_notes(_lesson(folder))
    assert notes is not None and figures_of(_numbers(folder)), "no measured figures in teacher_notes.numbers"
    for lang in LANGUAGES:
        shown = notes.items("numbers", lang)
        assert shown and not any("{" in item for item in shown), shown


# ---------------------------------------------------------------- the format itself


def test_a_figure_agrees_only_with_its_stated_value():
    assert Figure("t", "turns", equals=3).holds(3) and not Figure("t", "turns", equals=3).holds(4)
    about = Figure("x", "first_input_tokens", about=1000)
    assert about.holds(1090) and about.holds(910) and not about.holds(1200) and not about.holds(None)
    assert Figure("x", "cost_usd", about=0.01, within=0.5).holds(0.014)
    between = Figure("x", "turns", min=2, max=4)
    assert between.holds(2) and between.holds(4) and not between.holds(5)
    assert Figure("s", "stop_reason", equals="end_turn").holds("end_turn")
    assert not Figure("s", "stop_reason", equals="end_turn").holds("tool_use")


def test_figures_are_written_the_way_each_language_writes_numbers():
    figures = {
        "n": Figure("n", "first_input_tokens", about=11500),
        "k": Figure("k", "first_input_tokens", about=1050),
        "c": Figure("c", "cost_usd", about=0.0125),
        "r": Figure("r", "turns", min=2, max=3),
    }
    text = "{n} / {k} / {c} / {r} / {unknown}"
    assert render(text, figures, "en") == "11,500 / 1,050 / 0.0125 / 2–3 / {unknown}"
    assert render(text, figures, "ru") == "11\u00a0500 / 1050 / 0,0125 / 2–3 / {unknown}"
    assert render(text, figures, "pl") == "11\u00a0500 / 1050 / 0,0125 / 2–3 / {unknown}"


def test_the_teacher_page_gets_the_texts_with_the_figures_filled_in():
    numbers = {
        "en": ["{turns} turns"],
        "ru": ["{turns} итерации"],
        "pl": ["{turns} iteracje"],
        "figures": {"turns": {"measure": "turns", "equals": 3}},
    }
    assert rendered_numbers(numbers) == {"en": ["3 turns"], "ru": ["3 итерации"], "pl": ["3 iteracje"]}


def _with_numbers(tmp_path: Path, numbers: dict) -> Path:
    source = LESSONS_ROOT / "01-the-loop"
    folder = tmp_path / source.name
    folder.mkdir()
    for lang in LANGUAGES:
        (folder / f"{lang}.md").write_text((source / f"{lang}.md").read_text(encoding="utf-8"), encoding="utf-8")
    data = json.loads((source / "lesson.json").read_text(encoding="utf-8"))
    data["teacher_notes"]["numbers"] = numbers
    (folder / "lesson.json").write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return folder


GOOD = {
    "en": ["{turns} turns"],
    "ru": ["{turns} итерации"],
    "pl": ["{turns} iteracje"],
    "figures": {"turns": {"measure": "turns", "equals": 3}},
}


def test_well_formed_figures_load(tmp_path: Path):
    lesson = load_lesson(_with_numbers(tmp_path, copy.deepcopy(GOOD)))
    assert lesson_notes(lesson).items("numbers", "ru") == ["3 итерации"]


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda n: n["figures"]["turns"].update(measure="turnz"), "figures.turns: measure must be one of"),
        (lambda n: n["figures"]["turns"].update(about=3), "state the value once"),
        (lambda n: n["figures"]["turns"].update(exercise="nope"), "no exercise 'nope'"),
        (lambda n: n["figures"]["turns"].update(equals=None), "state the value once"),
        (lambda n: n["figures"].update(cost={"measure": "cost_usd", "about": "0.01"}), "must be numbers"),
        (lambda n: n["figures"].update(spare={"measure": "turns", "equals": 3}), "'spare' is not shown"),
        (lambda n: n.update(ru=["{turnz} итерации"]), "numbers.ru[0]: {turnz} names no figure"),
        (lambda n: n.update(pl=["3 iteracje"]), "numbers.pl[0]: must show the same figures"),
    ],
)
def test_a_broken_figure_is_reported_by_file_and_field(tmp_path: Path, change, words: str):
    numbers = copy.deepcopy(GOOD)
    change(numbers)
    with pytest.raises(LessonError) as caught:
        load_lesson(_with_numbers(tmp_path, numbers))
    assert words in str(caught.value)
