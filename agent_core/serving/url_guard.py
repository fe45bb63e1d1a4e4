"""Where a class server may connect for a learner: public addresses, and the hosts its admin allowlisted.

A learner's base URL is data: on a class server it must not reach the server's own loopback services, the
school's private network or a cloud's metadata address. The check runs when a connection is opened, on every
address the name resolves to (so a redirect, a second resolution or a DNS answer that changes between a check and
the connect cannot slip past), and the socket connects to the address that was checked. It lives in an httpx2
transport (the SDK's HTTP layer), so model calls, model lists and Test connection all obey it.
"""

from __future__ import annotations

import ipaddress
import os
import socket
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import anthropic
import httpcore2
import httpx2

OFFICIAL_HOST = "api.anthropic.com"
OFFICIAL_BASE_URL = f"https://{OFFICIAL_HOST}"
IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


class AddressRefused(anthropic.APIError):
    """A connection this server will not open for a learner (the SDK passes it on as is: it never retries it)."""

    def __init__(self, request: httpx2.Request, host: str, reason: str) -> None:
        super().__init__(f"This class server does not connect to {host} ({reason}).", request, body=None)
        self.host, self.reason = host, reason  # reason: a key of agent_core.wire.errors.WHY


class _Refused(Exception):
    """Raised inside the connection pool; the transport turns it into AddressRefused with the request."""

    def __init__(self, host: str, reason: str) -> None:
        super().__init__(reason)
        self.host, self.reason = host, reason


@dataclass(frozen=True)
class Allowlist:
    """Hosts (any port, or one), addresses and networks the admin lets learners reach although they are private."""

    names: frozenset[tuple[str, int | None]] = frozenset()
    networks: tuple[tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, int | None], ...] = ()

    @classmethod
    def parse(cls, entries: Iterable[str]) -> Allowlist:
        names: set[tuple[str, int | None]] = set()
        networks = []
        for entry in entries:
            host, port = _split_port(entry.strip().lower().rstrip("/").removeprefix("http://").removeprefix("https://"))
            try:
                networks.append((ipaddress.ip_network(host.strip("[]"), strict=False), port))
            except ValueError:
                names.add((host.rstrip("."), port))
        return cls(frozenset(names), tuple(networks))

    def names_host(self, host: str, port: int) -> bool:
        name = host.lower().rstrip(".")
        return (name, None) in self.names or (name, port) in self.names

    def holds(self, ip: IPAddress, port: int) -> bool:
        return any(ip in net and allowed in (None, port) for net, allowed in self.networks if ip.version == net.version)


def _split_port(text: str) -> tuple[str, int | None]:
    if text.startswith("[") and "]:" in text:  # [v6]:port
        host, _, port = text.rpartition(":")
        return host, int(port) if port.isdigit() else None
    if text.count(":") == 1:
        host, _, port = text.partition(":")
        return host, int(port) if port.isdigit() else None
    return text, None


def refusal(ip: IPAddress) -> str | None:
    """Why a learner may not reach this address, as a key of agent_core.wire.errors.WHY (None: a public address)."""
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if ip.is_loopback:
        return "loopback"
    if ip.is_link_local:
        return "link_local"  # cloud metadata services (169.254.169.254) live here
    if ip.is_unspecified or ip.is_multicast or ip.is_reserved:
        return "not_a_server"
    if ip.is_private or not ip.is_global:
        return "private"
    return None


class GuardedBackend(httpcore2.SyncBackend):
    """httpcore's socket backend, resolving the name itself and connecting only to addresses it has checked."""

    def __init__(self, allow: Allowlist) -> None:
        self._allow = allow

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Any = None,  # httpcore's own type, passed through
    ) -> httpcore2.NetworkStream:
        addresses = self._checked(host, port)
        last: Exception | None = None
        for ip in addresses:  # connect to what was checked, never to a second resolution of the name
            try:
                return super().connect_tcp(str(ip), port, timeout, local_address, socket_options)
            except httpcore2.ConnectError as exc:
                last = exc
        raise last or httpcore2.ConnectError(f"{host} has no address")

    def _checked(self, host: str, port: int) -> list[IPAddress]:
        try:
            infos = socket.getaddrinfo(host.strip("[]"), port, type=socket.SOCK_STREAM)
        except socket.gaierror as exc:
            raise httpcore2.ConnectError(f"cannot resolve {host}: {exc}") from None
        addresses = list(dict.fromkeys(ipaddress.ip_address(str(info[4][0]).split("%")[0]) for info in infos))
        if self._allow.names_host(host, port):
            return addresses
        for ip in addresses:  # one refused answer refuses them all: a name must not mix public and private
            reason = refusal(ip)
            if reason and not self._allow.holds(ip, port):
                raise _Refused(host, reason)
        return addresses


class GuardedTransport(httpx2.HTTPTransport):
    """The network as a class server lets learners use it: every connection through GuardedBackend."""

    def __init__(self, allow: Allowlist) -> None:
        super().__init__(trust_env=False)  # no proxy or certificate settings from the environment either
        self._pool = httpcore2.ConnectionPool(
            ssl_context=httpx2.create_ssl_context(trust_env=False), network_backend=GuardedBackend(allow)
        )

    def handle_request(self, request: httpx2.Request) -> httpx2.Response:
        try:
            return super().handle_request(request)
        except _Refused as exc:
            raise AddressRefused(request, exc.host, exc.reason) from None


def is_official(url: str | httpx2.URL | None) -> bool:
    """True for Anthropic's own API endpoint (https, its host, the default port): the only place a server's key goes."""
    if url is None:
        return True  # the SDK's default base URL
    parsed = httpx2.URL(str(url))
    return parsed.scheme == "https" and parsed.host == OFFICIAL_HOST and parsed.port in (None, 443)


def admin_endpoint() -> str:
    """Where the Anthropic provider's requests go: the SDK's ANTHROPIC_BASE_URL if the server's admin set one (a
    gateway, or the offline model in tests), else Anthropic's API."""
    return (os.environ.get("ANTHROPIC_BASE_URL") or "").strip().rstrip("/") or OFFICIAL_BASE_URL


def is_admin_endpoint(url: str | httpx2.URL | None) -> bool:
    """True for the endpoint the server's key may go to (the Anthropic API, or the admin's ANTHROPIC_BASE_URL)."""
    if url is None or is_official(url):
        return True
    mine, theirs = httpx2.URL(admin_endpoint()), httpx2.URL(str(url))
    return (mine.scheme, mine.host, mine.port) == (theirs.scheme, theirs.host, theirs.port)


class ServerKeyPin(httpx2.BaseTransport):
    """Refuses any request that carries one of the server's own keys anywhere but the admin's endpoint: the last
    line behind the provider rules, whatever a URL, a redirect or a bug tries."""

    def __init__(self, inner: httpx2.BaseTransport, server_keys: Iterable[str]) -> None:
        self._inner, self._keys = inner, tuple(k for k in server_keys if k)

    def handle_request(self, request: httpx2.Request) -> httpx2.Response:
        if self._keys and not is_admin_endpoint(request.url):
            sent = (request.headers.get("x-api-key") or "", request.headers.get("authorization") or "")
            if any(key in value for key in self._keys for value in sent):
                raise AddressRefused(request, request.url.host, "server_key")
        return self._inner.handle_request(request)

    def close(self) -> None:
        self._inner.close()
