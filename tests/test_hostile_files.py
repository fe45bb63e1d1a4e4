"""Hostile but valid files and damaged rows: refused with a clear message, or stored so that every page renders."""

from __future__ import annotations

import json
import socket
import sqlite3

import pytest
import scripted
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agent_core.files import export, export_script
from agent_core.loop.stepper import Stepper
from agent_core.model import Run, RunConfig, SimSettings
from agent_core.sim import start_server
from agent_core.storage.store import RunStore, StoreError
from agent_core.tools.catalog import default_specs
from lab_ui.runs.page import summaries_table


def _valid_document() -> dict:
    run = Run(config=RunConfig(task="What is 2 to the power of 16?", tools=default_specs(["calculate"])))
    calls = scripted.tool_use("calculate", {"expression": "2**16"})
    script = scripted.Script(scripted.message(calls, stop_reason="tool_use"), scripted.message(scripted.text("65536")))
    Stepper(run, transport=script).run_to_end()
    return json.loads(export.export_json(run))


VALID = _valid_document()


def _edited(path: str, value) -> bytes:
    document = json.loads(json.dumps(VALID))
    *parents, last = path.split(".")
    target = document
    for part in parents:
        target = target[int(part)] if part.isdigit() else target[part]
    target[int(last) if last.isdigit() else last] = value
    return json.dumps(document).encode()


@pytest.mark.parametrize(
    "path,value,words",
    [
        ("run.created_at", 1e300, "not a date between 1970 and 9999"),
        ("run.created_at", -1.0, "not a date"),
        ("run.turns.0.started_at", 1e20, "run.turns[0].started_at"),
        ("run.config.provider", "evil", "run.config.provider is 'evil'"),
        ("run.config.sim.persona", "evil", "sim.persona"),
        ("run.config.context_policy", "rm -rf", "context_policy"),
        ("run.config.bugs", ["delete_everything"], "bugs"),
        ("run.config.max_tokens", 10**30, "larger than any a run records"),
    ],
)
def test_hostile_values_are_refused_with_a_clear_message(path, value, words):
    with pytest.raises(export.RunImportError, match=words.replace("[", r"\[").replace("]", r"\]")):
        export.import_json(_edited(path, value))


def test_non_finite_numbers_are_refused_before_anything_is_stored():
    text = export.export_json(export.import_json(json.dumps(VALID))).decode()
    hostile = text.replace('"cost_usd": ', '"cost_usd": 1e999, "x": ', 1)
    with pytest.raises(export.RunImportError, match="too large"):
        export.import_json(hostile)


@pytest.mark.parametrize("depth", [export.MAX_DEPTH + 5, 5000])
def test_deep_nesting_is_refused_not_a_recursion_error(depth):
    deep = "[" * depth + "]" * depth
    data = json.dumps(VALID).replace('"task": ', f'"deep": {deep}, "task": ', 1)
    with pytest.raises(export.RunImportError, match="nested"):
        export.import_json(data)


def test_an_oversized_file_is_refused_by_size():
    with pytest.raises(export.RunImportError, match="MB"):
        export.import_json(b" " * 2000 + json.dumps(VALID).encode(), max_bytes=1000)


# -- the store: damaged rows, a locked file ------------------------------------------------------------------
@pytest.fixture
def saved(tmp_path):
    db = tmp_path / "runs.db"
    run = export.import_json(json.dumps(VALID))
    with RunStore(db) as store:
        store.save_run(run)
    return db, run.id


@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE runs SET run_json = '[]'",
        "UPDATE runs SET run_json = '\"text\"'",
        "UPDATE runs SET config_json = 'null'",
        "UPDATE runs SET config_json = '{\"tools\": 5}'",
        "UPDATE turns SET turn_json = '[1, 2]'",
        'UPDATE turns SET turn_json = \'{"exchanges": [{"request_body": 1}]}\'',
        "UPDATE runs SET run_json = 'not json'",
    ],
)
def test_a_wrong_shaped_row_raises_store_error_with_a_clear_message(saved, sql):
    db, run_id = saved
    with sqlite3.connect(db) as conn:
        conn.execute(sql)
    with RunStore(db) as store, pytest.raises(StoreError, match=f"Saved run {run_id} is damaged"):
        store.load(run_id)


@pytest.mark.parametrize("created", ["'yesterday'", "1e300", "-1e300", "x'00ff'"])
def test_the_runs_list_renders_rows_with_impossible_values(saved, created):
    db, run_id = saved
    with sqlite3.connect(db) as conn:
        conn.execute(f"UPDATE runs SET created_at = {created}, tokens = 'many', title = 5")
    with RunStore(db) as store:
        rows = store.list_runs()
    table = summaries_table(rows)
    assert list(table["run"]) == [run_id] and table["tokens"][0] == 0 and table["task"][0] == "5"


def test_a_database_another_process_is_writing_still_opens_for_reading(saved):
    db, run_id = saved
    writer = sqlite3.connect(db, isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")  # holds the write lock, as a long save in another process would
    try:
        with RunStore(db) as store:
            assert [r.id for r in store.list_runs()] == [run_id]
            assert store.load(run_id).id == run_id
    finally:
        writer.execute("ROLLBACK")
        writer.close()


# -- fuzzing: import files of any shape, size and depth -----------------------------------------------------------
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=30,
)
PATHS = [
    "run.config.task",
    "run.config.tools",
    "run.config.limits",
    "run.config.sim",
    "run.turns.0",
    "run.turns.0.tools",
    "run.turns.0.exchanges",
    "run.turns.0.usage",
    "run.messages",
    "run.stop",
    "run.created_at",
    "run.phase",
    "run",
    "schema_version",
]


def _must_import_cleanly_or_refuse(data: bytes, tmp_path_factory) -> None:
    try:
        run = export.import_json(data)
    except export.RunImportError as exc:
        assert str(exc), "a refusal says why"
        return
    # Accepted: it must save, load back, export and list without any other error.
    db = tmp_path_factory.mktemp("fuzz") / "runs.db"
    with RunStore(db) as store:
        store.save_run(run)
        assert store.load(run.id) is not None
        summaries_table(store.list_runs())
    export.export_json(run)
    export_script.to_python_script(run)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(path=st.sampled_from(PATHS), value=JSON)
def test_fuzzed_fields_of_a_valid_export(path, value, tmp_path_factory):
    _must_import_cleanly_or_refuse(_edited(path, value), tmp_path_factory)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(value=JSON, depth=st.integers(min_value=0, max_value=400))
def test_fuzzed_whole_files_of_any_shape_and_depth(value, depth, tmp_path_factory):
    text = "[" * depth + json.dumps(value) + "]" * depth
    _must_import_cleanly_or_refuse(text.encode(), tmp_path_factory)


@settings(max_examples=30, deadline=None)
@given(data=st.binary(max_size=300))
def test_fuzzed_bytes_are_refused_cleanly(data):
    with pytest.raises(export.RunImportError):
        export.import_json(data)


# -- fuzzing: the offline server's HTTP surface ---------------------------------------------------------------
@pytest.fixture(scope="module")
def sim_server():
    server, url = start_server(SimSettings())
    yield server.server_address[1]
    server.shutdown()


def _exchange(port: int, data: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(data)
        sock.shutdown(socket.SHUT_WR)
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks)


VALID_REQUEST = json.dumps(
    {"model": "claude-sonnet-4-6", "max_tokens": 50, "messages": [{"role": "user", "content": "hi"}]}
).encode()
PREFIXES = [b"", b"POST /v1/messages HTTP/1.1\r\nHost: x\r\n", b"GET / HTTP/1.1\r\n", b"POST /v1/messages HTTP/1.1\r\n"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(prefix=st.sampled_from(PREFIXES), junk=st.binary(max_size=400))
def test_arbitrary_bytes_never_hang_or_stop_the_server(sim_server, prefix, junk):
    _exchange(sim_server, prefix + junk)  # any answer, or a close; never a hang (the socket has a timeout)
    ok = _exchange(
        sim_server,
        b"POST /v1/messages HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\nconnection: close\r\n"
        b"x-api-key: any-key\r\nanthropic-version: 2023-06-01\r\n"
        + f"content-length: {len(VALID_REQUEST)}\r\n\r\n".encode()
        + VALID_REQUEST,
    )
    assert ok.startswith(b"HTTP/1.") and b" 200 " in ok.split(b"\r\n", 1)[0]
