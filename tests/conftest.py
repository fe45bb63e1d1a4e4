"""Shared fixtures: an own runs database with no inherited key, a scripted simulated model, a recording server."""

from __future__ import annotations

import sys
import types
from collections.abc import Iterator
from pathlib import Path

import pytest
from scripted_brain import RecordingHandler, scripted_think

import agent_core.sim
from agent_core.model import SimSettings
from agent_core.sim import start_server
from agent_core.sim.brain import Draft  # scripted brains return the real type


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
