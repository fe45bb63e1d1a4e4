"""A run from a file, a link or the runs database is data: what of it the program may use, and what it never does."""

from __future__ import annotations

import copy
import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

from agent_core.model import Run, RunConfig, ToolSpec
from agent_core.vocab import Approval

# Settings that decide where a key goes, which files are read, what runs without a click and how the loop is
# steered. A recorded run never supplies them: the learner's current settings do.
LEARNER_FIELDS = (
    "provider",
    "base_url",
    "sandbox",
    "workflow_steps",
    "context_policy",
    "keep_last_turns",
    "bugs",
    "limits",
    "sim",
)
# Fields whose difference is worth telling the learner about (limits and sim are compared as a whole).
SHOWN_FIELDS = ("provider", "base_url", "sandbox", "workflow_steps", "context_policy", "bugs", "limits", "sim")


@dataclass(frozen=True)
class Difference:
    """One setting the recorded run had that this run does not use: a structured fact the UI renders."""

    setting: str
    recorded: str
    used: str


@dataclass
class Adopted:
    """A recorded config with the learner's settings in place, what differs, and tools awaiting review."""

    config: RunConfig
    differences: list[Difference] = field(default_factory=list)
    unreviewed_tools: list[ToolSpec] = field(default_factory=list)


def input_digest(tool_input: Any) -> str:
    """A short hash of a tool input's exact JSON: an approval is bound to it, so a changed input needs a new click."""
    text = json.dumps(tool_input, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=repr)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def is_builtin(spec: ToolSpec) -> bool:
    """True when a tool definition is exactly one of the app's built-in tools (nothing edited)."""
    from agent_core.tools.catalog import CATALOG  # the catalog imports the sandbox, which is heavier than this module

    tool = CATALOG.get(spec.impl_key)
    if tool is None:
        return False
    own = tool.spec
    return (spec.name, spec.description, spec.input_schema, spec.server_type) == (
        own.name,
        own.description,
        own.input_schema,
        own.server_type,
    )


def builtin_needs_approval(spec: ToolSpec) -> bool:
    """A tool whose implementation can do harm asks first, whatever a definition's needs_approval says."""
    from agent_core.tools.catalog import CATALOG

    tool = CATALOG.get(spec.impl_key)
    return bool(spec.needs_approval or (tool is not None and tool.spec.needs_approval))


def adopt(recorded: RunConfig, settings: RunConfig, accept_tools: bool = False) -> Adopted:
    """The recorded run's conversation (task, system, model, tools...) with the learner's settings for the rest.

    Tool definitions that are not exactly built-in are kept only when the learner accepted them after
    reviewing; otherwise they are left out of the run (the model is told it has no such tool if it asks)."""
    config = copy.deepcopy(recorded)
    differences = []
    for name in LEARNER_FIELDS:
        mine = copy.deepcopy(getattr(settings, name))
        if name in SHOWN_FIELDS and getattr(recorded, name) != mine:
            differences.append(Difference(name, _short(getattr(recorded, name)), _short(mine)))
        setattr(config, name, mine)
    unreviewed = [spec for spec in recorded.tools if not is_builtin(spec)]
    kept = []
    for spec in config.tools:
        spec.needs_approval = builtin_needs_approval(spec)  # a file's "needs_approval": false is never obeyed
        if accept_tools or is_builtin(spec):
            kept.append(spec)
    config.tools = kept
    return Adopted(config, differences, [] if accept_tools else unreviewed)


def adopt_run(run: Run, settings: RunConfig, accept_tools: bool = False) -> Adopted:
    """adopt() applied to a run in place, with every recorded approval of a tool that has not run reset."""
    adopted = adopt(run.config, settings, accept_tools)
    run.config = adopted.config
    reset_unrun_approvals(run)
    return adopted


def reset_unrun_approvals(run: Run) -> None:
    """ "approved" in a file means nothing: a tool that has not run waits for a click in this session."""
    for turn in run.turns:
        for tool in turn.tools:
            if tool.approval == Approval.APPROVED and not (tool.output or tool.duration_ms):
                tool.approval = Approval.PENDING


def duplicate_tool_use_ids(calls: list[dict[str, Any]]) -> list[str]:
    """tool_use ids that appear more than once in one reply (the API refuses such a history)."""
    seen: set[str] = set()
    repeated: list[str] = []
    for call in calls:
        key = str(call.get("id"))
        if key in seen and key not in repeated:
            repeated.append(key)
        seen.add(key)
    return repeated


def _short(value: Any) -> str:
    if value is None or value == [] or value == "":
        return "—"
    if isinstance(value, str):
        return value if len(value) <= 80 else value[:79] + "…"
    text = json.dumps(value, default=lambda v: getattr(v, "__dict__", repr(v)), ensure_ascii=False, sort_keys=True)
    return text if len(text) <= 80 else text[:79] + "…"
