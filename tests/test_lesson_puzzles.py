"""Assemble the loop: every correct order of every puzzle is judged correct and runs the lesson's loop to its goal
in every language; every known wrong order runs the deliberate bug it stands for and shows its 400 or runaway;
other wrong orders (shuffled, mis-indented, swapped) are wrong. The correct Python program really runs: executed
with the official SDK against the offline model, it ends the way the lab's loop does."""

from __future__ import annotations

import functools
import json
import types
from pathlib import Path

import httpx2
import pytest

from agent_core.model import Run
from agent_core.teaching.lessons import (
    LANGUAGES,
    LESSONS_ROOT,
    Lesson,
    LessonError,
    check_goal,
    load_lesson,
    load_lessons,
)
from agent_core.teaching.lessons.parsons import CODE_LANGUAGES, Puzzle, assembled, judge, run_patch, solution
from agent_core.teaching.lessons.validate import FOLDER

FOLDERS = sorted(p for p in LESSONS_ROOT.iterdir() if p.is_dir() and FOLDER.match(p.name))


@functools.cache
def _lesson(folder: Path) -> Lesson:
    return load_lesson(folder)


def _puzzles() -> list:
    return [(f, p.id) for f in FOLDERS for p in _lesson(f).puzzles]


PUZZLES = _puzzles()
IDS = [f"{f.name}:{p}" for f, p in PUZZLES]


@functools.cache
def _run(folder: Path, lang: str, patch_json: str) -> Run:
    from agent_core.loop.stepper import run_task

    return run_task(_lesson(folder).scenario_config(lang, json.loads(patch_json)))


def _faulty(puzzle: Puzzle, code: str, fault) -> list[tuple[str, int]]:
    """The first correct order with the fault's lines left out and its wrong lines put where the first gap was."""
    lines = puzzle.program.lines[code]
    order = solution(puzzle, code)
    gap = next((n for n, (i, _) in enumerate(order) if i in fault.omits), len(order) - 1)
    kept = [(i, d) for i, d in order if i not in fault.omits]
    wrong = [(i, lines[i].indent) for i in fault.uses if i in lines]
    return kept[:gap] + wrong + kept[gap:]


def test_three_lessons_teach_the_loop_by_assembling_it():
    lessons = {x.id for x in load_lessons() if x.puzzles}
    assert {"the-loop", "tool-results", "stop-reasons"} <= lessons


@pytest.mark.parametrize(("folder", "puzzle_id"), PUZZLES, ids=IDS)
@pytest.mark.parametrize("code", CODE_LANGUAGES)
def test_every_correct_order_is_correct_and_shuffled_or_misplaced_lines_are_not(folder: Path, puzzle_id: str, code):
    puzzle = _lesson(folder).puzzle(puzzle_id)
    for n in range(len(puzzle.program.solutions[code])):
        assert judge(puzzle, code, solution(puzzle, code, n)).kind == "correct"
    right = solution(puzzle, code)
    shuffled = [(x.id, x.indent) for x in puzzle.pieces(code)]
    assert judge(puzzle, code, shuffled).kind == "wrong"
    assert judge(puzzle, code, right[:-1]).kind != "correct"  # one line short
    deeper = [(i, d + 1 if n == 1 else d) for n, (i, d) in enumerate(right)]
    verdict = judge(puzzle, code, deeper)
    assert verdict.kind == "wrong" and verdict.first_wrong == 2
    swapped = [right[0], right[2], right[1], *right[3:]]
    assert judge(puzzle, code, swapped).kind == "wrong"
    distractor = next(
        (i for i in puzzle.program.distractors[code] if not any(i in f.uses for f in puzzle.faults)), None
    )
    wrong_line = (distractor, puzzle.program.lines[code][distractor].indent) if distractor else None
    if wrong_line:
        assert judge(puzzle, code, [*right[:2], wrong_line, *right[2:]]).kind == "wrong"


@pytest.mark.parametrize(("folder", "puzzle_id"), PUZZLES, ids=IDS)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_correct_program_runs_the_lessons_loop_to_its_goal(folder: Path, puzzle_id: str, lang: str):
    lesson = _lesson(folder)
    puzzle = lesson.puzzle(puzzle_id)
    patch = run_patch(puzzle, judge(puzzle, "python", solution(puzzle, "python")))
    run = _run(folder, lang, json.dumps(patch, sort_keys=True))
    result = check_goal(puzzle.goal, run)
    assert result.passed, result.reasons


@pytest.mark.parametrize(("folder", "puzzle_id"), PUZZLES, ids=IDS)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_known_wrong_order_runs_its_bug_and_shows_what_the_api_does(folder: Path, puzzle_id: str, lang: str):
    lesson = _lesson(folder)
    puzzle = lesson.puzzle(puzzle_id)
    assert puzzle.faults, "a puzzle names the wrong orders a learner is likely to make"
    for fault in puzzle.faults:
        for code in CODE_LANGUAGES:
            verdict = judge(puzzle, code, _faulty(puzzle, code, fault))
            assert (verdict.kind, verdict.fault) == ("fault", fault), (code, fault.id, verdict)
        patch = run_patch(puzzle, verdict)
        if fault.patch is None:
            assert patch is None and fault.explain[lang]
            continue
        run = _run(folder, lang, json.dumps(patch, sort_keys=True))
        assert check_goal(fault.shows, run).passed, (fault.id, check_goal(fault.shows, run).reasons)
        assert fault.shows and not check_goal(puzzle.goal, run).passed, f"{fault.id} runs like the correct program"


# ---------------------------------------------------------------- the assembled Python program really runs


def _tools_for(config):
    from agent_core.tools.registry import ToolRegistry

    registry = ToolRegistry(config.tools, language=config.language)

    def call(name, tool_input):
        outcome = registry.execute(name, tool_input)
        return outcome.output, outcome.is_error

    def run_tools(content):
        results = []
        for block in content:
            if block.type == "tool_use":
                out, failed = call(block.name, block.input)
                results.append({"type": "tool_result", "tool_use_id": block.id, "content": out, "is_error": failed})
        return results

    return registry, call, run_tools


@pytest.mark.parametrize(("folder", "puzzle_id"), PUZZLES, ids=IDS)
def test_the_assembled_python_program_runs_against_the_offline_model(folder: Path, puzzle_id: str):
    import anthropic

    from agent_core.sim.transport import SimTransport

    lesson = _lesson(folder)
    puzzle = lesson.puzzle(puzzle_id)
    config = lesson.scenario_config("en", puzzle.patch)
    sent: list[dict] = []
    transport = SimTransport(config.sim)

    class Recording(httpx2.BaseTransport):
        def handle_request(self, request):
            sent.append(json.loads(request.read()))
            return transport.handle_request(request)

    client = anthropic.Anthropic(
        api_key="offline", base_url="http://sim", http_client=httpx2.Client(transport=Recording())
    )
    sdk = types.SimpleNamespace(Anthropic=lambda: client)
    registry, call, run_tools = _tools_for(config)
    source = assembled(puzzle, "python", solution(puzzle, "python")).replace("import anthropic\n", "")
    names = {
        "anthropic": sdk,
        "TASK": config.task,
        "MODEL": config.model,
        "SYSTEM": config.system,
        "TOOLS": registry.definitions(),
        "MAX_STEPS": 10,
        "call": call,
        "run_tools": run_tools,
    }
    exec(compile(source, f"{puzzle.id}.py", "exec"), names)  # noqa: S102 - our own puzzle's solution
    messages = names["messages"]
    assert sent and len(sent[-1]["messages"]) == len(messages) - 1  # the last request carried the whole history
    assert messages[-1]["role"] == "assistant"
    last = messages[-1]["content"]
    assert any(getattr(b, "type", "") == "text" for b in last)  # it ended with the model's answer
    assert len(sent) == len(_run(folder, "en", json.dumps(puzzle.patch, sort_keys=True)).turns)


def test_the_assembled_typescript_program_balances_its_braces():
    for folder, puzzle_id in PUZZLES:
        puzzle = _lesson(folder).puzzle(puzzle_id)
        for n in range(len(puzzle.program.solutions["typescript"])):
            code = assembled(puzzle, "typescript", solution(puzzle, "typescript", n))
            assert code.count("{") == code.count("}") and code.count("(") == code.count(")"), puzzle.id


def test_a_puzzle_naming_a_missing_line_or_program_is_reported(tmp_path: Path):
    import shutil

    root = tmp_path / "lessons"
    shutil.copytree(LESSONS_ROOT / "01-the-loop", root / "01-the-loop")
    shutil.copytree(LESSONS_ROOT / "puzzles", root / "puzzles")
    path = root / "01-the-loop" / "lesson.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["puzzles"][0]["faults"][0]["uses"] = ["no-such-line"]
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(LessonError, match="names no line 'no-such-line'"):
        load_lesson(root / "01-the-loop")
    data["puzzles"][0]["program"] = "nope"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(LessonError, match="puzzles/nope.json"):
        load_lesson(root / "01-the-loop")
