"""AppTest smoke tests: every page renders without an exception, and the Playground steps a real offline run."""

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

APP = str(Path(__file__).resolve().parent.parent / "app.py")
PAGES = ["pages/home.py", "pages/playground.py", "pages/lessons.py", "pages/runs.py", "pages/settings.py"]


@pytest.fixture(autouse=True)
def _own_db(tmp_path, monkeypatch):
    monkeypatch.setenv("AGENT_LOOP_LAB_DB", str(tmp_path / "runs.db"))
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)


def app() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    return at


@pytest.mark.parametrize("page", PAGES)
def test_every_page_renders(page):
    at = app()
    at.switch_page(page).run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.title, "each page shows a title"


def _click(at: AppTest, label: str) -> None:
    next(b for b in at.button if b.label == label).click().run()
    assert not at.exception, [e.value for e in at.exception]


def test_playground_steps_phases_then_runs_to_end():
    at = app()
    at.switch_page("pages/playground.py").run()
    assert [b.label for b in at.button if b.label in ("Next phase", "Next step", "Run to end", "Reset")] == [
        "Next phase",
        "Next step",
        "Run to end",
        "Reset",
    ]
    _click(at, "Next phase")
    assert any("call the model" in c.value for c in at.caption)
    _click(at, "Run to end")
    text = " ".join(s.value for s in at.success)
    assert "end_turn" in text
    assert any("Simulated model (offline)" in m.value for m in at.markdown)


def test_controls_offer_forced_tool_choice_context_and_a_workflow():
    at = app()
    at.switch_page("pages/playground.py").run()
    next(s for s in at.selectbox if s.label == "tool_choice").set_value("tool: calculate").run()
    next(s for s in at.selectbox if s.label == "Context policy").set_value("summarize").run()
    next(n for n in at.number_input if n.label.startswith("Keep the last N turns")).set_value(1).run()
    editor = next(t for t in at.text_area if t.label.startswith("Workflow steps"))
    editor.set_value('[{"tool": "get_wether"}]').run()
    assert any("not picked: get_wether" in e.value for e in at.error)
    editor = next(t for t in at.text_area if t.label.startswith("Workflow steps"))
    editor.set_value('[{"tool": "get_weather", "input": {"city": "Oslo"}}]').run()
    cfg = at.session_state["agent_loop_lab:playground"].config
    assert cfg.tool_choice == {"type": "tool", "name": "calculate"}
    assert (cfg.context_policy, cfg.keep_last_turns) == ("summarize", 1)
    assert cfg.workflow_steps == [{"tool": "get_weather", "input": {"city": "Oslo"}}]
    _click(at, "Reset")
    _click(at, "Run to end")
    run = at.session_state["agent_loop_lab:playground"].run
    assert len(run.turns) == 1 and "tools" not in run.turns[0].request  # a workflow: one call, no tools offered


def test_the_saved_run_matches_the_run_after_every_click(tmp_path):
    """Saves write only the newest turns; what the runs database holds must still be the whole run, click by click."""
    from agent_core.store import RunStore

    at = app()
    at.switch_page("pages/playground.py").run()
    for label in ("Next phase", "Next phase", "Next phase", "Next step", "Next phase", "Next step", "Run to end"):
        if next(b for b in at.button if b.label == label).disabled:
            break
        _click(at, label)
        run = at.session_state["agent_loop_lab:playground"].run
        assert RunStore(tmp_path / "runs.db").load(run.id) == run, f"after {label}"
    assert len(run.turns) >= 2
