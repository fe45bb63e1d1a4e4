"""The runs database: what a learner saves comes back unchanged, survives restarts, and never holds a key."""

from __future__ import annotations

import json
import sqlite3
import threading

import pg
import pytest

from agent_core.model import (
    DEFAULT_MODEL,
    ApiError,
    Decision,
    Exchange,
    Limits,
    Phase,
    Run,
    RunConfig,
    StopCause,
    ToolExecution,
    ToolSpec,
    Turn,
    Usage,
)
from agent_core.storage import db as database
from agent_core.storage import store as store_module
from agent_core.storage.store import RunStore, RunSummary, StoreError

CANARY = "sk-ant-" + "api03-CANARYcanary0123456789abcdefXYZ"  # split: no key-shaped literal in the repository
WEATHER = ToolSpec(
    "get_weather",
    "Current weather for a city.",
    {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
)


def make_turn(index: int, city: str = "Paris", headers: dict | None = None) -> Turn:
    body = json.dumps({"model": "claude-sonnet-4-6", "messages": [{"role": "user", "content": city}]}).encode()
    return Turn(
        index=index,
        request={"model": "claude-sonnet-4-6", "max_tokens": 1024, "messages": [{"role": "user", "content": city}]},
        response={
            "id": f"msg_{index}",
            "content": [{"type": "tool_use", "id": f"toolu_{index}", "name": "get_weather", "input": {"city": city}}],
            "stop_reason": "tool_use",
        },
        exchanges=[
            Exchange(
                "POST",
                "http://simulated.invalid/v1/messages",
                headers or {"content-type": "application/json"},
                body,
                200,
                {"request-id": f"req_{index}"},
                b"\x89PNG\x00\xff binary",
                12.5,
                0,
            )
        ],
        tools=[ToolExecution(f"toolu_{index}", "get_weather", {"city": city}, "18°C, sunny", False, 1.5)],
        usage=Usage(100 * index, 20, 0, 5),
        components={"system": 10, "user_text": 90},
        cost_usd=0.001 * index,
        stop_reason="tool_use",
        decisions=[Decision("run_tools", {"tools": 1})],
        tool_results_message={
            "role": "user",
            "content": [{"type": "tool_result", "tool_use_id": f"toolu_{index}", "content": "18°C, sunny"}],
        },
    )


def make_run(task: str = "Weather in Paris?", turns: int = 3, **kwargs) -> Run:
    config = RunConfig(task=task, tools=[WEATHER], limits=Limits(max_steps=5, max_cost_usd=0.5))
    run = Run(config=config, **kwargs)
    run.turns = [make_turn(i) for i in range(1, turns + 1)]
    run.messages.append({"role": "assistant", "content": [{"type": "text", "text": "Пишу по-русски 🙂"}]})
    run.stop = StopCause("end_turn", {"reason": "end_turn"})
    run.phase = Phase.DONE
    return run


@pytest.fixture(scope="module")
def pg_admin():
    with pg.postgres_server() as url:
        yield url


@pytest.fixture(params=["sqlite", "postgres"])
def db(request, tmp_path):
    """The store on the embedded SQLite file, and on a real PostgreSQL server (DATABASE_URL's backend)."""
    if request.param == "sqlite":
        return RunStore(tmp_path / "runs.db")
    return RunStore(pg.fresh_database(request.getfixturevalue("pg_admin")))


def test_save_and_load_round_trip_equals_original(db):
    run = make_run()
    run.turns[1].error = ApiError(
        "status",
        {"reason": "status", "detail": "Overloaded"},
        status=529,
        error_type="overloaded_error",
        body='{"type":"error"}',
    )
    db.save_run(run)
    loaded = db.load(run.id)
    assert loaded == run
    assert loaded.turns[0].exchanges[0].response_body == b"\x89PNG\x00\xff binary"
    assert isinstance(loaded.turns[0].exchanges[0].request_body, bytes)


def test_load_unknown_id_is_none(db):
    assert db.load("nope") is None


def test_saved_runs_survive_a_new_store_on_the_same_file(tmp_path):
    path = tmp_path / "runs.db"
    run = make_run()
    RunStore(path).save_run(run)
    assert RunStore(path).load(run.id) == run


def test_two_open_stores_on_one_file_see_each_others_saves(tmp_path):
    first, second = RunStore(tmp_path / "runs.db"), RunStore(tmp_path / "runs.db")
    run = make_run()
    assert second.list_runs() == []
    first.save_run(run)
    assert second.load(run.id) == run
    second.delete(run.id)
    assert first.load(run.id) is None


def test_save_turn_by_turn_builds_the_same_run(db):
    run = make_run(turns=0)
    for i in range(1, 4):
        turn = make_turn(i)
        run.turns.append(turn)
        db.save_turn(run, turn)
    assert db.load(run.id) == run
    assert db.list_runs()[0].turns == 3


def test_failure_in_the_middle_of_a_turn_keeps_earlier_turns(db):
    run = make_run(turns=0)
    for i in (1, 2):
        run.turns.append(make_turn(i))
        db.save_turn(run, run.turns[-1])
    good = db.load(run.id)
    broken = make_turn(3)
    broken.request["bad"] = object()  # cannot be written: the save fails half-way
    run.turns.append(broken)
    run.stop = StopCause("step_limit", {"limit": 99})
    with pytest.raises(TypeError):
        db.save_turn(run, broken)
    after = db.load(run.id)
    assert [t.index for t in after.turns] == [1, 2]
    assert after == good  # the header was rolled back with the turn
    assert db.list_runs()[0].turns == 2


def test_save_run_replaces_turns_that_are_gone(db):
    run = make_run(turns=3)
    db.save_run(run)
    run.turns = run.turns[:1]
    db.save_run(run)
    assert [t.index for t in db.load(run.id).turns] == [1]


def test_saving_from_a_turn_writes_that_turn_and_later_ones_only(db):
    run = make_run(turns=2)
    db.save_run(run)
    run.turns[1].stop_reason = "end_turn"  # the newest turn changed after the last save
    run.turns.append(make_turn(3))
    run.turns[0].stop_reason = "edited in memory only"  # before from_turn: not written again
    db.save_run(run, from_turn=2)
    loaded = db.load(run.id)
    assert [t.stop_reason for t in loaded.turns] == ["tool_use", "end_turn", "tool_use"]
    assert loaded.stop == run.stop and loaded.turns[1:] == run.turns[1:]


def test_list_runs_newest_first_with_summary_columns(db):
    older = make_run("First task", created_at=1000.0)
    newer = make_run("Second task", created_at=2000.0, title="Nice title")
    db.save_run(older)
    db.save_run(newer)
    rows = db.list_runs()
    assert [r.id for r in rows] == [newer.id, older.id]
    top = rows[0]
    assert isinstance(top, RunSummary)
    assert (top.task, top.title, top.turns, top.stop_kind, top.model, top.provider) == (
        "Second task",
        "Nice title",
        3,
        "end_turn",
        DEFAULT_MODEL,
        "offline",
    )
    assert top.tokens == newer.total_tokens
    assert top.cost_usd == pytest.approx(newer.total_cost_usd)
    assert top.label == "Nice title"
    assert db.list_runs(limit=1)[0].id == newer.id


def test_search_is_case_insensitive_in_any_script(db):
    runs = [make_run("Погода в Москве?"), make_run("Weather in PARIS"), make_run("Pogoda w Łodzi")]
    for run in runs:
        db.save_run(run)
    assert [r.id for r in db.list_runs("москве")] == [runs[0].id]
    assert [r.id for r in db.list_runs("paris")] == [runs[1].id]
    assert [r.id for r in db.list_runs("łodzi")] == [runs[2].id]
    assert [r.id for r in db.list_runs(runs[1].id)] == [runs[1].id]
    assert db.list_runs("100%_") == []  # no LIKE wildcards
    assert len(db.list_runs("  ")) == 3


def test_delete_removes_run_and_its_turns(db, tmp_path):
    keep, gone = make_run("keep"), make_run("gone")
    db.save_run(keep)
    db.save_run(gone)
    assert db.delete(gone.id) is True
    assert db.delete(gone.id) is False
    assert db.load(gone.id) is None
    assert [r.id for r in db.list_runs()] == [keep.id]
    with database.connect(db.path) as conn:
        assert conn.execute("SELECT count(*) FROM turns WHERE run_id = ?", (gone.id,)).fetchone()[0] == 0


def test_children_lists_forks_by_turn(db):
    parent = make_run("parent")
    late = make_run("fork late", parent_id=parent.id, parent_turn=3)
    early = make_run("fork early", parent_id=parent.id, parent_turn=2)
    for run in (parent, late, early, make_run("unrelated")):
        db.save_run(run)
    assert [c.id for c in db.children(parent.id)] == [early.id, late.id]
    assert db.children(early.id) == []
    db.delete(parent.id)
    assert db.load(late.id).parent_id == parent.id  # a fork is a full copy and outlives its parent


def test_no_key_shaped_string_lands_in_the_db_file(tmp_path):
    path = tmp_path / "runs.db"
    db = RunStore(path)
    headers = {"authorization": f"Bearer {CANARY}", "x-api-key": "opaque-credential-42", "x-note": f"key={CANARY}"}
    run = make_run(task=f"my key is {CANARY}, keep it safe", title=f"t {CANARY}")
    run.turns[0] = make_turn(1, city=CANARY, headers=headers)
    run.turns[1].exchanges[0].response_body = b"\xff\xfe" + CANARY.encode()  # base64-stored body
    run.config.system = f"Bearer abcdefghijklmnopqrstuvwxyz0123456789 and {CANARY}"
    db.save_run(run)
    db.save_turn(run, run.turns[0])
    raw = b"".join(p.read_bytes() for p in tmp_path.iterdir() if p.name.startswith("runs.db"))
    assert b"CANARYcanary" not in raw
    assert b"abcdefghijklmnopqrstuvwxyz0123456789" not in raw
    assert b"opaque-credential-42" not in raw  # a credential header is blanked whatever its value looks like
    loaded = db.load(run.id)
    assert loaded.turns[0].exchanges[0].request_headers["authorization"] == "[redacted]"
    assert "[redacted]" in loaded.config.task


def test_schema_version_is_recorded(db, tmp_path):
    assert db.schema_version() == len(store_module.MIGRATIONS)
    if database.is_postgres(db.path):
        assert RunStore(db.path).schema_version() == len(store_module.MIGRATIONS)  # a second process migrates nothing
        return
    with sqlite3.connect(tmp_path / "runs.db") as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == len(store_module.MIGRATIONS)
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_a_database_from_a_newer_app_is_refused_clearly(tmp_path):
    path = tmp_path / "runs.db"
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA user_version = 99")
    with pytest.raises(StoreError, match="newer Agent Loop Lab.*v99"):
        RunStore(path)


def test_an_old_database_is_migrated_in_place(tmp_path, monkeypatch):
    path = tmp_path / "runs.db"
    run = make_run()
    RunStore(path).save_run(run)
    # A later release appends a migration; opening the old file must apply it and keep the data.
    monkeypatch.setattr(
        store_module, "MIGRATIONS", (*store_module.MIGRATIONS, "ALTER TABLE runs ADD COLUMN starred INTEGER")
    )
    upgraded = RunStore(path)
    assert upgraded.schema_version() == len(store_module.MIGRATIONS)
    assert upgraded.load(run.id) == run


def test_a_row_in_an_unknown_run_format_is_refused_clearly(db, tmp_path):
    run = make_run()
    db.save_run(run)
    with database.connect(db.path) as conn:
        conn.execute("UPDATE runs SET schema_version = 7 WHERE id = ?", (run.id,))
    with pytest.raises(StoreError, match="format v7"):
        db.load(run.id)
    assert db.list_runs()[0].id == run.id  # the list still works


def test_a_damaged_row_is_refused_clearly(db, tmp_path):
    run = make_run()
    db.save_run(run)
    with database.connect(db.path) as conn:
        conn.execute("UPDATE turns SET turn_json = '{not json' WHERE run_id = ? AND idx = 2", (run.id,))
    with pytest.raises(StoreError, match="damaged"):
        db.load(run.id)


def test_a_file_that_is_not_a_database_is_refused_clearly(tmp_path):
    path = tmp_path / "runs.db"
    path.write_bytes(b"this is not sqlite at all, just text" * 100)
    with pytest.raises(StoreError, match="runs database"):
        RunStore(path)


def test_default_path_follows_env_then_xdg(tmp_path, monkeypatch):
    monkeypatch.setenv("AGENT_LOOP_LAB_DB", str(tmp_path / "explicit.db"))
    assert RunStore().path == tmp_path / "explicit.db"
    monkeypatch.delenv("AGENT_LOOP_LAB_DB")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    store = RunStore()
    assert store.path == tmp_path / "xdg" / "agent-loop-lab" / "runs.db"
    assert store.path.exists()
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert store_module.default_db_path() == tmp_path / "home" / ".local" / "share" / "agent-loop-lab" / "runs.db"


def test_threads_can_save_through_one_instance(db):
    runs = [make_run(f"task {i}") for i in range(8)]
    errors: list[BaseException] = []

    def save(run: Run) -> None:
        try:
            for turn in run.turns:
                db.save_turn(run, turn)
        except BaseException as exc:  # surfaced below; a thread's exception is otherwise lost
            errors.append(exc)

    threads = [threading.Thread(target=save, args=(r,)) for r in runs]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert {r.id for r in db.list_runs()} == {r.id for r in runs}
    assert all(db.load(r.id) == r for r in runs)
