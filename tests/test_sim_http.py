"""The simulated server's HTTP layer over raw loopback sockets: concurrency, framing, limits and timeouts."""

from __future__ import annotations

import json
import socket
import threading

import pytest

from agent_core.model import SimSettings
from agent_core.sim import start_server
from agent_core.sim.server import MAX_BODY_BYTES, Limits

COUNT_BODY = json.dumps(
    {"model": "claude-sonnet-5-5", "messages": [{"role": "user", "content": "Hello there"}]}
).encode()
HEADERS = "anthropic-version: 2023-06-01\r\nx-api-key: test-key\r\ncontent-type: application/json\r\n"


@pytest.fixture
def serve():
    servers = []

    def build(limits: Limits | None = None):
        server, _ = start_server(SimSettings(), limits=limits)
        servers.append(server)
        return server.server_port

    yield build
    for server in servers:
        server.shutdown()


def connect(port: int) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    _readers.pop(sock.fileno(), None)  # a reused descriptor number must not inherit an old reader
    return sock


def read_response(sock: socket.socket) -> tuple[int, dict[str, str], bytes]:
    """One HTTP/1.1 response with a Content-Length body (what the server sends for JSON)."""
    reader = _readers.setdefault(sock.fileno(), sock.makefile("rb"))
    status_line = reader.readline()
    if not status_line:
        raise ConnectionError("closed before a response")
    headers: dict[str, str] = {}
    for line in iter(reader.readline, b"\r\n"):
        name, _, value = line.decode().partition(":")
        headers[name.strip().lower()] = value.strip()
    body = reader.read(int(headers.get("content-length", "0")))
    return int(status_line.split()[1]), headers, body


_readers: dict[int, object] = {}


def post(path: str, body: bytes, extra: str = "") -> bytes:
    return f"POST {path} HTTP/1.1\r\nHost: x\r\n{HEADERS}{extra}Content-Length: {len(body)}\r\n\r\n".encode() + body


def test_200_concurrent_connections_all_answered(serve):
    port = serve()
    barrier = threading.Barrier(200)
    outcomes: list[object] = []
    lock = threading.Lock()

    def one() -> None:
        try:
            barrier.wait(timeout=30)
            with connect(port) as sock:
                sock.sendall(post("/v1/messages/count_tokens", COUNT_BODY))
                status, _, body = read_response(sock)
            result: object = (status, json.loads(body).get("input_tokens", 0) > 0)
        except Exception as exc:  # every failure is counted, none hidden
            result = exc
        with lock:
            outcomes.append(result)

    threads = [threading.Thread(target=one) for _ in range(200)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    failures = [o for o in outcomes if o != (200, True)]
    assert len(outcomes) == 200 and failures == []


def test_chunked_body_is_read_and_the_connection_stays_in_sync(serve):
    port = serve()
    half = len(COUNT_BODY) // 2
    chunks = f"{half:x}\r\n".encode() + COUNT_BODY[:half] + b"\r\n"
    chunks += f"{len(COUNT_BODY) - half:x}\r\n".encode() + COUNT_BODY[half:] + b"\r\n0\r\n\r\n"
    request = (
        f"POST /v1/messages/count_tokens HTTP/1.1\r\nHost: x\r\n{HEADERS}Transfer-Encoding: chunked\r\n\r\n".encode()
        + chunks
    )
    with connect(port) as sock:
        sock.sendall(request + post("/v1/messages/count_tokens", COUNT_BODY))
        first = read_response(sock)
        second = read_response(sock)
    assert first[0] == 200 and second[0] == 200
    assert json.loads(first[2]) == json.loads(second[2])


@pytest.mark.parametrize("length", ["abc", "-5", "1e3", "12, 13"])
def test_bad_content_length_is_a_400_with_the_api_envelope(serve, length):
    port = serve()
    with connect(port) as sock:
        sock.sendall(f"POST /v1/messages HTTP/1.1\r\nHost: x\r\n{HEADERS}Content-Length: {length}\r\n\r\n{{}}".encode())
        status, headers, body = read_response(sock)
    error = json.loads(body)
    assert status == 400 and error["type"] == "error" and error["error"]["type"] == "invalid_request_error"
    assert "Content-Length" in error["error"]["message"] and headers["request-id"].startswith("req_")


def test_body_over_32_mb_is_413_before_it_is_read(serve):
    port = serve()
    with connect(port) as sock:
        # Only the headers are sent: the server must answer from the declared size alone.
        sock.sendall(
            f"POST /v1/messages HTTP/1.1\r\nHost: x\r\n{HEADERS}Content-Length: {MAX_BODY_BYTES + 1}\r\n\r\n".encode()
        )
        sock.sendall(b"{" * 4096)
        status, headers, body = read_response(sock)
    assert status == 413 and json.loads(body)["error"]["type"] == "request_too_large"
    assert headers["connection"] == "close"


def test_chunked_body_over_the_cap_is_413(serve):
    port = serve(Limits(max_body=1000))
    chunk = b"6" * 600
    request = (
        f"POST /v1/messages HTTP/1.1\r\nHost: x\r\n{HEADERS}Transfer-Encoding: chunked\r\n\r\n".encode()
        + (f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n") * 3
        + b"0\r\n\r\n"
    )
    with connect(port) as sock:
        sock.sendall(request)
        status, _, body = read_response(sock)
    assert status == 413 and json.loads(body)["error"]["type"] == "request_too_large"


def test_deeply_nested_json_is_a_400_not_a_crash(serve):
    port = serve()
    deep = b'{"model": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    with connect(port) as sock:
        sock.sendall(post("/v1/messages", deep))
        status, _, body = read_response(sock)
    error = json.loads(body)["error"]
    assert status == 400 and error["type"] == "invalid_request_error" and "nested" in error["message"]


def test_idle_connection_is_closed(serve):
    port = serve(Limits(idle_timeout_s=0.2))
    with connect(port) as sock:
        assert sock.recv(10) == b""  # the server hung up on a connection that never spoke


def test_stalled_body_gets_408_and_a_closed_connection(serve):
    port = serve(Limits(idle_timeout_s=0.2))
    with connect(port) as sock:
        sock.sendall(f"POST /v1/messages HTTP/1.1\r\nHost: x\r\n{HEADERS}Content-Length: 500\r\n\r\n{{".encode())
        status, headers, _ = read_response(sock)
        assert status == 408 and headers["connection"] == "close"
        assert sock.recv(10) == b""


def test_replies_carry_request_id_and_rate_limit_headers(serve):
    port = serve()
    with connect(port) as sock:
        sock.sendall(post("/v1/messages/count_tokens", COUNT_BODY) + post("/v1/messages/count_tokens", COUNT_BODY))
        _, first, _ = read_response(sock)
        _, second, _ = read_response(sock)
    assert first["request-id"].startswith("req_")
    limit = int(first["anthropic-ratelimit-requests-limit"])
    assert int(first["anthropic-ratelimit-requests-remaining"]) < limit
    assert (
        int(second["anthropic-ratelimit-requests-remaining"])
        == int(first["anthropic-ratelimit-requests-remaining"]) - 1
    )
    assert first["anthropic-ratelimit-requests-reset"].endswith("Z")
    for name in ("input-tokens", "output-tokens", "tokens"):
        assert f"anthropic-ratelimit-{name}-remaining" in first


def test_a_header_block_trickled_in_is_cut_at_the_header_deadline(serve):
    # Each byte comes well within the idle timeout, so only the deadline on the whole block can end it.
    port = serve(Limits(idle_timeout_s=5.0, header_deadline_s=0.5))
    stop = threading.Event()
    with connect(port) as sock:

        def trickle() -> None:
            line = b"POST /v1/messages HTTP/1.1\r\nHost: x\r\n" + b"x-pad: " + b"a" * 500
            for byte in line:
                if stop.wait(0.05):
                    return
                try:
                    sock.send(bytes([byte]))
                except OSError:
                    return

        threading.Thread(target=trickle, daemon=True).start()
        sock.settimeout(4.0)  # the idle timeout (5 s) would never fire: each byte resets it
        try:
            assert sock.recv(10) == b""
        finally:
            stop.set()


def test_connections_beyond_the_cap_get_529_and_the_others_are_served(serve):
    port = serve(Limits(max_connections=3))
    held = [connect(port) for _ in range(3)]
    try:
        with connect(port) as extra:
            status, headers, body = read_response(extra)
            assert status == 529 and headers["connection"] == "close"
            assert json.loads(body)["error"]["type"] == "overloaded_error"
        held[0].sendall(post("/v1/messages/count_tokens", COUNT_BODY))
        assert read_response(held[0])[0] == 200  # the ones already open are answered as usual
    finally:
        for sock in held:
            sock.close()


def test_a_slow_fault_is_capped(serve):
    port = serve(Limits(max_delay_s=0.1))
    body = json.dumps({"model": "claude-sonnet-5-5", "max_tokens": 20, "messages": [{"role": "user", "content": "Hi"}]})
    with connect(port) as sock:
        sock.settimeout(5.0)  # slow:3600 would hold the reply for an hour
        sock.sendall(post("/v1/messages", body.encode(), extra="x-sim-fault: slow:3600\r\n"))
        assert read_response(sock)[0] == 200
