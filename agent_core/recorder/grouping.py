"""Exchanges grouped into runs the way a loop builds them.

A request whose `messages` are an earlier request's messages plus that request's reply (and more: the tool
results, the next question) continues that run; the same messages sent again after a failed attempt are a retry
of the same turn; anything else starts a run. Messages are compared as a loop would rebuild them: without
`cache_control` marks (clients move them every turn), with a reply's blocks in their essentials (clients
re-serialise replies: `citations: null` dropped, thinking text omitted, strings for one text block)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from agent_core import jsontext

OPEN_RUNS = 200  # runs that may still grow; older ones are closed (a new request then starts a run)
_CANON = jsontext.encoder(sort_keys=True, separators=(",", ":"))


def _canon(value: Any) -> str:
    return _CANON(value)


def _result_content(content: Any) -> Any:
    if isinstance(content, str):
        return [("text", content.strip())] if content.strip() else []
    if isinstance(content, list):
        return [
            _block_key(b)
            for b in content
            if not (isinstance(b, dict) and b.get("type") == "text" and not b.get("text"))
        ]
    return _canon(content)


def _block_key(block: Any) -> Any:
    """What identifies a block when a client sends it back (see the module docstring)."""
    if not isinstance(block, dict):
        return ("raw", _canon(block))
    kind = block.get("type")
    if kind == "text":
        return ("text", str(block.get("text", "")).strip())
    if kind in ("tool_use", "server_tool_use", "mcp_tool_use"):
        return (kind, block.get("id"), block.get("name"), _canon(block.get("input")))
    if kind == "tool_result":
        return (
            "tool_result",
            block.get("tool_use_id"),
            _canon(_result_content(block.get("content"))),
            bool(block.get("is_error")),
        )
    if kind == "thinking":
        return ("thinking", block.get("signature"))
    if kind == "redacted_thinking":
        return ("redacted_thinking", block.get("data"))
    return (kind, _canon({k: v for k, v in block.items() if k != "cache_control" and v is not None}))


def message_key(message: Any) -> str:
    """A message as a comparable string."""
    if not isinstance(message, dict):
        return _canon(message)
    content = message.get("content")
    blocks = (
        [("text", content.strip())]
        if isinstance(content, str)
        else [
            _block_key(b)
            for b in content or []
            if not (isinstance(b, dict) and b.get("type") == "text" and not b.get("text"))
        ]
    )
    return _canon([message.get("role"), blocks])


def reply_message(reply: dict[str, Any]) -> dict[str, Any]:
    """A reply as the assistant message a loop appends to its history."""
    return {"role": "assistant", "content": reply.get("content") or []}


@dataclass
class _Open:
    """What a run's next request must start with."""

    run_id: str
    sent: list[str]  # the last request's messages, as keys
    answered: bool  # the last request got a reply (else the same messages again are its retry)
    reply: str | None = None  # the reply, as a key


@dataclass
class Placement:
    """Where one exchange goes: its run, whether that run is new, and whether it retries the run's last turn."""

    run_id: str
    new_run: bool
    retry: bool


@dataclass
class Grouper:
    """Assigns each request to a run; thread-safe (a program may call from several threads at once)."""

    new_id: Any = None  # () -> str; uuid4 hex by default
    _open: OrderedDict[str, _Open] = field(default_factory=OrderedDict)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def place(self, messages: list[Any]) -> Placement:
        """The run a request with these messages belongs to (a new one if none fits)."""
        keys = [message_key(m) for m in messages]
        with self._lock:
            for run_id in reversed(self._open):
                state = self._open[run_id]
                if not state.answered and keys == state.sent:
                    return Placement(run_id, new_run=False, retry=True)
                cut = len(state.sent)
                if state.answered and len(keys) > cut and keys[:cut] == state.sent and keys[cut] == state.reply:
                    state.sent, state.answered, state.reply = keys, False, None
                    self._open.move_to_end(run_id)
                    return Placement(run_id, new_run=False, retry=False)
            run_id = self._make_id()
            self._open[run_id] = _Open(run_id, keys, answered=False)
            while len(self._open) > OPEN_RUNS:
                self._open.popitem(last=False)
            return Placement(run_id, new_run=True, retry=False)

    def answered(self, run_id: str, reply: dict[str, Any] | None) -> None:
        """The run's last request got this reply (None: it failed, and may be retried)."""
        with self._lock:
            state = self._open.get(run_id)
            if state is None:
                return
            if reply is None:
                state.answered, state.reply = False, None
            else:
                state.answered, state.reply = True, message_key(reply_message(reply))

    def _make_id(self) -> str:
        if self.new_id is not None:
            return str(self.new_id())
        import uuid

        return uuid.uuid4().hex[:12]
