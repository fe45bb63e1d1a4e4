"""Fault injection for the simulated model: stateless, decided from the request's turn and retry count."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

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


def retry_count(headers: Mapping[str, str]) -> int:
    """The SDK's attempt counter (0 on the first try, and for clients that do not send it)."""
    try:
        return max(0, int(headers.get("x-stainless-retry-count", "0") or 0))
    except ValueError:
        return 0


def _kind(fault: dict) -> str:
    kind = fault.get("kind") or ("status" if "status" in fault else "")
    if kind not in KINDS:
        raise FaultConfigError(f"unknown fault kind {kind!r} in {fault!r}; expected one of {', '.join(KINDS)}")
    if kind == "status" and not isinstance(fault.get("status"), int):
        raise FaultConfigError(f"a status fault needs an integer 'status': {fault!r}")
    return kind


def _applies(fault: dict, kind: str, turn: int, attempt: int) -> bool:
    if fault.get("turn") is not None and int(fault["turn"]) != turn:
        return False
    # Slow replies hit every attempt unless told otherwise; failures by default only the first.
    default_attempts = None if kind in ("slow", "unknown_stop_reason") else 1
    attempts = fault.get("attempts", default_attempts)
    return attempts is None or attempt < int(attempts)


def plan_faults(faults: list[dict], body: object, headers: Mapping[str, str]) -> FaultPlan:
    """Combine every matching fault: slow delays add up, the first failure wins."""
    plan = FaultPlan()
    turn, attempt = turn_of(body), retry_count(headers)
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


def _decide(plan: FaultPlan, fault: dict, kind: str) -> None:
    if kind == "drop":
        plan.drop = True
    elif kind == "unknown_stop_reason":
        plan.unknown_stop_reason = True
    else:
        plan.status = int(fault["status"])
        if plan.status == 429 or "retry_after" in fault:
            plan.retry_after = float(fault.get("retry_after", DEFAULT_RETRY_AFTER_S))


def error_body(error_type: str, message: str, request_id: str) -> dict:
    """The API's error envelope."""
    return {"type": "error", "error": {"type": error_type, "message": message}, "request_id": request_id}
