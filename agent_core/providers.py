"""Builds the official anthropic SDK client for a run: offline simulated model, Anthropic, or a compatible server."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass

import anthropic
import httpx2

from agent_core.capture import CapturingTransport, Wait
from agent_core.model import Exchange, RunConfig
from agent_core.secrets import env_secrets

OFFLINE_BASE_URL = "http://simulated-model.invalid"
PROVIDERS = ("offline", "anthropic", "compatible")
# Presets for Anthropic-compatible local servers, with the gaps a learner should know about.
LOCAL_PRESETS = {
    "Ollama": (
        "http://localhost:11434",
        "drops is_error (the model sees only the text), ignores tool_choice, has no count_tokens",
    ),
    "LM Studio": ("http://localhost:1234", "tool_choice support depends on the model; no count_tokens"),
    "llama.cpp": (
        "http://localhost:8080",
        "tool calling needs a model with a tool-call template (--jinja); no count_tokens",
    ),
}


class ProviderError(ValueError):
    """A provider that cannot be used as configured (no key, no base URL, unknown name)."""


@dataclass(frozen=True)
class Connection:
    """Where requests go and with which key; the key lives only here, never in a Run."""

    provider: str
    base_url: str | None
    api_key: str | None

    @property
    def label(self) -> str:
        if self.provider == "offline":
            return "Simulated model (offline)"
        if self.provider == "compatible":
            return f"Anthropic-compatible server at {self.base_url}"
        return "Anthropic API"


def resolve_connection(config: RunConfig, api_key: str | None = None) -> Connection:
    """Pick base URL and key for the configured provider (key: given, else ANTHROPIC_API_KEY)."""
    provider = config.provider
    if provider == "offline":
        return Connection("offline", OFFLINE_BASE_URL, None)
    key = api_key or os.environ.get("ANTHROPIC_API_KEY") or None
    if provider == "anthropic":
        if not key:
            raise ProviderError(
                "No API key: set ANTHROPIC_API_KEY, add it to .streamlit/secrets.toml, "
                "or paste it on the Settings page."
            )
        return Connection("anthropic", config.base_url or None, key)
    if provider == "compatible":
        if not config.base_url:
            raise ProviderError("The Anthropic-compatible provider needs a base URL, e.g. http://localhost:11434.")
        return Connection("compatible", config.base_url.rstrip("/"), key)
    raise ProviderError(f"Unknown provider {provider!r}; choose one of {', '.join(PROVIDERS)}.")


def make_client(
    config: RunConfig,
    on_exchange: Callable[[Exchange], None],
    api_key: str | None = None,
    max_retries: int = 2,
    timeout: float = 60.0,
    transport: httpx2.BaseTransport | None = None,
    on_wait: Callable[[Wait], None] | None = None,
) -> anthropic.Anthropic:
    """An anthropic.Anthropic whose every HTTP attempt passes through the capture transport.

    `transport` replaces the network (tests script replies with httpx2.MockTransport)."""
    conn = resolve_connection(config, api_key)
    if transport is not None:
        inner = transport
    elif conn.provider == "offline":
        from agent_core.sim import SimTransport  # the simulated model answers in-process

        inner: httpx2.BaseTransport = SimTransport(config.sim)
    else:
        inner = httpx2.HTTPTransport()
    transport = CapturingTransport(
        inner, on_exchange, secrets=[conn.api_key or "", *env_secrets()], max_retries=max_retries, on_wait=on_wait
    )
    return anthropic.Anthropic(
        # Local servers accept any key; the SDK insists on one, so a placeholder is sent.
        api_key=conn.api_key or "no-key",
        base_url=conn.base_url,
        http_client=httpx2.Client(transport=transport, timeout=timeout),
        max_retries=max_retries,
        timeout=timeout,
    )
