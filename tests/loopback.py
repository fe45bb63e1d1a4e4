"""A tiny HTTP listener on 127.0.0.1 that records every request it receives (tests of what must never be sent)."""

from __future__ import annotations

import http.server
import socket
import threading
from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass
class Hit:
    """One request the listener received."""

    method: str
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Listener:
    """Counts requests; answers every one with a fixed JSON body (a 401 echoing what it was sent, by default)."""

    hits: list[Hit] = field(default_factory=list)
    server: http.server.ThreadingHTTPServer | None = None
    # The reply: (status, headers, body) for a request; by default a plain 401.
    reply: Callable[[Hit], tuple[int, dict[str, str], bytes]] | None = None

    @property
    def url(self) -> str:
        assert self.server is not None
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def carrying(self, secret: str) -> list[Hit]:
        """Requests whose headers, path or body hold the secret."""
        return [
            h
            for h in self.hits
            if secret in h.path or any(secret in v for v in h.headers.values()) or secret.encode() in h.body
        ]


def start_listener(reply: Callable[[Hit], tuple[int, dict[str, str], bytes]] | None = None) -> Listener:
    listener = Listener(reply=reply)

    class Handler(http.server.BaseHTTPRequestHandler):
        def _any(self) -> None:
            length = int(self.headers.get("content-length") or 0)
            body = self.rfile.read(length) if length else b""
            hit = Hit(self.command, self.path, dict(self.headers.items()), body)
            listener.hits.append(hit)
            status, headers, payload = (listener.reply or _plain_401)(hit)
            self.send_response(status)
            for name, value in {"content-type": "application/json", **headers}.items():
                self.send_header(name, value)
            self.send_header("content-length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        do_GET = do_POST = do_HEAD = _any

        def log_message(self, *args: object) -> None:  # keep test output clean
            pass

    listener.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=listener.server.serve_forever, daemon=True).start()
    return listener


def _plain_401(hit: Hit) -> tuple[int, dict[str, str], bytes]:
    return 401, {}, b'{"type":"error","error":{"type":"authentication_error","message":"no"}}'


def stop_listener(listener: Listener) -> None:
    if listener.server is not None:
        listener.server.shutdown()
        listener.server.server_close()


@dataclass
class Silent:
    """A server that accepts connections and reads requests, answers the first few with canned replies, and then
    never answers (a stuck local model server). `requests` counts what it received."""

    replies: list[bytes] = field(default_factory=list)  # JSON bodies for the first requests, sent with 200
    requests: list[str] = field(default_factory=list)  # "METHOD path" of each request received
    sock: socket.socket | None = None
    held: list[socket.socket] = field(default_factory=list)

    @property
    def url(self) -> str:
        assert self.sock is not None
        return f"http://127.0.0.1:{self.sock.getsockname()[1]}"

    def stop(self) -> None:
        for conn in [*self.held, self.sock]:
            if conn is not None:
                conn.close()


def start_silent(replies: list[bytes] | None = None) -> Silent:
    silent = Silent(replies=list(replies or []))
    silent.sock = socket.socket()
    silent.sock.bind(("127.0.0.1", 0))
    silent.sock.listen(16)

    def serve(conn: socket.socket) -> None:
        reader = conn.makefile("rb")
        try:
            while True:
                line = reader.readline()
                if not line:
                    return
                length = 0
                while (header := reader.readline()) not in (b"\r\n", b"\n", b""):
                    name, _, value = header.decode("latin-1").partition(":")
                    if name.strip().lower() == "content-length":
                        length = int(value.strip())
                reader.read(length)
                silent.requests.append(" ".join(line.decode("latin-1").split()[:2]))
                if not silent.replies:
                    continue  # read it, never answer it (the client may send no more on this connection)
                body = silent.replies.pop(0)
                head = f"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {len(body)}\r\n\r\n"
                conn.sendall(head.encode() + body)
        except OSError:
            return

    def accept() -> None:
        while True:
            try:
                conn, _ = silent.sock.accept()
            except OSError:
                return  # stopped
            silent.held.append(conn)
            threading.Thread(target=serve, args=(conn,), daemon=True).start()

    threading.Thread(target=accept, daemon=True).start()
    return silent
