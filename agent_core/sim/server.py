"""The simulated model as a real HTTP server (stdlib http.server), for any client in any language."""

from __future__ import annotations

import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from agent_core.model import SimSettings
from agent_core.sim.handler import SimHandler, SimReply


class SimHTTPServer(ThreadingHTTPServer):
    """A threading HTTP server holding one SimHandler; shutdown() also frees the port."""

    daemon_threads = True

    def __init__(self, address: tuple[str, int], handler: SimHandler) -> None:
        super().__init__(address, _RequestHandler)
        self.sim = handler

    def shutdown(self) -> None:
        super().shutdown()
        self.server_close()


class _RequestHandler(BaseHTTPRequestHandler):
    """Hands each request to the SimHandler and writes its reply (JSON, SSE, or nothing for a drop)."""

    protocol_version = "HTTP/1.1"
    server: SimHTTPServer

    def do_GET(self) -> None:
        self._serve()

    def do_POST(self) -> None:
        self._serve()

    do_PUT = do_DELETE = do_PATCH = do_GET

    def _serve(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        reply = self.server.sim.handle(self.command, self.path, dict(self.headers.items()), body)
        if reply.delay_s > 0:
            time.sleep(reply.delay_s)
        if reply.drop:
            self.close_connection = True  # the socket closes with no status line at all
            return
        try:
            self._write(reply)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True  # the client gave up (timeout); nothing left to do

    def _write(self, reply: SimReply) -> None:
        self.send_response(reply.status)
        for name, value in reply.headers.items():
            self.send_header(name, value)
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
    settings: SimSettings, host: str = "127.0.0.1", port: int = 0, handler: SimHandler | None = None
) -> tuple[SimHTTPServer, str]:
    """Serve in a daemon thread; returns (server, base_url). server.shutdown() stops it."""
    server = SimHTTPServer((host, port), handler or SimHandler(settings))
    # A short poll interval lets shutdown() return quickly (tests start and stop many servers).
    threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.05}, name="sim-server", daemon=True
    ).start()
    return server, f"http://{host}:{server.server_port}"


def serve_forever(host: str = "127.0.0.1", port: int = 8765, settings: SimSettings | None = None) -> None:
    """Run the simulated model in the foreground until Ctrl+C (python -m agent_core serve)."""
    server = SimHTTPServer((host, port), SimHandler(settings or SimSettings()))
    print(
        f"Simulated Messages API at http://{host}:{server.server_port}  "
        f"(set ANTHROPIC_BASE_URL to this; any API key works). Ctrl+C stops it.",
        flush=True,
    )
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
