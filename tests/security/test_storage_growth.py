"""A run's storage grows with what is new in each turn, not with the whole history again, and the exact wire
bytes come back on load (issue 22: a 1 MB task run to the end added 359 MB to the database)."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from agent_core.loop.stepper import run_task
from agent_core.model import Exchange, Run, RunConfig, Turn
from agent_core.storage.store import RunStore
from agent_core.teaching.lessons import load_lessons


def database_bytes(path) -> int:
    return sum(p.stat().st_size for p in path.parent.glob(path.name + "*"))


def test_a_one_megabyte_task_run_to_the_end_stores_well_under_ten_megabytes(app_env):
    # Lesson 07's runaway scenario (a stubborn model calling a failing tool), its task a 1 MB log.
    lesson = next(x for x in load_lessons() if x.id == "break-the-loop")
    config = lesson.scenario_config("en")
    config.task = "What is ACME's share price? The log: " + "2026-12-01 10:00:00 INFO all is well\n" * 27_100
    assert len(config.task.encode()) >= 1_000_000
    config.limits.max_steps = 40
    stored: list[Run] = []
    with RunStore(app_env) as store:
        run = run_task(config)
        for i in range(1, len(run.turns) + 1):  # saved as the Playground does: each click, its new turn
            store.save_run(run, from_turn=max(1, i - 1)) if i > 1 else store.save_run(run)
        stored.append(store.load(run.id))
    assert len(run.turns) >= 20, "the runaway persona keeps calling tools"
    wire = sum(len(x.request_body) for t in run.turns for x in t.exchanges)
    assert wire > 20_000_000  # what whole-turn storage wrote (and more: each turn's request dict too)
    assert database_bytes(app_env) < 10_000_000
    loaded = stored[0]
    assert [[x.request_body for x in t.exchanges] for t in loaded.turns] == [
        [x.request_body for x in t.exchanges] for t in run.turns
    ], "every attempt's exact bytes come back"
    assert [t.request for t in loaded.turns] == [t.request for t in run.turns]


_bodies = st.lists(st.binary(max_size=600), min_size=1, max_size=4)


@settings(max_examples=60, deadline=None)
@given(st.lists(_bodies, min_size=1, max_size=5), st.lists(st.text(max_size=300), min_size=1, max_size=6))
def test_any_bodies_and_histories_come_back_byte_for_byte(tmp_path_factory, bodies_per_turn, texts):
    path = tmp_path_factory.mktemp("db") / "runs.db"
    messages: list[dict] = []
    turns = []
    for i, bodies in enumerate(bodies_per_turn, 1):
        messages = [*messages, {"role": "user" if i % 2 else "assistant", "content": texts[i % len(texts)]}]
        if i % 3 == 0:
            messages = messages[1:]  # a context policy rewrote the history: no shared prefix
        exchanges = [
            Exchange("POST", "http://x/v1/messages", {}, b"HEAD" * 80 + body + b"TAIL" * 80) for body in bodies
        ]
        turns.append(Turn(index=i, request={"model": "m", "messages": list(messages)}, exchanges=exchanges))
    run = Run(config=RunConfig(task="t"), turns=turns)
    with RunStore(path) as store:
        store.save_run(run)
        loaded = store.load(run.id)
    assert json.dumps(loaded.to_dict()) == json.dumps(run.to_dict())
