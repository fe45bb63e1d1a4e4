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
from agent_core.vocab import Provider

OFFLINE_BASE_URL = "http://simulated-model.invalid"
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


def _simulated(config: RunConfig) -> httpx2.BaseTransport:
    from agent_core.sim import SimTransport  # the simulated model answers in-process; loaded only when used

    return SimTransport(config.sim)


def _network(config: RunConfig) -> httpx2.BaseTransport:
    return httpx2.HTTPTransport()


@dataclass(frozen=True)
class ProviderInfo:
    """One provider: how the UI names it, what it needs and can do, its known gaps, and its transport factory."""

    provider: Provider
    label: str  # English; the UI renders it through the translation catalogue
    needs_key: bool
    needs_base_url: bool
    spends_money: bool  # every call is billed, so the spend cap and cost estimates apply
    exact_tokens: bool  # usage comes from a real tokenizer (offline, every figure is the simulator's estimate)
    transport: Callable[[RunConfig], httpx2.BaseTransport]
    gaps: str = ""  # English, for the docs and the CLI; local servers' own gaps are in LOCAL_PRESETS


PROVIDER_TABLE: dict[str, ProviderInfo] = {
    info.provider: info
    for info in (
        ProviderInfo(Provider.OFFLINE, "Offline (simulated model)", False, False, False, False, _simulated),
        ProviderInfo(Provider.ANTHROPIC, "Anthropic API", True, False, True, True, _network),
        ProviderInfo(
            Provider.COMPATIBLE,
            "Anthropic-compatible URL",
            False,
            True,
            False,
            True,
            _network,
            gaps="each server has its own (see LOCAL_PRESETS); usage and stop reasons follow the server",
        ),
    )
}
PROVIDERS = tuple(p.value for p in Provider)


@dataclass(frozen=True)
class Connection:
    """Where requests go and with which key; the key lives only here, never in a Run."""

    provider: str
    base_url: str | None
    api_key: str | None

    @property
    def label(self) -> str:
        if self.provider == Provider.OFFLINE:
            return "Simulated model (offline)"
        if self.provider == Provider.COMPATIBLE:
            return f"Anthropic-compatible server at {self.base_url}"
        return "Anthropic API"


def resolve_connection(config: RunConfig, api_key: str | None = None) -> Connection:
    """Pick base URL and key for the configured provider (key: given, else ANTHROPIC_API_KEY)."""
    provider = config.provider
    if provider == Provider.OFFLINE:
        return Connection(Provider.OFFLINE, OFFLINE_BASE_URL, None)
    key = api_key or os.environ.get("ANTHROPIC_API_KEY") or None
    if provider == Provider.ANTHROPIC:
        if not key:
            raise ProviderError(
                "No API key: set ANTHROPIC_API_KEY, add it to .streamlit/secrets.toml, "
                "or paste it on the Settings page."
            )
        return Connection(Provider.ANTHROPIC, config.base_url or None, key)
    if provider == Provider.COMPATIBLE:
        if not config.base_url:
            raise ProviderError("The Anthropic-compatible provider needs a base URL, e.g. http://localhost:11434.")
        return Connection(Provider.COMPATIBLE, config.base_url.rstrip("/"), key)
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
    inner = transport if transport is not None else PROVIDER_TABLE[conn.provider].transport(config)
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
