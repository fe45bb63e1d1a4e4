"""Records hold facts, not sentences: decisions and stop causes are kinds with parameters, old files migrate,
and the words come from the catalogue in the learner's language."""

from __future__ import annotations

import functools
import json

from scripted import Script, message, text, tool_use

from agent_core.files.export import export_json, import_json
from agent_core.loop.stepper import Stepper
from agent_core.model import Decision, Limits, Run, RunConfig, StopCause
from agent_core.tools.catalog import default_specs
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
    assert json.loads(export_json(again))["schema_version"] == 2
