"""Every number a lesson states is pinned to where it comes from: a price, a window or a limit to the model table
(agent_core/data/models.json) or the code, a token count or a cost to a real offline run of the lesson in every
language. The texts write {name}; lesson.json's `figures` states each value; these tests compare."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from lesson_runs import FOLDERS
from lesson_runs import lesson as _lesson
from lesson_runs import run as _run

from agent_core.teaching.lessons import LANGUAGES, LESSONS_ROOT, LessonError, load_lesson
from agent_core.teaching.lessons.facts import FactError, data_value
from agent_core.teaching.lessons.figures import PLACEHOLDER, Figure, figures_of, measure

FENCE = re.compile(r"```.*?```", re.S)
CODE = re.compile(r"`[^`\n]*`")
# Numbers that go stale: money, price multiples, and counts of tokens (with their window sizes).
STALE = (
    re.compile(r"\\?\$\s?\d[\d.,]*|\d[\d.,]*\s?\\?\$|\d[\d.,]*\s?(?:USD|долл\w*|dolar\w*)"),
    re.compile(r"\b\d+(?:[.,]\d+)?\s?[x×](?![\w-])"),
    re.compile(
        r"\b\d[\d,.\u00a0 –-]*\d\s?[KM]?\s+(?:[^\W\d]+\s+){0,2}?(?:tokens?|токен\w*|token(?:ów|y|a|ach)?)\b", re.I
    ),
    re.compile(r"\b\d+\s?[KM]\b"),
)


def _raw(folder: Path) -> dict:
    return json.loads((folder / "lesson.json").read_text(encoding="utf-8"))


def _figure_params() -> list:
    params = []
    for folder in FOLDERS:
        for name, spec in (_raw(folder).get("figures") or {}).items():
            langs = ["en"] if "data" in spec else list(LANGUAGES)  # a data figure is the same in every language
            params += [pytest.param(folder, name, lang, id=f"{folder.name}:{name}:{lang}") for lang in langs]
    return params


@pytest.mark.parametrize(("folder", "name", "lang"), _figure_params())
def test_each_number_a_lesson_states_is_what_its_source_says(folder: Path, name: str, lang: str):
    figure = _lesson(folder).figures[name]
    run = None if figure.data else _run(folder, lang, figure.exercise)
    found = measure(figure, run)
    source = figure.data or f"the {lang} run"
    assert figure.holds(found), f"{name}: the lesson says {figure.stated('en')}, {source} says {found!r}"


def _texts(folder: Path, lang: str) -> list[tuple[str, str]]:
    """(where, text) for every text a learner reads in one language, code left out."""
    out = [(f"{lang}.md", FENCE.sub("", (folder / f"{lang}.md").read_text(encoding="utf-8")))]

    def walk(value, where: str) -> None:
        if isinstance(value, dict) and set(value) == set(LANGUAGES):
            out.append((where, str(value[lang])))
        elif isinstance(value, dict):
            for key, item in value.items():
                if key not in ("scenario", "change", "goal", "tempting", "accepted", "figures", "expected", "sources"):
                    walk(item, f"{where}.{key}")
        elif isinstance(value, list):
            for n, item in enumerate(value):
                walk(item, f"{where}[{n}]")

    walk(_raw(folder), "lesson.json")
    return [(where, CODE.sub("", text)) for where, text in out]


def _settings(data: dict) -> set[float]:
    """Every number an exercise asks the learner to type (its change)."""
    found: set[float] = set()

    def walk(value) -> None:
        if isinstance(value, bool):
            return
        if isinstance(value, (int, float)):
            found.add(float(value))
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    for exercise in data.get("exercises", []):
        walk(exercise.get("change"))
    walk(data.get("scenario"))  # the lesson's own settings (a 1,500-token window) are what it is about
    return found


def _value(text: str) -> float | None:
    digits = re.sub(r"[^\d.,]", "", text).strip(".,")
    if not digits.startswith("0"):  # 1,500 and 1.500 are thousands; 0.004 and 0,011 are not
        digits = re.sub(r"[,.](?=\d{3}\b)", "", digits)
    digits = digits.replace(",", ".")
    try:
        return float(digits)
    except ValueError:
        return None


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda f: f.name)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_price_window_or_token_count_is_written_out_unpinned(folder: Path, lang: str):
    # A literal "$0.20" or "about 1,950 tokens" goes stale the day a price or the offline model changes; as
    # {name} with a stated figure it is checked on every run of the suite.
    settings = _settings(_raw(folder))  # "set max_tokens to 12" names a setting, not a fact that can go stale
    loose = [
        f"{where}: {m.group(0)!r}"
        for where, text in _texts(folder, lang)
        for pattern in STALE
        for m in pattern.finditer(text)
        if _value(m.group(0)) not in settings
    ]
    assert not loose, "write these as {figures}: " + "; ".join(loose[:8])


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda f: f.name)
def test_the_texts_show_the_stated_values_not_the_placeholders(folder: Path):
    lesson = _lesson(folder)
    for lang in LANGUAGES:
        shown = " ".join(f"{s.body} {s.depth}" for s in lesson.text(lang))
        shown += " ".join(q.explanation[lang] + q.question[lang] for q in lesson.questions)
        assert not set(PLACEHOLDER.findall(shown)) & set(lesson.figures), lang


# ---------------------------------------------------------------- the format itself


def test_a_data_path_reads_the_model_table_and_the_code():
    assert data_value("models.claude-sonnet-5-5.input") == 2
    assert data_value("models.claude-sonnet-5-5.cache_read / models.claude-sonnet-5-5.input") == 0.05
    assert data_value("models.claude-haiku-4-5.tool_prompt_tokens.1") == 588
    assert data_value("code.agent_core.tools.calculator.MAX_EXPONENT") == 10_000
    for bad in ("models.claude-nope.input", "models.claude-sonnet-5-5.colour", "web.example", "code.agent_core.nope.X"):
        with pytest.raises(FactError):
            data_value(bad)


def test_a_figure_the_docs_give_for_another_model_is_not_stated_as_this_ones():
    # The docs publish no hidden tool-prompt size and no minimum cacheable prefix for the 5.5 models yet; models.json
    # carries the predecessor's so the offline model has one, and marks it. A lesson cites the predecessor by name.
    for path in ("models.claude-sonnet-5-5.tool_prompt_tokens.0", "models.claude-haiku-5-5.min_cache_tokens"):
        with pytest.raises(FactError, match="the docs give no"):
            data_value(path)
    models = json.loads((LESSONS_ROOT.parent / "agent_core" / "data" / "models.json").read_text("utf-8"))["models"]
    marked = 0
    for model, row in models.items():
        for field, source in (row.get("assumed") or {}).items():
            marked += 1
            assert source in models and field not in (models[source].get("assumed") or {}), (model, field, source)
            assert row[field] == models[source][field], f"{model}.{field} is not {source}'s figure"
    assert marked >= 4


def test_a_data_figure_holds_only_its_stated_value_and_shows_it_with_its_decimals():
    read = Figure("read", data="models.claude-sonnet-5-5.cache_read", equals=0.1, digits=2)
    assert read.holds(measure(read, None)) and read.stated("en") == "0.10" and read.stated("pl") == "0,10"
    stale = Figure("read", data="models.claude-sonnet-5-5.cache_read", equals=0.2, digits=2)
    assert not stale.holds(measure(stale, None))


def _copy(tmp_path: Path, change) -> Path:
    source = LESSONS_ROOT / "05-stateless-server"
    folder = tmp_path / source.name
    folder.mkdir()
    for lang in LANGUAGES:
        (folder / f"{lang}.md").write_text((source / f"{lang}.md").read_text(encoding="utf-8"), encoding="utf-8")
    data = _raw(source)
    change(data, folder)
    (folder / "lesson.json").write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return folder


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda d, f: d["figures"].update(x={"data": "models.claude-nope.input", "equals": 1}), "no such model"),
        (
            lambda d, f: d["figures"].update(x={"data": "models.claude-sonnet-5-5.input", "measure": "turns"}),
            "not both",
        ),
        (
            lambda d, f: d["figures"].update(x={"data": "models.claude-sonnet-5-5.input", "equals": 2}),
            "'x' is not shown",
        ),
    ],
)
def test_a_broken_lesson_figure_is_reported(tmp_path: Path, change, words: str):
    with pytest.raises(LessonError) as caught:
        load_lesson(_copy(tmp_path, change))
    assert words in str(caught.value)


def test_the_teacher_figures_are_the_same_kind():
    # One Figure type for both: a data figure works in teacher notes too.
    numbers = {"figures": {"p": {"data": "models.claude-sonnet-5-5.input", "equals": 2}}}
    assert figures_of(numbers)["p"].holds(measure(figures_of(numbers)["p"], None))
