"""Wire capture: an httpx2 transport wrapper that records every HTTP attempt (retries included) as an Exchange."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable

import httpx2

from agent_core.model import Exchange
from agent_core.secrets import redact_headers, scrub_bytes


class CapturingTransport(httpx2.BaseTransport):
    """Wraps any transport (real network or the simulated model) and reports each attempt."""

    def __init__(
        self, inner: httpx2.BaseTransport, on_exchange: Callable[[Exchange], None], secrets: Iterable[str] = ()
    ) -> None:
        self._inner = inner
        self._on_exchange = on_exchange
        self._secrets = tuple(s for s in secrets if s)

    def handle_request(self, request: httpx2.Request) -> httpx2.Response:
        body = request.read()
        exchange = Exchange(
            method=request.method,
            url=str(request.url),
            request_headers=redact_headers(request.headers.multi_items(), self._secrets),
            request_body=scrub_bytes(body, self._secrets),
            retry=int(request.headers.get("x-stainless-retry-count", "0") or 0),
        )
        started = time.perf_counter()
        try:
            response = self._inner.handle_request(request)
            # Reading here is fine: the loop never streams, and the SDK reads the same bytes after us.
            content = response.read()
        except Exception as exc:  # a dropped connection or timeout is still an attempt worth showing
            exchange.error = f"{type(exc).__name__}: {exc}"
            exchange.duration_ms = (time.perf_counter() - started) * 1000
            self._on_exchange(exchange)
            raise
        exchange.duration_ms = (time.perf_counter() - started) * 1000
        exchange.status = response.status_code
        exchange.response_headers = redact_headers(response.headers.multi_items(), self._secrets)
        exchange.response_body = scrub_bytes(content, self._secrets)
        self._on_exchange(exchange)
        return response

    def close(self) -> None:
        self._inner.close()
