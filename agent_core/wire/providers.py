"""Builds the official anthropic SDK client for a run: offline simulated model, Anthropic, or a compatible server."""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from dataclasses import dataclass

import anthropic
import httpx2

from agent_core.model import Exchange, RunConfig
from agent_core.secrets import env_secrets
from agent_core.serving import mode as serving
from agent_core.serving import url_guard
from agent_core.vocab import Provider
from agent_core.wire.capture import CapturingTransport, Wait

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


# How long a call may wait. A server on this machine or the LAN accepts a connection within milliseconds, so 3 s
# means nobody is listening there. The loop never streams, so a local server sends nothing until the whole reply
# is generated: a laptop running a 7-8B model at 5-15 tokens/s writes a tool call or a short answer (a few hundred
# tokens, after reading a few thousand) well within 60 s. Longer means a stuck server or a reply too long for the
# classroom; the Playground shows the seconds and a Cancel meanwhile. $AGENT_LOOP_LAB_LOCAL_READ_TIMEOUT changes it.
CONNECT_TIMEOUT_S = 3.0
LOCAL_READ_TIMEOUT_S = 60.0
ENV_LOCAL_READ_TIMEOUT = "AGENT_LOOP_LAB_LOCAL_READ_TIMEOUT"
ANTHROPIC_TIMEOUT_S = 60.0  # the API answers a non-streamed request within this, or the SDK retries it


class ProviderError(ValueError):
    """A provider that cannot be used as configured (no key, no base URL, unknown name)."""


# Why a provider cannot be used, as sentences that are also the translation catalogue's keys (agent_core/wire/errors.py
# words them in the learner's language).
NO_KEY = "No API key: set ANTHROPIC_API_KEY, add it to .streamlit/secrets.toml, or paste it on the Settings page."
NO_KEY_HERE = (
    "No API key for you on this class server: its own key is for learners of a class whose teacher allows it, "
    "while the server gives learners a budget. Paste a key of your own on the Settings page, or use the offline "
    "model: it needs no key."
)
NO_BASE_URL = "The Anthropic-compatible provider needs a base URL, e.g. http://localhost:11434."
NOT_SET_UP = (NO_KEY, NO_KEY_HERE, NO_BASE_URL)


def _simulated(config: RunConfig) -> httpx2.BaseTransport:
    from agent_core.sim import SimTransport  # the simulated model answers in-process; loaded only when used

    return SimTransport(config.sim)


def _network(config: RunConfig) -> httpx2.BaseTransport:
    served = serving.server_config()
    if not served.is_class:
        return httpx2.HTTPTransport()
    # A class server reaches public addresses, its allowlist and the admin's own Anthropic endpoint only.
    admin = httpx2.URL(url_guard.admin_endpoint())
    allow = (*served.allow_hosts, f"{admin.host}:{admin.port or (443 if admin.scheme == 'https' else 80)}")
    return url_guard.GuardedTransport(url_guard.Allowlist.parse(allow))


class NoAnswer(anthropic.APIError):
    """A local server's timeout that the SDK must not retry: the request is still being worked on there, so a
    retry would queue behind it and wait as long again. (The SDK retries an APIConnectionError such as its own
    APITimeoutError, so this is a plain APIError.)"""

    def __init__(self, request: httpx2.Request, connecting: bool) -> None:
        super().__init__("The server did not answer in time.", request, body=None)
        self.connecting = connecting  # no connection was accepted, versus accepted and then silent


class _OneTimeoutOnly(httpx2.BaseTransport):
    """Ends the call at a local server's first timeout instead of letting the SDK try twice more."""

    def __init__(self, inner: httpx2.BaseTransport) -> None:
        self._inner = inner

    def handle_request(self, request: httpx2.Request) -> httpx2.Response:
        try:
            return self._inner.handle_request(request)
        except httpx2.TimeoutException as exc:
            raise NoAnswer(
                request, isinstance(exc, httpx2.ConnectTimeout)
            ) from None  # no __cause__: the SDK's retry check walks the cause chain

    def close(self) -> None:
        self._inner.close()


def local_read_timeout() -> float:
    """Seconds a local or compatible server may take to answer ($AGENT_LOOP_LAB_LOCAL_READ_TIMEOUT, else 60)."""
    try:
        value = float(os.environ.get(ENV_LOCAL_READ_TIMEOUT, LOCAL_READ_TIMEOUT_S))
    except ValueError:
        return LOCAL_READ_TIMEOUT_S
    return value if math.isfinite(value) and value > 0 else LOCAL_READ_TIMEOUT_S


def call_timeout(provider: str, seconds: float | None = None) -> httpx2.Timeout:
    """The timeouts of one HTTP attempt: `seconds` (else the provider's default), connect at most 3 s."""
    if seconds is None:
        seconds = local_read_timeout() if provider == Provider.COMPATIBLE else ANTHROPIC_TIMEOUT_S
    return httpx2.Timeout(seconds, connect=min(CONNECT_TIMEOUT_S, seconds))


@dataclass(frozen=True)
class ProviderInfo:
    """One provider: how the UI names it, whether its calls are billed and priced, its known gaps, its transport factory."""

    provider: Provider
    label: str  # English; the UI renders it through the translation catalogue
    spends_money: bool  # every call is billed, so the spend cap and cost estimates apply
    transport: Callable[[RunConfig], httpx2.BaseTransport]
    gaps: str = ""  # English, for the docs and the CLI; local servers' own gaps are in LOCAL_PRESETS
    # Usage is priced at Anthropic's list prices: the API bills them; the offline model simulates the API, so its
    # figures show what the same run would cost there. Another server's price is unknown (a local one costs nothing).
    priced: bool = False


PROVIDER_TABLE: dict[str, ProviderInfo] = {
    info.provider: info
    for info in (
        ProviderInfo(Provider.OFFLINE, "Offline (simulated model)", False, _simulated, priced=True),
        ProviderInfo(Provider.ANTHROPIC, "Anthropic API", True, _network, priced=True),
        ProviderInfo(
            Provider.COMPATIBLE,
            "Anthropic-compatible URL",
            False,
            _network,
            gaps="each server has its own (see LOCAL_PRESETS); usage and stop reasons follow the server",
        ),
    )
}


def is_priced(provider: str) -> bool:
    """Whether a run on this provider has a price (Anthropic's list prices); an unknown provider has none."""
    info = PROVIDER_TABLE.get(provider)
    return info is not None and info.priced


def bills_as_anthropic(config: RunConfig) -> bool:
    """Whether this run's calls reach Anthropic's API, so they are billed at its list prices: the Anthropic provider,
    or a compatible URL that is Anthropic's own endpoint."""
    if config.provider == Provider.ANTHROPIC:
        return True
    return config.provider == Provider.COMPATIBLE and bool(config.base_url) and url_guard.is_official(config.base_url)


def spends_money(provider: str) -> bool:
    """Whether a call on this provider is billed, so the tab's spend and its cap count it."""
    info = PROVIDER_TABLE.get(provider)
    return info is not None and info.spends_money


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


def resolve_connection(config: RunConfig, api_key: str | None = None, server_keys: tuple[str, ...] = ()) -> Connection:
    """Pick base URL and key for the configured provider (key: given, else ANTHROPIC_API_KEY).

    On a class server the environment's key is the server's: it goes to the Anthropic provider at the admin's
    endpoint only, never to a compatible URL (which gets the key the learner typed, or none)."""
    provider = config.provider
    if provider == Provider.OFFLINE:
        return Connection(Provider.OFFLINE, OFFLINE_BASE_URL, None)
    class_server = serving.is_class_server()
    server_keys = (*env_secrets(), *server_keys)
    # A class server's app decides per learner whether its key may be used, and passes it: no fallback here.
    key = api_key or (None if class_server else os.environ.get("ANTHROPIC_API_KEY")) or None
    if provider == Provider.ANTHROPIC:
        if not key:
            raise ProviderError(NO_KEY_HERE if class_server else NO_KEY)
        # A recorded or typed base URL never takes the class server's Anthropic requests elsewhere.
        return Connection(Provider.ANTHROPIC, None if class_server else config.base_url or None, key)
    if provider == Provider.COMPATIBLE:
        if not config.base_url:
            raise ProviderError(NO_BASE_URL)
        if class_server and (api_key is None or api_key in server_keys):
            key = None
        return Connection(Provider.COMPATIBLE, config.base_url.rstrip("/"), key)
    raise ProviderError(f"Unknown provider {provider!r}; choose one of {', '.join(Provider)}.")


def make_client(
    config: RunConfig,
    on_exchange: Callable[[Exchange], None],
    api_key: str | None = None,
    max_retries: int = 2,
    timeout: float | None = None,
    transport: httpx2.BaseTransport | None = None,
    on_wait: Callable[[Wait], None] | None = None,
    server_keys: tuple[str, ...] = (),
) -> anthropic.Anthropic:
    """An anthropic.Anthropic whose every HTTP attempt passes through the capture transport.

    `timeout` is seconds per attempt (default: the provider's, see call_timeout); `transport` replaces the network
    (tests script replies with httpx2.MockTransport); `server_keys` are keys of the server's own beyond its
    environment's (a secrets file the app read), which a class server sends to the admin's endpoint only."""
    conn = resolve_connection(config, api_key, server_keys)
    inner = transport if transport is not None else PROVIDER_TABLE[conn.provider].transport(config)
    if conn.provider == Provider.COMPATIBLE:
        inner = _OneTimeoutOnly(inner)
    if serving.is_class_server() and conn.provider != Provider.OFFLINE:
        inner = url_guard.ServerKeyPin(inner, [*env_secrets(), *server_keys])
    limits = call_timeout(conn.provider, timeout)
    transport = CapturingTransport(
        inner,
        on_exchange,
        secrets=[conn.api_key or "", *env_secrets(), *server_keys],
        max_retries=max_retries,
        on_wait=on_wait,
        keep_foreign_bodies=not serving.is_class_server(),
    )
    return anthropic.Anthropic(
        # Local servers accept any key; the SDK insists on one, so a placeholder is sent.
        api_key=conn.api_key or "no-key",
        base_url=conn.base_url,
        http_client=httpx2.Client(transport=transport, timeout=limits),
        max_retries=max_retries,
        timeout=limits,
    )
