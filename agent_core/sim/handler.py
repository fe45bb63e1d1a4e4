"""The simulated model's HTTP side: routes a request, validates it, asks the brain, and shapes a real-looking reply."""

from __future__ import annotations

import hashlib
import json
import re
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from agent_core import tokens
from agent_core.model import SimSettings
from agent_core.sim import faults, stream, validate
from agent_core.sim.ratelimit import RateWindow

# Models the simulated /v1/models lists, newest first; windows and output caps follow the family (see facts sheet).
MODEL_IDS = (
    "claude-opus-5-5",
    "claude-sonnet-5-5",
    "claude-haiku-5-5",
    "claude-opus-5",
    "claude-sonnet-5",
    "claude-opus-4-8",
    "claude-opus-4-7",
    "claude-opus-4-6",
    "claude-sonnet-4-6",
    "claude-opus-4-5",
    "claude-sonnet-4-5",
    "claude-haiku-4-5",
)
# Release dates are not part of our facts; the API documents the epoch for "unknown".
UNKNOWN_DATE = "1970-01-01T00:00:00Z"
_FAMILY = re.compile(r"^claude-([a-z]+)-(\d+)(?:-(\d+))?")
# Deeper JSON is refused with a 400 before any recursive code walks it (tool schemas stay far shallower).
MAX_JSON_DEPTH = 64
_TOO_DEEP = object()


@dataclass
class SimReply:
    """One HTTP answer from the simulated model (or a dropped connection)."""

    status: int
    headers: dict[str, str]
    body: bytes = b""
    chunks: list[bytes] | None = None  # SSE events
    delay_s: float = 0.0
    drop: bool = False
    tokens: tuple[int, int] = (0, 0)  # (input, output) of a message reply, for the rate-limit headers


@dataclass
class Seen:
    """One attempt as the simulated server saw it (for tests and the curious)."""

    method: str
    path: str
    retry: int
    status: int | None  # None: the connection was dropped


class ApiFailure(Exception):
    """An error reply: status, error type, message, extra headers."""

    def __init__(self, status: int, message: str, headers: dict[str, str] | None = None, delay_s: float = 0.0) -> None:
        super().__init__(message)
        self.status, self.message, self.headers, self.delay_s = status, message, headers or {}, delay_s


def context_window(model: str, settings: SimSettings) -> int:
    """The window the sim enforces: the setting, else 1M for the 5.x family and 200K otherwise."""
    if settings.context_window:
        return settings.context_window
    match = _FAMILY.match(model)
    return 1_000_000 if match and int(match.group(2)) >= 5 else 200_000


def max_output(model: str) -> int | None:
    """Largest max_tokens a known model accepts; None for names the sim does not list."""
    if model not in MODEL_IDS:
        return None
    if model.startswith("claude-haiku-4"):
        return 64_000
    return 128_000 if int(_FAMILY.match(model).group(2)) >= 5 else 64_000


def model_info(model_id: str) -> dict:
    """One entry of GET /v1/models in the real shape."""
    match = _FAMILY.match(model_id)
    line, major, minor = match.group(1), match.group(2), match.group(3)
    version = f"{major}.{minor}" if minor else major
    return {
        "type": "model",
        "id": model_id,
        "display_name": f"Claude {line.capitalize()} {version}",
        "created_at": UNKNOWN_DATE,
        "lifecycle": "active",
        "line": line,
        "max_input_tokens": context_window(model_id, SimSettings()),
        "max_tokens": max_output(model_id),
    }


def depth_within(value: Any, limit: int) -> bool:
    """True when no list/object in value is nested deeper than limit (iterative: safe on hostile input)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (dict, list)):
            if depth > limit:
                return False
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))
    return True


def _hex(*parts: Any) -> str:
    return hashlib.sha256("\x1f".join(map(str, parts)).encode("utf-8")).hexdigest()[:24]


def canonical(body: dict) -> str:
    """The request as canonical JSON; `stream` is left out so both modes get the same ids."""
    return json.dumps(
        {k: v for k, v in body.items() if k != "stream"}, sort_keys=True, ensure_ascii=False, separators=(",", ":")
    )


def _json_reply(status: int, data: dict, headers: dict[str, str] | None = None) -> SimReply:
    body = json.dumps(data, ensure_ascii=False).encode("utf-8")
    return SimReply(status, {"content-type": "application/json", **(headers or {})}, body)


def _error_reply(failure: ApiFailure, request_id: str) -> SimReply:
    envelope = faults.error_body(faults.error_type_for(failure.status), failure.message, request_id)
    reply = _json_reply(failure.status, envelope, failure.headers)
    reply.delay_s = failure.delay_s
    return reply


class SimHandler:
    """Answers Messages API requests offline; stateless apart from a log of what it saw."""

    def __init__(self, settings: SimSettings, think: Callable[[dict, SimSettings], Any] | None = None) -> None:
        self.settings = settings
        self._think = think
        self.seen: deque[Seen] = deque(maxlen=500)
        self.rate = RateWindow()

    def handle(self, method: str, path: str, headers: Mapping[str, str], body: bytes) -> SimReply:
        """Answer one HTTP request; every reply carries a request-id header."""
        headers = {k.lower(): v for k, v in headers.items()}
        retry = faults.retry_count(headers)
        request_id = "req_" + _hex(self.settings.seed, method, path, body, retry)
        route = path.split("?", 1)[0].rstrip("/")
        try:
            reply = self._route(method.upper(), route, headers, body)
        except ApiFailure as failure:
            reply = _error_reply(failure, request_id)
        except Exception as exc:  # a sim bug must reach the client as an API error, not a hung socket
            reply = _error_reply(
                ApiFailure(500, f"The simulated model failed: {type(exc).__name__}: {exc}"), request_id
            )
        reply.headers["request-id"] = request_id
        reply.headers.update(self.rate.record(*reply.tokens))
        reply.delay_s += self.settings.latency_ms / 1000
        self.seen.append(Seen(method.upper(), route, retry, None if reply.drop else reply.status))
        return reply

    def reject(self, status: int, message: str) -> SimReply:
        """An error reply for a request refused at the HTTP layer (bad framing, too large, too slow)."""
        request_id = "req_" + _hex(self.settings.seed, "rejected", status, message)
        reply = _error_reply(ApiFailure(status, message), request_id)
        reply.headers["request-id"] = request_id
        return reply

    def _route(self, method: str, route: str, headers: dict[str, str], raw: bytes) -> SimReply:
        if (method, route) == ("POST", "/v1/messages"):
            return self._create(headers, raw)
        if (method, route) == ("POST", "/v1/messages/count_tokens"):
            return self._count(raw)
        if (method, route) == ("GET", "/v1/models"):
            data = [model_info(m) for m in MODEL_IDS]
            return _json_reply(
                200, {"data": data, "has_more": False, "first_id": data[0]["id"], "last_id": data[-1]["id"]}
            )
        if method == "GET" and route.startswith("/v1/models/"):
            model_id = route.rsplit("/", 1)[1]
            if model_id not in MODEL_IDS:
                raise ApiFailure(404, f"model: {model_id}")
            return _json_reply(200, model_info(model_id))
        raise ApiFailure(
            404,
            f"Not found: {method} {route} (the simulated model serves POST /v1/messages, "
            "POST /v1/messages/count_tokens and GET /v1/models)",
        )

    def _parse(self, raw: bytes) -> Any:
        try:
            value = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as exc:
            raise ApiFailure(400, f"The request body is not valid JSON: {exc}") from exc
        except RecursionError:
            value = _TOO_DEEP
        if value is _TOO_DEEP or not depth_within(value, MAX_JSON_DEPTH):
            raise ApiFailure(400, f"The request body's JSON is nested more than {MAX_JSON_DEPTH} levels deep.")
        return value

    def _count(self, raw: bytes) -> SimReply:
        body = self._parse(raw)
        self._validate(validate.check_count, body)
        return _json_reply(200, {"input_tokens": tokens.count_request(body)})

    def _validate(self, check: Callable[..., None], body: Any, **extra: Any) -> None:
        try:
            check(body, seed=self.settings.seed, **extra)
        except validate.InvalidRequest as exc:
            raise ApiFailure(400, str(exc)) from exc

    def _create(self, headers: dict[str, str], raw: bytes) -> SimReply:
        body = self._parse(raw)
        plan = self._plan(body, headers)
        if plan.drop:
            return SimReply(0, {}, delay_s=plan.delay_s, drop=True)
        if plan.status is not None:
            extra = {} if plan.retry_after is None else {"retry-after": f"{plan.retry_after:g}"}
            raise ApiFailure(plan.status, plan.message, extra, plan.delay_s)
        model = body.get("model") if isinstance(body, dict) else None
        self._validate(
            validate.check_create,
            body,
            max_output=max_output(model if isinstance(model, str) else ""),
            api_version=headers.get("anthropic-version", ""),
        )
        window = context_window(body["model"], self.settings)
        prompt_tokens = tokens.count_request(body)
        if prompt_tokens > window:
            # As the API does: input alone over the window is a 400; the stop_reason is for input that fits.
            raise ApiFailure(400, f"prompt is too long: {prompt_tokens} tokens > {window} maximum")
        key = canonical(body)
        message = shape_message(
            body,
            self._draft(body),
            self.settings,
            window,
            ids=lambda kind, i: f"{kind}_{_hex(self.settings.seed, key, kind, i)}",
            unknown_stop_reason=plan.unknown_stop_reason,
        )
        used = (message["usage"]["input_tokens"], message["usage"]["output_tokens"])
        if body.get("stream"):
            chunks = stream.sse_events(message)
            return SimReply(
                200,
                {"content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache"},
                chunks=chunks,
                delay_s=plan.delay_s,
                tokens=used,
            )
        reply = _json_reply(200, message)
        reply.delay_s, reply.tokens = plan.delay_s, used
        return reply

    def _plan(self, body: Any, headers: dict[str, str]) -> faults.FaultPlan:
        try:
            return faults.plan_faults(self.settings.faults, body, headers)
        except faults.FaultConfigError as exc:
            raise ApiFailure(500, f"Simulated model misconfigured: {exc}") from exc

    def _draft(self, body: dict) -> Any:
        think = self._think
        if think is None:
            from agent_core.sim import brain  # lazy: the brain is a separate module and may load data files

            think = brain.think
        return think(body, self.settings)


# ---- shaping the brain's draft into a Messages API reply -------------------------------------------------

# A request that exactly fills the window still gets a few words out before the model stops.
SHORT_PARTIAL_TOKENS = 8
UNKNOWN_STOP_TEXT_TOKENS = 12
UNKNOWN_STOP_REASON = "future_reason"


def output_cost(block: dict) -> int:
    """Output tokens of one generated block under the shared estimator."""
    kind = block.get("type")
    if kind == "text":
        return tokens.estimate_text(block["text"])
    if kind == "thinking":
        return tokens.estimate_text(block["thinking"])
    if kind == "tool_use":
        return tokens.estimate_text(block["name"]) + tokens.estimate_json(block["input"])
    return tokens.estimate_json(block)


def cut_text(text: str, budget: int) -> str:
    """The longest prefix of text that fits the token budget."""
    low, high = 0, len(text)
    while low < high:
        mid = (low + high + 1) // 2
        if tokens.estimate_text(text[:mid]) <= budget:
            low = mid
        else:
            high = mid - 1
    return text[:low]


def _cut_input(value: Any, budget: int) -> dict:
    # Whole top-level fields only: what a client parsing the partial JSON stream would also end up with.
    kept: dict = {}
    for key, item in value.items() if isinstance(value, dict) else []:
        if tokens.estimate_json({**kept, key: item}) > budget:
            break
        kept[key] = item
    return kept


def _cut_block(block: dict, budget: int) -> dict | None:
    kind = block["type"]
    if kind == "text":
        text = cut_text(block["text"], budget)
        return {**block, "text": text} if text else None
    if kind == "thinking":
        return {**block, "thinking": cut_text(block["thinking"], budget)}
    if kind == "tool_use":
        return {**block, "input": _cut_input(block["input"], budget - tokens.estimate_text(block["name"]))}
    return None


def fit_blocks(blocks: list[dict], budget: int) -> tuple[list[dict], bool]:
    """Keep blocks while they fit; the first that does not is cut. Returns (blocks, whether anything was cut)."""
    kept: list[dict] = []
    for block in blocks:
        cost = output_cost(block)
        if cost <= budget:
            kept.append(block)
            budget -= cost
            continue
        partial = _cut_block(block, budget) if budget > 0 else None
        return kept + ([partial] if partial else []), True
    return kept, False


def apply_stop_sequences(blocks: list[dict], stops: list[str]) -> tuple[list[dict], str | None]:
    """Cut before the first stop sequence in the text; later blocks are never generated."""
    for index, block in enumerate(blocks):
        if block["type"] != "text" or not stops:
            continue
        hits = [(block["text"].find(s), s) for s in stops if s in block["text"]]
        if hits:
            position, sequence = min(hits)
            head = block["text"][:position]
            return blocks[:index] + ([{**block, "text": head}] if head else []), sequence
    return blocks, None


def _draft_blocks(draft: Any, ids: Callable[[str, int], str]) -> list[dict]:
    blocks, tool_index = [], 0
    for block in draft.content:
        if block.get("type") == "text":
            if block.get("text"):
                blocks.append({"type": "text", "text": block["text"]})
        elif block.get("type") == "tool_use":
            blocks.append(
                {
                    "type": "tool_use",
                    # A draft may bring its own id (a human playing the model); the brain leaves it to us.
                    "id": block.get("id") or ids("toolu", tool_index),
                    "name": block["name"],
                    "input": block.get("input") or {},
                }
            )
            tool_index += 1
        else:
            blocks.append(dict(block))
    return blocks


def thinking_on(body: dict, settings: SimSettings) -> bool:
    """Thinking is on when the request asks for it, or the sim's model thinks by default (unless disabled)."""
    kind = (body.get("thinking") or {}).get("type")
    return kind in ("enabled", "adaptive") or (settings.thinking and kind != "disabled")


def _thinking_block(body: dict, draft: Any) -> dict:
    text = getattr(draft, "reasoning", "") or ""
    budget = (body.get("thinking") or {}).get("budget_tokens")
    return {"type": "thinking", "thinking": cut_text(text, budget) if budget else text, "signature": ""}


def _cache_prefixes(body: dict):
    """(prompt prefix ending at a cache_control mark, that mark), in prompt order."""
    base: dict = {"model": body.get("model", ""), "tool_choice": body.get("tool_choice")}
    tools = body.get("tools") or []
    for i, tool in enumerate(tools):
        if isinstance(tool.get("cache_control"), dict):
            yield {**base, "tools": tools[: i + 1]}, tool["cache_control"]
    base["tools"] = tools
    system = body.get("system")
    for i, block in enumerate(system if isinstance(system, list) else []):
        if isinstance(block.get("cache_control"), dict):
            yield {**base, "system": system[: i + 1]}, block["cache_control"]
    base["system"] = system
    messages = body.get("messages") or []
    for m, message in enumerate(messages):
        content = message.get("content")
        for b, block in enumerate(content if isinstance(content, list) else []):
            if isinstance(block, dict) and isinstance(block.get("cache_control"), dict):
                yield (
                    {**base, "messages": messages[:m] + [{**message, "content": content[: b + 1]}]},
                    block["cache_control"],
                )


def cached_tokens(body: dict) -> tuple[int, int]:
    """Tokens of the cache-marked prefix, split into (5-minute, 1-hour) segments."""
    five = hour = done = 0
    for prefix, mark in _cache_prefixes(body):
        size = max(0, tokens.count_request(prefix) - done)
        done += size
        if mark.get("ttl") == "1h":
            hour += size
        else:
            five += size
    return five, hour


def usage_for(body: dict, output_tokens: int, total: int | None = None) -> dict:
    """Usage as the API reports it; caching is stateless (written before the first reply, read after)."""
    total = tokens.count_request(body) if total is None else total
    five, hour = cached_tokens(body)
    read_phase = any(isinstance(m, dict) and m.get("role") == "assistant" for m in body.get("messages") or [])
    written = 0 if read_phase else five + hour
    return {
        "input_tokens": total - five - hour,
        "cache_creation_input_tokens": written,
        "cache_read_input_tokens": five + hour if read_phase else 0,
        "cache_creation": {
            "ephemeral_5m_input_tokens": 0 if read_phase else five,
            "ephemeral_1h_input_tokens": 0 if read_phase else hour,
        },
        "output_tokens": output_tokens,
        "service_tier": "standard",
    }


def _unknown_stop_blocks(blocks: list[dict]) -> list[dict]:
    text = next((b["text"] for b in blocks if b["type"] == "text"), "") or "..."
    return [{"type": "text", "text": cut_text(text, UNKNOWN_STOP_TEXT_TOKENS) or text[:1]}]


def shape_message(
    body: dict,
    draft: Any,
    settings: SimSettings,
    window: int,
    ids: Callable[[str, int], str],
    unknown_stop_reason: bool = False,
) -> dict:
    """Turn the brain's draft into the reply: stop sequences, thinking, token limits, usage."""
    blocks = _draft_blocks(draft, ids)
    stop_reason, stop_sequence, details = draft.stop_reason, None, getattr(draft, "stop_details", None)
    if details is not None and "type" not in details:
        details = {"type": stop_reason, **details}
    if unknown_stop_reason:
        blocks, stop_reason, details = _unknown_stop_blocks(blocks), UNKNOWN_STOP_REASON, None
    blocks, hit = apply_stop_sequences(blocks, body.get("stop_sequences") or [])
    if hit is not None:
        stop_reason, stop_sequence, details = "stop_sequence", hit, None
    if thinking_on(body, settings):
        blocks.insert(0, _thinking_block(body, draft))
    total = tokens.count_request(body)
    room = window - total
    if room <= 0:  # the input exactly fills the window (more is a 400 before this): no room to write
        text_only = [b for b in blocks if b["type"] == "text"]
        blocks, _ = fit_blocks(text_only, min(SHORT_PARTIAL_TOKENS, body["max_tokens"]))
        stop_reason, stop_sequence, details = "model_context_window_exceeded", None, None
    else:
        blocks, cut = fit_blocks(blocks, min(body["max_tokens"], room))
        if cut:
            stop_reason = "max_tokens" if body["max_tokens"] <= room else "model_context_window_exceeded"
            stop_sequence, details = None, None
    for block in blocks:
        if block["type"] == "thinking":
            block["signature"] = validate.sign_thinking(block["thinking"], settings.seed)
    produced = max(1, sum(output_cost(b) for b in blocks))
    return {
        "id": ids("msg", 0),
        "type": "message",
        "role": "assistant",
        "model": body["model"],
        "content": blocks,
        "stop_reason": stop_reason,
        "stop_sequence": stop_sequence,
        "stop_details": details,
        "usage": usage_for(body, body["max_tokens"] if stop_reason == "max_tokens" else produced, total),
    }
