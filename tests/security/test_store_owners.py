"""On a class server a run has an owner: only they list, continue (save), delete or share it; others open it only
through a share (read-only), a teacher only their own learners' runs. A personal server keeps every run its user's."""

from __future__ import annotations

import pg
import pytest

from agent_core.model import Run, RunConfig, Turn
from agent_core.storage.store import MISSING, NOT_SHARED, OWN, SHARED, TEACHER, NotYours, RunStore


def a_run(task: str = "t") -> Run:
    return Run(config=RunConfig(task=task), turns=[Turn(index=1, request={"messages": []})])


@pytest.fixture(scope="module")
def pg_admin():
    with pg.postgres_server() as url:
        yield url


@pytest.fixture(params=["sqlite", "postgres"])
def stores(request, tmp_path):
    """Ada's, Boris's and a personal server's store of one database: a SQLite file, or a real PostgreSQL server."""
    path = tmp_path / "runs.db" if request.param == "sqlite" else pg.fresh_database(request.getfixturevalue("pg_admin"))
    opened = [RunStore(path, owner="a" * 16), RunStore(path, owner="b" * 16), RunStore(path)]
    yield opened
    for store in opened:
        store.close()


def test_each_learner_lists_only_their_own_runs(stores):
    ada, boris, personal = stores
    mine, theirs = a_run("Ada's task"), a_run("Boris's task")
    ada.save_run(mine)
    boris.save_run(theirs)
    assert [r.id for r in ada.list_runs()] == [mine.id]
    assert [r.id for r in boris.list_runs("task")] == [theirs.id]
    assert {r.id for r in personal.list_runs()} == {mine.id, theirs.id}, "a personal server lists everything"
    assert [r.id for r in ada.list_runs(owners=("b" * 16,))] == [theirs.id], "a teacher names their learners"


def test_nobody_continues_deletes_or_shares_someone_elses_run(stores):
    ada, boris, _ = stores
    run = a_run()
    ada.save_run(run)
    run.title = "taken over"
    for attempt in (lambda: boris.save_run(run), lambda: boris.save_turn(run, run.turns[0])):
        with pytest.raises(NotYours):
            attempt()
    with pytest.raises(NotYours):
        boris.delete(run.id)
    with pytest.raises(NotYours):
        boris.share(run.id)
    assert ada.load(run.id).title == "" and ada.access(run.id) == OWN


def test_a_run_opens_for_others_only_once_shared_and_for_the_teacher_of_its_owner(stores):
    ada, boris, personal = stores
    run = a_run()
    ada.save_run(run)
    assert boris.access(run.id) == NOT_SHARED
    assert boris.access(run.id, teaches=("a" * 16,)) == TEACHER
    assert boris.access("no-such-run") == MISSING and personal.access(run.id) == OWN
    ada.share(run.id)
    assert boris.access(run.id) == SHARED
    ada.delete(run.id)
    assert boris.access(run.id) == MISSING


def test_someone_elses_forks_are_not_listed_under_my_run(stores):
    ada, boris, _ = stores
    parent = a_run()
    ada.save_run(parent)
    fork = a_run()
    fork.parent_id = parent.id
    boris.save_run(fork)
    assert ada.children(parent.id) == [] and [r.id for r in boris.children(parent.id)] == [fork.id]
