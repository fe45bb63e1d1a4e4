"""The Lessons page's "assemble the loop": a learner fills the slots, checks, and the program's run lands on the stage
(the correct order as the lesson's loop, a known wrong order with its bug); a wrong order runs nothing."""

from __future__ import annotations

import pytest
from lab_app import ok, open_page, texts
from streamlit.testing.v1 import AppTest

from agent_core.teaching.lessons import LESSONS_ROOT, load_lesson
from agent_core.teaching.lessons.parsons import solution

KEY = "parsons:the-loop:assemble-the-loop"
LESSON = "agent_loop_lab:lesson:the-loop"


def _open_puzzle(code: str = "python") -> AppTest:
    at = open_page("pages/lessons.py")
    steps = len(load_lesson(LESSONS_ROOT / "01-the-loop").text("en"))
    at.session_state["seg:the-loop"] = steps - 1  # the puzzles sit at the end of the lesson's script
    at.session_state[f"{KEY}:open"] = True
    at.run()
    ok(at)
    if code != "python":
        at.radio(key=f"{KEY}:code").set_value(code).run()
        ok(at)
    return at


def _fill(at: AppTest, code: str, arrangement: list[tuple[str, int]]) -> None:
    for n, (line, indent) in enumerate(arrangement):
        at.selectbox(key=f"{KEY}:{code}:line:{n}").set_value(line)
        at.selectbox(key=f"{KEY}:{code}:indent:{n}").set_value(indent)
    at.button(key=f"{KEY}:{code}:check").click().run()
    ok(at)
    # AppTest keeps the expander open through the check's reruns whatever the page does; whether a browser does is
    # tests/test_browser_lesson_puzzle.py's to see (it drew it closed until the page reopened it).
    at.session_state[f"{KEY}:open"] = True
    at.run()
    ok(at)


@pytest.mark.parametrize("code", ["python", "typescript"])
def test_a_correct_program_runs_the_lesson_loop_on_the_stage(app_env, code: str):
    puzzle = load_lesson(LESSONS_ROOT / "01-the-loop").puzzle("assemble-the-loop")
    at = _open_puzzle(code)
    _fill(at, code, solution(puzzle, code))
    run = at.session_state[LESSON].run
    assert run is not None and run.stop.kind == "end_turn" and len(run.turns) >= 2
    assert puzzle.success["en"].split(":")[0] in texts(at.success)


def test_a_known_wrong_program_runs_with_its_bug_and_a_wrong_one_runs_nothing(app_env):
    puzzle = load_lesson(LESSONS_ROOT / "01-the-loop").puzzle("assemble-the-loop")
    at = _open_puzzle()
    forgot = [(i, d) for i, d in solution(puzzle, "python") if i not in ("keep", "send")]
    _fill(at, "python", forgot)
    run = at.session_state[LESSON].run
    assert run.config.bugs == ["forget_assistant_reply"] and run.stop.kind == "step_limit"
    assert "every request is the first one again" in texts(at.warning)
    before = run.id
    at = _open_puzzle()
    shuffled = [(p.id, 0) for p in puzzle.pieces("python")][:9]
    _fill(at, "python", shuffled)
    assert "Not yet: line 1" in texts(at.error)
    assert at.session_state[LESSON].run is None or at.session_state[LESSON].run.id != before
