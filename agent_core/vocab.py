"""The app's vocabularies as StrEnums, and the one stop table every view, export and lesson check reads.

StrEnum members are plain strings too: a run file written before these existed, a lesson's JSON and a
comparison with a literal all keep working, and json.dumps writes the bare value.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Phase(StrEnum):
    """The five phases of one turn, in order, plus the end state."""

    BUILD_REQUEST = "build_request"
    CALL_MODEL = "call_model"
    READ_STOP_REASON = "read_stop_reason"
    RUN_TOOLS = "run_tools"
    APPEND_RESULTS = "append_results"
    DONE = "done"


PHASE_ORDER = (Phase.BUILD_REQUEST, Phase.CALL_MODEL, Phase.READ_STOP_REASON, Phase.RUN_TOOLS, Phase.APPEND_RESULTS)


class Provider(StrEnum):
    """Where the requests go: the built-in simulated model, Anthropic, or an Anthropic-compatible server."""

    OFFLINE = "offline"
    ANTHROPIC = "anthropic"
    COMPATIBLE = "compatible"


class Persona(StrEnum):
    """How the offline simulated model behaves when a tool fails or a tool result carries an injection."""

    SENSIBLE = "sensible"
    STUBBORN = "stubborn"
    GULLIBLE = "gullible"


class ContextPolicy(StrEnum):
    """What the program does to the history before each request."""

    NONE = "none"
    CLEAR_TOOL_RESULTS = "clear_tool_results"  # old tool results become a short placeholder
    SUMMARIZE = "summarize"  # old turns fold into one summary message


class Approval(StrEnum):
    """The learner's answer for a tool that needs approval (a tool that needs none has approval None)."""

    PENDING = "pending"
    APPROVED = "approved"
    DENIED = "denied"


class LoopBug(StrEnum):
    """Deliberate protocol mistakes for the "break the loop" exercises."""

    TEXT_BEFORE_TOOL_RESULT = "text_before_tool_result"
    DROP_ONE_TOOL_RESULT = "drop_one_tool_result"
    FORGET_ASSISTANT_REPLY = "forget_assistant_reply"
    CONTINUE_ON_UNKNOWN_STOP = "continue_on_unknown_stop"
    STOP_ON_PAUSE_TURN = "stop_on_pause_turn"  # `if stop_reason != "tool_use": break`: a paused server tool ends it


class ApiErrorKind(StrEnum):
    """How a model call failed."""

    STATUS = "status"
    CONNECTION = "connection"
    TIMEOUT = "timeout"
    INVALID_CONFIG = "invalid_config"


class ErrorReason(StrEnum):
    """Why a model call failed, finer than ApiErrorKind: each reason has its own plain-words explanation."""

    STATUS = "status"  # the server answered with an error status
    TIMEOUT = "timeout"
    REFUSED = "refused"  # nothing listens at the base URL: start the server or fix the URL
    DROPPED = "dropped"  # the server closed the connection without answering: just retry
    UNREACHABLE = "unreachable"
    NOT_UTF8 = "not_utf8"  # a lone surrogate in the request: nothing was sent
    ADDRESS_REFUSED = "address_refused"  # a class server does not connect there (agent_core/serving/url_guard.py)
    NOT_API = "not_api"  # a 2xx answer that is not a Messages API reply
    NOT_SET_UP = "not_set_up"  # the provider cannot be used as configured (no key, no base URL): nothing was sent
    OTHER = "other"  # anything else the SDK raised before sending


class StopReason(StrEnum):
    """The API's own stop_reason values (they stay English: they are the wire's words)."""

    END_TURN = "end_turn"
    TOOL_USE = "tool_use"
    MAX_TOKENS = "max_tokens"
    STOP_SEQUENCE = "stop_sequence"
    PAUSE_TURN = "pause_turn"
    REFUSAL = "refusal"
    MODEL_CONTEXT_WINDOW_EXCEEDED = "model_context_window_exceeded"


class StopKind(StrEnum):
    """Why a run ended: a final stop_reason, one of the program's guards, or an error."""

    END_TURN = "end_turn"
    MAX_TOKENS = "max_tokens"
    STOP_SEQUENCE = "stop_sequence"
    REFUSAL = "refusal"
    MODEL_CONTEXT_WINDOW_EXCEEDED = "model_context_window_exceeded"
    UNKNOWN_STOP_REASON = "unknown_stop_reason"
    STEP_LIMIT = "step_limit"
    TOKEN_BUDGET = "token_budget"
    COST_BUDGET = "cost_budget"
    TIMEOUT = "timeout"
    REPEATED_CALL = "repeated_call"
    ERROR_BUDGET = "error_budget"
    API_ERROR = "api_error"
    SPEND_CAP = "spend_cap"
    WORKFLOW_DONE = "workflow_done"
    INVALID_REPLY = "invalid_reply"  # the reply repeats a tool_use id: the API would refuse the history
    REQUEST_TOO_LARGE = "request_too_large"  # the next request would pass the server's size cap: not sent
    RUN_TOO_LARGE = "run_too_large"  # the run holds as many bytes of requests as the server keeps for one run


@dataclass(frozen=True)
class StopInfo:
    """One stop_reason as the loop, the timeline badge and the OpenAI export treat it."""

    reason: StopReason
    ends_loop: bool  # a final stop_reason: the loop stops and shows what it has
    icon: str
    colour: str  # a Streamlit badge colour
    openai_finish: str  # finish_reason in the OpenAI form of a response
    why: str  # English; the UI renders it through the translation catalogue


STOP_TABLE: dict[str, StopInfo] = {
    info.reason: info
    for info in (
        StopInfo(StopReason.TOOL_USE, False, "🔧", "blue", "tool_calls", "run the tools and call again"),
        StopInfo(StopReason.END_TURN, True, "✅", "green", "stop", "the model finished, so show its answer"),
        StopInfo(
            StopReason.MAX_TOKENS,
            True,
            "✂️",
            "orange",
            "length",
            "the reply was cut off at max_tokens, so stop (raise max_tokens to let it finish)",
        ),
        StopInfo(StopReason.STOP_SEQUENCE, True, "⏹️", "orange", "stop", "a stop sequence fired, so stop"),
        StopInfo(StopReason.PAUSE_TURN, False, "⏸️", "violet", "stop", "send the reply back unchanged and call again"),
        StopInfo(
            StopReason.REFUSAL, True, "⛔", "red", "content_filter", "the model declined, so stop and tell the user"
        ),
        StopInfo(
            StopReason.MODEL_CONTEXT_WINDOW_EXCEEDED,
            True,
            "🧱",
            "red",
            "length",
            "the context window is full, so stop (the reply is cut off)",
        ),
    )
}
UNKNOWN_STOP_ICON = ("❓", "red")


def stop_kind(reason: str | None) -> StopKind:
    """The stop kind a stop_reason ends the loop with (one this app cannot name: an unknown stop_reason)."""
    try:
        return StopKind(reason or "")
    except ValueError:
        return StopKind.UNKNOWN_STOP_REASON


def final_stop_reasons() -> dict[str, str]:
    """stop_reason → why the loop stops on it, for the reasons that end the loop."""
    return {reason: info.why for reason, info in STOP_TABLE.items() if info.ends_loop}


class DecisionKind(StrEnum):
    """What the loop decided at a phase; a Turn records these with their parameters, lab_ui words them."""

    REQUEST_BUILT = "request_built"  # messages, tools
    CONTEXT_CLEARED = "context_cleared"  # results: old tool results replaced by a placeholder
    CONTEXT_SUMMARISED = "context_summarised"  # turns: old turns folded into the first message
    CALL_FAILED = "call_failed"  # the model call raised; the turn's ApiError says why
    WORKFLOW_DONE = "workflow_done"  # reason: the one model call of a workflow is answered
    RUN_TOOLS = "run_tools"  # tools: how many tool calls to run
    PAUSE_TURN = "pause_turn"  # send the paused reply back and call again
    FINAL_STOP = "final_stop"  # reason (+ sequence / category, explanation / tool_call_cut_off)
    UNKNOWN_CONTINUE = "unknown_continue"  # reason: the buggy loop treats an unknown stop_reason as "go on"
    UNKNOWN_STOP = "unknown_stop"  # reason: an unknown stop_reason stops the loop
    RESULTS_APPENDED = "results_appended"  # blocks: result blocks appended as ONE user message
    NOTHING_APPENDED = "nothing_appended"  # the forget_assistant_reply bug: nothing went into the history
    DUPLICATE_IDS = "duplicate_tool_use_ids"  # ids: the reply repeats a tool_use id, so nothing runs
    THEN_STOP = "then_stop"  # kind + the stop's params: a guard fired before the next request
    TEXT = "text"  # text: a decision from a v1 run file, kept in the words it was written in
