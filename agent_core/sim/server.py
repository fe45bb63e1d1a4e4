"""The simulated model as a real HTTP server (stdlib http.server), for any client in any language.

It holds up under a classroom: a thread per connection and a deep listen backlog, chunked and Content-Length
bodies read strictly (a bad length is a 400, more than MAX_BODY_BYTES a 413 without buffering the body), idle or
slow clients timed out so they cannot pin a thread (a whole header block within HEADER_DEADLINE_S, however slowly
it trickles), at most MAX_CONNECTIONS open at once (more get a 529 at once), and no reply held back longer than
MAX_DELAY_S whatever a `slow:` fault asks."""

from __future__ import annotations

import re
import socket
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Protocol

from agent_core.model import SimSettings
from agent_core.sim.handler import SimHandler, SimReply

# The API's own request cap for the Messages endpoint (messages-api-facts.md: 413 request_too_large).
MAX_BODY_BYTES = 32 * 1024 * 1024
# A whole classroom connecting at once must not see resets (the stdlib default is 5).
LISTEN_BACKLOG = 512
# Seconds a keep-alive connection may sit idle, and a single socket read may stall, before it is closed.
IDLE_TIMEOUT_S = 30.0
# Seconds a client may take to send one whole request body (a slow-loris upload is cut off with 408).
BODY_DEADLINE_S = 60.0
# After a 413 the rest of the upload is read and thrown away (bounded) so the client sees the answer, not a reset.
DRAIN_LIMIT_BYTES = 64 * 1024 * 1024
DRAIN_DEADLINE_S = 2.0
READ_CHUNK = 64 * 1024
# Seconds from a connection being ready for a request to its whole header block having arrived: the idle timeout
# bounds each read, so without this a client sending a byte every 29 s held a thread forever.
HEADER_DEADLINE_S = 30.0
# Open connections at once (a thread each); more are answered 529 and closed (300 trickling sockets held 301 threads).
MAX_CONNECTIONS = 256
# The longest a reply waits for a `slow:` fault or the simulated latency (the app's read timeout is 60 s).
MAX_DELAY_S = 120.0
REAP_INTERVAL_S = 0.5
_DIGITS = re.compile(r"^[0-9]{1,15}$")
_CHUNK_SIZE = re.compile(rb"^([0-9A-Fa-f]{1,15})(;[^\r\n]*)?\r?\n$")


class Answers(Protocol):
    """What the HTTP layer serves: the SimHandler, or anything with its two methods (the recorder)."""

    def handle(self, method: str, path: str, headers: Mapping[str, str], body: bytes) -> SimReply: ...

    def reject(self, status: int, message: str) -> SimReply: ...


class BodyError(Exception):
    """A request body the server refuses before the API logic sees it."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status, self.message = status, message


@dataclass
class Limits:
    """The HTTP limits of one server (tests shrink them to stay small and quick)."""

    max_body: int = MAX_BODY_BYTES
    idle_timeout_s: float = IDLE_TIMEOUT_S
    body_deadline_s: float = BODY_DEADLINE_S
    header_deadline_s: float = HEADER_DEADLINE_S
    max_connections: int = MAX_CONNECTIONS
    max_delay_s: float = MAX_DELAY_S


class SimHTTPServer(ThreadingHTTPServer):
    """A threading HTTP server holding one SimHandler; shutdown() also frees the port."""

    daemon_threads = True
    block_on_close = False
    request_queue_size = LISTEN_BACKLOG
    allow_reuse_address = True

    def __init__(self, address: tuple[str, int], handler: Answers, limits: Limits | None = None) -> None:
        self.sim = handler
        self.limits = limits or Limits()
        # Every open connection, and when its header block must have arrived by (None: reading a body or answering).
        self._open: dict[socket.socket, float | None] = {}
        self._open_lock = threading.Lock()
        self._closed = threading.Event()
        super().__init__(address, _RequestHandler)
        threading.Thread(target=self._reap, name="sim-server-reaper", daemon=True).start()

    def shutdown(self) -> None:
        super().shutdown()
        self.server_close()

    def server_close(self) -> None:
        self._closed.set()
        super().server_close()

    def process_request(self, request: socket.socket, client_address: object) -> None:  # type: ignore[override]
        with self._open_lock:
            full = len(self._open) >= self.limits.max_connections
            if not full:
                self._open[request] = time.monotonic() + self.limits.header_deadline_s
        if full:
            self._refuse_busy(request)
            return
        super().process_request(request, client_address)

    def shutdown_request(self, request: socket.socket) -> None:  # type: ignore[override]
        with self._open_lock:
            self._open.pop(request, None)
        super().shutdown_request(request)

    def expect_headers(self, conn: socket.socket, reading: bool) -> None:
        """A connection starts waiting for a request's headers (reading=True), or has them all (False)."""
        with self._open_lock:
            if conn in self._open:
                self._open[conn] = time.monotonic() + self.limits.header_deadline_s if reading else None

    def _reap(self) -> None:
        """Cut every connection whose header block is late: its blocked read returns, and its thread is freed."""
        while not self._closed.wait(REAP_INTERVAL_S):
            now = time.monotonic()
            with self._open_lock:
                late = [conn for conn, deadline in self._open.items() if deadline is not None and deadline < now]
            for conn in late:
                try:
                    conn.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def _refuse_busy(self, request: socket.socket) -> None:
        reply = self.sim.reject(529, f"Too many open connections (at most {self.limits.max_connections}); retry soon.")
        head = f"HTTP/1.1 529 Overloaded\r\nContent-Length: {len(reply.body)}\r\nConnection: close\r\n"
        head += "".join(f"{name}: {value}\r\n" for name, value in reply.headers.items())
        try:
            request.settimeout(1.0)
            request.sendall(head.encode("latin-1") + b"\r\n" + reply.body)
        except OSError:
            pass
        self.shutdown_request(request)


class _RequestHandler(BaseHTTPRequestHandler):
    """Hands each request to the SimHandler and writes its reply (JSON, SSE, or nothing for a drop)."""

    protocol_version = "HTTP/1.1"
    server: SimHTTPServer

    def setup(self) -> None:
        super().setup()
        # The socket timeout bounds both an idle keep-alive connection and each stalled read. (Set on the socket
        # itself: StreamRequestHandler's `timeout` is a class attribute, and the limit is this server's.)
        timeout = self.server.limits.idle_timeout_s
        if timeout is not None:
            self.connection.settimeout(timeout)

    def handle_one_request(self) -> None:
        self.server.expect_headers(self.connection, reading=True)
        try:
            super().handle_one_request()
        except (TimeoutError, ConnectionError):
            self.close_connection = True  # idle too long, or the client vanished: free the thread

    def parse_request(self) -> bool:
        parsed = super().parse_request()  # reads the header block
        self.server.expect_headers(self.connection, reading=False)
        return parsed

    def do_GET(self) -> None:
        self._serve()

    def do_POST(self) -> None:
        self._serve()

    do_PUT = do_DELETE = do_PATCH = do_OPTIONS = do_GET

    def do_HEAD(self) -> None:
        self._serve(head=True)

    def _serve(self, head: bool = False) -> None:
        try:
            body = self._read_body()
        except BodyError as exc:
            self._refuse(exc)
            return
        reply = self.server.sim.handle(self.command, self.path, dict(self.headers.items()), body)
        if reply.delay_s > 0:
            time.sleep(min(reply.delay_s, self.server.limits.max_delay_s))
        if reply.drop:
            self.close_connection = True  # the socket closes with no status line at all
            return
        try:
            self._write(reply, head)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True  # the client gave up (timeout); nothing left to do

    # ---- reading the body ------------------------------------------------------------------------------

    def _read_body(self) -> bytes:
        try:
            return self._framed_body()
        except TimeoutError:
            self.close_connection = True
            raise BodyError(408, "The request body stopped arriving; the connection is closed.") from None

    def _framed_body(self) -> bytes:
        encoding = (self.headers.get("Transfer-Encoding") or "").strip().lower()
        if encoding:
            if encoding != "chunked":
                raise BodyError(400, f"Transfer-Encoding {encoding!r} is not supported; use chunked or Content-Length")
            # A body framed two ways is a request-smuggling shape: answer it, then close.
            if self.headers.get("Content-Length") is not None:
                self.close_connection = True
            return self._read_chunked()
        return self._read_sized(self._content_length())

    def _content_length(self) -> int:
        values = self.headers.get_all("Content-Length") or []
        if not values:
            return 0
        distinct = {v.strip() for v in values}
        if len(distinct) != 1 or not _DIGITS.match(next(iter(distinct))):
            shown = ", ".join(sorted(distinct))
            raise BodyError(400, f"Content-Length must be one non-negative whole number of bytes, got {shown!r}")
        return int(next(iter(distinct)))

    def _too_large(self, size: str) -> BodyError:
        limit = self.server.limits.max_body
        return BodyError(413, f"Request exceeds the maximum allowed number of bytes ({size} > {limit}).")

    def _read_sized(self, length: int) -> bytes:
        if length > self.server.limits.max_body:
            raise self._too_large(str(length))
        parts, deadline = [], time.monotonic() + self.server.limits.body_deadline_s
        while length > 0:
            part = self.rfile.read1(min(length, READ_CHUNK))
            if not part:
                self.close_connection = True
                raise BodyError(400, "The request body ended before Content-Length bytes arrived.")
            parts.append(part)
            length -= len(part)
            self._check_deadline(deadline)
        return b"".join(parts)

    def _read_chunked(self) -> bytes:
        parts: list[bytes] = []
        total = 0
        deadline = time.monotonic() + self.server.limits.body_deadline_s
        while True:
            line = self.rfile.readline(64)
            match = _CHUNK_SIZE.match(line)
            if not match:
                self.close_connection = True
                raise BodyError(400, "Malformed chunked body: a chunk size line is not hexadecimal.")
            size = int(match.group(1), 16)
            if size == 0:
                self._skip_trailers()
                return b"".join(parts)
            total += size
            if total > self.server.limits.max_body:
                raise self._too_large(f"more than {total}")
            parts.append(self._exactly(size))
            if self.rfile.readline(3) not in (b"\r\n", b"\n"):
                self.close_connection = True
                raise BodyError(400, "Malformed chunked body: a chunk is not followed by CRLF.")
            self._check_deadline(deadline)

    def _exactly(self, size: int) -> bytes:
        data = self.rfile.read(size)
        if len(data) != size:
            self.close_connection = True
            raise BodyError(400, "The chunked body ended in the middle of a chunk.")
        return data

    def _skip_trailers(self) -> None:
        for _ in range(100):
            if self.rfile.readline(8192) in (b"\r\n", b"\n", b""):
                return

    def _check_deadline(self, deadline: float) -> None:
        if time.monotonic() > deadline:
            self.close_connection = True
            raise BodyError(408, "The request body arrived too slowly; the connection is closed.")

    # ---- answering ---------------------------------------------------------------------------------------

    def _refuse(self, exc: BodyError) -> None:
        """Answer a body error in the API's envelope; after a 413 drain what is left (bounded) and close."""
        reply = self.server.sim.reject(exc.status, exc.message)
        self.close_connection = True
        reply.headers["connection"] = "close"
        try:
            self._write(reply)
            if exc.status == 413:
                self._drain()
        except OSError:
            pass

    def _drain(self) -> None:
        # Without this the kernel answers the unread upload with a reset and the client never reads the 413.
        deadline, left = time.monotonic() + DRAIN_DEADLINE_S, DRAIN_LIMIT_BYTES
        self.connection.settimeout(0.2)
        try:
            while left > 0 and time.monotonic() < deadline:
                part = self.rfile.read1(READ_CHUNK)
                if not part:
                    return
                left -= len(part)
        except OSError:
            return

    def _write(self, reply: SimReply, head: bool = False) -> None:
        self.send_response(reply.status)
        for name, value in reply.headers.items():
            self.send_header(name, value)
        if head:  # a HEAD answer has the headers only (its Content-Length would mislead keep-alive readers)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if reply.chunks is None:
            self.send_header("Content-Length", str(len(reply.body)))
            self.end_headers()
            self.wfile.write(reply.body)
            return
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        for chunk in reply.chunks:
            self.wfile.write(f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n")
            self.wfile.flush()
        self.wfile.write(b"0\r\n\r\n")

    def log_message(self, format: str, *args: object) -> None:
        """Quiet: the app and the tests show exchanges themselves."""


def start_server(
    settings: SimSettings,
    host: str = "127.0.0.1",
    port: int = 0,
    handler: Answers | None = None,
    limits: Limits | None = None,
) -> tuple[SimHTTPServer, str]:
    """Serve in a daemon thread; returns (server, base_url). server.shutdown() stops it."""
    server = SimHTTPServer((host, port), handler or SimHandler(settings), limits)
    # A short poll interval lets shutdown() return quickly (tests start and stop many servers).
    threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.05}, name="sim-server", daemon=True
    ).start()
    return server, f"http://{host}:{server.server_port}"


def serve_forever(
    host: str = "127.0.0.1",
    port: int = 8765,
    settings: SimSettings | None = None,
    handler: Answers | None = None,
    fault_plan: list[str] | None = None,
    banner: str | None = None,
) -> None:
    """Run the simulated model (or another Answers, the recorder) in the foreground until Ctrl+C."""
    server = SimHTTPServer((host, port), handler or SimHandler(settings or SimSettings(), fault_plan=fault_plan))
    url = f"http://{host}:{server.server_port}"
    print(
        (banner or "Simulated Messages API at {url}  (set ANTHROPIC_BASE_URL to this; any API key works).").format(
            url=url
        )
        + " Ctrl+C stops it.",
        flush=True,
    )
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
