"""The program's stop conditions: checked before every request, each named as the stop cause when it fires."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from agent_core.facts import Params
from agent_core.model import MAX_STEPS_CEILING, Run, StopCause, ToolExecution
from agent_core.serving.mode import server_config
from agent_core.vocab import StopKind


@dataclass(frozen=True)
class SpendCap:
    """A cap on real-model spend across runs: the cap, what was spent outside this run, and whose cap it is: the
    browser tab's own (None), or a class server's daily limit for a scope ("learner", "class" or "server")."""

    cap_usd: float
    spent_elsewhere_usd: float = 0.0
    daily: str | None = None
    no_budget: bool = False  # a class server's budget of $0: learners are kept off its key, no limit was "reached"

    def stop(self, spent_usd: float) -> StopCause:
        whose: Params = {"daily": self.daily} if self.daily else {"session": True}
        if self.no_budget:
            whose["no_budget"] = True
        return StopCause(StopKind.SPEND_CAP, {**whose, "cap_usd": self.cap_usd, "spent_usd": spent_usd})


def _repeated_tail(run: Run) -> int:
    """How many of the latest tool executions are the very same call with the very same result."""
    calls = [t for turn in run.turns for t in turn.tools]
    if not calls:
        return 0

    def key(t: ToolExecution) -> tuple[str, str, str]:
        return t.name, json.dumps(t.input, sort_keys=True, ensure_ascii=False), t.output

    last, count = key(calls[-1]), 0
    for tool in reversed(calls):
        if key(tool) != last:
            break
        count += 1
    return count


def check_limits(run: Run, spend_cap: SpendCap | None = None) -> StopCause | None:
    """The first guard that fires before the next request, or None to go on (the parameters say by how much)."""
    limits = run.config.limits
    errors = sum(t.is_error for turn in run.turns for t in turn.tools)
    if limits.stop_on_repeated_call and _repeated_tail(run) >= limits.stop_on_repeated_call:
        return StopCause(StopKind.REPEATED_CALL, {"times": limits.stop_on_repeated_call})
    if limits.max_tool_errors is not None and errors >= limits.max_tool_errors:
        return StopCause(StopKind.ERROR_BUDGET, {"errors": errors, "limit": limits.max_tool_errors})
    if spend_cap is not None and (spent := spend_cap.spent_elsewhere_usd + run.total_cost_usd) >= spend_cap.cap_usd:
        return spend_cap.stop(spent)
    if limits.max_cost_usd is not None and run.total_cost_usd >= limits.max_cost_usd:
        return StopCause(StopKind.COST_BUDGET, {"budget_usd": limits.max_cost_usd, "spent_usd": run.total_cost_usd})
    if limits.max_total_tokens is not None and run.total_tokens >= limits.max_total_tokens:
        return StopCause(StopKind.TOKEN_BUDGET, {"budget": limits.max_total_tokens, "tokens": run.total_tokens})
    if limits.timeout_s is not None and run.busy_seconds >= limits.timeout_s:
        return StopCause(StopKind.TIMEOUT, {"limit_s": limits.timeout_s, "spent_s": run.busy_seconds})
    if len(run.turns) >= limits.effective_max_steps:
        if limits.max_steps is None or limits.max_steps > MAX_STEPS_CEILING:
            return StopCause(StopKind.STEP_LIMIT, {"ceiling": MAX_STEPS_CEILING})
        return StopCause(StopKind.STEP_LIMIT, {"limit": limits.max_steps})
    return None


def held_bytes(run: Run) -> int:
    """The bytes of request bodies a run holds in memory (every attempt of every turn)."""
    return sum(len(x.request_body) for turn in run.turns for x in turn.exchanges)


def check_request_size(run: Run, request: dict[str, Any], held_elsewhere: int = 0) -> StopCause | None:
    """The size guard on what the app sends: the next request (task, system prompt, tools and history together) at
    most the server's max_request_bytes, the run's recorded requests at most max_run_bytes (what one learner's run
    may hold in the server's memory), and with `held_elsewhere` (the session's other runs) at most
    max_session_bytes. None to go on."""
    limits = server_config()
    size = len(json.dumps(request, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))
    if size > limits.max_request_bytes:
        return StopCause(StopKind.REQUEST_TOO_LARGE, {"bytes": size, "limit": limits.max_request_bytes})
    held = held_bytes(run)
    if held + size > limits.max_run_bytes:
        return StopCause(StopKind.RUN_TOO_LARGE, {"bytes": held + size, "limit": limits.max_run_bytes})
    if held_elsewhere + held + size > limits.max_session_bytes:
        together: Params = {"bytes": held_elsewhere + held + size, "limit": limits.max_session_bytes, "session": True}
        return StopCause(StopKind.RUN_TOO_LARGE, together)
    return None
