"""The run model: one Run holds Turns; every screen, export and test reads this."""

from __future__ import annotations

import base64
import time
import uuid
from dataclasses import asdict, dataclass, field, fields
from enum import StrEnum
from typing import TYPE_CHECKING, Any, TypeVar

from agent_core import lineup
from agent_core.facts import Fact, Params
from agent_core.vocab import (
    ApiErrorKind,
    Approval,
    ContextPolicy,
    DecisionKind,
    LoopBug,
    Persona,
    Provider,
    StopKind,
)
from agent_core.vocab import Phase as Phase  # re-exported: a run's phase is part of the run model

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

# 2: decisions and stop causes are structured (kind + parameters); 3: an API error holds facts only, no English
# sentence. Older files are migrated on load (migrate_run).
SCHEMA_VERSION = 3
# "No limit" on steps still stops here, so a runaway loop cannot run forever.
MAX_STEPS_CEILING = 100
DEFAULT_MODEL = lineup.default_model()  # the current Sonnet, from agent_core/data/models.json


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
        return _stop_from({"kind": params.pop("kind", ""), "params": params})


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


@dataclass
class Limits:
    """The program's guards; None switches one off (steps still stop at the ceiling)."""

    max_steps: int | None = 10
    max_total_tokens: int | None = None
    max_cost_usd: float | None = None
    timeout_s: float | None = None  # time spent running (model calls + tools), not time between clicks
    tool_timeout_s: float = 5.0
    stop_on_repeated_call: int | None = None  # stop when the same call returns the same result N times
    max_tool_errors: int | None = None  # error budget: stop after this many is_error tool results

    @property
    def effective_max_steps(self) -> int:
        if self.max_steps is None:
            return MAX_STEPS_CEILING
        return min(self.max_steps, MAX_STEPS_CEILING)


@dataclass
class ToolSpec:
    """A tool as the model sees it (name, description, schema) plus which Python function runs it."""

    name: str
    description: str
    input_schema: dict[str, Any]
    impl: str = ""  # key in the tool catalog; defaults to name
    needs_approval: bool = False
    server_type: str = ""  # e.g. "web_search_20250305": a server tool the API runs itself
    code: str = ""  # the learner's own Python function for it (impl "own-code"; agent_core/tools/own_code.py)

    def definition(self) -> dict[str, Any]:
        if self.server_type:  # the request names a server tool only by type and name
            return {"type": self.server_type, "name": self.name}
        return {"name": self.name, "description": self.description, "input_schema": self.input_schema}

    @property
    def impl_key(self) -> str:
        return self.impl or self.name


@dataclass
class SimSettings:
    """How the offline simulated model behaves (never sent in the request; it is the model's 'brain')."""

    persona: Persona = Persona.SENSIBLE
    faults: list[dict[str, Any]] = field(default_factory=list)
    context_window: int | None = None  # None: the model's real window
    latency_ms: int = 0
    seed: int = 0
    thinking: bool = False
    # Teaching flag: accept requests without anthropic-version or an API key (raw HTTP demos); the API refuses them.
    lenient_headers: bool = False


@dataclass
class RunConfig:
    """Everything that defines a run before it starts."""

    task: str
    system: str = "You are a helpful assistant. Use the tools when they help."
    model: str = DEFAULT_MODEL
    provider: Provider = Provider.OFFLINE
    base_url: str | None = None
    tools: list[ToolSpec] = field(default_factory=list)
    tool_choice: dict[str, Any] | None = None
    max_tokens: int = 1024
    stop_sequences: list[str] = field(default_factory=list)
    thinking_budget: int | None = None
    cache_prompt: bool = False
    limits: Limits = field(default_factory=Limits)
    sim: SimSettings = field(default_factory=SimSettings)
    sandbox: str | None = None  # folder read_file may read
    language: str = "en"
    context_policy: ContextPolicy = ContextPolicy.NONE  # what the program does to the history before each request
    keep_last_turns: int = 2
    # A workflow instead of an agent: the program calls these tools itself ([{"tool": ..., "input": {...}}]),
    # then makes ONE model call with the results. Empty means agent mode.
    workflow_steps: list[dict[str, Any]] = field(default_factory=list)
    bugs: list[LoopBug] = field(default_factory=list)  # deliberate protocol mistakes for "break the loop"


@dataclass
class Run:
    """A whole run: config, the growing message list, the turns so far, and why it stopped."""

    config: RunConfig
    id: str = field(default_factory=lambda: uuid.uuid4().hex[:12])
    messages: list[dict[str, Any]] = field(default_factory=list)
    turns: list[Turn] = field(default_factory=list)
    phase: Phase = Phase.BUILD_REQUEST
    stop: StopCause | None = None
    created_at: float = field(default_factory=time.time)
    parent_id: str | None = None
    parent_turn: int | None = None
    title: str = ""
    # Set on a run recorded from another program (agent_core.recorder): {"kind": "recorded", "client": ...,
    # "upstream": ..., "session": ...}; None for the Lab's own runs.
    origin: dict[str, Any] | None = None

    def __post_init__(self) -> None:
        if not self.messages:
            self.messages = [{"role": "user", "content": self.config.task}]

    @property
    def done(self) -> bool:
        return self.phase == Phase.DONE

    @property
    def final_text(self) -> str:
        for turn in reversed(self.turns):
            if turn.text:
                return turn.text
        return ""

    @property
    def total_cost_usd(self) -> float:
        return sum(t.cost_usd for t in self.turns)

    @property
    def total_tokens(self) -> int:
        return sum((t.usage.whole_input + t.usage.output_tokens) for t in self.turns if t.usage)

    @property
    def busy_seconds(self) -> float:
        return sum(t.duration_ms + sum(x.duration_ms for x in t.tools) for t in self.turns) / 1000

    def to_dict(self) -> dict[str, Any]:
        return {"schema_version": SCHEMA_VERSION, "run": _encode(asdict(self))}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Run:
        version = data.get("schema_version")
        if not isinstance(version, int) or isinstance(version, bool) or not 1 <= version <= SCHEMA_VERSION:
            raise ValueError(f"unsupported run schema_version {version!r} (this app reads {SCHEMA_VERSION})")
        return _run_from(migrate_run(data["run"], version))


def migrate_run(run: dict[str, Any], version: int) -> dict[str, Any]:
    """A run record of an older schema_version, brought up to SCHEMA_VERSION (a new dict; the input is untouched).

    v1 -> v2: a turn's English `decision` and a stop's English `message` become a `text` decision and a
    `text` parameter, shown as they were written (their words cannot be turned back into facts).
    v2 -> v3: an API error's English `message` goes; one from before errors were kept as facts is read as its `text`
    wherever it is met (_error_from: a saved run's older turns keep their rows)."""
    return _v1_to_v2(run) if version < 2 else run


def _v1_to_v2(run: dict[str, Any]) -> dict[str, Any]:
    run = dict(run)
    turns = []
    for turn in run.get("turns") or []:
        if isinstance(turn, dict) and "decision" in turn:
            turn = dict(turn)
            text = turn.pop("decision")
            turn["decisions"] = [{"kind": "text", "params": {"text": text}}] if text else []
        turns.append(turn)
    run["turns"] = turns
    stop = run.get("stop")
    if isinstance(stop, dict) and "message" in stop:
        stop = dict(stop)
        message = stop.pop("message")
        stop["params"] = {"text": message} if message else {}
        run["stop"] = stop
    return run


def _encode(value: Any) -> Any:
    """Make asdict() output JSON-safe: bytes become {"text": ...} or {"base64": ...}."""
    if isinstance(value, bytes):
        try:
            return {"text": value.decode("utf-8")}
        except UnicodeDecodeError:
            return {"base64": base64.b64encode(value).decode("ascii")}
    if isinstance(value, dict):
        return {k: _encode(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_encode(v) for v in value]
    return value


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


def _build(cls: type[_Record], data: dict[str, Any]) -> _Record:
    names = {f.name for f in fields(cls)}
    return cls(**{k: v for k, v in data.items() if k in names})


def _turn_from(data: dict[str, Any]) -> Turn:
    data = dict(data)
    data["exchanges"] = [
        _build(
            Exchange,
            {**x, "request_body": _decode_bytes(x["request_body"]), "response_body": _decode_bytes(x["response_body"])},
        )
        for x in data.get("exchanges", [])
    ]
    data["tools"] = [_tool_from(x) for x in data.get("tools", [])]
    data["usage"] = _build(Usage, data["usage"]) if data.get("usage") else None
    data["error"] = _error_from(data["error"]) if data.get("error") else None
    data["decisions"] = [_decision_from(d) for d in data.get("decisions") or []]
    return _build(Turn, data)


def _tool_from(data: dict[str, Any]) -> ToolExecution:
    tool = _build(ToolExecution, data)
    tool.approval = None if tool.approval is None else known(Approval, tool.approval, "a tool's approval")
    return tool


def _error_from(data: dict[str, Any]) -> ApiError:
    if data.get("message") and not data.get("params"):  # v2 and older: an English sentence, no facts
        data = {**data, "params": {"text": data["message"]}}
    error = _build(ApiError, data)
    fallback = ApiErrorKind.STATUS if error.status is not None else ApiErrorKind.CONNECTION
    error.kind = _lenient(ApiErrorKind, error.kind) or fallback
    return error


def _decision_from(data: dict[str, Any]) -> Decision:
    """A decision of a kind this app no longer (or never) made is kept as its kind's name, in words."""
    decision = _build(Decision, data)
    kind = _lenient(DecisionKind, decision.kind)
    return Decision(kind, decision.params) if kind else Decision(DecisionKind.TEXT, {"text": str(decision.kind)})


def _stop_from(data: dict[str, Any]) -> StopCause:
    """A stop of an unknown kind is an unknown stop_reason: the loop stopped, on a reason this app cannot name."""
    stop = _build(StopCause, data)
    kind = _lenient(StopKind, stop.kind)
    return (
        StopCause(kind, stop.params)
        if kind
        else StopCause(StopKind.UNKNOWN_STOP_REASON, {**stop.params, "reason": str(stop.kind)})
    )


def config_from_dict(data: dict[str, Any]) -> RunConfig:
    """Build a RunConfig from plain JSON (exports, lesson scenarios, saved runs)."""
    data = dict(data)
    data["tools"] = [_build(ToolSpec, t) for t in data.get("tools", [])]
    data["limits"] = _build(Limits, data.get("limits") or {})
    data["sim"] = _build(SimSettings, data.get("sim") or {})
    config = _build(RunConfig, data)
    config.provider = known(Provider, config.provider, "run.config.provider")
    config.sim.persona = known(Persona, config.sim.persona, "run.config.sim.persona")
    config.context_policy = known(ContextPolicy, config.context_policy, "run.config.context_policy")
    config.bugs = [known(LoopBug, bug, "run.config.bugs") for bug in config.bugs]
    return config


def _run_from(data: dict[str, Any]) -> Run:
    data = dict(data)
    data["config"] = config_from_dict(data["config"])
    data["turns"] = [_turn_from(t) for t in data.get("turns", [])]
    data["stop"] = _stop_from(data["stop"]) if data.get("stop") else None
    run = _build(Run, data)
    run.phase = known(Phase, run.phase, "run.phase")
    return run
