"""Every lesson loads, runs offline to its expected outcome, and reaches each exercise goal only with the change."""

from __future__ import annotations

import functools
import json
import shutil
from pathlib import Path

import pytest

from agent_core.model import (
    ApiError,
    Exchange,
    Limits,
    Run,
    RunConfig,
    StopCause,
    ToolExecution,
    ToolSpec,
    Turn,
    Usage,
)
from agent_core.teaching.lessons import (
    LANGUAGES,
    LESSONS_ROOT,
    GoalResult,
    Lesson,
    LessonError,
    check_goal,
    deep_merge,
    load_lesson,
    load_lessons,
    parse_steps,
)
from agent_core.teaching.lessons.goals import MISS_CODES, STOP_REASONS, Miss
from agent_core.teaching.lessons.scenario import catalog_spec
from agent_core.teaching.lessons.validate import FOLDER

FOLDERS = sorted(p for p in LESSONS_ROOT.iterdir() if p.is_dir() and FOLDER.match(p.name))


def _exercise_params() -> list:
    params = []
    for folder in FOLDERS:
        try:
            ids = [e["id"] for e in json.loads((folder / "lesson.json").read_text(encoding="utf-8"))["exercises"]]
        except (OSError, ValueError, KeyError, TypeError):
            ids = ["<lesson.json unreadable>"]
        params += [pytest.param(folder, ex, lang, id=f"{folder.name}:{ex}:{lang}") for ex in ids for lang in LANGUAGES]
    return params


@functools.cache
def _lesson(folder: Path) -> Lesson:
    return load_lesson(folder)


@functools.cache
def _run(folder: Path, lang: str, patch_json: str = "{}") -> Run:
    """One offline run per (lesson, language, patch): several tests read the same run."""
    from agent_core.loop.stepper import run_task  # the loader tests below do not need the loop

    return run_task(_lesson(folder).scenario_config(lang, json.loads(patch_json)))


@functools.cache
def _reset_run(folder: Path, lang: str) -> Run:
    """Reset + Run to end, as the page does it: a fresh run of the lesson's own scenario, stepped to the end. One per
    (lesson, language): every exercise of a lesson resets to the same scenario (lesson 7's runaway loop has eight)."""
    from agent_core.loop.stepper import Stepper

    run = Run(config=_lesson(folder).scenario_config(lang))
    Stepper(run).run_to_end()
    return run


def _explain(result: GoalResult, run: Run) -> str:
    turns = [(t.index, t.stop_reason, [c["name"] for c in t.tool_calls]) for t in run.turns]
    return f"{result.reasons}; stop={run.stop}; turns={turns[:12]}; final={run.final_text[:200]!r}"


# ---------------------------------------------------------------- the real lessons


def test_the_lessons_folder_holds_lessons_sorted_by_order():
    lessons = load_lessons()
    assert len(lessons) == len(FOLDERS) >= 7
    assert [x.order for x in lessons] == sorted(x.order for x in lessons)
    assert {x.path.name for x in lessons} == {f.name for f in FOLDERS}


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda f: f.name)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_lesson_loads_in_every_language(folder: Path, lang: str):
    lesson = _lesson(folder)
    steps = lesson.text(lang)
    assert len(steps) >= 2 and all(s.title and s.body for s in steps)
    config = lesson.scenario_config(lang)
    assert config.language == lang and config.task.strip()
    assert config.provider == "offline"
    for text in (lesson.title, lesson.summary, *[q.question for q in lesson.questions]):
        assert text[lang].strip()


# Below 992 px Streamlit stacks the lesson's columns, so "the task on the right" points at nothing there.
_SIDE_WORDS = {"en": ("on the right", "on the left"), "ru": ("справа", "слева"), "pl": ("po prawej", "po lewej")}


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda f: f.name)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_lesson_text_names_panels_not_the_side_they_sit_on(folder: Path, lang: str):
    for step in _lesson(folder).text(lang):
        prose = "\n".join(line for line in step.body.split("\n") if not line.startswith(("    ", "`")))
        assert not [w for w in _SIDE_WORDS[lang] if w in prose.lower()], step.title


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda f: f.name)
def test_translations_differ_from_english(folder: Path):
    # A copy-pasted English text in ru.md or pl.md is a missing translation.
    lesson = _lesson(folder)
    english = [s.body for s in lesson.text("en")]
    for lang in ("ru", "pl"):
        assert not set(english) & {s.body for s in lesson.text(lang)}, lang
        assert lesson.title[lang] != lesson.title["en"]


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda f: f.name)
def test_every_question_has_one_correct_answer_and_an_explanation(folder: Path):
    lesson = _lesson(folder)
    assert lesson.questions
    for question in lesson.questions:
        assert len(question.options) >= 2
        assert sum(o.correct for o in question.options) == 1, question.id
        assert all(question.explanation[lang].strip() for lang in LANGUAGES)


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda f: f.name)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_scenario_runs_offline_to_its_expected_outcome(folder: Path, lang: str):
    lesson = _lesson(folder)
    run = _run(folder, lang)
    result = check_goal(lesson.expected, run)
    assert result.passed, _explain(result, run)


@pytest.mark.parametrize(("folder", "exercise_id", "lang"), _exercise_params())
def test_exercise_goal_needs_the_change(folder: Path, exercise_id: str, lang: str):
    lesson = _lesson(folder)
    exercise = lesson.exercise(exercise_id)
    untouched = _run(folder, lang)
    before = lesson.check(exercise.goal, untouched)
    assert not before.passed, f"the untouched scenario already meets the goal: {_explain(before, untouched)}"
    changed = _run(folder, lang, json.dumps(exercise.change, sort_keys=True))
    after = lesson.check(exercise.goal, changed)
    assert after.passed, _explain(after, changed)


@pytest.mark.parametrize(("folder", "exercise_id", "lang"), _exercise_params())
def test_reset_and_run_to_end_and_the_tempting_wrong_changes_fail(folder: Path, exercise_id: str, lang: str):
    lesson = _lesson(folder)
    exercise = lesson.exercise(exercise_id)
    assert not lesson.check(exercise.goal, _reset_run(folder, lang)).passed, "Reset + Run to end passes the exercise"
    assert len(exercise.tempting) >= 2, "name the two most tempting wrong changes in 'tempting'"
    for wrong in exercise.tempting:
        assert wrong != exercise.change
        result = lesson.check(exercise.goal, _run(folder, lang, json.dumps(wrong, sort_keys=True)))
        assert not result.passed, f"the wrong change {wrong} passes the exercise"


@pytest.mark.parametrize(("folder", "exercise_id", "lang"), _exercise_params())
def test_every_other_correct_change_passes_too(folder: Path, exercise_id: str, lang: str):
    # An equivalent correct answer (tool_choice "tool" where it behaves as "any", a window that gives the same
    # 400, another city in the system prompt) must pass: a check that wants one exact edit teaches the form.
    lesson = _lesson(folder)
    for other in lesson.exercise(exercise_id).accepted:
        run = _run(folder, lang, json.dumps(other, sort_keys=True))
        result = lesson.check(lesson.exercise(exercise_id).goal, run)
        assert result.passed, f"the correct change {other} fails: {_explain(result, run)}"


def test_every_structured_miss_has_a_sentence_in_the_catalogue():
    from lab_ui.lessons.goal_feedback import SENTENCES

    assert set(SENTENCES) == set(MISS_CODES)


# ---------------------------------------------------------------- the loader reports broken lessons


def _copy(tmp_path: Path, folder: Path | None = None) -> Path:
    source = folder or FOLDERS[0]
    target = tmp_path / "lessons" / source.name
    shutil.copytree(source, target)
    return target


def _edit(folder: Path, change) -> None:
    path = folder / "lesson.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")


def _problems(folder: Path) -> str:
    with pytest.raises(LessonError) as caught:
        load_lesson(folder)
    return str(caught.value)


def test_a_typo_in_a_goal_is_reported_by_file_and_field(tmp_path: Path):
    folder = _copy(tmp_path)
    _edit(folder, lambda d: d["exercises"][0]["goal"].update(stopp="step_limit"))
    assert f"lessons/{folder.name}/lesson.json: exercises[0].goal: unknown key 'stopp'" in _problems(folder)


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        (lambda d: d["title"].pop("pl"), "title.pl", "missing or empty"),
        (lambda d: d["summary"].update(ru="  "), "summary.ru", "missing or empty"),
        (
            lambda d: d["scenario"].update(tools=["get_wether"]),
            "scenario.tools[0]",
            "unknown catalog tool 'get_wether'",
        ),
        (lambda d: d["scenario"].update(limitz={}), "scenario", "unknown key 'limitz'"),
        (lambda d: d["scenario"].update(limits={"max_step": 3}), "scenario.limits", "unknown key 'max_step'"),
        (lambda d: d["scenario"].update(sim={"persona": "grumpy"}), "scenario.sim.persona", "unknown value 'grumpy'"),
        (lambda d: d["expected"].update(stop="finished"), "expected.stop", "must be a stop kind"),
        (
            lambda d: d["expected"].update(config={"limits.max_stepz": {"max": 3}}),
            "expected.config",
            "unknown config path 'limits.max_stepz'",
        ),
        (
            lambda d: d["questions"][0]["options"][1].update(correct=True),
            "questions[0].options",
            "exactly one option must be correct, found 2",
        ),
        (lambda d: d["questions"][0].pop("explanation"), "questions[0]", "missing key 'explanation'"),
        (lambda d: d["questions"][1].update(id=d["questions"][0]["id"]), "questions", "duplicate id"),
        (
            lambda d: d["exercises"][0]["change"].update(persona="stubborn"),
            "exercises[0].change",
            "unknown key 'persona'",
        ),
        (lambda d: d.update(id="another-slug"), "id", "must match the folder name"),
        (
            lambda d: d.update(teacher_notes={"minutes": 20, "level": "expert", "objectives": {"en": ["a"]}}),
            "teacher_notes.level",
            "unknown value 'expert'",
        ),
        (
            lambda d: d.update(
                teacher_notes={
                    "minutes": 20,
                    "level": "beginner",
                    "objectives": {"en": ["a", "b"], "ru": ["а"], "pl": ["a"]},
                }
            ),
            "teacher_notes.objectives",
            "same number of items",
        ),
        (
            lambda d: d.update(sources=[{"title": "Docs", "url": "http://x", "checked": "yesterday"}]),
            "sources[0].checked",
            "YYYY-MM-DD",
        ),
        (lambda d: d.update(order=99), "order", "must match the folder number"),
    ],
)
def test_each_kind_of_mistake_is_named(tmp_path: Path, change, field: str, words: str):
    folder = _copy(tmp_path)
    _edit(folder, change)
    problems = _problems(folder)
    assert f"lessons/{folder.name}/lesson.json: {field}: " in problems
    assert words in problems


def test_a_missing_or_too_short_narrative_is_reported(tmp_path: Path):
    folder = _copy(tmp_path)
    (folder / "ru.md").unlink()
    (folder / "pl.md").write_text("## Only one step\n\nText.\n", encoding="utf-8")
    problems = _problems(folder)
    assert f"lessons/{folder.name}/ru.md: file missing" in problems
    assert f"lessons/{folder.name}/pl.md: needs at least two '## ' steps, found 1" in problems


def test_invalid_json_names_the_line(tmp_path: Path):
    folder = _copy(tmp_path)
    (folder / "lesson.json").write_text('{\n  "id": "x",\n  oops\n}', encoding="utf-8")
    assert f"lessons/{folder.name}/lesson.json: invalid JSON at line 3" in _problems(folder)


def test_load_lessons_reports_every_broken_folder_and_duplicate_ids(tmp_path: Path):
    first, second = _copy(tmp_path, FOLDERS[0]), _copy(tmp_path, FOLDERS[1])
    _edit(second, lambda d: d["title"].pop("ru"))
    clone = tmp_path / "lessons" / f"{FOLDERS[0].name[:2]}-{FOLDERS[0].name[3:]}x"
    shutil.copytree(first, clone)
    (tmp_path / "lessons" / "drafts").mkdir()  # not NN-slug: ignored
    with pytest.raises(LessonError) as caught:
        load_lessons(tmp_path / "lessons")
    problems = caught.value.problems
    assert any(p.startswith(f"lessons/{second.name}/lesson.json: title.ru") for p in problems)
    assert any(p.startswith(f"lessons/{clone.name}/lesson.json: id") for p in problems)


# ---------------------------------------------------------------- parsing, patching, building


def test_steps_split_on_level_two_headings_outside_code_fences():
    steps, stray = parse_steps("# Title\n\n## First\nSee:\n```\n## not a heading\n```\n\n## Second\nDone.\n")
    assert stray == []
    assert [s.title for s in steps] == ["First", "Second"]
    assert "## not a heading" in steps[0].body


def test_text_before_the_first_step_is_reported():
    _, stray = parse_steps("Intro paragraph.\n## First\nA\n## Second\nB\n")
    assert stray == ["Intro paragraph."]


def test_deep_merge_merges_objects_and_replaces_lists_and_tool_choice():
    base = {
        "limits": {"max_steps": 10, "max_cost_usd": 1.0},
        "tools": ["a", "b"],
        "tool_choice": {"type": "tool", "name": "a"},
    }
    merged = deep_merge(base, {"limits": {"max_steps": 5}, "tools": ["a"], "tool_choice": {"type": "auto"}})
    assert merged == {"limits": {"max_steps": 5, "max_cost_usd": 1.0}, "tools": ["a"], "tool_choice": {"type": "auto"}}
    assert base["limits"]["max_steps"] == 10


def test_scenario_config_resolves_language_patch_and_partial_tool_specs():
    lesson = _lesson(FOLDERS[0])
    lesson = Lesson(
        **{
            **lesson.__dict__,
            "scenario": {
                "task": {"en": "Weather?", "ru": "Погода?", "pl": "Pogoda?"},
                "tools": [
                    {"name": "get_weather", "description": {"en": "Weather.", "ru": "Погода.", "pl": "Pogoda."}},
                    {"name": "lookup", "impl": "get_weather"},
                ],
                "limits": {"max_steps": 3, "max_cost_usd": 0.5},
            },
        }
    )
    config = lesson.scenario_config("pl", {"limits": {"max_steps": 7}})
    assert config.task == "Pogoda?" and config.language == "pl"
    assert (config.limits.max_steps, config.limits.max_cost_usd) == (7, 0.5)
    weather, lookup = config.tools
    assert weather.description == "Pogoda." and weather.input_schema["type"] == "object"
    assert lookup.name == "lookup" and lookup.impl_key == "get_weather"
    assert lookup.description == catalog_spec("get_weather").description  # inherited from the catalog
    with pytest.raises(ValueError):
        lesson.scenario_config("de")


def test_a_typo_in_a_patch_from_the_page_is_an_error_not_silently_dropped():
    lesson = _lesson(FOLDERS[0])
    with pytest.raises(LessonError) as caught:
        lesson.scenario_config("en", {"limits": {"max_step": 3}, "sim": {"persona": "grumpy"}})
    assert caught.value.problems == [
        "patch: limits: unknown key 'max_step'",
        "patch: sim.persona: unknown value 'grumpy'; expected one of sensible, stubborn, gullible",
    ]


# ---------------------------------------------------------------- goals against hand-made runs


def _turn(
    index: int,
    stop_reason: str,
    calls=(),
    text: str = "",
    tools=(),
    whole_input: int = 100,
    cache_read: int = 0,
    statuses=(200,),
) -> Turn:
    content = ([{"type": "text", "text": text}] if text else []) + [
        {"type": "tool_use", "id": f"toolu_{index}{n}", "name": name, "input": {}} for n, name in enumerate(calls)
    ]
    return Turn(
        index=index,
        response={"content": content, "stop_reason": stop_reason},
        stop_reason=stop_reason,
        tools=list(tools),
        usage=Usage(input_tokens=whole_input - cache_read, output_tokens=10, cache_read_input_tokens=cache_read),
        exchanges=[Exchange("POST", "u", {}, b"", status=s) for s in statuses],
        cost_usd=0.01,
    )


def _tool(name: str, is_error: bool = False, approval: str | None = None) -> ToolExecution:
    return ToolExecution(tool_use_id="t", name=name, input={}, output="x", is_error=is_error, approval=approval)


def _recovering_run(stop: str = "end_turn") -> Run:
    run = Run(RunConfig(task="Weather in Mscow?", language="ru", limits=Limits(max_steps=None)))
    run.turns = [
        _turn(1, "tool_use", ["get_weather"], tools=[_tool("get_weather", is_error=True)]),
        _turn(
            2,
            "tool_use",
            ["get_weather", "calculate"],
            tools=[_tool("get_weather"), _tool("calculate")],
            whole_input=300,
        ),
        _turn(3, "end_turn", text="В Москве −3 °C, снег.", whole_input=250, cache_read=80, statuses=(529, 200)),
    ]
    run.stop = StopCause(stop)
    return run


def test_goals_read_the_run_record():
    run = _recovering_run()
    goal = {
        "stop": ["end_turn", "max_tokens"],
        "stop_reason_seen": ["tool_use", "end_turn"],
        "min_turns": 3,
        "max_turns": 3,
        "tools_called": ["get_weather", "calculate"],
        "tools_not_called": ["read_file"],
        "tool_error_seen": True,
        "recovered_after_error": True,
        "parallel_calls": True,
        "final_text_contains": [["Moscow", "москв"], "снег"],
        "final_text_not_contains": ["Oslo"],
        "max_cost_usd": 0.05,
        "min_cost_usd": 0.02,
        "max_total_tokens": 700,
        "cache_read": True,
        "api_error_status": 529,
        "context_drop": True,
        "approval_denied": False,
        "config": {
            "limits.max_steps": {"set": False},
            "language": {"equals": "ru"},
            "sim.persona": {"not_equals": "stubborn"},
        },
    }
    result = check_goal(goal, run)
    assert result == GoalResult(passed=True, misses=[])


@pytest.mark.parametrize(
    ("goal", "miss"),
    [
        ({"stop": "step_limit"}, Miss("stop", {"got": "end_turn", "want": "step_limit"})),
        ({"max_turns": 2}, Miss("turns_too_many", {"got": 3, "want": 2})),
        ({"tools_called": ["read_file"]}, Miss("tool_not_called", {"tool": "read_file"})),
        ({"tools_not_called": ["calculate"]}, Miss("tool_called", {"tool": "calculate"})),
        (
            {"final_text_contains": {"en": ["snow"], "ru": ["дождь"], "pl": ["śnieg"]}},
            Miss("text_missing", {"text": "дождь"}),
        ),
        ({"final_text_not_contains": ["СНЕГ"]}, Miss("text_present", {"text": "снег"})),
        (
            {"config": {"limits.max_steps": {"max": 8}}},
            Miss("config_max", {"path": "limits.max_steps", "got": None, "want": 8}),
        ),
        (  # an unset limit fails both ends of the range: one miss, not "is not set" twice
            {"config": {"limits.max_steps": {"max": 8, "min": 1}}},
            Miss("config_range", {"path": "limits.max_steps", "got": None, "low": 1, "high": 8}),
        ),
        ({"api_error_status": 400}, Miss("status_unseen", {"status": 400})),
        ({"cache_read": False}, Miss("cache_read_present")),
        ({"parallel_calls": False}, Miss("parallel_calls_present")),
    ],
)
def test_a_missed_goal_says_what_is_missing_as_a_structured_miss(goal: dict, miss: Miss):
    result = check_goal(goal, _recovering_run())
    assert not result.passed
    assert result.misses == [miss]
    assert miss.kind in MISS_CODES


def test_a_set_limit_outside_the_range_names_the_end_it_misses():
    run = _recovering_run()
    run.config.limits.max_steps = 12
    result = check_goal({"config": {"limits.max_steps": {"max": 8, "min": 1}}}, run)
    assert result.misses == [Miss("config_max", {"path": "limits.max_steps", "got": 12, "want": 8})]


def test_a_changed_check_compares_with_the_lesson_scenario():
    base = RunConfig(task="x", limits=Limits(max_steps=10))
    run = _recovering_run()
    run.config.tools = [ToolSpec(name="get_weather", description="Weather.", input_schema={"type": "object"})]
    assert check_goal({"config": {"limits.max_steps": {"changed": True}}}, run, base).passed
    same = Run(RunConfig(task="x", limits=Limits(max_steps=10)))
    same.stop = StopCause("end_turn")
    result = check_goal({"config": {"limits.max_steps": {"changed": True}}}, same, base)
    assert result.misses == [Miss("config_changed", {"path": "limits.max_steps", "got": 10, "want": True})]
    assert check_goal({"config": {"tools.get_weather.description": {"contains": "weath"}}}, run).passed
    assert check_goal({"config": {"tool_names": {"equals": ["get_weather"]}}}, run).passed
    assert not check_goal({"config": {"tools.lookup.description": {"set": True}}}, run).passed
    with pytest.raises(LessonError, match="needs the lesson's scenario"):
        check_goal({"config": {"limits.max_steps": {"changed": True}}}, same)


def _config_run(**config) -> Run:
    run = Run(RunConfig(**{"task": "What's the weather in Oslo?", **config}))
    run.stop = StopCause("end_turn")
    return run


def test_free_text_is_checked_for_what_it_says_not_for_any_edit():
    base = RunConfig(task="What's the weather?", system="You are the concierge of a hotel in Kraków.")
    spaced = _config_run(task=base.task + "  ", system=base.system + " ")
    assert not check_goal({"config": {"system": {"changed": True}}}, spaced, base).passed  # a space says nothing
    assert check_goal({"unchanged": ["task", "system"]}, spaced, base).passed
    lisbon = {"config": {"system": {"contains": ["Lisbon", "Лиссабон", "Lizbon"]}}}
    assert check_goal(lisbon, _config_run(system="Отель в ЛИССАБОНЕ."), base).passed
    assert check_goal(lisbon, _config_run(system="Hotel w Lizbonie."), base).passed
    assert not check_goal(lisbon, _config_run(system=base.system), base).passed
    moved = check_goal({"unchanged": ["task"]}, _config_run(task="Weather in Lisbon?"), base)
    assert [m.kind for m in moved.misses] == ["config_changed_not"]
    # No tool_choice and {"type": "auto"} are the same choice; "none" is not.
    assert check_goal({"unchanged": ["tool_choice"]}, _config_run(tool_choice={"type": "auto"}), base).passed
    assert not check_goal({"unchanged": ["tool_choice"]}, _config_run(tool_choice={"type": "none"}), base).passed
    forced = {"config": {"tool_choice.type": {"one_of": ["any", "tool"]}}}
    assert check_goal(forced, _config_run(tool_choice={"type": "tool", "name": "get_weather"})).passed
    assert not check_goal(forced, _config_run(tool_choice={"type": "auto"})).passed


@pytest.mark.parametrize(
    ("description", "codes"),
    [
        ("Returns the current weather in one city. city is the city name, e.g. Oslo.", []),
        ("Возвращает текущую погоду в городе. city — название города.", []),
        ("Weather.", ["config_describes_sentences"]),
        ("Does stuff with data. It is very fast.", ["config_describes_claims"]),
    ],
)
def test_a_description_must_say_what_the_tool_is_for_in_any_language(description: str, codes: list[str]):
    run = _config_run(tools=[ToolSpec(name="lookup", description=description, input_schema={"type": "object"})])
    spec = {"claims": ["weather"], "min_sentences": 2}
    result = check_goal({"config": {"tools.lookup.description": {"describes": spec}}}, run)
    assert [m.kind for m in result.misses] == codes


def test_a_description_that_disclaims_the_weather_is_read_as_the_model_reads_it():
    def misses(description: str) -> list[str]:
        run = _config_run(tools=[ToolSpec(name="m", description=description, input_schema={"type": "object"})])
        spec = {"claims": ["user"], "disclaims": ["weather"]}
        return [m.kind for m in check_goal({"config": {"tools.m.description": {"describes": spec}}}, run).misses]

    assert misses("Searches stored facts about the user. Do not use it for the weather.") == []
    assert misses("Szuka faktów o użytkowniku. Nie używaj go do pogody.") == []
    assert misses("Searches for anything: the web, the weather, notes about the user.") == [
        "config_describes_disclaims"
    ]
    assert misses("x") == ["config_describes_claims", "config_describes_disclaims"]


def test_tool_inputs_and_where_an_argument_came_from_are_read_from_the_calls():
    run = _config_run(system="Known facts: the user lives in Гданьск.", task="Weather where I live?")
    run.turns = [_turn(1, "tool_use", ["get_weather"]), _turn(2, "end_turn", text="5 °C")]
    run.turns[0].tool_calls[0]["input"] = {"city": "Gdańsk"}
    assert check_goal({"tool_inputs": [{"tool": "get_weather", "input": {"city": ["Gdansk"]}}]}, run).passed
    missing = check_goal({"tool_inputs": [{"tool": "get_weather", "input": {"city": "Oslo"}}]}, run)
    assert missing.misses == [Miss("tool_input_missing", {"tool": "get_weather", "input": "city=Oslo"})]
    origin = {"tool": "get_weather", "field": "city", "in": "system", "not_in": "task"}
    assert check_goal({"argument_from": origin}, run).passed  # the same city, named in Russian
    run.config.task = "Weather in Gdańsk?"
    assert [m.kind for m in check_goal({"argument_from": origin}, run).misses] == ["argument_not_from"]


def test_one_failed_one_worked_needs_both_in_the_same_turn():
    run = _recovering_run()
    assert not check_goal({"one_failed_one_worked": True}, run).passed  # the failure and the success: two turns
    run.turns[1].tools[1].is_error = True
    assert check_goal({"one_failed_one_worked": True}, run).passed


def test_recovery_needs_the_run_to_finish_with_end_turn():
    assert not check_goal({"recovered_after_error": True}, _recovering_run(stop="step_limit")).passed


def test_an_api_error_status_is_found_on_the_turn_error_too():
    run = Run(RunConfig(task="x"))
    run.turns = [Turn(index=1, error=ApiError(kind="status", status=400))]
    run.stop = StopCause("api_error")
    assert check_goal({"api_error_status": 400, "stop": "api_error"}, run).passed


def test_unknown_goal_keys_are_rejected():
    with pytest.raises(LessonError, match="unknown key 'stopp'"):
        check_goal({"stopp": "end_turn"}, _recovering_run())


def test_the_glossary_defines_turn_step_phase_once_in_every_language():
    from agent_core.teaching.lessons.glossary import load_glossary

    terms = {t.id: t for t in load_glossary(LESSONS_ROOT / "glossary.json")}
    assert {"turn", "step", "phase", "workflow"} <= set(terms)
    assert terms["turn"].term["ru"].startswith("итерация") and terms["turn"].term["pl"].startswith("iteracja")
    assert terms["step"].term == {"en": "step", "ru": "шаг", "pl": "krok"}
    assert terms["workflow"].term["ru"] == "пайплайн"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_cheat_sheet_is_one_printable_page_with_every_stop_reason_and_the_glossary(lang: str):
    from agent_core.teaching.lessons.cheatsheet import cheat_sheet_html
    from agent_core.teaching.lessons.glossary import load_glossary

    page = cheat_sheet_html(lang, LESSONS_ROOT)
    assert page.startswith("<!DOCTYPE html>") and f'lang="{lang}"' in page and "@page" in page
    for reason in STOP_REASONS:
        assert f"<td>{reason}</td>" in page, reason
    assert "prompt is too long" in page and "9**9**9" in page
    for term in load_glossary(LESSONS_ROOT / "glossary.json"):
        assert term.term[lang] in page
    assert "<!-- glossary -->" not in page


def test_a_step_splits_into_simply_and_in_depth_at_the_marker():
    steps, _ = parse_steps("## One\nShort.\n\n<!-- in depth -->\n\nLong.\n## Two\nOnly short.\n")
    assert [(s.body, s.depth) for s in steps] == [("Short.", "Long."), ("Only short.", "")]
    lesson = _lesson(FOLDERS[0])
    for lang in LANGUAGES:
        assert all(s.depth and "<!--" not in s.body for s in lesson.text(lang))


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda f: f.name)
def test_every_step_of_every_lesson_has_a_simple_and_an_in_depth_part(folder: Path):
    for lang in LANGUAGES:
        steps = _lesson(folder).text(lang)
        assert all(s.body.strip() and s.depth.strip() for s in steps), [s.title for s in steps if not s.depth]
        assert all(len(s.depth) > len(s.title) * 2 for s in steps), "an in-depth part adds more than a line"


def test_in_depth_parts_must_sit_in_the_same_steps_in_every_language(tmp_path: Path):
    folder = _copy(tmp_path)
    text = (folder / "pl.md").read_text(encoding="utf-8")
    (folder / "pl.md").write_text(text.replace("<!-- in depth -->", "", 1), encoding="utf-8")
    assert "must be in the same steps in en, ru and pl" in _problems(folder)
