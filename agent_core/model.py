"""The run model: one Run holds Turns; every screen, export and test reads this."""

from __future__ import annotations

import base64
import time
import uuid
from dataclasses import asdict, dataclass, field
from typing import Any

from agent_core import lineup

# A turn's records live in turn_records.py; re-exported, since a run is read as one model.
from agent_core.turn_records import ApiError as ApiError
from agent_core.turn_records import Decision as Decision
from agent_core.turn_records import Exchange as Exchange
from agent_core.turn_records import StopCause as StopCause
from agent_core.turn_records import ToolExecution as ToolExecution
from agent_core.turn_records import Turn as Turn
from agent_core.turn_records import UnknownValue as UnknownValue
from agent_core.turn_records import Usage as Usage
from agent_core.turn_records import build, known, stop_from, turn_from
from agent_core.vocab import ContextPolicy, LoopBug, Persona, Provider
from agent_core.vocab import Phase as Phase  # re-exported: a run's phase is part of the run model

# 2: decisions and stop causes are structured (kind + parameters); 3: an API error holds facts only, no English
# sentence. Older files are migrated on load (migrate_run).
SCHEMA_VERSION = 3
# "No limit" on steps still stops here, so a runaway loop cannot run forever.
MAX_STEPS_CEILING = 100
DEFAULT_MODEL = lineup.default_model()  # the current Sonnet, from agent_core/data/models.json


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


def config_from_dict(data: dict[str, Any]) -> RunConfig:
    """Build a RunConfig from plain JSON (exports, lesson scenarios, saved runs)."""
    data = dict(data)
    data["tools"] = [build(ToolSpec, t) for t in data.get("tools", [])]
    data["limits"] = build(Limits, data.get("limits") or {})
    data["sim"] = build(SimSettings, data.get("sim") or {})
    config = build(RunConfig, data)
    config.provider = known(Provider, config.provider, "run.config.provider")
    config.sim.persona = known(Persona, config.sim.persona, "run.config.sim.persona")
    config.context_policy = known(ContextPolicy, config.context_policy, "run.config.context_policy")
    config.bugs = [known(LoopBug, bug, "run.config.bugs") for bug in config.bugs]
    return config


def _run_from(data: dict[str, Any]) -> Run:
    data = dict(data)
    data["config"] = config_from_dict(data["config"])
    data["turns"] = [turn_from(t) for t in data.get("turns", [])]
    data["stop"] = stop_from(data["stop"]) if data.get("stop") else None
    run = build(Run, data)
    run.phase = known(Phase, run.phase, "run.phase")
    return run
