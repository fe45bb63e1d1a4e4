"""Write real code: a learner's function runs in a child process with a CPU and a memory limit and is checked by
the tests its lesson ships (lesson 10's search_memory, also as the tool of a real loop on the offline model;
lesson 15's logging of each iteration, compared with the calls the loop really made). On a class server the
exercise is a download whose script checks itself, without a model or network."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from agent_core.teaching.lessons import LESSONS_ROOT, load_lesson
from agent_core.teaching.lessons.code import check, download
from agent_core.tools.user_code import run_python

SEARCH = load_lesson(LESSONS_ROOT / "10-memory").code[0]
LOGGING = load_lesson(LESSONS_ROOT / "15-four-components").code[0]

GOOD_SEARCH = SEARCH.starter.replace(
    '    return ""\n',
    """    words = [w.strip("?.,!").lower() for w in query.split()]
    keys = {ALSO.get(w, w) for w in words}
    found = [f"{k}: {v}" for k, v in FACTS.items() if k in keys or any(w in k.split() for w in words)]
    return "; ".join(found) if found else "Nothing stored matches that. Topics: " + ", ".join(FACTS)
""",
)
LOG_LINE = (
    '        log(f"iteration {step}: {response.stop_reason} "'
    ' + ", ".join(b.name for b in response.content if b.type == "tool_use"))\n'
)
GOOD_LOOP = LOGGING.starter.replace(
    "        # Your code: log this iteration", LOG_LINE + "        # Your code: log this"
)


# ---------------------------------------------------------------- the runner's limits


def test_the_child_returns_what_the_harness_reports():
    result = run_python("def double(x):\n    return 2 * x\n", "report(double(PAYLOAD))", 21)
    assert result.ok and result.value == 42


def test_an_endless_loop_is_stopped_by_its_cpu_limit():
    result = run_python("while True:\n    pass\n", "report(1)", timeout_s=1)
    assert result.limit == "time" and not result.ok


def test_a_memory_hog_is_stopped_by_its_memory_limit():
    result = run_python("hog = 'x' * (10 ** 10)\n", "report(1)")
    assert result.limit == "memory" and not result.ok


def test_an_error_names_the_line_of_the_learners_code():
    result = run_python("def f():\n    return {}['missing']\n", "report(f())")
    assert result.error == "KeyError: 'missing'" and result.error_line == 2


def test_the_child_cannot_write_files_and_sees_no_secret_from_the_environment(monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "canary-" + "k" * 24)
    wrote = run_python("open('out.txt', 'w').write('x' * 100000)\n", "report(1)")
    assert not wrote.ok and "File too large" in wrote.error
    env = run_python("import os\n", "report(sorted(os.environ))")
    assert "ANTHROPIC_API_KEY" not in env.value


# ---------------------------------------------------------------- search_memory


@pytest.mark.parametrize("lang", ["en", "ru", "pl"])
def test_a_correct_search_memory_passes_the_tests_and_serves_the_real_loop(lang: str):
    verdict = check(SEARCH, GOOD_SEARCH, lang)
    assert verdict.passed, verdict
    agent = next(c for c in verdict.cases if c.label == "agent")
    assert "krak" in agent.got.lower() or "крак" in agent.got.lower()


@pytest.mark.parametrize(
    ("wrong", "why"),
    [
        ("    return FACTS.get(query, '')\n", "an exact key lookup: 'city' finds nothing"),
        (
            "    return '; '.join(f'{k}: {v}' for k, v in FACTS.items() if k in query)\n",
            "case counts and an empty answer for 'pets'",
        ),
        ("    return FACTS[query]\n", "raises KeyError"),
        ("    return str(FACTS)\n", "everything, always: 'pets' is answered with the facts"),
    ],
)
def test_tempting_wrong_search_memories_fail(wrong: str, why: str):
    verdict = check(SEARCH, SEARCH.starter.replace('    return ""\n', wrong), "en", with_model=False)
    assert not verdict.passed, why


# ---------------------------------------------------------------- logging each iteration


@pytest.mark.parametrize("lang", ["en", "ru", "pl"])
def test_logging_every_iteration_matches_the_calls_the_loop_made(lang: str):
    verdict = check(LOGGING, GOOD_LOOP, lang)
    assert verdict.passed, verdict
    assert [c.label for c in verdict.cases] == ["lines", "1", "2"]


@pytest.mark.parametrize(
    ("source", "why"),
    [
        (LOGGING.starter, "the starter logs nothing"),
        (
            LOGGING.starter.replace(
                "        results = [call_tool",
                '        log(f"iteration {step}: tool_use")\n        results = [call_tool',
            ),
            "logged after the end_turn return: the last iteration is missing",
        ),
        (
            LOGGING.starter.replace(
                "        # Your code: log this iteration", '        log(f"iteration {step}")\n        #'
            ),
            "no stop_reason and no tools in the line",
        ),
    ],
)
def test_tempting_wrong_logging_fails(source: str, why: str):
    assert not check(LOGGING, source, "en").passed, why


# ---------------------------------------------------------------- class mode: a download that checks itself


@pytest.mark.parametrize(("exercise", "good"), [(SEARCH, GOOD_SEARCH), (LOGGING, GOOD_LOOP)], ids=["search", "loop"])
def test_the_download_checks_itself_without_a_model(tmp_path: Path, exercise, good: str):
    for source, code in ((good, 0), (exercise.starter, 1)):
        script = tmp_path / f"{exercise.id}.py"
        script.write_text(download(exercise, "ru", source), encoding="utf-8")
        done = subprocess.run([sys.executable, "-I", str(script)], capture_output=True, text=True, timeout=120)
        assert done.returncode == code, done.stdout + done.stderr


def test_a_class_server_offers_the_download_and_runs_nothing(app_env, monkeypatch):
    from lab_app import ok, open_page, texts

    monkeypatch.setenv("AGENT_LOOP_LAB_MODE", "class")
    at = open_page("pages/lessons.py")
    at.session_state["lesson"] = "four-components"
    at.query_params["lesson"] = "four-components"
    last = len(load_lesson(LESSONS_ROOT / "15-four-components").text("en")) - 1
    at.session_state["step:four-components"] = last  # code exercises sit under the last step
    at.run()
    steps = len(load_lesson(LESSONS_ROOT / "15-four-components").text("en"))
    at.session_state["seg:four-components"] = steps - 1  # code exercises sit at the end of the lesson's script
    at.session_state[f"code:four-components:{LOGGING.id}:open"] = True
    at.run()
    ok(at)
    assert "runs no learner's code" in texts(at.info)
    assert not [b for b in at.button if (b.key or "").endswith(":run")]
