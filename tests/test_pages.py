"""AppTest smoke tests: every page renders without an exception, and the Playground steps a real offline run."""

import pytest
from keys import NEXT_PHASE, NEXT_STEP, RESET, RUN_TO_END
from lab_app import PLAYGROUND, click, lab_of, open_page, widget

from agent_core.storage.store import RunStore

PAGES = ["pages/home.py", "pages/playground.py", "pages/lessons.py", "pages/runs.py", "pages/settings.py"]


pytestmark = pytest.mark.usefixtures("app_env")  # its own runs database, no key from the environment


@pytest.mark.parametrize("page", PAGES)
def test_every_page_renders(page):
    at = open_page(page)
    assert at.title, "each page shows a title"


def test_playground_steps_phases_then_runs_to_end():
    at = open_page(PLAYGROUND)
    assert [widget(at, key).label for key in (NEXT_PHASE, NEXT_STEP, RUN_TO_END, RESET)] == [
        "Next phase",
        "Next step",
        "Run to end",
        "Reset",
    ]
    click(at, NEXT_PHASE)
    assert any("call the model" in c.value for c in at.caption)
    click(at, RUN_TO_END)
    text = " ".join(s.value for s in at.success)
    assert "end_turn" in text
    assert any("Simulated model (offline)" in m.value for m in at.markdown)


def test_controls_offer_forced_tool_choice_context_and_a_workflow():
    at = open_page(PLAYGROUND)
    widget(at, "cfg-tool-choice").set_value("tool: calculate").run()
    widget(at, "cfg-context-policy").set_value("summarize").run()
    widget(at, "cfg-keep-last").set_value(1).run()
    editor = widget(at, "cfg-workflow")
    editor.set_value('[{"tool": "get_wether"}]').run()
    assert any("not picked: get_wether" in e.value for e in at.error)
    editor = widget(at, "cfg-workflow")
    editor.set_value('[{"tool": "get_weather", "input": {"city": "Oslo"}}]').run()
    cfg = lab_of(at).config
    assert cfg.tool_choice == {"type": "tool", "name": "calculate"}
    assert (cfg.context_policy, cfg.keep_last_turns) == ("summarize", 1)
    assert cfg.workflow_steps == [{"tool": "get_weather", "input": {"city": "Oslo"}}]
    click(at, RESET)
    click(at, RUN_TO_END)
    run = lab_of(at).run
    assert len(run.turns) == 1 and "tools" not in run.turns[0].request  # a workflow: one call, no tools offered


def test_the_saved_run_matches_the_run_after_every_click(app_env):
    """Saves write only the newest turns; what the runs database holds must still be the whole run, click by click."""
    at = open_page(PLAYGROUND)
    for key in (NEXT_PHASE, NEXT_PHASE, NEXT_PHASE, NEXT_STEP, NEXT_PHASE, NEXT_STEP, RUN_TO_END):
        if widget(at, key).disabled:
            break
        click(at, key)
        run = lab_of(at).run
        assert RunStore(app_env).load(run.id) == run, f"after {key}"
    assert len(run.turns) >= 2
