"""Every request the app sends has a size cap (task, system prompt, tools and history together), and a run holds at
most so many bytes of requests: a learner's huge input stops their own run with a clear message, nothing is sent,
and the run so far is kept. One browser session's runs together (the Playground's and each lesson's) are bounded
too, so one learner cannot grow the server's memory without limit by filling lesson after lesson."""

from __future__ import annotations

from keys import NEXT_STEP, RESET
from lab_app import LAB_KEY, ok, texts
from streamlit.testing.v1 import AppTest

from agent_core.loop.guards import held_bytes
from agent_core.loop.stepper import Stepper
from agent_core.model import Limits, Run, RunConfig
from agent_core.serving import mode as serving
from agent_core.vocab import StopKind
from lab_ui.words.catalogue import stop_words

LESSON_KEY = LAB_KEY.replace(":playground", ":lesson:break-the-loop")


def test_a_request_over_the_cap_is_not_sent_and_says_why(app_env, monkeypatch):
    monkeypatch.setenv(serving.ENV_MAX_REQUEST, str(1_000_000))
    run = Run(config=RunConfig(task="x" * 1_200_000, tools=[]))
    with Stepper(run) as stepper:
        stepper.run_to_end()
    # No turn was made, so no call: a call belongs to a turn (loop.py's call_model phase).
    assert run.stop.kind == StopKind.REQUEST_TOO_LARGE and run.turns == []
    words = stop_words(run.stop)
    assert "1.2 MB" in words and "1.0 MB" in words and "nothing was sent" in words


def test_a_run_stops_once_its_requests_would_pass_what_the_server_keeps(app_env, monkeypatch):
    monkeypatch.setenv(serving.ENV_MAX_RUN, str(600_000))
    from agent_core.teaching.lessons import load_lessons

    config = next(x for x in load_lessons() if x.id == "break-the-loop").scenario_config("en")
    config.task = "What is ACME's share price? " + "padding " * 12_000  # ~100 KB a request
    config.limits = Limits(max_steps=None)
    run = Run(config=config)
    with Stepper(run) as stepper:
        stepper.run_to_end()
    assert run.stop.kind == StopKind.RUN_TOO_LARGE and 3 <= len(run.turns) <= 6, len(run.turns)
    assert all(t.response for t in run.turns), "every turn before the stop is whole"
    assert "more than this server keeps for one run" in stop_words(run.stop)


def test_run_to_end_reports_each_turn_as_it_completes(app_env):
    seen = []
    run = Run(config=RunConfig(task="What's the weather in Oslo, and what is 2 to the power of 16?"))
    with Stepper(run) as stepper:
        stepper.on_turn = lambda turn: seen.append((turn.index, len(run.turns)))
        stepper.run_to_end()
    assert seen and [i for i, _ in seen] == [t.index for t in run.turns]
    assert all(index == count for index, count in seen), "each turn is reported when it is the newest"


def test_one_sessions_runs_together_are_bounded_and_a_reset_frees_room(app_env, monkeypatch):
    from lab_app import APP

    at = AppTest.from_file(APP, default_timeout=90)
    at.query_params["lesson"] = "break-the-loop"
    at.run()
    at.switch_page("pages/playground.py").run()
    for _ in range(2):
        at.button(key=NEXT_STEP).click().run()
    ok(at)
    held = held_bytes(at.session_state[LAB_KEY].run)
    # The server keeps a little more than the Playground's run for the whole session (each run alone is far below
    # its own cap): the lesson's first request does not fit beside it.
    monkeypatch.setenv(serving.ENV_MAX_SESSION, str(held + 500))
    at.switch_page("pages/lessons.py").run()
    at.button(key=NEXT_STEP).click().run()
    ok(at)
    lesson = at.session_state[LESSON_KEY].run
    assert lesson.stop is not None and lesson.stop.kind == StopKind.RUN_TOO_LARGE and lesson.turns == []
    assert "the runs open in this browser" in texts([*at.error, *at.warning]), "said, not silently refused"
    # A Reset of the Playground's run (saved on the Runs page) frees the room: the lesson, started again, goes on.
    at.switch_page("pages/playground.py").run()
    at.button(key=RESET).click().run()
    at.switch_page("pages/lessons.py").run()
    at.button(key=RESET).click().run()
    at.button(key=NEXT_STEP).click().run()
    ok(at)
    assert at.session_state[LESSON_KEY].run.turns, "the lesson's turn ran once the session had room"
