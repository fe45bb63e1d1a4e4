"""The Runs page: list, search, delete, import, replay without model calls, re-run from a turn, compare, export."""

from __future__ import annotations

import json

import pandas as pd
import pytest
from keys import NEXT_STEP, RUN_TO_END, STEP_BUTTONS, TURN_TABS
from lab_app import APP, LAB_KEY, PLAYGROUND, click, ok, open_page, texts, widget
from streamlit import dataframe_util
from streamlit.testing.v1 import AppTest

from agent_core.examples import list_examples, load_example
from agent_core.files import export, export_script
from agent_core.loop.stepper import Stepper
from agent_core.model import Run, RunConfig, StopCause, Turn, Usage
from agent_core.report import compare
from agent_core.sim.transport import SimTransport
from agent_core.storage.store import RunStore
from lab_ui.controller import spend
from lab_ui.controller.click import Action, Level
from lab_ui.frame.untrusted import md
from lab_ui.runs import actions as run_actions
from lab_ui.words.i18n import translate

FIRST_EXAMPLE = list_examples()[0][0]


@pytest.fixture
def db(app_env) -> RunStore:
    """The app's runs database (its own file), and no key from the environment."""
    with RunStore(app_env) as store:
        yield store


@pytest.fixture
def http_calls(monkeypatch) -> list[str]:
    """Every HTTP request the simulated model receives in this process (the only model the tests use)."""
    calls: list[str] = []
    original = SimTransport.handle_request

    def spy(self, request):
        calls.append(request.url.path)
        return original(self, request)

    monkeypatch.setattr(SimTransport, "handle_request", spy)
    return calls


def saved_example(db: RunStore, name: str = "weather_and_calculator") -> Run:
    run = load_example(name)
    db.save_run(run)
    return run


def unfinished_run(db: RunStore, turns: int = 2) -> Run:
    """A runaway run saved after a few turns: it has not stopped, so a live Playground could step it on."""
    run = Run(config=load_example("stubborn_runaway").config)
    stepper = Stepper(run)
    for _ in range(turns):
        stepper.next_turn()
    assert run.stop is None and len(run.turns) == turns
    db.save_run(run)
    return run


def runs_page() -> AppTest:
    return open_page("pages/runs.py")


def to_playground(at: AppTest, key: str) -> str:
    """Click a button that switches to the Playground and keep AppTest there; returns the messages shown once."""
    click(at, key)
    assert [t.value for t in at.title] == ["Playground"]
    shown = texts(at.success) + texts(at.warning)
    at.switch_page(PLAYGROUND).run()  # AppTest's later runs rerun the page it last switched to
    ok(at)
    return shown


def view(at: AppTest, name: str) -> None:
    at.segmented_control(key="runs:view").set_value(name).run()
    ok(at)


def listed(at: AppTest) -> list[str]:
    return list(at.dataframe[0].value["run"]) if at.dataframe else []


# -- the list -------------------------------------------------------------------------------------
def test_the_list_shows_each_run_with_its_figures_and_a_fork_names_its_parent(db):
    parent = saved_example(db)
    child = Run(config=parent.config, turns=parent.turns[:1], parent_id=parent.id, parent_turn=2, title="retry")
    db.save_run(child)
    at = runs_page()
    table = at.dataframe[0].value.set_index("run")
    assert set(table.index) == {parent.id, child.id}
    row = table.loc[parent.id]
    assert (row["turns"], row["tokens"], row["stopped by"]) == (3, parent.total_tokens, "end_turn")
    assert row["cost $"] == pytest.approx(parent.total_cost_usd)
    assert row["task"] == parent.title and row["fork of"] == ""
    assert table.loc[child.id, "fork of"] == f"{parent.id} at turn 2"


def test_the_lists_figures_are_written_as_the_learners_language_writes_numbers(db):
    run = saved_example(db)
    run.turns[0].usage.input_tokens += 12_000  # five digits, where Polish and Russian put a space
    db.save_run(run)
    for lang, tokens, cost in (
        ("en", f"{run.total_tokens:,}", f"${run.total_cost_usd:.6f}"),
        ("pl", f"{run.total_tokens:,}".replace(",", "\u00a0"), f"${run.total_cost_usd:.6f}".replace(".", ",")),
    ):
        at = open_page("pages/runs.py", lang)
        shown = _display_values(at.dataframe[0])
        row = shown[shown.iloc[:, 0] == run.id].iloc[0]
        assert (row.iloc[3], row.iloc[4]) == (tokens, cost), lang
        assert at.dataframe[0].value.iloc[0, 3] == run.total_tokens, "the grid sorts by the number, not the text"


def test_a_shipped_recordings_title_is_listed_in_the_learners_language_and_a_learners_own_as_typed(db):
    example = saved_example(db)
    mine = Run(config=example.config, turns=example.turns[:1], title="Weather in two cities")
    db.save_run(mine)
    at = open_page("pages/runs.py", "ru")
    titles = dict(zip(at.dataframe[0].value.iloc[:, 0], at.dataframe[0].value.iloc[:, 1], strict=True))
    assert titles[example.id] == translate("ru", example.title) != example.title
    assert titles[mine.id] == "Weather in two cities", "a learner's own title is data, not a catalogue key"
    picker = at.selectbox(key="runs:picked")
    assert any(translate("ru", example.title) in option for option in picker.options), picker.options


def _display_values(frame) -> pd.DataFrame:
    """The text the grid draws in each cell (the Styler's display values), by column position."""
    return dataframe_util.convert_arrow_bytes_to_pandas_df(frame.proto.arrow_data.styler.display_values)


def test_search_narrows_the_list_and_says_when_nothing_matches(db):
    weather = saved_example(db)
    runaway = saved_example(db, "stubborn_runaway")
    at = runs_page()
    assert set(listed(at)) == {weather.id, runaway.id}
    at.text_input(key="runs:search").input("ACME").run()
    assert listed(at) == [runaway.id]
    at.text_input(key="runs:search").input("step_limit").run()
    assert listed(at) == [runaway.id], "the stop cause is searchable too"
    at.text_input(key="runs:search").input("no such run anywhere").run()
    ok(at)
    assert listed(at) == [] and "No saved run matches" in texts(at.info)


def test_delete_asks_first_then_removes_the_run_from_the_database_and_the_list(db):
    keep, doomed = saved_example(db), saved_example(db, "tool_error_recovery")
    at = runs_page()
    at.selectbox(key="runs:picked").set_value(doomed.id).run()
    assert "cannot be undone" in texts(at.warning), "the confirmation says what will happen"
    assert db.load(doomed.id) is not None, "nothing is deleted before the confirmation is clicked"
    click(at, "runs:delete")
    assert db.load(doomed.id) is None and db.load(keep.id) is not None
    assert listed(at) == [keep.id]
    assert f"Deleted run {doomed.id}" in texts(at.success)


def test_deleting_the_run_open_in_the_playground_closes_it_there(db):
    run = saved_example(db)
    at = runs_page()
    click(at, "runs:replay")
    at.switch_page("pages/runs.py").run()
    click(at, "runs:delete")
    assert at.session_state[LAB_KEY].run is None, "the Playground would otherwise save it again"
    assert db.load(run.id) is None


# -- import ---------------------------------------------------------------------------------------
BAD_FILES = {
    "not JSON": (b"this is not json {", "not valid JSON"),
    "not UTF-8": (b"\xff\xfe\x00garbage", "not UTF-8"),
    "wrong shape": (
        json.dumps({"schema_version": 1, "run": {"turns": "many"}}).encode(),
        "does not match the run format",
    ),
    "newer format": (json.dumps({"schema_version": 99, "run": {}}).encode(), "newer Agent Loop Lab"),
}


@pytest.mark.parametrize("case", list(BAD_FILES))
def test_a_bad_file_gets_the_import_error_in_words_and_nothing_else_breaks(db, case):
    data, words = BAD_FILES[case]
    keep = saved_example(db)
    at = runs_page()
    view(at, "Import & examples")
    at.file_uploader(key="runs:upload").upload("broken.json", data, "application/json").run()
    ok(at)
    shown = texts(at.error)
    assert "broken.json** was not imported" in shown and words in shown
    with pytest.raises(export.RunImportError) as err:
        export.import_json(data)
    # Shown as Markdown source with untrusted text neutralised (brackets escaped), so compare in that form.
    assert md(str(err.value)) in shown, "the message is the importer's own explanation"
    assert [r.id for r in db.list_runs()] == [keep.id]
    view(at, "Saved runs")
    assert listed(at) == [keep.id], "the page still works after a bad file"


def test_an_oversized_file_is_refused_with_its_size(db, monkeypatch):
    monkeypatch.setattr(export, "MAX_IMPORT_BYTES", 1000)
    at = runs_page()
    view(at, "Import & examples")
    at.file_uploader(key="runs:upload").upload(
        "big.json", export.export_json(load_example("stubborn_runaway")), "application/json"
    ).run()
    ok(at)
    assert "big.json** was not imported" in texts(at.error) and "are not imported" in texts(at.error)
    assert db.list_runs() == []


def test_a_good_file_is_saved_once_and_listed(db):
    original = load_example("tool_error_recovery")
    at = runs_page()
    view(at, "Import & examples")
    at.file_uploader(key="runs:upload").upload("class.json", export.export_json(original), "application/json").run()
    ok(at)
    saved = db.list_runs()
    assert len(saved) == 1 and saved[0].id != original.id, "an import gets its own id"
    assert f"as run {saved[0].id}" in texts(at.success)
    assert db.load(saved[0].id).messages == original.messages
    at.run()  # the upload is still in the widget on every rerun
    assert len(db.list_runs()) == 1, "the same upload is not imported twice"
    view(at, "Saved runs")
    assert listed(at) == [saved[0].id] and at.selectbox(key="runs:picked").value == saved[0].id


def test_an_example_recording_is_imported_with_one_click(db):
    at = runs_page()
    view(at, "Import & examples")
    click(at, f"runs:example:{FIRST_EXAMPLE}")
    imported = [r.id for r in db.list_runs()]
    assert len(imported) == 1 and imported[0].startswith("example-")
    assert db.load(imported[0]).messages == load_example(imported[0].removeprefix("example-")).messages
    assert widget(at, f"runs:example:{FIRST_EXAMPLE}").disabled
    assert "Imported the example" in texts(at.success)


# -- replay and re-run ----------------------------------------------------------------------------
def test_open_as_replay_shows_the_run_labelled_replay_and_never_calls_the_model(db, http_calls):
    run = unfinished_run(db)
    http_calls.clear()
    saved_before = export.export_json(db.load(run.id))
    at = runs_page()
    to_playground(at, "runs:replay")
    assert at.query_params.get("run") == run.id and at.query_params.get("mode") == "replay"
    assert "replay]" in texts(at.markdown) and "Replay" in texts(at.info)
    assert all(widget(at, key).disabled for key in STEP_BUTTONS), "a live run this unfinished could step"
    lab = at.session_state[LAB_KEY]
    assert lab.replay and lab.run.id == run.id
    outcome = lab.step(Action.TURN)  # what a click would do if a disabled button were pressed anyway
    assert [n.level for n in outcome.notices] == [Level.WARNING] and "never calls the model" in outcome.notices[0].text
    at.run()
    ok(at)
    assert http_calls == [], "no HTTP request in replay"
    assert len(lab.run.turns) == 2 and lab.run.stop is None
    assert export.export_json(db.load(run.id)) == saved_before, "the saved run is unchanged"


def test_a_reload_keeps_a_replay_a_replay_and_a_live_run_live(db):
    run = unfinished_run(db)
    for mode, replay in (("replay", True), (None, False)):
        at = AppTest.from_file(APP, default_timeout=90)
        at.query_params.update({"run": run.id, "turn": "1", **({"mode": mode} if mode else {})})
        at.run()
        at.switch_page(PLAYGROUND).run()
        ok(at)
        lab = at.session_state[LAB_KEY]
        assert lab.run.id == run.id and lab.replay is replay and lab.selected == 1
        assert widget(at, NEXT_STEP).disabled is replay


def test_continue_live_opens_an_unfinished_run_to_step_on(db, http_calls):
    run = unfinished_run(db)
    at = runs_page()
    to_playground(at, "runs:live")
    lab = at.session_state[LAB_KEY]
    assert not lab.replay and "mode" not in at.query_params
    http_calls.clear()
    click(at, RUN_TO_END)
    assert http_calls and lab.run.stop is not None
    assert all(widget(at, key).disabled for key in STEP_BUTTONS), "redrawn for the stopped run"
    assert len(db.load(run.id).turns) == len(lab.run.turns) > 1


def test_continue_live_is_only_for_runs_that_have_not_stopped(db):
    saved_example(db)
    assert widget(runs_page(), "runs:live").disabled


def test_rerun_from_a_turn_creates_a_linked_saved_run_and_opens_it_live(db, http_calls):
    parent = saved_example(db)
    at = runs_page()
    at.number_input(key=f"runs:from:{parent.id}").set_value(2).run()
    shown = to_playground(at, "runs:fork")
    lab = at.session_state[LAB_KEY]
    child = lab.run
    assert not lab.replay and child.id != parent.id and at.query_params.get("run") == child.id
    assert (child.parent_id, child.parent_turn, len(child.turns)) == (parent.id, 2, 1)
    assert child.messages == parent.turns[1].request["messages"], "the history up to turn 2's request"
    stored = db.load(child.id)
    assert (stored.parent_id, stored.parent_turn) == (parent.id, 2)
    assert f"re-runs {parent.id} from turn 2" in shown
    http_calls.clear()
    click(at, NEXT_STEP)
    assert http_calls, "the re-run calls the model again"
    assert len(db.load(child.id).turns) == 2
    assert export.export_json(db.load(parent.id)) == export.export_json(parent), "the parent is untouched"
    at.switch_page("pages/runs.py").run()
    table = at.dataframe[0].value.set_index("run")
    assert table.loc[child.id, "fork of"] == f"{parent.id} at turn 2"


# -- compare --------------------------------------------------------------------------------------
def test_a_local_servers_run_shows_no_dollars_in_the_list_or_in_compare(db):
    priced = saved_example(db)
    local = load_example("stubborn_runaway")
    local.config.provider, local.config.base_url = "compatible", "http://localhost:11434"
    db.save_run(local)
    at = runs_page()
    table = at.dataframe[0].value.set_index("run")
    cost = [c for c in table.columns if c.startswith("cost")][0]
    assert table.loc[priced.id, cost] > 0 and table.isna().loc[local.id, cost], "blank, not $0"
    assert at.dataframe[0].proto.placeholder == "—", "drawn as a dash: the grid's default says 'None'"
    view(at, "Compare")
    at.selectbox(key="runs:compare_a").set_value(priced.id).run()
    at.selectbox(key="runs:compare_b").set_value(local.id).run()
    ok(at)
    costs = [m.value for m in at.metric if m.label == "Cost"]
    assert costs[0].startswith("$") and costs[1] == spend.NO_PRICE, costs
    traces = [t["name"] for c in at.get("plotly_chart") for t in json.loads(c.proto.spec)["data"]]
    assert "A" + compare.COST_SUFFIX in traces and "B" + compare.COST_SUFFIX not in traces
    columns = list(at.dataframe[-1].value.columns)
    assert any(c.startswith("A") and c.endswith("$") for c in columns)
    assert not any(c.startswith("B") and c.endswith("$") for c in columns), columns


def test_compare_shows_both_runs_their_charts_and_the_message_diff(db):
    a = saved_example(db)
    b = saved_example(db, "stubborn_runaway")
    at = runs_page()
    view(at, "Compare")
    picked = {at.selectbox(key="runs:compare_a").value, at.selectbox(key="runs:compare_b").value}
    assert picked == {a.id, b.id}
    at.selectbox(key="runs:compare_a").set_value(a.id).run()
    at.selectbox(key="runs:compare_b").set_value(b.id).run()
    ok(at)
    turns = [m.value for m in at.metric if m.label == "Turns"]
    assert turns == ["3", "6"]
    captions = texts(at.caption)
    assert "stopped by `end_turn`" in captions and "stopped by `step_limit`" in captions
    charts = at.get("plotly_chart")
    assert len(charts) == 3
    traces = [t["name"] for c in charts for t in json.loads(c.proto.spec)["data"]]
    assert "A" + compare.CONTEXT_SUFFIX in traces and "B" + compare.COST_SUFFIX in traces
    diff = texts(at.code)
    assert "--- A" in diff and "+++ B" in diff and "ACME" in diff and "Cairo" in diff
    assert "they share the first **0**" in texts(at.markdown)


def test_compare_defaults_to_the_picked_fork_and_its_parent(db):
    parent = saved_example(db)
    saved_example(db, "stubborn_runaway")
    child = Run(
        config=parent.config,
        messages=parent.turns[1].request["messages"],
        turns=parent.turns[:1],
        parent_id=parent.id,
        parent_turn=2,
    )
    db.save_run(child)
    at = runs_page()
    at.selectbox(key="runs:picked").set_value(child.id).run()
    view(at, "Compare")
    assert (at.selectbox(key="runs:compare_a").value, at.selectbox(key="runs:compare_b").value) == (child.id, parent.id)
    assert "A forks from B at turn 2" in texts(at.markdown)


def test_compare_needs_two_runs(db):
    saved_example(db)
    at = runs_page()
    view(at, "Compare")
    assert "Compare needs two saved runs" in texts(at.info)


# -- export ---------------------------------------------------------------------------------------
def test_downloads_are_built_only_when_asked_and_round_trip(db, monkeypatch):
    run = saved_example(db)
    built: list[str] = []
    real_json, real_script = export.export_json, export_script.to_python_script
    monkeypatch.setattr(export, "export_json", lambda r: built.append("json") or real_json(r))
    monkeypatch.setattr(export_script, "to_python_script", lambda r: built.append("python") or real_script(r))
    at = runs_page()
    assert [d.label for d in at.get("download_button")] == ["Download JSON", "Download Python script"]
    assert built == [], "drawing the page builds no export"
    data = run_actions.export_bytes(db.path, run.id, "json")
    assert export.import_json(data, keep_id=True).messages == run.messages
    script = run_actions.export_bytes(db.path, run.id, "python").decode()
    compile(script, "run.py", "exec")  # a runnable program, not just text
    assert "anthropic" in script and built == ["json", "python"]


def test_a_turn_in_openai_form_on_the_runs_page_and_in_the_playground(db):
    saved_example(db)
    at = runs_page()
    at.toggle(key="runs:openai").set_value(True).run()
    ok(at)
    shown = texts(at.json)
    assert '"chat.completion"' in shown and '"role": "tool"' in shown, "turn 3 carries the tool results"
    at.switch_page(PLAYGROUND).run()
    click(at, RUN_TO_END)
    assert '"chat.completion"' not in texts(at.json)  # the turn's tabs are lazy: only the open one is built
    at.session_state[TURN_TABS] = "OpenAI form"  # what a click on the tab does
    at.run()
    shown = texts(at.json)
    assert '"chat.completion"' in shown and '"finish_reason": "stop"' in shown


# -- the pure compare helpers ------------------------------------------------------------------------
def _turn(index: int, messages: int, whole: int, cost: float, error: bool = False) -> Turn:
    request = {"messages": [{"role": "user", "content": f"m{i}"} for i in range(messages)]}
    usage = None if error else Usage(input_tokens=whole, output_tokens=10)
    return Turn(index=index, request=request, usage=usage, cost_usd=cost)


def _run(turns: list[Turn], messages: list[dict], **extra) -> Run:
    return Run(config=RunConfig(task="t"), turns=turns, messages=messages, stop=StopCause("end_turn"), **extra)


def test_series_holds_each_turns_context_cost_so_far_and_message_count():
    run = _run([_turn(1, 1, 100, 0.001), _turn(2, 3, 250, 0.002), _turn(3, 5, 0, 0.0, error=True)], [])
    s = compare.series(run, "A")
    assert s.turns == [1, 2, 3] and s.request_messages == [1, 3, 5]
    assert s.context_tokens == [100, 250, None] and s.output_tokens == [10, 10, None]
    assert s.cumulative_cost == pytest.approx([0.001, 0.003, 0.003])


def test_compare_figures_overlay_both_runs_with_named_series_and_mark_the_fork():
    msgs = [{"role": "user", "content": "q"}, {"role": "assistant", "content": "x"}]
    a = _run(
        [_turn(1, 1, 100, 0.001), _turn(2, 3, 300, 0.003), _turn(3, 5, 500, 0.005)],
        msgs + [{"role": "user", "content": "r"}],
    )
    b = _run(
        [_turn(1, 1, 100, 0.001), _turn(2, 3, 320, 0.004)],
        msgs + [{"role": "user", "content": "s"}],
        parent_id=a.id,
        parent_turn=2,
    )
    c = compare.compare(a, b)
    assert c.fork_turn == 2 and c.shared_messages == 2
    fig = compare.context_figure(c)
    assert [t.name for t in fig.data] == ["A" + compare.CONTEXT_SUFFIX, "B" + compare.CONTEXT_SUFFIX]
    assert [list(t.x) for t in fig.data] == [[1, 2, 3], [1, 2]]
    assert [list(t.y) for t in fig.data] == [[100, 300, 500], [100, 320]]
    assert any(s.x0 == 2 for s in fig.layout.shapes), "a line marks the fork turn"
    cost = compare.cost_figure(c)
    assert [t.name for t in cost.data] == ["A" + compare.COST_SUFFIX, "B" + compare.COST_SUFFIX]
    assert list(cost.data[0].y) == pytest.approx([0.001, 0.004, 0.009])
    assert list(cost.data[1].y) == pytest.approx([0.001, 0.005])
    bars = compare.messages_figure(c)
    assert [t.name for t in bars.data] == ["A" + compare.MESSAGES_SUFFIX, "B" + compare.MESSAGES_SUFFIX]
    assert [list(t.y) for t in bars.data] == [[1, 3, 5], [1, 3]] and bars.layout.barmode == "group"
    for f in (fig, cost, bars):
        assert f.layout.title.text and f.layout.xaxis.title.text == "Turn" and f.layout.yaxis.title.text
    rows = compare.side_by_side(c)
    assert [r["turn"] for r in rows] == [1, 2, 3]
    assert rows[2]["A context"] == 500 and rows[2]["B context"] is None and rows[2]["B messages"] is None


def test_message_diff_shows_only_where_the_histories_part():
    same = [{"role": "user", "content": "What is 2^16?"}]
    a = same + [{"role": "assistant", "content": "65536"}]
    b = same + [{"role": "assistant", "content": "It is 65536."}]
    diff = compare.message_diff(a, b, ("first", "second"))
    assert diff.startswith("--- first\n+++ second")
    assert '-  "content": "65536"' in diff and '+  "content": "It is 65536."' in diff
    assert "# message 2 (assistant)" in diff
    assert compare.message_diff(a, a) == ""
    assert compare.shared_prefix(a, b) == 1 and compare.fork_turn(_run([], a), _run([], b)) is None
