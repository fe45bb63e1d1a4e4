"""In-process transport: the official SDK talks to the simulated model without a socket."""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator

import httpx2

from agent_core.model import SimSettings
from agent_core.sim.handler import SimHandler


class _Events(httpx2.SyncByteStream):
    """An SSE body handed to the client one event at a time."""

    def __init__(self, chunks: Iterable[bytes]) -> None:
        self._chunks = chunks

    def __iter__(self) -> Iterator[bytes]:
        yield from self._chunks


class SimTransport(httpx2.BaseTransport):
    """An httpx2 transport answering from SimHandler; delays, timeouts and drops behave like the network."""

    def __init__(self, settings: SimSettings, handler: SimHandler | None = None) -> None:
        self.handler = handler or SimHandler(settings)

    def handle_request(self, request: httpx2.Request) -> httpx2.Response:
        body = request.read()
        reply = self.handler.handle(
            request.method, request.url.raw_path.decode("ascii"), dict(request.headers.items()), body
        )
        self._wait(request, reply.delay_s)
        if reply.drop:
            # What httpx2 raises when a server closes the socket without answering; the SDK retries it.
            raise httpx2.RemoteProtocolError("Server disconnected without sending a response.", request=request)
        if reply.chunks is not None:
            return httpx2.Response(reply.status, headers=reply.headers, stream=_Events(reply.chunks), request=request)
        return httpx2.Response(reply.status, headers=reply.headers, content=reply.body, request=request)

    @staticmethod
    def _wait(request: httpx2.Request, delay_s: float) -> None:
        if delay_s <= 0:
            return
        read_timeout = (request.extensions.get("timeout") or {}).get("read")
        if read_timeout is not None and delay_s > read_timeout:
            # A slow server meets the client's read timeout exactly as it would over a socket.
            time.sleep(read_timeout)
            raise httpx2.ReadTimeout("The read operation timed out (simulated slow reply)", request=request)
        time.sleep(delay_s)
