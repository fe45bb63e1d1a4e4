"""You are the model: the learner writes the assistant's reply and the real loop, server and tools execute it."""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from typing import Any

import anthropic

from agent_core.loop.stepper import Stepper
from agent_core.model import Run
from agent_core.sim.brain import Draft
from agent_core.sim.handler import SimHandler
from agent_core.sim.transport import SimTransport
from agent_core.teaching.learn.facts import Fact, fact
from agent_core.vocab import Phase, StopKind, StopReason
from agent_core.wire.providers import make_client

# What a reply may hold: a model writes text and tool_use blocks (thinking is the model's own, not typed by hand).
BLOCK_TYPES = ("text", "tool_use")
STOP_REASONS = (StopReason.TOOL_USE, StopReason.END_TURN, StopReason.MAX_TOKENS, StopReason.STOP_SEQUENCE)


class ReplyError(ValueError):
    """A reply that cannot even be written down as a model's output; `problem` says why."""

    def __init__(self, problem: Fact) -> None:
        super().__init__(problem.kind)
        self.problem = problem


@dataclass
class HumanReply:
    """The assistant's reply as the learner wrote it."""

    blocks: list[dict[str, Any]] = field(default_factory=list)
    stop_reason: str | None = None  # None: what the API would say (tool_use when any tool_use block, else end_turn)

    @property
    def effective_stop_reason(self) -> str:
        if self.stop_reason:
            return self.stop_reason
        return "tool_use" if any(b.get("type") == "tool_use" for b in self.blocks) else "end_turn"

    def to_json(self) -> str:
        body: dict[str, Any] = {"content": self.blocks}
        if self.stop_reason:
            body["stop_reason"] = self.stop_reason
        return json.dumps(body, ensure_ascii=False, indent=2)


def from_form(text: str, calls: list[tuple[str, str, str]], stop_reason: str | None = None) -> HumanReply:
    """A reply from the form: optional text, then (tool name, input as JSON, optional id) per tool call."""
    blocks: list[dict[str, Any]] = [{"type": "text", "text": text}] if text.strip() else []
    for index, (name, input_text, tool_id) in enumerate(calls, 1):
        tool_input = _json(input_text or "{}", fact("input_not_json", n=index))
        block = {"type": "tool_use", "name": name.strip(), "input": tool_input}
        if tool_id.strip():
            block["id"] = tool_id.strip()
        blocks.append(block)
    return checked(HumanReply(blocks, stop_reason or None))


def from_json(text: str) -> HumanReply:
    """A reply written as JSON: a list of content blocks, or {"content": [...], "stop_reason": ...}."""
    data = _json(text, fact("reply_not_json"))
    if isinstance(data, dict):
        stop = data.get("stop_reason")
        if stop is not None and stop not in STOP_REASONS:
            raise ReplyError(fact("bad_stop_reason", got=str(stop), allowed=", ".join(STOP_REASONS)))
        return checked(HumanReply(data.get("content"), stop))  # type: ignore[arg-type]
    return checked(HumanReply(data))


def _json(text: str, problem: Fact) -> Any:
    try:
        return json.loads(text)
    except ValueError as exc:
        problem.params["error"] = str(exc)
        raise ReplyError(problem) from None


def checked(reply: HumanReply) -> HumanReply:
    """Refuse what no model could ever send (the loop and the server judge everything else)."""
    if not isinstance(reply.blocks, list) or not reply.blocks:
        raise ReplyError(fact("reply_empty"))
    for index, block in enumerate(reply.blocks, 1):
        kind = block.get("type") if isinstance(block, dict) else None
        if kind not in BLOCK_TYPES:
            raise ReplyError(fact("block_type", n=index, got=str(kind), allowed=", ".join(BLOCK_TYPES)))
        if kind == "text" and not isinstance(block.get("text"), str):
            raise ReplyError(fact("text_missing", n=index))
        if kind == "tool_use" and (not isinstance(block.get("name"), str) or not block["name"]):
            raise ReplyError(fact("name_missing", n=index))
        if kind == "tool_use" and not isinstance(block.get("input", {}), dict):
            raise ReplyError(fact("input_not_object", n=index))
    return reply


class HumanBrain:
    """A `think` for the simulated server that answers with the learner's reply instead of the built-in mind."""

    def __init__(self, reply: HumanReply) -> None:
        self.reply = reply
        self.asked = 0

    def __call__(self, body: dict[str, Any], settings: Any) -> Draft:
        self.asked += 1
        return Draft(copy.deepcopy(self.reply.blocks), self.reply.effective_stop_reason, reasoning="")


@dataclass
class Verdict:
    """What the server says about the request the loop would send next."""

    ok: bool
    input_tokens: int | None = None
    status: int | None = None
    message: str = ""


def play(run: Run, reply: HumanReply) -> Run:
    """Send the learner's reply through the real loop: the call, stop_reason, the tools and the appended results."""
    if run.stop is not None:
        return run
    brain = HumanBrain(reply)
    stepper = Stepper(run, transport=SimTransport(run.config.sim, SimHandler(run.config.sim, think=brain)))
    if run.phase == Phase.BUILD_REQUEST:
        stepper.next_phase()
    if run.phase != Phase.CALL_MODEL or stepper.halted:
        return run
    stepper.next_turn()  # call (answered by the learner) -> read stop_reason -> run tools -> append
    if not stepper.halted and stepper.run.phase == Phase.BUILD_REQUEST:  # the turn moved the phase on
        stepper.next_phase()  # build the next request, so the learner sees what the model gets next
    return run


def referee(run: Run) -> Verdict | None:
    """Send the history to the server's count_tokens endpoint: it applies the same rules as a real call.

    Asked while the next request waits for the model, or after the loop refused a reply (e.g. repeated
    tool_use ids): then the server says which rule of the API the reply breaks."""
    waiting = run.stop is None and run.phase == Phase.CALL_MODEL
    refused = run.stop is not None and run.stop.kind == StopKind.INVALID_REPLY
    if not run.turns or not (waiting or refused):
        return None
    body = {k: v for k, v in (run.turns[-1].request or {}).items() if k not in ("max_tokens", "stream")}
    body["messages"] = run.messages
    client = make_client(run.config, lambda exchange: None, transport=SimTransport(run.config.sim), max_retries=0)
    try:
        counted = client.messages.count_tokens(**body)
    except anthropic.APIStatusError as exc:
        return Verdict(False, status=exc.status_code, message=_error_message(exc))
    return Verdict(True, input_tokens=counted.input_tokens)


def _error_message(exc: anthropic.APIStatusError) -> str:
    body = exc.body if isinstance(exc.body, dict) else {}
    error = body.get("error") if isinstance(body.get("error"), dict) else body
    return str((error or {}).get("message") or exc.message)
