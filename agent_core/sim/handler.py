"""The simulated model's HTTP side: routes a request, validates it, asks the brain, and shapes a real-looking reply."""

from __future__ import annotations

import hashlib
import inspect
import json
import logging
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, cast

from agent_core import jsontext
from agent_core.cost import tokens
from agent_core.lineup import ModelRow
from agent_core.model import SimSettings
from agent_core.sim import behaviour, faults, models_api, openai_compat, request, stream, validate, wire
from agent_core.sim.cache import PromptCache, owner_of
from agent_core.sim.models_api import context_window, max_output, model_info  # noqa: F401 (re-exported)
from agent_core.sim.ratelimit import RateWindow
from agent_core.sim.shape import shape_message

log = logging.getLogger(__name__)

# Deeper JSON is refused with a 400 before any recursive code walks it (tool schemas stay far shallower).
MAX_JSON_DEPTH = 64
_TOO_DEEP = object()
SERVED_ROUTES = (
    "the simulated model serves POST /v1/messages, POST /v1/messages/count_tokens, GET /v1/models, "
    "GET /v1/models/{id} and POST /v1/chat/completions"
)
# What reachability probes ask for; HEAD of any served GET path answers too.
PROBE_ROUTES = frozenset({"", "/api/hello", "/v1"})
SSE_HEADERS = {"content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache"}
CHAT_ROUTE = "/v1/chat/completions"
# Statuses the SDKs retry (with every 5xx): a request answered with one of these is still being retried.
RETRIED_STATUSES = frozenset({408, 409, 429})
# What json.dumps(..., sort_keys=True, ensure_ascii=False, separators=(",", ":")) builds per call, built once.
_CANONICAL = jsontext.encoder(sort_keys=True, separators=(",", ":"))


@dataclass
class SimReply:
    """One HTTP answer from the simulated model (or a dropped connection)."""

    status: int
    headers: dict[str, str]
    body: bytes = b""
    chunks: Iterable[bytes] | None = None  # SSE events (a list offline; a live stream when passed through)
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

    def __init__(
        self,
        status: int,
        message: str,
        headers: dict[str, str] | None = None,
        delay_s: float = 0.0,
        details: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.status, self.message, self.headers, self.delay_s = status, message, headers or {}, delay_s
        self.details = details


def _tie(body: Any, row: ModelRow | None) -> str:
    """What a thinking signature is bound to besides the seed: the model, for models that tie thinking to it.

    (The API also ties them to the conversation; a loop that edits old turns, e.g. context clearing, must keep
    working here, so the sim checks only the model.)"""
    if row is None or not row.behaviour.thinking_tied_to_conversation:
        return ""
    return row.id


def _hex(*parts: Any) -> str:
    return hashlib.sha256("\x1f".join(map(_str, parts)).encode("utf-8")).hexdigest()[:24]


_PRINTABLE = bytes(range(0x20, 0x7F))


def _str(part: Any) -> str:
    """str(part); for a request body, repr of the bytes built in fewer passes when they are printable ASCII with
    no lone single quote (repr then escapes only backslashes and single quotes): a body is hashed on every request."""
    if not isinstance(part, bytes) or part.translate(None, _PRINTABLE):  # what is left is not printable ASCII
        return str(part)
    text = part.decode("ascii")
    if "'" in text and '"' not in text:
        return str(part)
    return "b'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


NOTE_HEADER = "x-sim-note"  # values: "no_world_knowledge" (agent_core/sim/knowledge.py)


def _ids(seed: int, key: str) -> Callable[[str, int], str]:
    """Ids of a reply's parts: _hex(seed, key, kind, i), hashing the long request key once for all of them."""
    prefix = hashlib.sha256(f"{seed}\x1f{key}\x1f".encode())

    def make(kind: str, i: int) -> str:
        digest = prefix.copy()
        digest.update(f"{kind}\x1f{i}".encode())
        return f"{kind}_{digest.hexdigest()[:24]}"

    return make


def canonical(body: dict[str, Any], parts: wire.Parts | None = None) -> str:
    """The request as canonical JSON; `stream` is left out so both modes get the same ids."""
    if parts is not None:
        return wire.canonical(body, parts)
    return _CANONICAL({k: v for k, v in body.items() if k != "stream"})


def _json_reply(status: int, data: dict[str, Any], headers: dict[str, str] | None = None) -> SimReply:
    body = json.dumps(data, ensure_ascii=False).encode("utf-8")
    return SimReply(status, {"content-type": "application/json", **(headers or {})}, body)


def _error_reply(failure: ApiFailure, request_id: str, openai: bool = False) -> SimReply:
    if openai:  # the OpenAI compatibility layer answers in OpenAI's envelope
        param = (failure.details or {}).get("param")
        reply = _json_reply(
            failure.status, openai_compat.error_body(failure.status, failure.message, param), failure.headers
        )
        reply.delay_s = failure.delay_s
        return reply
    envelope = faults.error_body(faults.error_type_for(failure.status), failure.message, request_id)
    if failure.details:
        envelope["error"]["details"] = failure.details
    reply = _json_reply(failure.status, envelope, failure.headers)
    reply.delay_s = failure.delay_s
    return reply


class SimHandler:
    """Answers Messages API requests offline; stateless apart from a log of what it saw."""

    def __init__(
        self,
        settings: SimSettings,
        think: Callable[[dict[str, Any], SimSettings], Any] | None = None,
        fault_plan: list[str] | None = None,
    ) -> None:
        self.settings = settings
        self._think = think
        self.attempts = faults.AttemptCounter()  # retries counted by the server, whatever the client sends
        self.fault_queue = faults.FaultQueue.from_specs(fault_plan or [])
        self.seen: deque[Seen] = deque(maxlen=500)
        self.rate = RateWindow()
        self.cache = PromptCache()  # prompt caching by prefix, per credential, with the API's TTLs

    def handle(self, method: str, path: str, headers: Mapping[str, str], body: bytes) -> SimReply:
        """Answer one HTTP request; every reply carries a request-id header."""
        headers = {k.lower(): v for k, v in headers.items()}
        route, _, query = path.partition("?")
        route = route.rstrip("/")
        attempt_key = self.attempts.key(method.upper(), route, body)
        retry = self.attempts.next_for(attempt_key)
        request_id = "req_" + _hex(self.settings.seed, method, path, body, retry)
        openai = route == CHAT_ROUTE
        try:
            reply = self._route(method.upper(), route, query, headers, body, retry)
        except ApiFailure as failure:
            reply = _error_reply(failure, request_id, openai)
        except Exception as exc:  # a sim bug must reach the client as an API error, not a hung socket
            log.exception("the simulated model failed on %s %s", method, path)
            reply = _error_reply(
                ApiFailure(500, f"The simulated model failed: {type(exc).__name__}: {exc}"), request_id, openai
            )
        if not reply.drop and reply.status not in RETRIED_STATUSES and reply.status < 500:
            self.attempts.answered(attempt_key)
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

    @staticmethod
    def _models(answer: Callable[[], dict[str, Any]]) -> dict[str, Any]:
        try:
            return answer()
        except models_api.ModelsError as exc:
            raise ApiFailure(exc.status, exc.message) from exc

    def _route(
        self, method: str, route: str, query: str, headers: dict[str, str], raw: bytes, attempt: int = 0
    ) -> SimReply:
        if method == "HEAD" or (method, route) == ("GET", ""):
            return self._probe(method, route)
        known = self._known(method, route)
        if known is None:
            # Before any header rule: a client that took a wrong turn learns where it is, not what it lacks.
            raise ApiFailure(404, f"Not found: {method} {route or '/'} ({SERVED_ROUTES})")
        self._check_headers(headers, needs_version=known != "chat")
        if known == "create":
            return self._create(headers, raw, attempt)
        if known == "chat":
            return self._chat(headers, raw, attempt)
        if known == "count":
            return self._count(raw)
        if known == "models":
            return _json_reply(200, self._models(lambda: models_api.list_models(query)))
        model_id = route.rsplit("/", 1)[1]
        return _json_reply(200, self._models(lambda: model_info(models_api.served_row(model_id))))

    @staticmethod
    def _known(method: str, route: str) -> str | None:
        """Which API call a request is, or None for a path this server does not serve."""
        if (method, route) == ("POST", "/v1/messages"):
            return "create"
        if (method, route) == ("POST", "/v1/messages/count_tokens"):
            return "count"
        if (method, route) == ("POST", CHAT_ROUTE):
            return "chat"
        if (method, route) == ("GET", "/v1/models"):
            return "models"
        if method == "GET" and route.startswith("/v1/models/") and route.count("/") == 3:
            return "model"
        return None

    def _probe(self, method: str, route: str) -> SimReply:
        """HEAD requests and GET /: the reachability probes clients send (Claude Code: HEAD /api/hello)."""
        if route in PROBE_ROUTES or (method == "HEAD" and self._known("GET", route) is not None):
            return SimReply(200, {"content-type": "application/json"}, b"" if method == "HEAD" else b"{}")
        raise ApiFailure(404, f"Not found: {method} {route or '/'} ({SERVED_ROUTES})")

    def _parse(self, raw: bytes) -> Any:
        return self._split(raw)[0]

    @staticmethod
    def _split(raw: bytes) -> tuple[Any, wire.Parts | None]:
        """The parsed body, and its tools' and messages' texts (sim/wire.py): work done on them before is reused."""
        try:
            value, parts = wire.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as exc:
            raise ApiFailure(400, f"The request body is not valid JSON: {exc}") from exc
        except RecursionError:
            value, parts = _TOO_DEEP, None
        if value is _TOO_DEEP or not wire.depth_within(value, parts, MAX_JSON_DEPTH):
            raise ApiFailure(400, f"The request body's JSON is nested more than {MAX_JSON_DEPTH} levels deep.")
        return value, parts

    def _check_headers(self, headers: dict[str, str], needs_version: bool = True) -> None:
        """The API's header rules (the OpenAI layer needs a key, not a version); `SimSettings.lenient_headers` (a
        documented teaching flag) waives them."""
        if self.settings.lenient_headers:
            return
        if not headers.get("x-api-key") and not headers.get("authorization"):
            raise ApiFailure(401, "x-api-key header is required")
        if needs_version and not headers.get("anthropic-version"):
            raise ApiFailure(400, "anthropic-version: header is required")

    def _count(self, raw: bytes) -> SimReply:
        body = self._aliases(self._parse(raw))
        self._check(behaviour.check_fields, body, behaviour.COUNT_FIELDS)
        row = self._row(body)
        self._validate(validate.check_count, body, tie=_tie(body, row))
        return _json_reply(200, {"input_tokens": tokens.count_request(body)})

    def _validate(self, check: Callable[..., None], body: Any, **extra: Any) -> None:
        self._check(check, body, seed=self.settings.seed, **extra)

    @staticmethod
    def _check(check: Callable[..., None], *args: Any, **kwargs: Any) -> None:
        try:
            check(*args, **kwargs)
        except validate.InvalidRequest as exc:
            raise ApiFailure(400, str(exc), details=exc.details) from exc

    @staticmethod
    def _row(body: Any) -> ModelRow | None:
        """The requested model's row; unknown and retired models are the API's 404 not_found_error."""
        model = body.get("model") if isinstance(body, dict) else None
        if not isinstance(model, str) or not model:
            return None  # the validator names the missing field
        try:
            return models_api.served_row(model)
        except models_api.ModelsError as exc:
            raise ApiFailure(exc.status, exc.message) from exc

    @staticmethod
    def _aliases(body: Any) -> Any:
        try:
            return request.wire_aliases(body)
        except request.RequestConflict as exc:
            raise ApiFailure(400, str(exc)) from exc

    def _create(self, headers: dict[str, str], raw: bytes, attempt: int = 0) -> SimReply:
        parsed, parts = self._split(raw)
        body = self._aliases(parsed)
        answered = self._message(headers, body, attempt, parts=parts)
        if isinstance(answered, SimReply):
            return answered
        message, delay_s, note = answered
        used = (message["usage"]["input_tokens"], message["usage"]["output_tokens"])
        if body.get("stream"):
            events = stream.sse_events(message)
            return SimReply(200, {**SSE_HEADERS, **note}, chunks=events, delay_s=delay_s, tokens=used)
        reply = _json_reply(200, message)
        reply.headers.update(note)
        reply.delay_s, reply.tokens = delay_s, used
        return reply

    def _chat(self, headers: dict[str, str], raw: bytes, attempt: int = 0) -> SimReply:
        """POST /v1/chat/completions: the request as the OpenAI compatibility layer sends it on, the reply back."""
        chat = self._parse(raw)
        try:
            body = openai_compat.to_messages_request(chat)
        except openai_compat.ChatInvalid as exc:
            raise ApiFailure(400, str(exc), details={"param": exc.param}) from exc
        answered = self._message(headers, body, attempt, thinking_returned=False)
        if isinstance(answered, SimReply):
            return answered
        message, delay_s, _ = answered
        used = (message["usage"]["input_tokens"], message["usage"]["output_tokens"])
        if chat.get("stream"):
            usage = bool((chat.get("stream_options") or {}).get("include_usage"))
            events = openai_compat.chunks(message, usage)
            return SimReply(200, dict(SSE_HEADERS), chunks=events, delay_s=delay_s, tokens=used)
        reply = _json_reply(200, openai_compat.completion(message))
        reply.delay_s, reply.tokens = delay_s, used
        return reply

    def _message(
        self, headers: dict[str, str], body: Any, attempt: int, thinking_returned: bool = True, parts: Any = None
    ) -> SimReply | tuple[dict[str, Any], float, dict[str, str]]:
        """The reply message to a Messages API request body (its delay, and the simulator note's header when the
        brain left one: it said it has no world knowledge), or a dropped connection.

        `thinking_returned=False` (the OpenAI layer, whose replies carry no thinking): a history without the
        thinking blocks it was never shown is not refused. `parts`: the body's tools' and messages' facts."""
        plan = self._plan(body, headers, attempt)
        if plan.drop:
            return SimReply(0, {}, delay_s=plan.delay_s, drop=True)
        if plan.status is not None:
            extra = {} if plan.retry_after is None else {"retry-after": f"{plan.retry_after:g}"}
            raise ApiFailure(plan.status, plan.message, extra, plan.delay_s)
        self._check(behaviour.check_fields, body, behaviour.CREATE_FIELDS)
        if isinstance(body, dict):
            self._check(behaviour.check_thread, body)
        row = self._row(body)
        tie = _tie(body, row)
        unmarked = wire.messages_unmarked(body, parts)
        self._validate(
            validate.check_create,
            body,
            max_output=row.max_output if row else None,
            api_version=headers.get("anthropic-version", ""),
            tie=tie,
            messages_unmarked=unmarked,
        )
        assert row is not None  # the validator refuses a request without a model
        self._check(behaviour.check_model, body, row)
        self._check(behaviour.check_output_config, body)
        if thinking_returned:
            self._check(behaviour.check_thinking_kept, body, row)
        window = context_window(body["model"], self.settings)
        prompt_tokens = tokens.count_request(body, **wire.costs(body, parts))
        if prompt_tokens > window:
            # As the API does: input alone over the window is a 400; the stop_reason is for input that fits.
            raise ApiFailure(400, f"prompt is too long: {prompt_tokens} tokens > {window} maximum")
        draft = self._draft(request.for_brain(body), wire.tool_keys(body, parts), wire.input_keys(body, parts))
        message = shape_message(
            body,
            draft,
            self.settings,
            window,
            ids=_ids(self.settings.seed, canonical(body, parts)),
            unknown_stop_reason=plan.unknown_stop_reason,
            row=row,
            tie=tie,
            prompt_tokens=prompt_tokens,
            cache=self.cache.settle(body, owner_of(headers), unmarked),
        )
        return message, plan.delay_s, ({NOTE_HEADER: draft.note} if getattr(draft, "note", "") else {})

    def _plan(self, body: Any, headers: dict[str, str], attempt: int) -> faults.FaultPlan:
        """The faults for this request: the x-sim-fault header, else the server's queue, else the settings."""
        if headers.get(faults.FAULT_HEADER):
            try:
                return faults.plan_step(faults.header_step(headers, attempt))
            except faults.FaultConfigError as exc:
                raise ApiFailure(400, f"{faults.FAULT_HEADER}: {exc}") from exc
        step = self.fault_queue.take()
        if step is not None:
            return faults.plan_step(step)
        try:
            return faults.plan_faults(self.settings.faults, body, attempt)
        except faults.FaultConfigError as exc:
            raise ApiFailure(500, f"Simulated model misconfigured: {exc}") from exc

    def _draft(
        self, body: dict[str, Any], tool_keys: tuple[str, ...] | None = None, input_keys: dict[int, str] | None = None
    ) -> Any:
        think = self._think
        if think is None:
            from agent_core.sim import brain  # lazy: the brain is a separate module and may load data files

            think = brain.think
        if tool_keys is not None and _takes_tool_keys(think):
            # the real brain takes the tools' keys, each made once per tool text, not again for every request
            keyed = cast(Callable[..., Any], think)
            return keyed(body, self.settings, tool_keys=tool_keys, input_keys=input_keys)
        return think(body, self.settings)


@lru_cache(maxsize=64)
def _takes_tool_keys(think: Callable[..., Any]) -> bool:
    """Whether a brain reads the tools' keys the server made (brain.think does; a scripted stand-in need not)."""
    try:
        return "tool_keys" in inspect.signature(think).parameters
    except (TypeError, ValueError):
        return False
