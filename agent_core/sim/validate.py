"""Request validation for the simulated model: the 400 errors the real Messages API gives, with helpful messages."""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
from typing import Any

TOOL_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
TOOL_USE_ID = re.compile(r"^[a-zA-Z0-9_-]+$")
TOOL_CHOICE_TYPES = ("auto", "any", "tool", "none")
THINKING_TYPES = ("enabled", "adaptive", "disabled", "between_tools")
MIN_THINKING_BUDGET = 1024
MAX_CACHE_BREAKPOINTS = 4
# API version 2026-10-21 dropped the sampling knobs; older versions (the Node SDK's 2023-06-01) still take them.
SAMPLING_REMOVED_IN = "2026-10-21"
SAMPLING_FIELDS = ("temperature", "top_p", "top_k")
BAD_SIGNATURE = "thinking block signature is invalid: thinking blocks must be passed back unchanged"


class InvalidRequest(Exception):
    """A request the real API answers with 400 invalid_request_error; str(self) is the message."""

    details: dict[str, Any] | None = None  # error.details, for the few errors that carry them


def sign_thinking(text: str, seed: int, tie: str = "") -> str:
    """Signature of a thinking block: HMAC-SHA256 of its text keyed by the seed (and, for models that tie thinking
    to the model and conversation, by `tie`), base64."""
    key = f"sim-seed-{seed}" + (f"|{tie}" if tie else "")
    digest = hmac.new(key.encode(), text.encode("utf-8"), hashlib.sha256).digest()
    return base64.b64encode(digest).decode("ascii")


def signature_ok(text: Any, signature: Any, seed: int, tie: str = "") -> bool:
    """True when a thinking block came back exactly as the simulated model wrote it."""
    if not isinstance(text, str) or not isinstance(signature, str):
        return False
    return hmac.compare_digest(sign_thinking(text, seed, tie), signature)


def check_create(
    body: Any,
    seed: int = 0,
    max_output: int | None = None,
    api_version: str = "",
    tie: str = "",
    messages_unmarked: bool = False,
) -> None:
    """Validate a POST /v1/messages body; raise InvalidRequest like the API would (messages_unmarked: the server
    has seen already that no message has a cache_control object)."""
    _check_object(body)
    if "model" not in body:
        raise InvalidRequest("model: Field required")
    _check_max_tokens(body, max_output)
    _check_sampling(body, api_version)
    _check_common(body, seed, tie, messages_unmarked)
    _check_thinking_config(body)


def check_count(body: Any, seed: int = 0, tie: str = "") -> None:
    """Validate a POST /v1/messages/count_tokens body (the create body without max_tokens)."""
    _check_object(body)
    if "model" not in body:
        raise InvalidRequest("model: Field required")
    _check_common(body, seed, tie)


def _check_object(body: Any) -> None:
    if not isinstance(body, dict):
        raise InvalidRequest("The request body must be a JSON object.")


def _check_common(body: dict[str, Any], seed: int, tie: str = "", messages_unmarked: bool = False) -> None:
    if not isinstance(body.get("model"), str) or not body["model"]:
        raise InvalidRequest("model: Input should be a valid string naming a model")
    _check_system(body.get("system"))
    tool_names = _check_tools(body.get("tools"))
    _check_tool_choice(body.get("tool_choice"), tool_names)
    _check_messages(body.get("messages"), seed, tie)
    _check_stop_sequences(body.get("stop_sequences"))
    _check_cache_breakpoints(body, messages_unmarked)


def _check_max_tokens(body: dict[str, Any], max_output: int | None) -> None:
    if "max_tokens" not in body:
        raise InvalidRequest("max_tokens: Field required")
    value = body["max_tokens"]
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidRequest("max_tokens: Input should be a valid integer")
    if value < 1:
        raise InvalidRequest("max_tokens: Input should be greater than or equal to 1")
    if max_output is not None and value > max_output:
        raise InvalidRequest(
            f"max_tokens: {value} > {max_output}, which is the maximum allowed number of "
            f"output tokens for {body.get('model')}"
        )


def _check_sampling(body: dict[str, Any], api_version: str) -> None:
    # ISO dates compare correctly as strings.
    if api_version < SAMPLING_REMOVED_IN:
        return
    for name in SAMPLING_FIELDS:
        if name in body:
            raise InvalidRequest(
                f"{name}: Extra inputs are not permitted (anthropic-version {SAMPLING_REMOVED_IN} "
                "removed temperature, top_p and top_k)"
            )


def _check_system(system: Any) -> None:
    if system is None or isinstance(system, str):
        return
    if not isinstance(system, list):
        raise InvalidRequest("system: Input should be a valid string or a list of text blocks")
    for i, block in enumerate(system):
        if not isinstance(block, dict) or block.get("type") != "text" or not isinstance(block.get("text"), str):
            raise InvalidRequest(f'system.{i}: each system block must be {{"type": "text", "text": "..."}}')


def _check_tools(tools: Any) -> set[str]:
    if tools is None:
        return set()
    if not isinstance(tools, list):
        raise InvalidRequest("tools: Input should be a valid list")
    names: set[str] = set()
    for i, tool in enumerate(tools):
        if not isinstance(tool, dict):
            raise InvalidRequest(f"tools.{i}: Input should be an object")
        name = tool.get("name")
        if not isinstance(name, str) or not TOOL_NAME.match(name):
            raise InvalidRequest(
                f"tools.{i}.name: String should match pattern '^[a-zA-Z0-9_-]{{1,64}}$' "
                f"(got {name!r}): letters, digits, _ and - only, at most 64 characters"
            )
        if tool.get("type") in (None, "custom"):
            _check_schema(i, tool)
        if name in names:
            raise InvalidRequest(f"tools: Tool names must be unique; {name!r} appears more than once")
        names.add(name)
    return names


def _check_schema(i: int, tool: dict[str, Any]) -> None:
    schema = tool.get("input_schema")
    if schema is None:
        raise InvalidRequest(f"tools.{i}.input_schema: Field required (a JSON Schema of the tool's parameters)")
    if not isinstance(schema, dict) or schema.get("type") != "object":
        got = schema.get("type") if isinstance(schema, dict) else schema
        raise InvalidRequest(
            f"tools.{i}.input_schema.type: Input should be 'object' (got {got!r}); "
            "tool parameters are always an object of named fields"
        )


def _check_tool_choice(choice: Any, tool_names: set[str]) -> None:
    if choice is None:
        return
    kind = choice.get("type") if isinstance(choice, dict) else None
    if kind not in TOOL_CHOICE_TYPES:
        raise InvalidRequest(
            f"tool_choice.type: Input tag {kind!r} found using 'type' does not match any of "
            f"the expected tags: {', '.join(repr(t) for t in TOOL_CHOICE_TYPES)}"
        )
    if kind in ("any", "tool") and not tool_names:
        raise InvalidRequest(f"tool_choice: {kind!r} may only be specified while providing tools")
    if kind == "tool":
        name = choice.get("name")
        if name not in tool_names:
            raise InvalidRequest(
                f"tool_choice.name: tool {name!r} not found in tools; "
                f"available: {', '.join(sorted(tool_names)) or 'none'}"
            )


def _check_thinking_config(body: dict[str, Any]) -> None:
    thinking = body.get("thinking")
    if thinking is None:
        return
    kind = thinking.get("type") if isinstance(thinking, dict) else None
    if kind not in THINKING_TYPES:
        raise InvalidRequest(f"thinking.type: Input should be one of {', '.join(repr(t) for t in THINKING_TYPES)}")
    if kind == "disabled":
        return
    if (body.get("tool_choice") or {}).get("type") in ("any", "tool"):
        raise InvalidRequest("Thinking may not be enabled when tool_choice forces tool use.")
    if kind == "enabled":
        budget = thinking.get("budget_tokens")
        if not isinstance(budget, int) or isinstance(budget, bool) or budget < MIN_THINKING_BUDGET:
            raise InvalidRequest(
                "thinking.enabled.budget_tokens: Input should be an integer greater than or "
                f"equal to {MIN_THINKING_BUDGET}"
            )
        if budget >= body["max_tokens"]:
            raise InvalidRequest("`max_tokens` must be greater than `thinking.budget_tokens`")


def _check_stop_sequences(stops: Any) -> None:
    if stops is None:
        return
    if not isinstance(stops, list) or not all(isinstance(s, str) for s in stops):
        raise InvalidRequest("stop_sequences: Input should be a list of strings")
    if any(not s.strip() for s in stops):
        raise InvalidRequest("stop_sequences: each stop sequence must contain non-whitespace")


def _blocks(content: Any) -> list[dict[str, Any]]:
    return [b for b in content if isinstance(b, dict)] if isinstance(content, list) else []


def _check_messages(messages: Any, seed: int, tie: str = "") -> None:
    if messages is None:
        raise InvalidRequest("messages: Field required")
    if not isinstance(messages, list):
        raise InvalidRequest("messages: Input should be a valid list")
    if not messages:
        raise InvalidRequest("messages: at least one message is required")
    if _plainly_valid(messages, seed, tie):
        return  # the common case in one pass; anything unusual goes through the checks below, which name it
    for i, message in enumerate(messages):
        _check_message_shape(i, message, last=i == len(messages) - 1)
    # Mid-conversation `role: "system"` messages are context between turns: the turn rules below read the
    # conversation without them (with each message's own index, for the error messages).
    turns = [(i, m) for i, m in enumerate(messages) if m["role"] != "system"]
    if not turns:
        raise InvalidRequest("messages: at least one user message is required")
    if turns[0][1]["role"] != "user":
        raise InvalidRequest(f'messages.{turns[0][0]}.role: the first message must use the "user" role')
    seen_ids: set[str] = set()  # tool_use ids are unique across the whole history
    contents = [_blocks(m["content"]) for _, m in turns]  # once: each message is read with its neighbours
    for n, (i, message) in enumerate(turns):
        if message["role"] == "assistant":
            _check_tool_use_ids(i, contents[n], seen_ids)
            following = (turns[n + 1][1], contents[n + 1]) if n + 1 < len(turns) else None
            _check_assistant(i, contents[n], following, seed, tie, next_index=turns[n + 1][0] if following else i + 1)
        else:
            previous = (turns[n - 1][1], contents[n - 1]) if n else None
            _check_tool_results(i, contents[n], previous)


def _plainly_valid(messages: list[Any], seed: int, tie: str) -> bool:
    """True when the checks of _check_messages would all pass, found in one pass over user and assistant messages
    with non-empty content; False (a mid-conversation system message, empty content, any rule broken) is not an
    answer: the full checks then run and name the error."""
    seen: set[str] = set()
    asked: set[Any] = set()  # the tool_use ids of the assistant message just before, each to be answered
    for i, message in enumerate(messages):
        if type(message) is not dict or asked and message.get("role") != "user":
            return False
        role, content = message.get("role"), message.get("content")
        if (role != "user" and (role != "assistant" or not i)) or not content or type(content) not in (str, list):
            return False
        answered, other = set(), False
        for block in content if type(content) is list else ():
            kind = block.get("type") if type(block) is dict else None
            if type(kind) is not str or kind == "text" and not block.get("text"):
                return False
            if role == "user" and kind == "tool_result":
                if other or block.get("tool_use_id") not in asked:
                    return False
                answered.add(block["tool_use_id"])
            elif role == "user":
                other = True
            elif kind == "tool_use":
                tool_id = block.get("id")
                if type(tool_id) is not str or not TOOL_USE_ID.match(tool_id) or tool_id in seen:
                    return False
                seen.add(tool_id)
                answered.add(tool_id)
            elif (
                kind == "tool_result"
                or kind == "thinking"
                and not signature_ok(block.get("thinking"), block.get("signature"), seed, tie)
            ):
                return False
        if role == "user" and not asked <= answered:
            return False
        asked = answered if role == "assistant" else set()
    return True


SYSTEM_MESSAGE_BLOCKS = ("text", "tool_addition", "tool_removal")


def _check_message_shape(i: int, message: Any, last: bool = False) -> None:
    if not isinstance(message, dict):
        raise InvalidRequest(f"messages.{i}: Input should be an object with 'role' and 'content'")
    if message.get("role") not in ("user", "assistant", "system"):
        raise InvalidRequest(
            f"messages.{i}.role: Input should be 'user', 'assistant' or 'system' (got {message.get('role')!r})"
        )
    content = message.get("content")
    if content is None:
        raise InvalidRequest(f"messages.{i}.content: Field required")
    if not isinstance(content, (str, list)):
        raise InvalidRequest(f"messages.{i}.content: Input should be a string or a list of content blocks")
    if not content and not (last and message["role"] == "assistant"):
        raise InvalidRequest(
            f"messages.{i}: all messages must have non-empty content except for the optional final assistant message"
        )
    for j, block in enumerate(content if isinstance(content, list) else []):
        if not isinstance(block, dict) or not isinstance(block.get("type"), str):
            raise InvalidRequest(f"messages.{i}.content.{j}.type: Field required")
        if block["type"] == "text" and not block.get("text"):
            raise InvalidRequest(f"messages.{i}.content.{j}.text: text content blocks must be non-empty")
        if message["role"] == "system" and block["type"] not in SYSTEM_MESSAGE_BLOCKS:
            raise InvalidRequest(
                f"messages.{i}.content.{j}.type: a system message holds text (or tool_addition / tool_removal) "
                f"blocks, got {block['type']!r}"
            )


def _check_assistant(
    i: int,
    blocks: list[dict[str, Any]],
    following: tuple[dict[str, Any], list[dict[str, Any]]] | None,
    seed: int,
    tie: str = "",
    next_index: int | None = None,
) -> None:
    for j, block in enumerate(blocks):
        if block["type"] == "tool_result":
            raise InvalidRequest(
                f"messages.{i}.content.{j}: tool_result blocks belong in a user message, not in the assistant's reply"
            )
        if block["type"] == "thinking" and not signature_ok(block.get("thinking"), block.get("signature"), seed, tie):
            raise InvalidRequest(f"messages.{i}.content.{j}: {BAD_SIGNATURE}")
    ids = [b.get("id") for b in blocks if b["type"] == "tool_use"]
    if not ids or following is None:
        return
    answered = {b.get("tool_use_id") for b in following[1] if b["type"] == "tool_result"}
    missing = [x for x in ids if x not in answered] if following[0].get("role") == "user" else ids
    if missing:
        raise InvalidRequest(
            f"messages.{i + 1 if next_index is None else next_index}: `tool_use` ids were found without "
            "`tool_result` blocks immediately after: "
            f"{', '.join(map(str, missing))}. Each `tool_use` block must have a corresponding `tool_result` "
            "block in the next message."
        )


def _check_tool_use_ids(i: int, blocks: list[dict[str, Any]], seen: set[str]) -> None:
    # The API's own words (seen in public bug reports) for a reply edited by hand or assembled wrongly.
    for j, block in enumerate(blocks):
        if block["type"] != "tool_use":
            continue
        tool_id = block.get("id")
        if not isinstance(tool_id, str) or not TOOL_USE_ID.match(tool_id):
            raise InvalidRequest(
                f"messages.{i}.content.{j}.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'"
            )
        if tool_id in seen:
            raise InvalidRequest(f"messages.{i}.content.{j}: `tool_use` ids must be unique")
        seen.add(tool_id)


def _check_tool_results(
    i: int, blocks: list[dict[str, Any]], previous: tuple[dict[str, Any], list[dict[str, Any]]] | None
) -> None:
    asked = set()
    if previous is not None and previous[0].get("role") == "assistant":
        asked = {b.get("id") for b in previous[1] if b["type"] == "tool_use"}
    seen_other = False
    for j, block in enumerate(blocks):
        if block["type"] != "tool_result":
            seen_other = True
            continue
        if seen_other:  # the real API's wording, as its users quote it (e.g. anthropics/claude-code#37)
            raise InvalidRequest(
                f"messages.{i}: Did not find {len(asked) or 1} `tool_result` block(s) at the beginning of this "
                "message. Messages following `tool_use` blocks must begin with a matching number of `tool_result` "
                "blocks."
            )
        if block.get("tool_use_id") not in asked:
            raise InvalidRequest(
                f"messages.{i}.content.{j}: unexpected `tool_use_id` found in `tool_result` blocks: "
                f"{block.get('tool_use_id')}. Each `tool_result` block must have a corresponding `tool_use` "
                "block in the previous message."
            )


def _check_cache_breakpoints(body: dict[str, Any], messages_unmarked: bool = False) -> None:
    marks = cache_marked(body, messages_unmarked)
    automatic = body.get("cache_control")
    if automatic is not None:
        marks.append(_cache_mark("cache_control", automatic))
    for mark in marks:
        _cache_mark("cache_control", mark)
    found = len(marks)
    if found > MAX_CACHE_BREAKPOINTS:
        raise InvalidRequest(
            f"A maximum of {MAX_CACHE_BREAKPOINTS} blocks with cache_control may be provided. Found {found}."
        )


def _cache_mark(where: str, mark: Any) -> dict[str, Any]:
    """A cache_control value as the API types it: {"type": "ephemeral", "ttl"?: "5m" | "1h"}."""
    if not isinstance(mark, dict) or mark.get("type") != "ephemeral":
        raise InvalidRequest(f"{where}.type: Input should be 'ephemeral'")
    if mark.get("ttl") not in (None, "5m", "1h"):
        raise InvalidRequest(f"{where}.ttl: Input should be '5m' or '1h'")
    return mark


def cache_marked(body: dict[str, Any], messages_unmarked: bool = False) -> list[dict[str, Any]]:
    """The cache_control dicts in prompt order (tools, system, messages; messages_unmarked: none in messages)."""
    system = body.get("system")
    blocks = [*(body.get("tools") or []), *(system if isinstance(system, list) else [])]
    # One flat pass: it runs over every block of the history on every request.
    messages = [] if messages_unmarked else body.get("messages") or []
    blocks += [b for m in messages if isinstance(c := m.get("content"), list) for b in c]
    return [m for b in blocks if isinstance(b, dict) and isinstance(m := b.get("cache_control"), dict)]
