"""Rate-limit headers shaped like the API's (anthropic-ratelimit-*), counted per minute by the simulated server.

The simulated model never refuses for rate (faults do that on purpose); the headers only show learners what a
real reply carries and how the remaining budget goes down request by request."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import lru_cache

# Tier-1-like limits per minute; figures for display, not enforced.
REQUESTS_PER_MINUTE = 50
INPUT_TOKENS_PER_MINUTE = 30_000
OUTPUT_TOKENS_PER_MINUTE = 8_000
WINDOW_S = 60


@lru_cache(maxsize=64)  # a window's reset time, formatted once for all the requests of its minute
def _rfc3339(epoch: float) -> str:
    return datetime.fromtimestamp(epoch, tz=UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass
class RateWindow:
    """Requests and tokens used in the current minute; thread-safe."""

    started: float = 0.0
    requests: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def record(self, input_tokens: int = 0, output_tokens: int = 0, now: float | None = None) -> dict[str, str]:
        """Count one request and return the headers the reply carries."""
        now = time.time() if now is None else now
        with self._lock:
            if now - self.started >= WINDOW_S:
                self.started, self.requests, self.input_tokens, self.output_tokens = now, 0, 0, 0
            self.requests += 1
            self.input_tokens += input_tokens
            self.output_tokens += output_tokens
            return self._headers()

    def _headers(self) -> dict[str, str]:
        reset = _rfc3339(self.started + WINDOW_S)
        rows = {
            "requests": (REQUESTS_PER_MINUTE, self.requests),
            "input-tokens": (INPUT_TOKENS_PER_MINUTE, self.input_tokens),
            "output-tokens": (OUTPUT_TOKENS_PER_MINUTE, self.output_tokens),
            "tokens": (INPUT_TOKENS_PER_MINUTE + OUTPUT_TOKENS_PER_MINUTE, self.input_tokens + self.output_tokens),
        }
        headers: dict[str, str] = {}
        for name, (limit, used) in rows.items():
            headers[f"anthropic-ratelimit-{name}-limit"] = str(limit)
            headers[f"anthropic-ratelimit-{name}-remaining"] = str(max(0, limit - used))
            headers[f"anthropic-ratelimit-{name}-reset"] = reset
        return headers
