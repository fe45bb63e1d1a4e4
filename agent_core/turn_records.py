"""The records of one turn: the HTTP attempts, tool runs, usage, an API error, the loop's decisions and a stop, and
how each is read back from a saved run's JSON (every vocabulary value checked)."""

from __future__ import annotations

import base64
import time
from dataclasses import dataclass, field, fields
from enum import StrEnum
from typing import TYPE_CHECKING, Any, TypeVar

from agent_core.facts import Fact, Params
from agent_core.vocab import ApiErrorKind, Approval, DecisionKind, StopKind

if TYPE_CHECKING:
    from _typeshed import DataclassInstance


@dataclass
class Exchange:
    """One HTTP attempt as it crossed the wire (secrets already redacted)."""

    method: str
    url: str
    request_headers: dict[str, str]
    request_body: bytes
    status: int | None = None
    response_headers: dict[str, str] = field(default_factory=dict)
    response_body: bytes = b""
    duration_ms: float = 0.0
    retry: int = 0
    error: str | None = None  # connection-level failure, when there was no response

    @property
    def request_id(self) -> str | None:
        return self.response_headers.get("request-id")


@dataclass
class ToolExecution:
    """One tool call the program ran for the model."""

    tool_use_id: str
    name: str
    input: Any
    output: str = ""
    is_error: bool = False
    duration_ms: float = 0.0
    approval: Approval | None = None  # None: no approval needed (only dangerous tools ask)
    # A tool run by a live MCP server: the JSON-RPC messages of its call ({"direction", "at", "message"}).
    mcp: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class Usage:
    """Token counts as the API reported them."""

    input_tokens: int = 0
    output_tokens: int = 0
    cache_creation_input_tokens: int = 0
    cache_read_input_tokens: int = 0

    @property
    def whole_input(self) -> int:
        return self.input_tokens + self.cache_creation_input_tokens + self.cache_read_input_tokens

    @classmethod
    def from_api(cls, data: dict[str, Any] | None) -> Usage | None:
        if not data:
            return None
        return cls(**{f.name: int(data.get(f.name) or 0) for f in fields(cls)})


@dataclass
class ApiError(Fact[ApiErrorKind, dict[str, Any]]):
    """A failed model call, kept so the learner can see it and retry: a fact, with the call's status and raw body."""

    # What agent_core.wire.errors.explain words (no sentence is kept: the UI words it in the learner's language):
    # "reason" (an ErrorReason), "detail" (the server's or the exception's own words, redacted, kept as data),
    # "exception" (its class name); {"text": ...} alone is an older file's English sentence, shown as written.
    params: dict[str, Any] = field(default_factory=dict)
    status: int | None = None
    error_type: str | None = None
    body: str | None = None  # the raw error JSON, redacted


@dataclass
class Decision(Fact[DecisionKind, Params]):
    """One thing the loop decided at a phase, as a fact: a DecisionKind and its parameters (the UI words it)."""

    params: Params = field(default_factory=lambda: Params())

    @classmethod
    def then_stop(cls, cause: StopCause) -> Decision:
        """A guard stopped the loop after this turn: the stop's kind and parameters, side by side."""
        return cls(DecisionKind.THEN_STOP, {"kind": cause.kind, **cause.params})

    def stop_cause(self) -> StopCause:
        """The stop a then_stop decision tells of (an unknown kind is an unknown stop_reason, as on load)."""
        params = self.params.copy()
        return stop_from({"kind": params.pop("kind", ""), "params": params})


@dataclass
class Turn:
    """One API call plus all the tools its reply asked for."""

    index: int
    request: dict[str, Any] | None = None
    response: dict[str, Any] | None = None
    exchanges: list[Exchange] = field(default_factory=list)
    tools: list[ToolExecution] = field(default_factory=list)
    usage: Usage | None = None
    components: dict[str, int] = field(default_factory=dict)
    cost_usd: float = 0.0
    stop_reason: str | None = None
    decisions: list[Decision] = field(default_factory=list)
    error: ApiError | None = None
    tool_results_message: dict[str, Any] | None = None
    started_at: float = field(default_factory=time.time)
    duration_ms: float = 0.0

    @property
    def tool_calls(self) -> list[dict[str, Any]]:
        content = (self.response or {}).get("content") or []
        return [b for b in content if b.get("type") == "tool_use"]

    @property
    def text(self) -> str:
        content = (self.response or {}).get("content") or []
        return "".join(b.get("text", "") for b in content if b.get("type") == "text")


@dataclass
class StopCause(Fact[StopKind, Params]):
    """Why the loop ended: the model's choice, a limit, or an error; the parameters say by how much (the UI words it)."""

    params: Params = field(default_factory=lambda: Params())


def _decode_bytes(value: Any) -> bytes:
    if isinstance(value, dict) and "text" in value:
        text: str = value["text"]
        return text.encode("utf-8")
    if isinstance(value, dict) and "base64" in value:
        return base64.b64decode(value["base64"])
    raise ValueError("body must be {'text': ...} or {'base64': ...}")


_Record = TypeVar("_Record", bound="DataclassInstance")
_Enum = TypeVar("_Enum", bound=StrEnum)


class UnknownValue(ValueError):
    """A vocabulary field holds a value this app does not know (a file from elsewhere, or edited by hand)."""


def known(enum: type[_Enum], value: Any, where: str) -> _Enum:
    """`value` as a member of `enum`, or UnknownValue naming where it was and what is known."""
    try:
        return enum(value)
    except ValueError:
        raise UnknownValue(
            f"{where} is {str(value)[:60]!r}, which this app does not know; known: {', '.join(enum)}."
        ) from None


def _lenient(enum: type[_Enum], value: Any) -> _Enum | None:
    try:
        return enum(value)
    except ValueError:
        return None


def build(cls: type[_Record], data: dict[str, Any]) -> _Record:
    names = {f.name for f in fields(cls)}
    return cls(**{k: v for k, v in data.items() if k in names})


def turn_from(data: dict[str, Any]) -> Turn:
    data = dict(data)
    data["exchanges"] = [
        build(
            Exchange,
            {**x, "request_body": _decode_bytes(x["request_body"]), "response_body": _decode_bytes(x["response_body"])},
        )
        for x in data.get("exchanges", [])
    ]
    data["tools"] = [_tool_from(x) for x in data.get("tools", [])]
    data["usage"] = build(Usage, data["usage"]) if data.get("usage") else None
    data["error"] = _error_from(data["error"]) if data.get("error") else None
    data["decisions"] = [_decision_from(d) for d in data.get("decisions") or []]
    return build(Turn, data)


def _tool_from(data: dict[str, Any]) -> ToolExecution:
    tool = build(ToolExecution, data)
    tool.approval = None if tool.approval is None else known(Approval, tool.approval, "a tool's approval")
    return tool


def _error_from(data: dict[str, Any]) -> ApiError:
    if data.get("message") and not data.get("params"):  # v2 and older: an English sentence, no facts
        data = {**data, "params": {"text": data["message"]}}
    error = build(ApiError, data)
    fallback = ApiErrorKind.STATUS if error.status is not None else ApiErrorKind.CONNECTION
    error.kind = _lenient(ApiErrorKind, error.kind) or fallback
    return error


def _decision_from(data: dict[str, Any]) -> Decision:
    """A decision of a kind this app no longer (or never) made is kept as its kind's name, in words."""
    decision = build(Decision, data)
    kind = _lenient(DecisionKind, decision.kind)
    return Decision(kind, decision.params) if kind else Decision(DecisionKind.TEXT, {"text": str(decision.kind)})


def stop_from(data: dict[str, Any]) -> StopCause:
    """A stop of an unknown kind is an unknown stop_reason: the loop stopped, on a reason this app cannot name."""
    stop = build(StopCause, data)
    kind = _lenient(StopKind, stop.kind)
    return (
        StopCause(kind, stop.params)
        if kind
        else StopCause(StopKind.UNKNOWN_STOP_REASON, {**stop.params, "reason": str(stop.kind)})
    )
