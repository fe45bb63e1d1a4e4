"""Every request the app sends has a size cap (task, system prompt, tools and history together), and a run holds at
most so many bytes of requests: a learner's huge input stops their own run with a clear message, nothing is sent,
and the run so far is kept."""

from __future__ import annotations

from agent_core.loop.stepper import Stepper
from agent_core.model import Limits, Run, RunConfig
from agent_core.serving import mode as serving
from agent_core.vocab import StopKind
from lab_ui.words.catalogue import stop_words


def test_a_request_over_the_cap_is_not_sent_and_says_why(app_env, monkeypatch):
    monkeypatch.setenv(serving.ENV_MAX_REQUEST, str(1_000_000))
    run = Run(config=RunConfig(task="x" * 1_200_000, tools=[]))
    with Stepper(run) as stepper:
        stepper.run_to_end()
    # No turn was made, so no call: a call belongs to a turn (loop.py's call_model phase).
    assert run.stop.kind == StopKind.REQUEST_TOO_LARGE and run.turns == []
    words = stop_words(run.stop.kind, run.stop.params)
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
    assert "more than this server keeps for one run" in stop_words(run.stop.kind, run.stop.params)


def test_run_to_end_reports_each_turn_as_it_completes(app_env):
    seen = []
    run = Run(config=RunConfig(task="What's the weather in Oslo, and what is 2 to the power of 16?"))
    with Stepper(run) as stepper:
        stepper.on_turn = lambda turn: seen.append((turn.index, len(run.turns)))
        stepper.run_to_end()
    assert seen and [i for i, _ in seen] == [t.index for t in run.turns]
    assert all(index == count for index, count in seen), "each turn is reported when it is the newest"
