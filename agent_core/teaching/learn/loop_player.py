"""You are the loop: the learner builds the next request from the model's reply; the offline server judges it."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

import anthropic

from agent_core.loop import context
from agent_core.loop.messages import assistant_message
from agent_core.model import RunConfig
from agent_core.sim.transport import SimTransport
from agent_core.teaching.learn.facts import Fact, fact
from agent_core.tools import ToolRegistry
from agent_core.wire.providers import make_client


@dataclass
class ResultRow:
    """One tool_result block as the learner fills it in."""

    tool_use_id: str
    content: str
    is_error: bool = False


@dataclass
class Move:
    """The learner's next request, as choices: what to append, in which order, with which ids."""

    include_reply: bool = True
    results: list[ResultRow] = field(default_factory=list)
    text: str = ""  # an optional text block in the same user message
    text_first: bool = False  # put the text before the tool results (a rule the API enforces)
    one_message_per_result: bool = False  # split the results over several user messages
    prefill: str = ""  # the start of the model's next reply, sent as a final assistant message


@dataclass
class ToolRun:
    """A tool the model asked for, with what the program's tool really returned."""

    tool_use_id: str
    name: str
    input: dict[str, Any]
    output: str
    is_error: bool


@dataclass
class Outcome:
    """What happened to the learner's request: the server's 400, or the model's next reply."""

    accepted: bool
    status: int | None = None
    error: str = ""
    reply: dict[str, Any] | None = None
    notes: list[Fact] = field(default_factory=list)  # mistakes the API accepts but the model suffers from


@dataclass
class LoopGame:
    """A conversation the learner drives as the loop; `messages` holds only what the server accepted."""

    config: RunConfig
    messages: list[dict[str, Any]] = field(default_factory=list)
    reply: dict[str, Any] | None = None  # the model's latest reply
    tool_runs: list[ToolRun] = field(default_factory=list)
    history: list[Outcome] = field(default_factory=list)

    @property
    def finished(self) -> bool:
        return self.reply is not None and self.reply.get("stop_reason") != "tool_use"


def start(config: RunConfig) -> LoopGame:
    """The first call is made for the learner: the task goes out, the model's first reply comes back."""
    game = LoopGame(copy.deepcopy(config), [{"role": "user", "content": config.task}])
    outcome = _send(game, game.messages)
    if not outcome.accepted:
        raise RuntimeError(outcome.error)
    game.reply = outcome.reply
    game.tool_runs = _run_tools(game)
    return game


def suggested(game: LoopGame) -> Move:
    """The right move, for the "show me" button and the tests: reply, then every result in one message."""
    rows = [ResultRow(r.tool_use_id, r.output, r.is_error) for r in game.tool_runs]
    return Move(include_reply=True, results=rows)


def build_messages(game: LoopGame, move: Move) -> list[dict[str, Any]]:
    """The `messages` of the next request exactly as the learner's choices make it."""
    messages = copy.deepcopy(game.messages)
    if move.include_reply and game.reply is not None:
        messages.append(assistant_message(game.reply))
    blocks = [_result_block(row) for row in move.results]
    text = [{"type": "text", "text": move.text}] if move.text.strip() else []
    if move.one_message_per_result and blocks:
        messages += [{"role": "user", "content": [block]} for block in blocks]
        if text:
            messages.append({"role": "user", "content": text})
    else:
        content = text + blocks if move.text_first else blocks + text
        if content:
            messages.append({"role": "user", "content": content})
    if move.prefill:
        messages.append({"role": "assistant", "content": move.prefill})
    return messages


def _result_block(row: ResultRow) -> dict[str, Any]:
    block: dict[str, Any] = {"type": "tool_result", "tool_use_id": row.tool_use_id, "content": row.content}
    if row.is_error:
        block["is_error"] = True
    return block


def play(game: LoopGame, move: Move) -> Outcome:
    """Send the learner's request; on success the conversation moves on to the model's next reply."""
    messages = build_messages(game, move)
    outcome = _send(game, messages)
    outcome.notes = coach(game, move) if outcome.accepted else []
    game.history.append(outcome)
    if outcome.accepted:
        game.messages, game.reply = messages, outcome.reply
        game.tool_runs = _run_tools(game)
    return outcome


def coach(game: LoopGame, move: Move) -> list[Fact]:
    """Mistakes the server cannot see: a result under the wrong id, a changed output, a wrong is_error."""
    by_id = {r.tool_use_id: r for r in game.tool_runs}
    notes = []
    for row in move.results:
        real = by_id.get(row.tool_use_id)
        if real is None:
            continue
        if row.content.strip() != real.output.strip():
            owner = next((r for r in game.tool_runs if r.output.strip() == row.content.strip()), None)
            if owner is not None:
                notes.append(fact("result_swapped", id=row.tool_use_id, tool=real.name, other=owner.name))
            else:
                notes.append(fact("result_changed", id=row.tool_use_id, tool=real.name))
        if row.is_error != real.is_error:
            notes.append(fact("is_error_wrong", id=row.tool_use_id, tool=real.name, expected=str(real.is_error)))
    return notes


def _send(game: LoopGame, messages: list[dict[str, Any]]) -> Outcome:
    body = context.build_request(game.config, messages)
    client = make_client(game.config, lambda exchange: None, transport=SimTransport(game.config.sim), max_retries=0)
    try:
        message = client.messages.create(**body)
    except anthropic.APIStatusError as exc:
        body_json = exc.body if isinstance(exc.body, dict) else {}
        error = body_json.get("error") if isinstance(body_json.get("error"), dict) else body_json
        return Outcome(False, exc.status_code, str((error or {}).get("message") or exc.message))
    return Outcome(True, 200, reply=message.to_dict())


def _run_tools(game: LoopGame) -> list[ToolRun]:
    """The program runs the tools for the learner; assembling the request from their output is the learner's job."""
    reply = game.reply or {}
    calls = [b for b in reply.get("content") or [] if b.get("type") == "tool_use"]
    if not calls or reply.get("stop_reason") != "tool_use":
        return []
    registry = ToolRegistry([t for t in game.config.tools if not t.server_type], language=game.config.language)
    runs = []
    for call in calls:
        outcome = registry.execute(call["name"], call.get("input"))
        runs.append(ToolRun(call["id"], call["name"], call.get("input") or {}, outcome.output, outcome.is_error))
    registry.close()
    return runs
