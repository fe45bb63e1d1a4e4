"""Fault injection for the simulated model, counted per request sequence on the server, never per client header.

Three sources, all documented in BEHAVIOUR.md ("Faults"):
- SimSettings.faults (lessons, the Playground): dicts with a status/kind, an optional turn and how many attempts
  of the same request they hit; attempts are counted by the server (the same body sent again before it was
  answered is a retry; once answered, the next sending starts over).
- a server's fault plan (`serve --fault 429x2 --fault 529`): each step goes to the next POST /v1/messages, whatever
  its body, until the plan is used up.
- the `x-sim-fault` request header (`429x2,529`): per request: the n-th sending of it gets the n-th step."""

from __future__ import annotations

import hashlib
import re
import threading
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

# The real API's error type for each status (messages-api-facts.md, "Errors").
ERROR_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    402: "billing_error",
    403: "permission_error",
    404: "not_found_error",
    413: "request_too_large",
    429: "rate_limit_error",
    500: "api_error",
    504: "timeout_error",
    529: "overloaded_error",
}
FAULT_MESSAGES = {
    400: "Simulated fault: the request was rejected as invalid.",
    401: "invalid x-api-key (simulated fault)",
    402: "Your credit balance is too low to access the Anthropic API (simulated fault).",
    403: "Your API key does not have permission to use the specified resource (simulated fault).",
    404: "model: not found (simulated fault)",
    413: "Request exceeds the maximum allowed number of bytes (simulated fault).",
    429: "This request would exceed your organization's rate limit (simulated fault). Please retry later.",
    500: "Internal server error (simulated fault).",
    504: "Request timed out (simulated fault).",
    529: "Overloaded (simulated fault).",
}
KINDS = ("status", "slow", "drop", "unknown_stop_reason")
# Without a retry-after figure the SDK backs off on its own; one second is what the API usually sends.
DEFAULT_RETRY_AFTER_S = 1.0


class FaultConfigError(ValueError):
    """A fault dict that cannot be understood (unknown kind, missing status)."""


@dataclass
class FaultPlan:
    """What the configured faults do to one HTTP attempt."""

    delay_s: float = 0.0
    status: int | None = None
    retry_after: float | None = None
    drop: bool = False
    unknown_stop_reason: bool = False

    @property
    def error_type(self) -> str:
        return error_type_for(self.status or 500)

    @property
    def message(self) -> str:
        return FAULT_MESSAGES.get(self.status or 500, f"Simulated fault: HTTP {self.status}.")


def error_type_for(status: int) -> str:
    """The API's error.type for a status; unknown 5xx are api_error, other codes invalid_request_error."""
    if status in ERROR_TYPES:
        return ERROR_TYPES[status]
    return "api_error" if status >= 500 else "invalid_request_error"


def turn_of(body: object) -> int:
    """1-based turn number: assistant messages already in the request, plus one."""
    messages = body.get("messages") if isinstance(body, dict) else None
    if not isinstance(messages, list):
        return 1
    return 1 + sum(1 for m in messages if isinstance(m, dict) and m.get("role") == "assistant")


# Requests remembered for counting attempts; the oldest are forgotten first.
REMEMBERED_REQUESTS = 2000
FAULT_HEADER = "x-sim-fault"
_STEP = re.compile(
    r"^(?:(?P<status>[1-5][0-9]{2})|(?P<drop>drop)|slow:(?P<slow>[0-9]+(?:\.[0-9]+)?))(?:x(?P<times>[0-9]{1,3}))?$"
)


@dataclass
class AttemptCounter:
    """How many times the server has sent a fault for each request (method, path, body): 0 on the first sending.

    Once a request is answered (not a fault, not a drop) it is forgotten, so the same body sent again later (a
    retry demo run a second time) starts over at attempt 0 instead of passing every fault forever."""

    _seen: OrderedDict[str, int] = field(default_factory=OrderedDict)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @staticmethod
    def key(*parts: object) -> str:
        digest = hashlib.sha256()
        for part in parts:  # a body's bytes as they are: repr() of a long body cost more than the hash
            digest.update(part if isinstance(part, bytes) else repr(part).encode("utf-8", "replace"))
            digest.update(b"\x00")
        return digest.hexdigest()

    def next(self, *parts: object) -> int:
        return self.next_for(self.key(*parts))

    def next_for(self, key: str) -> int:
        with self._lock:
            attempt = self._seen.pop(key, -1) + 1
            self._seen[key] = attempt
            while len(self._seen) > REMEMBERED_REQUESTS:
                self._seen.popitem(last=False)
            return attempt

    def answered(self, key: str) -> None:
        """The request got its answer: a later sending of the same bytes is a new request."""
        with self._lock:
            self._seen.pop(key, None)


def parse_steps(spec: str) -> list[dict[str, Any]]:
    """'429x2,529,drop,slow:1.5' -> one fault dict per request, in order; FaultConfigError when unreadable."""
    steps: list[dict[str, Any]] = []
    for part in (p.strip().lower() for p in spec.split(",")):
        match = _STEP.match(part)
        if not part or not match:
            raise FaultConfigError(
                f"cannot read the fault step {part!r}; write a status (429, 529, 500...), drop or slow:SECONDS, "
                "optionally followed by xN for N requests in a row"
            )
        if match["status"]:
            step: dict[str, Any] = {"status": int(match["status"])}
            if step["status"] == 429:
                step["retry_after"] = 0
        elif match["drop"]:
            step = {"kind": "drop"}
        else:
            step = {"kind": "slow", "delay_s": float(match["slow"])}
        steps += [dict(step) for _ in range(int(match["times"] or 1))]
    return steps


@dataclass
class FaultQueue:
    """A server's fault plan: each POST /v1/messages takes the next step until none are left."""

    steps: list[dict[str, Any]] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @classmethod
    def from_specs(cls, specs: list[str]) -> FaultQueue:
        return cls([step for spec in specs for step in parse_steps(spec)])

    def take(self) -> dict[str, Any] | None:
        with self._lock:
            return self.steps.pop(0) if self.steps else None


def plan_step(step: dict[str, Any] | None) -> FaultPlan:
    """The plan for one step of a queue or a header (every step hits: no turn or attempt filters)."""
    plan = FaultPlan()
    if step is None:
        return plan
    kind = _kind(step)
    if kind == "slow":
        plan.delay_s = float(step.get("delay_s", 2.0))
    else:
        _decide(plan, step, kind)
    return plan


def header_step(headers: Mapping[str, str], attempt: int) -> dict[str, Any] | None:
    """The step of an `x-sim-fault` header for this sending of the request (None when past the plan)."""
    spec = headers.get(FAULT_HEADER)
    if not spec:
        return None
    steps = parse_steps(spec)
    return steps[attempt] if attempt < len(steps) else None


def _kind(fault: dict[str, Any]) -> str:
    kind = fault.get("kind") or ("status" if "status" in fault else "")
    if kind not in KINDS:
        raise FaultConfigError(f"unknown fault kind {kind!r} in {fault!r}; expected one of {', '.join(KINDS)}")
    if kind == "status" and not isinstance(fault.get("status"), int):
        raise FaultConfigError(f"a status fault needs an integer 'status': {fault!r}")
    return kind


def _applies(fault: dict[str, Any], kind: str, turn: int, attempt: int) -> bool:
    if fault.get("turn") is not None and int(fault["turn"]) != turn:
        return False
    # Slow replies hit every attempt unless told otherwise; failures by default only the first.
    default_attempts = None if kind in ("slow", "unknown_stop_reason") else 1
    attempts = fault.get("attempts", default_attempts)
    return attempts is None or attempt < int(attempts)


def plan_faults(faults: list[dict[str, Any]], body: object, attempt: int) -> FaultPlan:
    """Combine every matching fault: slow delays add up, the first failure wins."""
    plan = FaultPlan()
    turn = turn_of(body) if faults else 1  # no faults (the usual case): the history is not counted
    decided = False
    for fault in faults or []:
        kind = _kind(fault)
        if not _applies(fault, kind, turn, attempt):
            continue
        if kind == "slow":
            plan.delay_s += float(fault.get("delay_s", 2.0))
        elif not decided:
            decided = True
            _decide(plan, fault, kind)
    return plan


def _decide(plan: FaultPlan, fault: dict[str, Any], kind: str) -> None:
    if kind == "drop":
        plan.drop = True
    elif kind == "unknown_stop_reason":
        plan.unknown_stop_reason = True
    else:
        plan.status = int(fault["status"])
        if plan.status == 429 or "retry_after" in fault:
            plan.retry_after = float(fault.get("retry_after", DEFAULT_RETRY_AFTER_S))


def error_body(error_type: str, message: str, request_id: str) -> dict[str, Any]:
    """The API's error envelope."""
    return {"type": "error", "error": {"type": error_type, "message": message}, "request_id": request_id}
