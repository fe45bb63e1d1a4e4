"""Shared fixtures: an own runs database with no inherited key, a scripted simulated model, a recording server; for
browser tests, app servers shared per profile (`app`, `app_servers`) and fresh browser contexts (`pages`) from one
Chromium per test process."""

from __future__ import annotations

import sys
import types
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser import App, AppServers, LabBrowser, Pages, launch, running_app
from scripted_brain import RecordingHandler, scripted_think

import agent_core.sim
from agent_core.model import SimSettings
from agent_core.sim import start_server
from agent_core.sim.brain import Draft  # scripted brains return the real type

# About how many seconds each test of these files takes on the 2-core machine (--durations of a clean clone's
# `make test`, 2026-12-02; a file left out is quick). Each test process sorts its tests longest first, the same
# way, so that with `--dist worksteal` (make test) the long tests start early and the run ends on short ones that
# the other process can take over: neither process idles while the other finishes a long browser walk. Figures
# need only be rough.
SECONDS_PER_TEST = {
    "test_browser_language.py": 130,
    "test_browser_runs.py": 70,
    "test_browser_lesson_puzzle.py": 65,
    "test_browser_a11y.py": 60,
    "test_browser_teacher.py": 50,
    "test_secrets_canary.py": 50,
    "test_browser_class_server.py": 45,
    "test_browser_state.py": 40,
    "test_serve_class.py": 40,
    "test_browser_lessons.py": 40,
    "test_isolation.py": 40,
    "test_language.py": 40,
    "test_browser_no_price.py": 38,
    "test_browser_presenter.py": 35,
    "test_browser_call_cancel.py": 30,
    "test_browser_playground.py": 25,
    "test_browser_practice.py": 25,
    "test_browser_responsive.py": 25,
    "test_browser_keyboard.py": 22,
    "security/test_storage_growth.py": 15,
    "test_wheel.py": 15,
    "test_fidelity_loops.py": 3,
    "test_lesson_code.py": 5,
    "test_import_cost.py": 5,
}
BROWSER_TEST_SECONDS = 15  # a browser test of a file not named above


def _expected_seconds(item: pytest.Item) -> float:
    path = item.path.as_posix()
    for name, seconds in SECONDS_PER_TEST.items():
        if path.endswith("/" + name):
            return seconds
    return BROWSER_TEST_SECONDS if item.get_closest_marker("browser") else 0


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The longest tests first (a stable sort: a file's tests keep their order, and the quick ones theirs)."""
    items.sort(key=_expected_seconds, reverse=True)


@pytest.fixture
def app_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Own runs database and no key from the environment; returns the database path."""
    monkeypatch.setenv("AGENT_LOOP_LAB_DB", str(tmp_path / "runs.db"))
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    return tmp_path / "runs.db"


@pytest.fixture
def scripted_model(monkeypatch: pytest.MonkeyPatch):
    """Every simulated model in this process (in-process transport or local server) thinks scripted_think."""
    brain = types.ModuleType("agent_core.sim.brain")
    brain.think, brain.Draft = scripted_think, Draft  # type: ignore[attr-defined]  # modules importing Draft find it
    monkeypatch.setitem(sys.modules, "agent_core.sim.brain", brain)
    monkeypatch.setattr(agent_core.sim, "brain", brain, raising=False)
    return scripted_think


@pytest.fixture
def model_server() -> Iterator[tuple[str, RecordingHandler]]:
    """The simulated model over HTTP (scripted brain), remembering the credentials each request carried."""
    handler = RecordingHandler()
    server, url = start_server(SimSettings(), handler=handler)
    yield url, handler
    server.shutdown()


@pytest.fixture(scope="session")
def app_servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServers]:
    """This test process's app servers, one per profile: app_servers.get(extra_env={...}) for a server started with
    that environment (an own database each; a test that needs a server of its own uses browser.running_app)."""
    servers = AppServers(tmp_path_factory.mktemp("apps"))
    yield servers
    servers.close()


@pytest.fixture
def app(app_servers: AppServers) -> App:
    """The shared app server with the default profile (offline model, no key): its url and runs database."""
    return app_servers.get()


@pytest.fixture
def own_app(tmp_path: Path) -> Iterator[App]:
    """An app server of this test's own, on an empty runs database: for a test that needs what no other test has
    touched (a first import, the list of every saved run)."""
    db = tmp_path / "own-runs.db"
    with running_app(db) as url:
        yield App(url, db)


@pytest.fixture(scope="session")
def chromium() -> Iterator[LabBrowser]:
    """One headless Chromium for this test process (Debian's binary)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = launch(p)
        yield b
        b.close()


@pytest.fixture
def pages(chromium: LabBrowser) -> Iterator[Pages]:
    """New browser contexts for this test (pages.new_page(viewport=...), pages.new_context(...)), closed after it."""
    made = Pages(chromium)
    yield made
    made.close()
