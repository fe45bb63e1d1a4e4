"""Run records from recorded exchanges: each request a turn, laid out as the Lab's own loop lays out its turns.

What the program did between two requests (run its tools) is read back from the next request: the tool_result
blocks that follow the reply are the turn's tool executions, and that user message is its tool-results message."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

from agent_core.cost.pricing import Pricing, cache_write_1h_tokens, turn_components, turn_cost
from agent_core.model import ApiError, Exchange, Run, RunConfig, StopCause, ToolExecution, ToolSpec, Turn, Usage
from agent_core.recorder.grouping import reply_message
from agent_core.sim.request import strip_reminders, text_of
from agent_core.vocab import (
    ApiErrorKind,
    ErrorReason,
    Phase,
    Provider,
    StopKind,
    StopReason,
    final_stop_reasons,
    stop_kind,
)
from agent_core.wire.providers import is_priced

ORIGIN_KIND = "recorded"
# The stop reasons after which a loop ends by itself (a recorded run with one of these is finished).
FINAL = frozenset(final_stop_reasons())  # the stop_reasons that end the loop (the one stop table)


@dataclass
class Origin:
    """Where a recorded run came from: the program (as its headers name it) and who answered it."""

    client: str
    upstream: str  # "offline", "anthropic" or a compatible server's base URL
    session: str = ""  # the client's own session id, when it sends one (Claude Code's X-Claude-Code-Session-Id)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": ORIGIN_KIND, "client": self.client, "upstream": self.upstream, "session": self.session}


def first_task(messages: list[Any]) -> str:
    """The first user text of a conversation, without <system-reminder> context."""
    for message in messages:
        if isinstance(message, dict) and message.get("role") == "user":
            text = strip_reminders(text_of(message.get("content"))).strip()
            if text:
                return text
    return ""


def provider_of(upstream: str) -> Provider:
    if upstream == Provider.OFFLINE:
        return Provider.OFFLINE
    return Provider.ANTHROPIC if upstream == Provider.ANTHROPIC else Provider.COMPATIBLE


def new_run(run_id: str, body: dict[str, Any], origin: Origin, created_at: float) -> Run:
    """A run for a program's first request: its config as that request shows it."""
    system = body.get("system")
    tools = [
        ToolSpec(str(t.get("name", "")), str(t.get("description", "")), t.get("input_schema") or {})
        for t in body.get("tools") or []
        if isinstance(t, dict) and t.get("type") in (None, "custom")
    ]
    upstream = origin.upstream
    config = RunConfig(
        task=first_task(body.get("messages") or []),
        system=system if isinstance(system, str) else text_of(system),
        model=str(body.get("model", "")),
        provider=provider_of(upstream),
        base_url=upstream if provider_of(upstream) == Provider.COMPATIBLE else None,
        tools=tools,
        tool_choice=body.get("tool_choice") if isinstance(body.get("tool_choice"), dict) else None,
        max_tokens=int(body["max_tokens"]) if isinstance(body.get("max_tokens"), int) else 0,
    )
    run = Run(config=config, id=run_id, messages=list(body.get("messages") or []), created_at=created_at)
    run.origin = origin.to_dict()
    run.title = ""
    return run


def _results_of(turn: Turn, message: dict[str, Any]) -> list[ToolExecution]:
    calls = {c.get("id"): c for c in (turn.response or {}).get("content") or [] if c.get("type") == "tool_use"}
    done = []
    for block in message.get("content") or [] if isinstance(message.get("content"), list) else []:
        if not isinstance(block, dict) or block.get("type") != "tool_result":
            continue
        call = calls.get(block.get("tool_use_id"), {})
        content = block.get("content")
        output = content if isinstance(content, str) else text_of(content) or json.dumps(content, ensure_ascii=False)
        done.append(
            ToolExecution(
                str(block.get("tool_use_id", "")),
                str(call.get("name", "")),
                call.get("input"),
                output,
                bool(block.get("is_error")),
            )
        )
    return done


def follow_up(run: Run, body: dict[str, Any]) -> None:
    """A request that continues the run: the last turn's tool results, read from what the program sent next."""
    if not run.turns:
        return
    turn = run.turns[-1]
    messages = body.get("messages") or []
    after = len(turn.request.get("messages") or []) + 1 if turn.request else 0
    rest = [m for m in messages[after:] if isinstance(m, dict)]
    user = next((m for m in rest if m.get("role") == "user"), None)
    if user is not None and turn.stop_reason == StopReason.TOOL_USE:
        turn.tools = _results_of(turn, user)
        turn.tool_results_message = user
    run.messages = list(messages)


def add_exchange(
    run: Run, body: dict[str, Any], exchange: Exchange, reply: dict[str, Any] | None, pricing: Pricing, retry: bool
) -> Turn:
    """One exchange into the run: a new turn, or (a retry) another attempt of the last one."""
    if retry and run.turns:
        turn = run.turns[-1]
    else:
        turn = Turn(index=len(run.turns) + 1, request=body, started_at=exchange_started(exchange))
        run.turns.append(turn)
    exchange.retry = len(turn.exchanges)
    turn.exchanges.append(exchange)
    turn.duration_ms += exchange.duration_ms
    if reply is not None and reply.get("type") == "message":
        _answered(run, turn, reply, pricing)
    else:
        turn.error = _error(exchange, reply)
        run.stop = StopCause(StopKind.API_ERROR)
    return turn


def exchange_started(exchange: Exchange) -> float:
    return time.time() - exchange.duration_ms / 1000


def _answered(run: Run, turn: Turn, reply: dict[str, Any], pricing: Pricing) -> None:
    turn.response, turn.error = reply, None
    turn.usage = Usage.from_api(reply.get("usage"))
    turn.components = turn_components(turn.request, turn.usage)
    if is_priced(run.config.provider):
        model = str(reply.get("model") or run.config.model)
        turn.cost_usd = turn_cost(model, turn.usage, pricing, cache_write_1h=cache_write_1h_tokens(reply))
    turn.stop_reason = reply.get("stop_reason")
    run.messages = [*(turn.request or {}).get("messages", []), reply_message(reply)]
    final = turn.stop_reason in FINAL
    run.phase = Phase.DONE if final else Phase.RUN_TOOLS
    run.stop = StopCause(stop_kind(turn.stop_reason)) if final else None


def _error(exchange: Exchange, reply: dict[str, Any] | None) -> ApiError:
    """The failed exchange as facts (the UI words them): what the connection said, or the server's status and own
    words, kept as data."""
    if exchange.status is None:
        if not exchange.error:
            return ApiError(ApiErrorKind.CONNECTION, params={"reason": ErrorReason.DROPPED})
        return ApiError(ApiErrorKind.CONNECTION, params={"reason": ErrorReason.OTHER, "detail": exchange.error})
    error = (reply or {}).get("error") if isinstance(reply, dict) else None
    error = error if isinstance(error, dict) else {}
    detail = error.get("message")
    return ApiError(
        ApiErrorKind.STATUS,
        status=exchange.status,
        error_type=error.get("type"),
        body=exchange.response_body.decode("utf-8", "replace")[:4000],
        params={"reason": ErrorReason.STATUS, **({"detail": str(detail)} if detail else {})},
    )
