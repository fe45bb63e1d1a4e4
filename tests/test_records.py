"""Records hold facts, not sentences: decisions and stop causes are kinds with parameters, old files migrate,
and the words come from the catalogue in the learner's language."""

from __future__ import annotations

import functools
import json
from pathlib import Path

from scripted import Script, message, text, tool_use

from agent_core.facts import Fact
from agent_core.files.export import export_json, import_json
from agent_core.loop.stepper import Stepper
from agent_core.model import SCHEMA_VERSION, Decision, Limits, Run, RunConfig, StopCause, migrate_run
from agent_core.teaching.learn.facts import fact
from agent_core.tools.catalog import default_specs
from agent_core.vocab import ApiErrorKind, DecisionKind, StopKind
from lab_ui.words.catalogue import decision_text, stop_text
from lab_ui.words.i18n import translate

RUSSIAN = functools.partial(translate, "ru")


def _two_turn_run(max_steps: int | None = 10) -> Run:
    script = Script(
        message(tool_use("get_weather", {"city": "Oslo"}), stop_reason="tool_use"),
        message(text("It is 4°C in Oslo."), stop_reason="end_turn"),
    )
    run = Run(config=RunConfig(task="Weather in Oslo?", tools=default_specs(["get_weather"]), limits=Limits(max_steps)))
    Stepper(run, transport=script).run_to_end()
    return run


def test_decisions_and_the_stop_cause_are_kinds_with_parameters():
    run = _two_turn_run()
    assert run.turns[0].decisions == [Decision("run_tools", {"tools": 1}), Decision("results_appended", {"blocks": 1})]
    assert run.turns[1].decisions == [Decision("final_stop", {"reason": "end_turn"})]
    assert run.stop == StopCause("end_turn", {"reason": "end_turn"})


def test_a_saved_run_holds_no_english_sentence_of_the_loop():
    saved = json.dumps(_two_turn_run(max_steps=1).to_dict())
    for words in ("so run", "appended as ONE", "step limit", "Then stop", "the model finished"):
        assert words not in saved
    assert '"kind": "step_limit"' in saved and '"limit": 1' in saved


def test_the_words_follow_the_learners_language():
    run = _two_turn_run(max_steps=1)
    english, russian = decision_text(run.turns[0]), decision_text(run.turns[0], tr=RUSSIAN)
    assert english.startswith("stop_reason is tool_use, so run 1 tool(s)") and english.endswith("step limit 1 reached")
    assert russian != english and "tool_use" in russian and "1" in russian
    assert stop_text(run, tr=RUSSIAN) == "достигнут лимит шагов 1"


def _as_version_1(run: Run) -> dict:
    """The same run as the v1 format wrote it: English sentences in `decision` and `message`."""
    document = run.to_dict()
    document["schema_version"] = 1
    for turn in document["run"]["turns"]:
        turn["decision"] = decision_text(run.turns[turn["index"] - 1])
        del turn["decisions"]
    document["run"]["stop"] = {"kind": run.stop.kind, "message": stop_text(run)}
    return document


def test_a_version_1_file_is_migrated_and_keeps_its_words():
    original = _two_turn_run(max_steps=1)
    old = _as_version_1(original)
    for loaded in (Run.from_dict(old), import_json(json.dumps(old))):
        assert loaded.turns[0].decisions == [Decision("text", {"text": old["run"]["turns"][0]["decision"]})]
        assert decision_text(loaded.turns[0]) == decision_text(original.turns[0])
        assert loaded.stop.kind == "step_limit" and stop_text(loaded) == "step limit 1 reached"
    again = import_json(export_json(import_json(json.dumps(old))))  # re-exported in the current format
    assert json.loads(export_json(again))["schema_version"] == SCHEMA_VERSION == 3


def _vocabulary(run: Run) -> list[tuple[str, object]]:
    """Every vocabulary field of a run, where it is."""
    cfg = run.config
    found = [("phase", run.phase), ("provider", cfg.provider), ("persona", cfg.sim.persona)]
    found += [("context_policy", cfg.context_policy), *(("bug", b) for b in cfg.bugs)]
    found += [("stop", run.stop.kind)] if run.stop else []
    for turn in run.turns:
        found += [("decision", d.kind) for d in turn.decisions]
        found += [("approval", x.approval) for x in turn.tools if x.approval is not None]
        found += [("error", turn.error.kind)] if turn.error else []
    return found


def test_every_vocabulary_field_comes_back_as_its_enum_from_a_database_a_file_and_a_v1_file():
    original = _two_turn_run(max_steps=1)
    original.config.bugs = ["drop_one_tool_result"]  # as a hand-built config or old code would have set it
    original.turns[0].tools[0].approval = "approved"
    for loaded in (
        Run.from_dict(json.loads(json.dumps(original.to_dict()))),
        import_json(export_json(original), keep_id=True),
        Run.from_dict(_as_version_1(original)),
    ):
        fields = _vocabulary(loaded)
        assert {name for name, _ in fields} >= {"phase", "provider", "persona", "stop", "decision", "approval", "bug"}
        assert [(name, type(value).__name__) for name, value in fields if type(value) is str] == []


def test_a_kind_this_app_does_not_know_is_kept_in_words_not_refused():
    document = _two_turn_run(max_steps=1).to_dict()
    document["run"]["turns"][0]["decisions"] = [{"kind": "rewound_time", "params": {"by": 3}}]
    document["run"]["stop"] = {"kind": "budget_of_patience", "params": {}}
    loaded = import_json(json.dumps(document))
    assert loaded.turns[0].decisions == [Decision("text", {"text": "rewound_time"})]
    assert loaded.stop == StopCause("unknown_stop_reason", {"reason": "budget_of_patience"})
    assert "budget_of_patience" in stop_text(loaded)


DATA = Path(__file__).parent / "data"  # run files written by the app at run format v2 (before errors were facts)


def test_a_version_2_file_with_an_api_error_is_worded_in_the_learners_language():
    old = (DATA / "run_v2_api_error.json").read_text(encoding="utf-8")
    english = json.loads(old)["run"]["turns"][1]["error"]["message"]  # the sentence v2 wrote at the failure
    run = import_json(old)
    assert run.turns[1].error.kind == ApiErrorKind.STATUS and run.stop == StopCause(StopKind.API_ERROR)
    assert (
        isinstance(run.turns[1].error, Fact) and run.turns[1].error.params["detail"] == "Overloaded (simulated fault)."
    )
    assert stop_text(run) == english  # the same words, now worded from the facts
    assert stop_text(run, tr=RUSSIAN) != english and "529" in stop_text(run, tr=RUSSIAN)
    again = json.loads(export_json(run))
    assert again["schema_version"] == 3 and "message" not in again["run"]["turns"][1]["error"]
    assert english not in json.dumps(again, ensure_ascii=False)


def test_an_error_saved_before_errors_were_facts_keeps_its_sentence():
    document = json.loads((DATA / "run_v2_api_error.json").read_text(encoding="utf-8"))
    document["run"]["turns"][1]["error"].pop("params")  # as a v2 file or a saved row from before the facts
    run = Run.from_dict(document)
    assert Run.from_dict({"run": migrate_run(document["run"], 2), "schema_version": 3}) == run
    assert stop_text(run, tr=RUSSIAN) == document["run"]["turns"][1]["error"]["message"]


def test_a_guards_stop_is_one_fact_wherever_it_is_read():
    run = import_json((DATA / "run_v2_step_limit.json").read_text(encoding="utf-8"))
    then = run.turns[0].decisions[-1]
    assert then.kind == DecisionKind.THEN_STOP and then.stop_cause() == run.stop == StopCause(
        StopKind.STEP_LIMIT, {"limit": 1}
    )
    assert decision_text(run.turns[0], tr=RUSSIAN).endswith(stop_text(run, tr=RUSSIAN)) and "1" in stop_text(
        run, tr=RUSSIAN
    )
    assert all(isinstance(x, Fact) for x in (then, run.stop, fact("stop_end_turn")))
    odd = Decision.then_stop(StopCause(StopKind.STEP_LIMIT, {"limit": 1}))
    odd.params["kind"] = "patience_ran_out"  # a hand-edited file: an unknown stop, told as one
    assert odd.stop_cause() == StopCause(StopKind.UNKNOWN_STOP_REASON, {"limit": 1, "reason": "patience_ran_out"})
