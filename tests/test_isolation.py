"""Two learners at once share nothing: runs, selected turn, key, config and lesson workspaces stay per session,
and no session can change what the modules (or st.cache_resource) hand to the next one."""

from __future__ import annotations

import copy
import dataclasses
import importlib
import pkgutil
import sys
import types

import pytest
from browser import (
    button,
    by_key,
    click_key,
    field,
    nav_link,
    needs_chromium,
    open_tab,
    wait_idle,
)
from keys import BACK, NEXT_PHASE, NEXT_STEP, PROVIDER, RESET, RUN_TO_END, TASK, TURN_TABS, USE_KEY
from lab_app import click, lab_of, open_page, pick_faults, texts, widget
from test_secrets_canary import settings_with_key

import agent_core
import lab_ui
from agent_core.tools import lookups
from lab_ui.controller.session import LabSession, default_config
from lab_ui.lessons import catalog as lesson_catalog
from lab_ui.playground.turn import TABS

KEY_A = "sk-ant-" + "isolation-A-0123456789abcdef"  # split: no key-shaped literal in the repository
TASK_A = "What is 2 to the power of 16? (learner A)"
TASK_B = "Please calculate 2^16 for learner B"


def set_task(at, task: str) -> None:
    widget(at, TASK).set_value(task).run()
    click(at, RESET)


def test_two_sessions_at_once_keep_their_own_runs_turns_keys_and_config(app_env, scripted_model):
    a, b = open_page(), open_page()
    a.switch_page("pages/settings.py").run()
    a.text_input(key="settings:key").input(KEY_A)
    click(a, USE_KEY)
    a.radio(key="settings:provider").set_value("anthropic").run()
    a.radio(key="settings:provider").set_value("offline").run()  # back to offline, but the key stays A's
    a.switch_page("pages/playground.py").run()
    pick_faults(a, "500 on turn 2")
    set_task(a, TASK_A)
    set_task(b, TASK_B)
    # Interleaved, as two browsers would be: one phase here, one step there.
    click(a, NEXT_PHASE)
    click(b, NEXT_STEP)
    click(a, RUN_TO_END)
    click(b, RUN_TO_END)
    lab_a, lab_b = lab_of(a), lab_of(b)
    assert lab_a.run.id != lab_b.run.id
    assert lab_a.run.messages[0]["content"] == TASK_A and lab_b.run.messages[0]["content"] == TASK_B
    assert TASK_A[:60] in lab_a.run.final_text and TASK_B[:60] in lab_b.run.final_text
    assert [x.status for x in lab_a.run.turns[1].exchanges] == [500, 200], "A's fault hit A"
    assert [x.status for x in lab_b.run.turns[1].exchanges] == [200], "and never B"
    assert lab_b.config.sim.faults == [] and lab_b.run.config.sim.faults == []
    click(a, BACK)
    assert lab_of(a).selected == 1 and lab_of(b).selected is None
    assert "Turn 1" in texts(a.markdown) and "### Turn 2" in texts(b.markdown)
    assert lab_of(a).api_key == KEY_A and lab_of(b).api_key is None and lab_of(b).key_source() is None
    b.switch_page("pages/settings.py").run()
    assert "No key is set" in texts(b.info)
    assert not any(KEY_A in repr(b.session_state[k]) for k in b.session_state.keys()), "A's key is nowhere in B"
    assert TASK_A not in texts(b.text_area) + texts(b.markdown)


def test_a_lesson_workspace_is_per_session_and_uses_its_own_tabs_key(app_env, scripted_model):
    a, b = open_page("pages/lessons.py"), open_page("pages/lessons.py")
    click(a, RUN_TO_END)
    lessons_a = [k for k in list(a.session_state.keys()) if k.startswith("agent_loop_lab:lesson:")]
    assert lessons_a and a.session_state[lessons_a[0]].run is not None
    assert b.session_state[lessons_a[0]].run is None, "B's copy of the same lesson has not run"
    lab_a = a.session_state[lessons_a[0]]
    lab_a.tab.api_key = KEY_A
    assert lab_a.resolved_key() == KEY_A, "a lesson uses the key typed on Settings in the same tab"
    assert b.session_state[lessons_a[0]].resolved_key() is None


# -- what modules and caches hand out must come back unchanged ------------------------------------------------
def _import_everything() -> None:
    for package in (agent_core, lab_ui):
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            if not info.name.endswith("__main__"):
                importlib.import_module(info.name)


def _shared_values() -> dict[str, object]:
    """Every mutable value a module holds at top level, every lesson the server caches, the tools' data files."""
    _import_everything()
    found: dict[str, object] = {}
    for name, module in list(sys.modules.items()):
        if not name.startswith(("agent_core", "lab_ui")):
            continue
        for attr, value in vars(module).items():
            mutable = isinstance(value, (dict, list, set, bytearray)) or (
                dataclasses.is_dataclass(value)
                and not isinstance(value, type)
                and not value.__dataclass_params__.frozen
            )
            if mutable and not attr.startswith("__"):
                found[f"{name}.{attr}"] = value
    found["lessons (st.cache_data)"] = lesson_catalog._read()
    for path in sorted(lookups.DATA_DIR.glob("*.json")):
        found[f"tool data {path.name}"] = lookups.load_data(path.name)
    return found


def scribble(value, seen: set[int] | None = None) -> None:
    """Change every dict, list and dataclass reachable from value, in place."""
    seen = set() if seen is None else seen
    if id(value) in seen or isinstance(value, (str, bytes, int, float, bool, type(None), types.FunctionType)):
        return
    seen.add(id(value))
    if isinstance(value, dict):
        for item in list(value.values()):
            scribble(item, seen)
        value["scribbled by another session"] = True
    elif isinstance(value, list):
        for item in list(value):
            scribble(item, seen)
        value.append("scribbled by another session")
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            item = getattr(value, f.name)
            if isinstance(item, str) and not value.__dataclass_params__.frozen:
                setattr(value, f.name, item + " (scribbled)")
            else:
                scribble(item, seen)


def test_a_session_that_changes_everything_it_holds_changes_nothing_shared(app_env, scripted_model):
    shared = _shared_values()
    before = {name: copy.deepcopy(value) for name, value in shared.items()}
    pristine = default_config()
    a = open_page()
    pick_faults(a, "429 on turn 2", "dropped connection on turn 1")
    set_task(a, TASK_A)
    click(a, RUN_TO_END)
    a.switch_page("pages/lessons.py").run()
    click(a, RUN_TO_END)
    for key in list(a.session_state.keys()):
        lab = a.session_state[key]
        if isinstance(lab, LabSession):
            scribble(lab.config)
            scribble(lab.run)
    after = _shared_values()
    changed = [name for name in before if after.get(name) != before[name]]
    assert not changed, f"a session's edits reached module-level or cached values: {changed}"
    b = open_page()
    assert lab_of(b).config == pristine, "a new session starts from the pristine defaults"
    b.switch_page("pages/lessons.py").run()
    fresh = [k for k in list(b.session_state.keys()) if k.startswith("agent_loop_lab:lesson:")]
    lesson = next(x for x in lesson_catalog._read() if fresh[0].endswith(x.id))
    assert b.session_state[fresh[0]].config == lesson.scenario_config("en")


def test_the_scribble_probe_would_notice_a_shared_default():
    """The probe above is only worth something if aliasing is caught: hand out a module's list, then scribble."""
    module = types.ModuleType("agent_core._probe")
    module.DEFAULTS = {"faults": [{"status": 500}]}
    sys.modules["agent_core._probe"] = module
    try:
        before = copy.deepcopy(_shared_values()["agent_core._probe.DEFAULTS"])
        handed_out = module.DEFAULTS["faults"]  # the bug: no copy
        scribble(handed_out)
        assert _shared_values()["agent_core._probe.DEFAULTS"] != before
    finally:
        del sys.modules["agent_core._probe"]


# -- two browsers against one running server ---------------------------------------------------------------------
def first_request_shown(page) -> str:
    """The raw request body on the Raw JSON tab of turn 1."""
    while button(page, BACK).is_enabled():
        click_key(page, BACK)
    open_tab(page, TURN_TABS, TABS.index("Raw JSON"))
    wait_idle(page)  # the turn's tabs are lazy: a click reruns the page to build the one it opens
    return page.locator("[data-testid='stCode']:visible").first.inner_text()


@pytest.mark.browser
@needs_chromium
def test_two_browsers_at_once_on_one_server_share_nothing(app, pages, model_server):
    server_url, handler = model_server
    url = app.url
    a, c = (pages.new_context(viewport={"width": 1500, "height": 1100}).new_page() for _ in range(2))
    a.goto(f"{url}/settings")
    by_key(a, PROVIDER).wait_for(timeout=180_000)  # a cold start on a busy machine
    settings_with_key(a, server_url, KEY_A)
    nav_link(a, "playground").click()
    c.goto(f"{url}/playground")
    for page, task in ((a, TASK_A), (c, TASK_B)):
        button(page, RUN_TO_END).wait_for(timeout=30_000)
        box = field(page, TASK)
        box.fill(task)
        box.press("Control+Enter")
        wait_idle(page)
    button(a, RUN_TO_END).click()  # both runs in flight at once
    button(c, RUN_TO_END).click()
    for page in (a, c):
        wait_idle(page)
        page.get_by_text("Loop stopped").wait_for(timeout=60_000)
    seen_a, seen_c = (first_request_shown(p) for p in (a, c))
    assert TASK_A in seen_a and TASK_B not in seen_a
    assert TASK_B in seen_c and TASK_A not in seen_c
    assert "127.0.0.1" in a.get_by_test_id("stSidebar").inner_text()
    assert "Simulated model (offline)" in c.get_by_test_id("stSidebar").inner_text(), "A's provider stayed A's"
    nav_link(c, "settings").click()
    c.get_by_text("No key is set").wait_for(timeout=30_000)
    assert KEY_A not in c.content()
    assert f"Bearer {KEY_A}" in handler.credentials and len(handler.credentials) >= 2
