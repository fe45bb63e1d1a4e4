"""Shared fixtures: an own runs database with no inherited key, a scripted simulated model, a recording server; for
browser tests, app servers shared per profile (`app`, `app_servers`) and fresh browser contexts (`pages`) from one
Chromium per test process."""

from __future__ import annotations

import os
import sys
import time
import types
from collections.abc import Iterator
from pathlib import Path

import browser
import pytest
import schedule
from browser import App, AppServers, LabBrowser, Pages, launch, running_app
from hypothesis import settings as hypothesis_settings
from scripted_brain import RecordingHandler, scripted_think

import agent_core.sim
from agent_core.model import SimSettings
from agent_core.sim import start_server
from agent_core.sim.brain import Draft  # scripted brains return the real type

# Property tests judge what comes out, never how long it took (speed lives in benchmarks/): no per-example deadline,
# which on a busy 2-core machine failed a correct example for being slow. A failure prints the blob that replays it.
hypothesis_settings.register_profile("lab", deadline=None, print_blob=True)
hypothesis_settings.load_profile("lab")


def pytest_configure(config: pytest.Config) -> None:
    """Where PYTHONDONTWRITEBYTECODE is set (CI, a fresh clone's venv has no bytecode), every Python process the tests
    start (test processes, app servers, tutorial programs) compiled each module it imported anew: about 3 s of CPU a
    process, a third of a tutorial program's test. They share a bytecode cache in the venv instead (outside the
    checkout, as the variable wants; `make clean` removes it). Set here, before the test processes start."""
    if os.environ.get("PYTHONDONTWRITEBYTECODE") and sys.prefix != sys.base_prefix:
        prefix = os.environ.setdefault("PYTHONPYCACHEPREFIX", str(Path(sys.prefix) / "pycache"))
        del os.environ["PYTHONDONTWRITEBYTECODE"]
        sys.pycache_prefix, sys.dont_write_bytecode = prefix, False
        browser.BASE_ENV.pop("PYTHONDONTWRITEBYTECODE", None)  # taken as this module was imported
        browser.BASE_ENV["PYTHONPYCACHEPREFIX"] = prefix
    _record_durations(config)


def _record_durations(config: pytest.Config) -> None:
    """LAB_RECORD_DURATIONS=tests/durations.json: this run's figures for tests/schedule.py (a whole `make test` on
    the 2-core machine, so that they are right relative to each other)."""
    path = os.environ.get("LAB_RECORD_DURATIONS")
    if path and not hasattr(config, "workerinput"):  # the controlling process, which every report reaches
        when = time.strftime("%Y-%m-%d", time.gmtime())
        note = f"{when}, a whole run of the suite on {os.cpu_count()} cores (-n {config.getoption('numprocesses', 0)})"
        config.pluginmanager.register(schedule.DurationRecorder(Path(path), note), "lab-durations")


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node) -> None:
    """Tell each test process how the tests are dealt: xdist sets a worker's own --dist to "no"."""
    node.workerinput["lab_dist"] = node.config.getoption("dist")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The longest tests first, dealt into even shares for `--dist worksteal` (tests/schedule.py). In a test process
    the --dist option reads "no" (xdist's), so the controlling process passes its own along (pytest_configure_node):
    read there, the shares were never dealt, and the first process got every long walk, one after another."""
    worker = getattr(config, "workerinput", {})
    worksteal = worker.get("lab_dist", config.getoption("dist", "no")) == "worksteal"
    items[:] = schedule.order(items, worker.get("workercount", 1) if worksteal else 1)


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
