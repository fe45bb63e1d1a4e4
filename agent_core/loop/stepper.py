"""The agent loop as a stepper: build request -> call model -> read stop_reason -> run tools -> append results."""

from __future__ import annotations

import copy
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import anthropic
import httpx2

from agent_core.cost.pricing import Pricing, cache_write_1h_tokens, load_pricing, turn_components, turn_cost
from agent_core.facts import Params
from agent_core.files.trust import duplicate_tool_use_ids, input_digest
from agent_core.loop import context
from agent_core.loop.guards import SpendCap, check_limits, check_request_size
from agent_core.loop.messages import assistant_message, final_stop_params, tool_results_message, workflow_task_message
from agent_core.model import Decision, Exchange, Run, RunConfig, StopCause, ToolExecution, Turn, Usage
from agent_core.secrets import env_secrets, scrub_record
from agent_core.tools import ToolRegistry, texts
from agent_core.tools.catalog import sandbox_path
from agent_core.tools.own_code import OwnCode
from agent_core.vocab import (
    Approval,
    DecisionKind,
    LoopBug,
    Phase,
    StopKind,
    StopReason,
    final_stop_reasons,
    stop_kind,
)
from agent_core.wire.capture import Wait
from agent_core.wire.errors import check_message, describe_api_error
from agent_core.wire.providers import ProviderError, bills_as_anthropic, is_priced, make_client

# Stop reasons that end the loop, with the words the timeline shows (from the one stop table).
FINAL_STOP_REASONS = final_stop_reasons()


class Stepper:
    """Advances a Run one phase, one turn, or to the end; the Run itself holds all state."""

    def __init__(
        self,
        run: Run,
        api_key: str | None = None,
        client: anthropic.Anthropic | None = None,
        pricing: Pricing | None = None,
        max_retries: int = 2,
        spend_cap: SpendCap | None = None,
        transport: httpx2.BaseTransport | None = None,
        on_wait: Callable[[Wait], None] | None = None,
        server_keys: tuple[str, ...] = (),
        own_code: OwnCode | None = None,
    ) -> None:
        self.run = run
        self._server_keys = server_keys  # keys of the server's own beyond its environment (a secrets file)
        # Per thread: the attempts and the countdown of the call running there. A call the UI abandoned may still
        # finish in its worker thread; what it reports then goes to its own list, never to a later call's turn.
        self._call = threading.local()
        # Runs the blocking SDK call and returns its result; the UI runs it in a worker thread so the page can show
        # the seconds and a Cancel meanwhile (whatever it raises, a cancel included, leaves the turn unrecorded).
        self.call_runner: Callable[[Callable[[], Any]], Any] | None = None
        self.pricing = pricing or load_pricing()
        self.spend_cap = spend_cap
        self.held_elsewhere = 0  # bytes of requests the session's other runs hold (its memory is bounded as a whole)
        self._client = client
        self._owns_client = client is None  # a client passed in is closed by whoever made it
        self._api_key = api_key
        self._max_retries = max_retries
        self._transport = transport
        # The learner's answers, bound to the tool_use id and a hash of the exact input; they live only in this
        # object (this browser session), never in the run, so a file cannot carry an approval.
        self._answers: dict[str, tuple[str, bool]] = {}
        # Told the seconds left while a server-requested wait runs (a countdown); raising from it cancels.
        self.on_wait = on_wait
        # Told each turn run_to_end completes, as it completes (the app saves it: a crash loses at most one turn).
        self.on_turn: Callable[[Turn], None] | None = None
        cfg = run.config
        prior: dict[str, int] = {}
        for turn in run.turns:
            for tool in turn.tools:
                prior[tool.name] = prior.get(tool.name, 0) + 1
        sandbox = sandbox_path(cfg.sandbox) if cfg.sandbox else None
        client_tools = [t for t in cfg.tools if not t.server_type]  # server tools run at the API, not here
        self.registry = ToolRegistry(
            client_tools,
            sandbox=sandbox,
            tool_timeout_s=cfg.limits.tool_timeout_s,
            prior_calls=prior,
            language=cfg.language,
            own_code=own_code,  # whether a tool's own code may run here (None: personal yes, class server no)
        )

    def close(self) -> None:
        """Close the HTTP client this stepper made (a client passed in stays the caller's) and the tools."""
        if self._client is not None and self._owns_client:
            self._client.close()
        self._client = None
        self.registry.close()

    def __enter__(self) -> Stepper:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- public controls ------------------------------------------------------------------
    @property
    def halted(self) -> bool:
        return self.run.stop is not None

    @property
    def awaiting_approval(self) -> list[ToolExecution]:
        turn = self.run.turns[-1] if self.run.turns else None
        if self.run.phase != Phase.RUN_TOOLS or turn is None:
            return []
        if duplicate_tool_use_ids([{"id": t.tool_use_id} for t in turn.tools]):
            return []  # one click must never answer two calls: next_phase stops the run instead
        return [t for t in turn.tools if self._needs_answer(t)]

    def _needs_answer(self, tool: ToolExecution) -> bool:
        if tool.duration_ms or tool.output or not self.registry.needs_approval(tool.name):
            return False
        answer = self._answers.get(tool.tool_use_id)
        return answer is None or answer[0] != input_digest(tool.input)

    def next_phase(self) -> str:
        """Perform one phase and return its name (nothing happens once halted or while approval is pending)."""
        phase = self.run.phase
        if self.halted or self.awaiting_approval:
            return phase
        if phase in (Phase.RUN_TOOLS, Phase.APPEND_RESULTS) and self._refuse_duplicates():
            return phase
        method = PHASES.get(phase)
        try:
            if method is not None:
                self.run.phase = method(self)  # each phase's method returns the phase that comes next
        finally:
            self._scrub()
        return phase

    def next_turn(self) -> Turn | None:
        """Run phases until the current turn is complete (or the run halts / waits for approval)."""
        while not self.halted and not self.awaiting_approval:
            self.next_phase()
            if self.run.phase == Phase.BUILD_REQUEST:  # back at the top of the loop: this turn is complete
                break
        return self.run.turns[-1] if self.run.turns else None

    def run_to_end(self) -> Run:
        """Every turn until the run stops; on_turn (if set) sees each one as it completes (the app saves it)."""
        while not self.halted and not self.awaiting_approval:
            turn = self.next_turn()
            if self.on_turn is not None and turn is not None:
                self.on_turn(turn)
        return self.run

    def approve(self, tool_use_id: str, allowed: bool, digest: str | None = None) -> bool:
        """The learner's answer for a tool that needs approval, for the input they saw (its input_digest).

        Returns False, changing nothing, when no waiting tool has that id and input."""
        for tool in self.awaiting_approval:
            current = input_digest(tool.input)
            if tool.tool_use_id == tool_use_id and (digest is None or digest == current):
                self._answers[tool_use_id] = (current, allowed)
                tool.approval = Approval.APPROVED if allowed else Approval.DENIED
                return True
        return False

    def retry(self) -> None:
        """Retry the failed model call of the last turn (after an API error); the run so far is untouched."""
        if self.run.stop and self.run.stop.kind == StopKind.API_ERROR:
            self.run.stop = None
            self.run.turns[-1].error = None
            self.run.phase = Phase.CALL_MODEL

    # -- phases ---------------------------------------------------------------------------
    def _build_request(self) -> Phase:
        run, cfg = self.run, self.run.config
        cause = check_limits(run, self.spend_cap)
        if cause:
            return self._stop(cause, note_on_last_turn=True)
        policy = None
        if run.turns:
            run.messages, policy = context.apply_policy(cfg, run.messages)
        turn = Turn(index=len(run.turns) + 1)
        workflow = bool(cfg.workflow_steps)
        if workflow:
            self._run_workflow_steps(turn)
        turn.request = context.build_request(cfg, run.messages, with_tools=not workflow)
        too_large = check_request_size(run, turn.request, self.held_elsewhere)
        if too_large:  # stopped before the turn exists: nothing was sent, and the run so far stays as it was
            return self._stop(too_large, note_on_last_turn=True)
        n_msgs, n_tools = len(turn.request["messages"]), len(turn.request.get("tools", []))
        turn.decisions.append(Decision(DecisionKind.REQUEST_BUILT, {"messages": n_msgs, "tools": n_tools}))
        if policy:
            turn.decisions.append(policy)
        run.turns.append(turn)
        return Phase.CALL_MODEL

    def _call_model(self) -> Phase:
        turn = self.run.turns[-1]
        attempts: list[Exchange] = []
        started = time.perf_counter()
        try:
            client = self._get_client()
            message = (self.call_runner or _call_here)(self._sender(client, turn.request or {}, attempts))
        # UnicodeEncodeError: a lone surrogate (half an emoji) in the history cannot be sent as UTF-8.
        except (anthropic.APIError, ProviderError, UnicodeEncodeError) as exc:
            turn.exchanges += attempts
            turn.duration_ms += (time.perf_counter() - started) * 1000
            turn.error = describe_api_error(exc)
            turn.decisions = [Decision(DecisionKind.CALL_FAILED)]
            return self._stop(StopCause(StopKind.API_ERROR))
        turn.exchanges += attempts
        turn.duration_ms += (time.perf_counter() - started) * 1000
        response: dict[str, Any] = message.to_dict()
        turn.response = response
        turn.usage = Usage.from_api(response.get("usage"))
        turn.components = turn_components(turn.request, turn.usage)
        # A local or unknown server's calls have no price (0 here); Anthropic's API bills, whichever provider
        # setting reached it (a "compatible" URL that is api.anthropic.com is billed all the same).
        if is_priced(self.run.config.provider) or bills_as_anthropic(self.run.config):
            turn.cost_usd = turn_cost(
                self.run.config.model, turn.usage, self.pricing, cache_write_1h=cache_write_1h_tokens(response)
            )
        turn.stop_reason = response.get("stop_reason")
        return Phase.READ_STOP_REASON

    def _read_stop_reason(self) -> Phase:
        run, turn = self.run, self.run.turns[-1]
        reason, bugs = turn.stop_reason, run.config.bugs
        if LoopBug.FORGET_ASSISTANT_REPLY not in bugs:
            run.messages.append(assistant_message(turn.response or {}))
        if run.config.workflow_steps:
            turn.decisions = [Decision(DecisionKind.WORKFLOW_DONE, {"reason": reason})]
            return self._stop(StopCause(stop_kind(reason), {"workflow": True, "reason": reason}))
        if reason == StopReason.TOOL_USE and duplicate_tool_use_ids(turn.tool_calls):
            return self._stop_on_duplicates(turn, duplicate_tool_use_ids(turn.tool_calls))
        elif reason == StopReason.TOOL_USE:
            calls = turn.tool_calls
            turn.tools = [
                ToolExecution(
                    tool_use_id=c["id"],
                    name=c["name"],
                    input=c.get("input"),
                    approval=Approval.PENDING if self.registry.needs_approval(c["name"]) else None,
                )
                for c in calls
            ]
            turn.decisions = [Decision(DecisionKind.RUN_TOOLS, {"tools": len(calls)})]
            return Phase.RUN_TOOLS
        elif reason == StopReason.PAUSE_TURN and LoopBug.STOP_ON_PAUSE_TURN not in bugs:
            turn.decisions = [Decision(DecisionKind.PAUSE_TURN)]
            return Phase.BUILD_REQUEST
        elif reason in FINAL_STOP_REASONS:
            params = final_stop_params(reason, turn.response or {})
            turn.decisions = [Decision(DecisionKind.FINAL_STOP, params)]
            return self._stop(StopCause(stop_kind(reason), params))
        elif LoopBug.CONTINUE_ON_UNKNOWN_STOP in bugs:
            turn.decisions = [Decision(DecisionKind.UNKNOWN_CONTINUE, {"reason": reason})]
            return Phase.BUILD_REQUEST
        else:
            turn.decisions = [Decision(DecisionKind.UNKNOWN_STOP, {"reason": reason})]
            return self._stop(StopCause(StopKind.UNKNOWN_STOP_REASON, {"reason": reason}))

    def _scrub(self) -> None:
        """The active key, in any form or piece, out of everything this phase recorded, before anyone stores it.

        An upstream may echo the key in an error body, a tool may read it from a file; the request itself is
        built from the (already scrubbed) history, so it is not walked again."""
        secrets = self._secrets()
        if not secrets:
            return
        run = self.run
        if run.turns:
            turn = run.turns[-1]
            for name in ("response", "error", "decisions", "tools", "tool_results_message", "exchanges"):
                setattr(turn, name, scrub_record(getattr(turn, name), secrets))
        run.stop = scrub_record(run.stop, secrets)
        run.messages[-2:] = scrub_record(run.messages[-2:], secrets)

    def _secrets(self) -> tuple[str, ...]:
        return tuple(s for s in (self._api_key, *env_secrets(), *self._server_keys) if s)

    def _refuse_duplicates(self) -> bool:
        """A recorded turn (from a file) whose calls repeat a tool_use id: stop, as the API would refuse it."""
        turn = self.run.turns[-1]
        repeated = duplicate_tool_use_ids([{"id": t.tool_use_id} for t in turn.tools])
        if not repeated:
            return False
        self.run.phase = self._stop_on_duplicates(turn, repeated)
        return True

    def _stop_on_duplicates(self, turn: Turn, repeated: list[str]) -> Phase:
        """The API refuses a history whose tool_use ids repeat, so no tool runs and the loop stops."""
        params: Params = {"ids": ", ".join(repeated)}
        turn.decisions = [Decision(DecisionKind.DUPLICATE_IDS, params)]
        return self._stop(StopCause(StopKind.INVALID_REPLY, params))

    def _run_tools(self) -> Phase:
        for tool in self.run.turns[-1].tools:
            if tool.duration_ms or tool.output:
                continue  # already ran (a phase can resume after an approval)
            answer = self._answers.get(tool.tool_use_id)
            if self.registry.needs_approval(tool.name) and (answer is None or not answer[1]):
                tool.approval = Approval.DENIED  # only a click in this session allows; run_tools is reached after one
                # In the run's language, as the built-in tools answer: the model reads it, and so does the learner.
                tool.output = texts.render(texts.said("approval.denied", name=tool.name), self.run.config.language)
                tool.is_error = True
                continue
            outcome = self.registry.execute(tool.name, tool.input)
            tool.output, tool.is_error, tool.duration_ms = outcome.output, outcome.is_error, outcome.duration_ms
            tool.mcp = outcome.mcp
        return Phase.APPEND_RESULTS

    def _append_results(self) -> Phase:
        run, turn = self.run, self.run.turns[-1]
        message = tool_results_message(turn.tools, run.config.bugs)
        turn.tool_results_message = message
        if LoopBug.FORGET_ASSISTANT_REPLY not in run.config.bugs:
            run.messages.append(copy.deepcopy(message))
            turn.decisions.append(Decision(DecisionKind.RESULTS_APPENDED, {"blocks": len(message["content"])}))
        else:
            turn.decisions.append(Decision(DecisionKind.NOTHING_APPENDED))
        return Phase.BUILD_REQUEST

    # -- helpers --------------------------------------------------------------------------
    def _run_workflow_steps(self, turn: Turn) -> None:
        """Workflow mode: the program runs its fixed steps, then asks the model once with the data."""
        if self.run.turns:
            return
        for i, step in enumerate(self.run.config.workflow_steps, 1):
            tool_input = step.get("input", {})
            outcome = self.registry.execute(step["tool"], tool_input)
            turn.tools.append(
                ToolExecution(
                    f"workflow_{i}", step["tool"], tool_input, outcome.output, outcome.is_error, outcome.duration_ms
                )
            )
        self.run.messages[0] = workflow_task_message(self.run.config.task, turn.tools)

    def _get_client(self) -> anthropic.Anthropic:
        if self._client is None:
            self._client = make_client(
                self.run.config,
                self._record,
                api_key=self._api_key,
                max_retries=self._max_retries,
                transport=self._transport,
                on_wait=self._waiting,
                server_keys=self._server_keys,
            )
        return self._client

    def _sender(
        self, client: anthropic.Anthropic, request: dict[str, Any], attempts: list[Exchange]
    ) -> Callable[[], Any]:
        """The SDK call, bound to its own list of attempts and to the countdown set when it was made."""
        on_wait = self.on_wait

        def send() -> Any:
            self._call.attempts, self._call.on_wait = attempts, on_wait
            raw = client.messages.with_raw_response.create(**request)
            message = raw.parse()
            check_message(message, raw.http_response)  # an HTML page or other JSON is an error, said plainly
            return message

        return send

    def _waiting(self, wait: Wait) -> None:
        on_wait = getattr(self._call, "on_wait", None)
        if on_wait is not None:
            on_wait(wait)

    def _record(self, exchange: Exchange) -> None:
        attempts = getattr(self._call, "attempts", None)
        if attempts is not None:
            attempts.append(exchange)

    def _stop(self, cause: StopCause, note_on_last_turn: bool = False) -> Phase:
        """Record why the loop stops; returns the phase to stay in (an API error keeps the phase, so "retry this
        step" can resume)."""
        self.run.stop = cause
        if note_on_last_turn and self.run.turns:
            self.run.turns[-1].decisions.append(Decision.then_stop(cause))
        return Phase(self.run.phase) if cause.kind == StopKind.API_ERROR else Phase.DONE


# The loop's phases as a table: each method performs its phase and returns the next one.
PHASES: dict[str, Callable[[Stepper], Phase]] = {
    Phase.BUILD_REQUEST: Stepper._build_request,
    Phase.CALL_MODEL: Stepper._call_model,
    Phase.READ_STOP_REASON: Stepper._read_stop_reason,
    Phase.RUN_TOOLS: Stepper._run_tools,
    Phase.APPEND_RESULTS: Stepper._append_results,
}


def _call_here(send: Callable[[], Any]) -> Any:
    return send()


def iter_turns(run: Run, **kwargs: Any) -> Iterator[Turn]:
    """The plain generator: yields each finished turn until the run stops."""
    with Stepper(run, **kwargs) as stepper:
        while not stepper.halted and not stepper.awaiting_approval:
            turn = stepper.next_turn()
            if turn is not None and (run.phase == Phase.BUILD_REQUEST or stepper.halted):
                yield turn


def run_task(config: RunConfig, api_key: str | None = None, **kwargs: Any) -> Run:
    """Run a whole task to its end and return the record."""
    with Stepper(Run(config=config), api_key=api_key, **kwargs) as stepper:
        return stepper.run_to_end()


def fork_run(run: Run, from_turn: int) -> Run:
    """A new run, linked to `run`, that keeps turns before `from_turn` and calls the model again from there."""
    if not 1 <= from_turn <= len(run.turns):
        raise ValueError(f"turn {from_turn} does not exist (the run has {len(run.turns)})")
    source = run.turns[from_turn - 1]
    messages = copy.deepcopy((source.request or {}).get("messages") or run.messages[:1])
    return Run(
        config=copy.deepcopy(run.config),
        messages=messages,
        turns=copy.deepcopy(run.turns[: from_turn - 1]),
        parent_id=run.id,
        parent_turn=from_turn,
        title=run.title,
    )
