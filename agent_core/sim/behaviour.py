"""Per-model request rules of the simulated model, read from the lineup table, plus the API's strict top-level checks.

Where the API is strict the sim is strict: unknown top-level fields, the message-threads beta it cannot serve, a
model's refusals (disabled thinking, forced tool use, manual thinking budgets, sampling knobs, prefill) and thinking
blocks that were dropped before the tool results they led to."""

from __future__ import annotations

from typing import Any

from agent_core.lineup import ModelRow
from agent_core.sim.validate import InvalidRequest

# Every body field the installed SDK's MessageCreateParams (plain and beta) can send, plus `stream` and the sampling
# knobs older API versions take (their own check decides on those).
CREATE_FIELDS = frozenset(
    {
        "model",
        "max_tokens",
        "messages",
        "system",
        "tools",
        "tool_choice",
        "stop_sequences",
        "metadata",
        "thinking",
        "stream",
        "output_config",
        "service_tier",
        "container",
        "cache_control",
        "diagnostics",
        "inference_geo",
        "speed",
        "user_profile_id",
        "workspace_id",
        "billing_policy",
        "compaction",
        "context_management",
        "fallback_credit_token",
        "fallbacks",
        "mcp_servers",
        "thread",
        "unsupported_request_behavior",
        "temperature",
        "top_p",
        "top_k",
    }
)
COUNT_FIELDS = frozenset(
    {"model", "messages", "system", "tools", "tool_choice", "thinking", "output_config", "cache_control", "speed"}
    | {"user_profile_id", "workspace_id", "context_management", "mcp_servers"}
)
THREAD_ERROR_CODE = "thread_unsupported_request"
DROPPED_THINKING = (
    "messages.{i}.content.0.type: Expected `thinking` or `redacted_thinking`, but found `{found}`. When `thinking` "
    "is enabled, a final `assistant` message must start with a thinking block (preceding the lastmost set of "
    "`tool_use` and `tool_result` blocks). We recommend you include thinking blocks from previous turns."
)


class ThreadUnsupported(InvalidRequest):
    """The threads beta refused the way the API refuses a request it cannot thread (the SDK then sends full history)."""

    details = {"error_code": THREAD_ERROR_CODE, "unsupported": ["thread"]}


def check_fields(body: Any, allowed: frozenset[str]) -> None:
    """Unknown top-level fields are a 400, as on the API (a typo like `max_token` is not silently ignored)."""
    if not isinstance(body, dict):
        return
    unknown = sorted(set(body) - allowed)
    if unknown:
        raise InvalidRequest(f"{unknown[0]}: Extra inputs are not permitted")


def check_thread(body: dict[str, Any]) -> None:
    """The sim keeps no server-side history, so a `thread` is refused with the details the SDK falls back on."""
    if "thread" in body:
        raise ThreadUnsupported(
            "thread: the simulated model keeps no server-side history, so the message threads beta is not "
            "available for this request; send the whole history instead"
        )


def thinking_type(body: dict[str, Any], row: ModelRow) -> str:
    """The thinking mode this request runs with: what it asks for, else the model's default ("off": not asked)."""
    asked: str | None = (body.get("thinking") or {}).get("type") if isinstance(body.get("thinking"), dict) else None
    if asked:
        return asked
    # A model that thinks by default does not when the request forces a tool (thinking and forcing never mix).
    forced = (body.get("tool_choice") or {}).get("type") in ("any", "tool")
    return "adaptive" if row.thinks_by_default and not forced else "off"


def check_output_config(body: dict[str, Any]) -> None:
    """`output_config.format`, when given, must be a JSON schema of an object-shaped answer."""
    config = body.get("output_config")
    if config is None:
        return
    fmt = config.get("format") if isinstance(config, dict) else None
    if fmt is None:
        return
    if not isinstance(fmt, dict) or fmt.get("type") != "json_schema":
        raise InvalidRequest("output_config.format.type: Input should be 'json_schema'")
    if not isinstance(fmt.get("schema"), dict):
        raise InvalidRequest("output_config.format.schema: Field required (a JSON Schema object)")


def check_model(body: dict[str, Any], row: ModelRow) -> None:
    """The refusals that differ by model (models.json `behaviour`)."""
    rules, kind = row.behaviour, thinking_type(body, row)
    if kind == "disabled" and rules.thinking_disabled == "between_tools":
        raise InvalidRequest(
            f'thinking.type: "disabled" is not supported on {row.id}. To turn off up-front thinking, send '
            'thinking: {"type": "between_tools"}'
        )
    if kind == "disabled" and rules.thinking_disabled == "rejected" and "thinking" in body:
        raise InvalidRequest(f"thinking.type: thinking cannot be disabled on {row.id}; it is always on")
    if kind == "between_tools" and rules.thinking_disabled != "between_tools":
        raise InvalidRequest(f'thinking.type: "between_tools" is not supported on {row.id}')
    if kind == "enabled" and not rules.manual_budget_tokens:
        raise InvalidRequest(
            f'thinking.type: "enabled" with budget_tokens is not supported on {row.id}; use '
            'thinking: {"type": "adaptive"} and the effort parameter'
        )
    forced = (body.get("tool_choice") or {}).get("type") in ("any", "tool")
    if forced and not rules.forced_tool_choice:
        raise InvalidRequest(
            f'tool_choice: forced tool use ("any" or "tool") is not supported on {row.id}; use "auto" or "none" '
            "and say in the prompt which tool to use"
        )
    _check_sampling(body, row)
    _check_prefill(body, row)


def _check_sampling(body: dict[str, Any], row: ModelRow) -> None:
    if row.behaviour.sampling != "default_only":
        return
    if body.get("temperature", 1) != 1 or "top_p" in body or "top_k" in body:
        raise InvalidRequest(
            f"temperature, top_p and top_k cannot be set to non-default values on {row.id}; leave them out"
        )


def _has_server_tool(body: dict[str, Any]) -> bool:
    return any(isinstance(t, dict) and t.get("type") not in (None, "custom") for t in body.get("tools") or [])


def _check_prefill(body: dict[str, Any], row: ModelRow) -> None:
    messages = body.get("messages") or []
    last = messages[-1] if messages and isinstance(messages[-1], dict) else {}
    # Continuing a paused server-tool turn ends with the assistant's reply too; that is not a prefill.
    if last.get("role") == "assistant" and not row.behaviour.prefill and not _has_server_tool(body):
        raise InvalidRequest(
            f"This model ({row.id}) does not support assistant message prefill. The conversation must end with a "
            "user message; use output_config.format or the system prompt to shape the answer"
        )


def check_thinking_kept(body: dict[str, Any], row: ModelRow) -> None:
    """With thinking on, the assistant turn before the latest tool results must still start with its thinking."""
    if thinking_type(body, row) not in ("enabled", "adaptive"):
        return
    messages = [m for m in body.get("messages") or [] if isinstance(m, dict)]
    if len(messages) < 2 or messages[-1].get("role") != "user":
        return
    results = messages[-1].get("content")
    if not isinstance(results, list) or not any(
        isinstance(b, dict) and b.get("type") == "tool_result" for b in results
    ):
        return
    index = len(messages) - 2
    content = messages[index].get("content")
    first = content[0] if isinstance(content, list) and content else None
    found = first.get("type") if isinstance(first, dict) else "text"
    if messages[index].get("role") == "assistant" and found not in ("thinking", "redacted_thinking"):
        raise InvalidRequest(DROPPED_THINKING.format(i=index, found=found))
