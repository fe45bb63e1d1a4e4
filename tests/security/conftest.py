"""Class-server fixtures: the switch on, a canary key in the server's environment, listeners on loopback."""

from __future__ import annotations

import secrets
from collections.abc import Iterator

import pytest
from loopback import Listener, start_listener, stop_listener

from agent_core.serving import mode as serving


def canary_key() -> str:
    """A key-shaped canary made at run time (never a literal in the repository)."""
    return "sk-ant-api03-" + secrets.token_hex(24)


@pytest.fixture
def class_mode(monkeypatch: pytest.MonkeyPatch, app_env) -> str:
    """This process as a class server, with a canary as the server's own key; returns the key."""
    key = canary_key()
    monkeypatch.setenv(serving.ENV_MODE, serving.CLASS)
    monkeypatch.setenv("ANTHROPIC_API_KEY", key)
    monkeypatch.delenv(serving.ENV_ALLOW_HOSTS, raising=False)
    monkeypatch.delenv("ANTHROPIC_BASE_URL", raising=False)
    return key


@pytest.fixture
def personal_mode(monkeypatch: pytest.MonkeyPatch, app_env) -> str:
    """The default mode, with the same kind of canary in the environment; returns the key."""
    key = canary_key()
    monkeypatch.delenv(serving.ENV_MODE, raising=False)
    monkeypatch.setenv("ANTHROPIC_API_KEY", key)
    monkeypatch.delenv("ANTHROPIC_BASE_URL", raising=False)
    return key


@pytest.fixture
def listener() -> Iterator[Listener]:
    """A loopback service that records what reaches it (an internal admin page, someone's laptop)."""
    server = start_listener()
    yield server
    stop_listener(server)
