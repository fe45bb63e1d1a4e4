"""The recording server: answers a program's requests (offline model or pass-through) and keeps every exchange.

`Recorder.handle` has the SimHandler's signature, so the offline server's HTTP layer (sim/server.py) serves it.
Each POST /v1/messages is placed in a run (grouping.py), turned into a turn (build.py) and saved; other calls
(count_tokens, models, probes) are answered and counted, not saved as turns. Class mode hooks in through
`RecorderConfig.owner` (kept on every recorded run) and `save` / `guard` (see start_recorder)."""

from __future__ import annotations

import json
import logging
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import httpx2

from agent_core.cost.pricing import Pricing, load_pricing
from agent_core.model import Exchange, Run, SimSettings, Turn
from agent_core.recorder import build
from agent_core.recorder.clients import client_name
from agent_core.recorder.grouping import Grouper
from agent_core.recorder.sse import assemble
from agent_core.recorder.upstream import Upstream, UpstreamRefused, upstream_url
from agent_core.secrets import redact_headers, scrub_bytes
from agent_core.sim import openai_compat
from agent_core.sim.handler import SimHandler, SimReply
from agent_core.vocab import Provider

log = logging.getLogger(__name__)
MESSAGES_PATHS = ("/v1/messages", "/v1/chat/completions")
CHAT_PATH = "/v1/chat/completions"  # recorded as the Messages API request the compatibility layer sends on
KEPT_RUNS = 100  # runs held in memory to extend; the store keeps them all
RECENT_CALLS = 200


@dataclass(frozen=True)
class RecorderConfig:
    """How a recorder answers and whose runs it makes."""

    upstream: str = Provider.OFFLINE  # "offline", "anthropic", or a compatible server's base URL
    owner: str | None = None  # class mode: the learner who started it; kept on every run it records
    sim: SimSettings = field(default_factory=SimSettings)
    fault_plan: tuple[str, ...] = ()


@dataclass
class Call:
    """One request the recorder answered, for its status panel (no bodies)."""

    at: float
    method: str
    path: str
    status: int | None
    client: str
    run_id: str | None


def _key_of(headers: Mapping[str, str]) -> tuple[str, ...]:
    lower = {k.lower(): v for k, v in headers.items()}
    found = [lower.get("x-api-key", "")]
    bearer = lower.get("authorization", "")
    found.append(bearer[7:] if bearer.lower().startswith("bearer ") else bearer)
    return tuple(v for v in found if v)


def _json(body: bytes) -> Any:
    try:
        return json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None


class Recorder:
    """Serves and records; thread-safe (a program may send from several threads)."""

    def __init__(
        self,
        config: RecorderConfig | None = None,
        save: Callable[[Run, Turn], None] | None = None,
        pricing: Pricing | None = None,
        upstream: Upstream | None = None,
        guard: Callable[[str], None] | None = None,
    ) -> None:
        self.config = config or RecorderConfig()
        self.sim = SimHandler(self.config.sim, fault_plan=list(self.config.fault_plan))
        offline = self.config.upstream == Provider.OFFLINE
        self.upstream = None if offline else upstream or Upstream(upstream_url(self.config.upstream), guard=guard)
        self._save = save
        self._pricing = pricing or load_pricing()
        self.grouper = Grouper()
        self.runs: OrderedDict[str, Run] = OrderedDict()
        self.calls: deque[Call] = deque(maxlen=RECENT_CALLS)
        self.problems: deque[str] = deque(maxlen=20)  # saves that failed (shown, never raised at the program)
        self._lock = threading.RLock()

    # -- the HTTP side ------------------------------------------------------------------------------
    def handle(self, method: str, path: str, headers: Mapping[str, str], body: bytes) -> SimReply:
        started = time.perf_counter()
        reply = self._answer(method, path, headers, body)
        route = path.partition("?")[0].rstrip("/")
        if method.upper() == "POST" and route in MESSAGES_PATHS:
            return self._recorded(method, path, headers, body, reply, started)
        self.calls.append(
            Call(time.time(), method, route, None if reply.drop else reply.status, client_name(headers), None)
        )
        return reply

    def reject(self, status: int, message: str) -> SimReply:
        return self.sim.reject(status, message)

    def _answer(self, method: str, path: str, headers: Mapping[str, str], body: bytes) -> SimReply:
        if self.upstream is None:
            return self.sim.handle(method, path, headers, body)
        try:
            relayed = self.upstream.forward(method, path, headers, body)
        except UpstreamRefused as exc:
            return self.sim.reject(400, f"The recorder did not forward this request: {exc}")
        except httpx2.HTTPError as exc:
            where = self.upstream.base_url
            return self.sim.reject(502, f"The recorder could not reach {where}: {type(exc).__name__}: {exc}")
        streamed = "text/event-stream" in relayed.headers.get("content-type", "")
        if streamed:
            return SimReply(relayed.status, relayed.headers, chunks=relayed.chunks)
        return SimReply(relayed.status, relayed.headers, b"".join(relayed.chunks))

    # -- recording -----------------------------------------------------------------------------------
    def _recorded(
        self,
        method: str,
        path: str,
        headers: Mapping[str, str],
        body: bytes,
        reply: SimReply,
        started: float,
    ) -> SimReply:
        secrets = _key_of(headers)
        host = {k.lower(): v for k, v in headers.items()}.get("host", "recorder")
        exchange = Exchange(
            method=method.upper(),
            url=f"http://{host}{path}",
            request_headers=redact_headers(headers, secrets),
            request_body=scrub_bytes(body, secrets),
            status=None if reply.drop else reply.status,  # a drop: no status and no error words (build.py: DROPPED)
            response_headers=redact_headers(reply.headers, secrets),
        )

        def done(raw: bytes) -> None:
            exchange.response_body = scrub_bytes(raw, secrets)
            exchange.duration_ms = (time.perf_counter() - started) * 1000 + reply.delay_s * 1000
            self._keep(headers, body, exchange, chat=path.partition("?")[0].rstrip("/") == CHAT_PATH)

        if reply.chunks is not None and not isinstance(reply.chunks, list):
            reply.chunks = _tee(reply.chunks, done)  # a live stream: recorded when it has been passed on
        else:
            done(b"".join(reply.chunks) if reply.chunks is not None else reply.body)
        return reply

    def _keep(self, headers: Mapping[str, str], raw: bytes, exchange: Exchange, chat: bool = False) -> None:
        body = _json(raw)
        path = CHAT_PATH if chat else "/v1/messages"
        reply = _reply(exchange)
        if chat:
            body, reply = _from_chat(body, reply)
        if not isinstance(body, dict) or not isinstance(body.get("messages"), list):
            self.calls.append(Call(time.time(), "POST", path, exchange.status, client_name(headers), None))
            return
        with self._lock:
            placement = self.grouper.place(body["messages"])
            run = self.runs.get(placement.run_id)
            if run is None:
                run = build.new_run(placement.run_id, body, self._origin(headers), time.time())
                self.runs[run.id] = run
                while len(self.runs) > KEPT_RUNS:
                    self.runs.popitem(last=False)
            elif not placement.retry:
                build.follow_up(run, body)
                if run.turns:
                    self._store(run, run.turns[-1])
            turn = build.add_exchange(run, body, exchange, reply, self._pricing, placement.retry)
            self.grouper.answered(run.id, reply if reply is not None and reply.get("type") == "message" else None)
            self._store(run, turn)
        self.calls.append(Call(time.time(), "POST", path, exchange.status, client_name(headers), run.id))

    def _origin(self, headers: Mapping[str, str]) -> build.Origin:
        lower = {k.lower(): v for k, v in headers.items()}
        origin = build.Origin(
            client=client_name(headers) or "unknown program",
            upstream=self.config.upstream,
            session=lower.get("x-claude-code-session-id", "")[:80],
        )
        return origin

    def _store(self, run: Run, turn: Turn) -> None:
        if self.config.owner is not None and run.origin is not None:
            run.origin["owner"] = self.config.owner
        if self._save is None:
            return
        try:
            self._save(run, turn)
        except Exception as exc:  # the program still gets its answer; the status panel says what was not saved
            log.exception("the recorder could not save run %s", run.id)
            self.problems.append(f"{type(exc).__name__}: {exc}"[:300])

    def close(self) -> None:
        if self.upstream is not None:
            self.upstream.close()


def _reply(exchange: Exchange) -> dict[str, Any] | None:
    """The message (or error envelope) an exchange carried, streamed or not."""
    if exchange.status is None:
        return None
    if "text/event-stream" in {k.lower(): v for k, v in exchange.response_headers.items()}.get("content-type", ""):
        if exchange.response_body.lstrip().startswith(b"data:"):  # OpenAI's chunks have no event: lines
            return openai_compat.completion_from_chunks(exchange.response_body)
        return assemble(exchange.response_body)
    data = _json(exchange.response_body)
    return data if isinstance(data, dict) else None


def _from_chat(body: Any, reply: dict[str, Any] | None) -> tuple[Any, dict[str, Any] | None]:
    """An OpenAI-form exchange as the Messages API request and reply it stands for (the wire bytes stay as sent)."""
    try:
        request = openai_compat.to_messages_request(body)
    except openai_compat.ChatInvalid:
        return None, None
    if isinstance(reply, dict) and "choices" in reply:
        return request, openai_compat.message_from_completion(reply)
    return request, reply  # an error envelope, or nothing


def _tee(chunks: Iterable[bytes], done: Callable[[bytes], None]) -> Iterator[bytes]:
    parts: list[bytes] = []
    try:
        for chunk in chunks:
            parts.append(chunk)
            yield chunk
    finally:
        done(b"".join(parts))


def start_recorder(
    config: RecorderConfig | None = None,
    host: str = "127.0.0.1",
    port: int = 0,
    save: Callable[[Run, Turn], None] | None = None,
    guard: Callable[[str], None] | None = None,
) -> tuple[Any, str, Recorder]:
    """A recording server in a daemon thread: (server, base_url, recorder); server.shutdown() stops it.

    `save` writes each turn (default: the runs store); class mode passes one that stores the run as the owner's,
    and `guard` (its URL guard) for a compatible upstream."""
    from agent_core.sim.server import start_server
    from agent_core.storage.store import RunStore

    if save is None:
        store = RunStore()
        save = store.save_turn
    recorder = Recorder(config, save=save, guard=guard)
    server, url = start_server(recorder.config.sim, host=host, port=port, handler=recorder)
    return server, url, recorder
