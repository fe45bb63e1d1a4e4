"""A live MCP server in the loop: started over stdio with the official SDK's client, its JSON-RPC kept as it went.

`McpServer.start()` launches the server (the bundled weather server by default), runs `initialize` and
`tools/list`; `tools()` gives its tools as Messages API definitions (`tools_from_mcp`), `call()` runs
`tools/call`. Every JSON-RPC message both ways is kept in `exchanges` (direction, time, the message as sent), so
a turn can show the MCP traffic beside its Messages API exchanges. The SDK is async; this wraps it in one
background event loop per server, so the synchronous loop and the Playground can call it."""

from __future__ import annotations

import asyncio
import sys
import threading
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from agent_core.tools.mcp import tools_from_mcp

BUNDLED = (sys.executable, "-m", "agent_core.tools.mcp_weather")
START_TIMEOUT_S = 30.0
CALL_TIMEOUT_S = 30.0


@dataclass
class RpcMessage:
    """One JSON-RPC message on the wire: "sent" (client to server) or "received", and the message itself."""

    direction: str
    at: float
    message: dict[str, Any]

    @property
    def method(self) -> str:
        return str(self.message.get("method") or ("result" if "result" in self.message else "error"))


def _as_dict(item: Any) -> dict[str, Any] | None:
    message = getattr(item, "message", item)
    dump = getattr(message, "model_dump", None)
    if dump is None:
        return None
    data = dump(by_alias=True, exclude_none=True, mode="json")
    root = data.get("root", data) if isinstance(data, dict) else data
    return root if isinstance(root, dict) else None


class _TapRead:
    def __init__(self, inner: Any, log: list[RpcMessage]) -> None:
        self._inner, self._log = inner, log

    async def receive(self) -> Any:
        item = await self._inner.receive()
        if (data := _as_dict(item)) is not None:
            self._log.append(RpcMessage("received", time.time(), data))
        return item

    def __aiter__(self) -> _TapRead:
        return self

    async def __anext__(self) -> Any:
        try:
            return await self.receive()
        except Exception as exc:  # the stream's end (EndOfStream, ClosedResourceError) ends the iteration
            if type(exc).__name__ in ("EndOfStream", "ClosedResourceError", "BrokenResourceError"):
                raise StopAsyncIteration from exc
            raise

    async def aclose(self) -> None:
        await self._inner.aclose()

    async def __aenter__(self) -> _TapRead:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()


class _TapWrite:
    def __init__(self, inner: Any, log: list[RpcMessage]) -> None:
        self._inner, self._log = inner, log

    async def send(self, item: Any, /) -> None:
        if (data := _as_dict(item)) is not None:
            self._log.append(RpcMessage("sent", time.time(), data))
        await self._inner.send(item)

    async def aclose(self) -> None:
        await self._inner.aclose()

    async def __aenter__(self) -> _TapWrite:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()


@dataclass
class McpServer:
    """One live MCP server over stdio, and every JSON-RPC message exchanged with it."""

    command: tuple[str, ...] = BUNDLED
    exchanges: list[RpcMessage] = field(default_factory=list)
    _listing: list[dict[str, Any]] = field(default_factory=list)
    _loop: asyncio.AbstractEventLoop | None = None
    _client: Any = None
    _closing: Any = None
    _thread: threading.Thread | None = None

    def start(self) -> McpServer:
        """Launch the server and list its tools; raises RuntimeError (with the reason) when it cannot start."""
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="mcp-client", daemon=True)
        self._thread.start()
        try:
            self._run(self._open(), START_TIMEOUT_S)
        except Exception as exc:
            self.close()
            raise RuntimeError(f"The MCP server {' '.join(self.command)} did not start: {exc}") from exc
        return self

    def tools(self) -> list[dict[str, Any]]:
        """The server's tools as Messages API definitions (what tools/list answered)."""
        return tools_from_mcp({"tools": self._listing})

    def call(self, name: str, arguments: dict[str, Any]) -> tuple[str, bool, list[RpcMessage]]:
        """tools/call: (the text it returned, whether it is an error, the JSON-RPC messages of this call)."""
        before = len(self.exchanges)
        result = self._run(self._client.call_tool(name, arguments), CALL_TIMEOUT_S)
        text = "\n".join(getattr(part, "text", "") for part in getattr(result, "content", []) or [])
        return text, bool(getattr(result, "is_error", False)), self.exchanges[before:]

    def close(self) -> None:
        if self._loop is None:
            return
        if self._closing is not None:
            try:
                self._run(self._closing(), 10.0)
            except Exception:  # a server that died already: nothing left to close
                pass
        self._loop.call_soon_threadsafe(self._loop.stop)
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._loop, self._client, self._closing = None, None, None

    # -- the async side ---------------------------------------------------------------------------
    def _run(self, coroutine: Any, timeout: float) -> Any:
        assert self._loop is not None, "start() the server first"
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop).result(timeout)

    async def _open(self) -> None:
        from mcp import Client
        from mcp.client.stdio import StdioServerParameters, stdio_client

        params = StdioServerParameters(command=self.command[0], args=list(self.command[1:]))
        log = self.exchanges

        @asynccontextmanager
        async def tapped() -> AsyncIterator[tuple[_TapRead, _TapWrite]]:
            async with stdio_client(params) as (read, write):
                yield _TapRead(read, log), _TapWrite(write, log)

        client = Client(tapped(), mode="legacy")  # the initialize handshake, as the MCP quickstart's client does
        await client.__aenter__()
        self._client = client
        self._closing = lambda: client.__aexit__(None, None, None)
        listed = await client.list_tools()
        self._listing = [t.model_dump(by_alias=True, exclude_none=True, mode="json") for t in listed.tools]
