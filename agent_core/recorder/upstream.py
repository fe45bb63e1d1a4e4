"""Passing a program's request through to a real server: Anthropic with the program's own key, or a compatible one.

The key travels in the program's own headers, exactly as it sent them, and nowhere else: the recorder never adds
a key (so a class server's key is never used for a learner's program) and never keeps one (recorded headers are
redacted, bodies scrubbed of it). Where requests go is the recorder's setting, never the request's: the path is
appended to the configured base URL only when it is a plain path."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass

import httpx2

from agent_core.vocab import Provider

ANTHROPIC_URL = "https://api.anthropic.com"
# Request headers that describe this hop, not the request; accept-encoding too, so the recorded bytes are the
# bytes the program read (an uncompressed body), not a gzip stream.
_HOP = frozenset(
    {"host", "content-length", "connection", "keep-alive", "transfer-encoding", "te", "upgrade", "accept-encoding"}
)
_RESPONSE_HOP = frozenset({"content-length", "connection", "keep-alive", "transfer-encoding", "content-encoding"})
_PLAIN_PATH = re.compile(r"^/[A-Za-z0-9/_\-.~%]*(\?[A-Za-z0-9_\-.~%=&+,:]*)?$")
CONNECT_TIMEOUT_S = 10.0
READ_TIMEOUT_S = 600.0  # an agent's long turn (Claude Code asks for 600 s itself)


class UpstreamRefused(ValueError):
    """A request the recorder will not forward (a path that is not a plain path, a blocked address)."""


@dataclass
class Relayed:
    """An upstream's answer: status, headers and the body as it arrives (chunks, for streams)."""

    status: int
    headers: dict[str, str]
    chunks: Iterator[bytes]


def upstream_url(upstream: str) -> str:
    """The base URL of an upstream setting ("anthropic" or a base URL)."""
    return ANTHROPIC_URL if upstream == Provider.ANTHROPIC else upstream.rstrip("/")


class Upstream:
    """Forwards requests to one base URL and streams the answers back."""

    def __init__(
        self,
        base_url: str,
        client: httpx2.Client | None = None,
        guard: Callable[[str], None] | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self._client = client or httpx2.Client(
            timeout=httpx2.Timeout(READ_TIMEOUT_S, connect=CONNECT_TIMEOUT_S), follow_redirects=False
        )
        self._guard = guard  # class mode: the URL guard that refuses private addresses

    def url_for(self, path: str) -> str:
        if not _PLAIN_PATH.match(path) or "//" in path or "/../" in path:
            raise UpstreamRefused(f"not a plain request path: {path[:80]!r}")
        return self.base_url + path

    def forward(self, method: str, path: str, headers: Mapping[str, str], body: bytes) -> Relayed:
        """Send the request on; raises httpx2.HTTPError when the upstream cannot be reached."""
        url = self.url_for(path)
        if self._guard is not None:
            self._guard(url)
        sent = {k: v for k, v in headers.items() if k.lower() not in _HOP}
        request = self._client.build_request(method, url, headers=sent, content=body)
        response = self._client.send(request, stream=True)
        kept = {k: v for k, v in response.headers.items() if k.lower() not in _RESPONSE_HOP}
        return Relayed(response.status_code, kept, _chunks(response))

    def close(self) -> None:
        self._client.close()


def _chunks(response: httpx2.Response) -> Iterator[bytes]:
    try:
        yield from response.iter_bytes()  # decoded: the client gets (and the record keeps) the plain body
    finally:
        response.close()
