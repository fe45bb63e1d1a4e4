"""Wire capture: an httpx2 transport wrapper that records every HTTP attempt (retries included) as an Exchange.

It also bounds the wait a server may ask for. The SDK honours retry-after / retry-after-ms (up to weeks); here the
wait is capped (MAX_RETRY_WAIT_S, or $AGENT_LOOP_LAB_MAX_RETRY_WAIT) and done by this transport in short slices,
reporting the seconds left to an on_wait callback (a countdown; raising from it cancels the wait), and the SDK
is then told to retry at once. The exchange keeps the headers exactly as the server sent them.
"""

from __future__ import annotations

import logging
import math
import os
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import httpx2

from agent_core.model import Exchange
from agent_core.secrets import redact_headers, scrub_bytes

log = logging.getLogger(__name__)

MAX_RETRY_WAIT_S = 60.0
ENV_MAX_RETRY_WAIT = "AGENT_LOOP_LAB_MAX_RETRY_WAIT"
_RETRYABLE = {408, 409, 429}
_SLICE_S = 0.25
_API_BODIES = ("application/json", "text/event-stream")
FOREIGN_BODY = "[not recorded: a {kind} answer of {n} bytes is not a Messages API body]"


@dataclass(frozen=True)
class Wait:
    """One wait before a retry: what the server asked for, what the app waits, and what is left."""

    asked_s: float
    waiting_s: float
    left_s: float
    first: bool = False  # the first report of this wait (where a message would say it started)

    @property
    def capped(self) -> bool:
        return self.asked_s > self.waiting_s


def max_retry_wait() -> float:
    """The cap on a server-requested wait, in seconds ($AGENT_LOOP_LAB_MAX_RETRY_WAIT, else 60)."""
    try:
        value = float(os.environ.get(ENV_MAX_RETRY_WAIT, MAX_RETRY_WAIT_S))
    except ValueError:
        return MAX_RETRY_WAIT_S
    return value if math.isfinite(value) and value >= 0 else MAX_RETRY_WAIT_S


def asked_wait(headers: httpx2.Headers) -> float | None:
    """Seconds the server asks to wait (retry-after-ms first, as the SDK reads it), or None."""
    for name, scale in (("retry-after-ms", 1000.0), ("retry-after", 1.0)):
        try:
            value = float(headers.get(name, ""))
        except ValueError:
            continue
        if math.isfinite(value):
            return max(0.0, value / scale)
        return math.inf
    return None


class CapturingTransport(httpx2.BaseTransport):
    """Wraps any transport (real network or the simulated model) and reports each attempt."""

    def __init__(
        self,
        inner: httpx2.BaseTransport,
        on_exchange: Callable[[Exchange], None],
        secrets: Iterable[str] = (),
        max_retries: int = 2,
        on_wait: Callable[[Wait], None] | None = None,
        max_wait_s: float | None = None,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
        keep_foreign_bodies: bool = True,
    ) -> None:
        self._inner = inner
        # False on a class server: an answer that is not JSON (an HTML page of some other service) is not recorded,
        # so a shared run cannot carry it to other learners; its type and size are.
        self._keep_foreign = keep_foreign_bodies
        self._on_exchange = on_exchange
        self._secrets = tuple(s for s in secrets if s)
        self._max_retries = max_retries
        self.on_wait = on_wait
        self._max_wait_s = max_retry_wait() if max_wait_s is None else max_wait_s
        self._sleep, self._clock = sleep, clock

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
            log.info("HTTP attempt to %s failed: %s", request.url.host, type(exc).__name__)
            exchange.error = f"{type(exc).__name__}: {exc}"
            exchange.duration_ms = (time.perf_counter() - started) * 1000
            self._on_exchange(exchange)
            raise
        exchange.duration_ms = (time.perf_counter() - started) * 1000
        exchange.status = response.status_code
        exchange.response_headers = redact_headers(response.headers.multi_items(), self._secrets)
        exchange.response_body = scrub_bytes(content, self._secrets)
        kind = (response.headers.get("content-type") or "").split(";")[0].strip().lower()
        if not self._keep_foreign and kind not in _API_BODIES:
            exchange.response_body = FOREIGN_BODY.format(kind=kind or "untyped", n=len(content)).encode()
        self._on_exchange(exchange)
        if self._will_retry(request, response):
            self._wait_before_retry(response)
        return response

    def _will_retry(self, request: httpx2.Request, response: httpx2.Response) -> bool:
        """Whether the SDK will retry this response (its own rule: x-should-retry, then the status)."""
        attempt = int(request.headers.get("x-stainless-retry-count", "0") or 0)
        if attempt >= self._max_retries:
            return False
        should = response.headers.get("x-should-retry")
        if should in ("true", "false"):
            return should == "true"
        return response.status_code in _RETRYABLE or response.status_code >= 500

    def _wait_before_retry(self, response: httpx2.Response) -> None:
        """Wait what the server asked, at most the cap, in slices; then let the SDK retry at once."""
        asked = asked_wait(response.headers)
        if asked is None:
            return  # no request from the server: the SDK's own short backoff (at most 8 s) applies
        waiting = min(asked, self._max_wait_s)
        deadline = self._clock() + waiting
        first = True
        while True:
            left = max(0.0, deadline - self._clock())
            if self.on_wait is not None:
                self.on_wait(Wait(asked, waiting, left, first))
            first = False  # may raise: that cancels the wait and the call
            if left <= 0:
                break
            self._sleep(min(_SLICE_S, left))
        # The SDK reads retry-after-ms first; a tiny positive value makes it retry now (0 would mean "not set").
        response.headers["retry-after-ms"] = "1"

    def close(self) -> None:
        self._inner.close()
