"""A scripted model for loop tests: replies are enqueued, requests are recorded (an httpx2 MockTransport)."""

from __future__ import annotations

import itertools
import json

import httpx2

_ids = itertools.count(1)


def text(t: str) -> dict:
    return {"type": "text", "text": t}


def tool_use(name: str, tool_input: dict, id_: str | None = None) -> dict:
    return {"type": "tool_use", "id": id_ or f"toolu_{next(_ids):04d}", "name": name, "input": tool_input}


def message(*content: dict, stop_reason: str = "end_turn", usage: dict | None = None, **extra) -> dict:
    return {
        "id": f"msg_{next(_ids):04d}",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-6",
        "content": list(content),
        "stop_reason": stop_reason,
        "stop_sequence": None,
        "usage": usage or {"input_tokens": 100, "output_tokens": 20},
        **extra,
    }


class Script(httpx2.MockTransport):
    """Answers each request with the next enqueued (status, json, headers) reply."""

    def __init__(self, *replies) -> None:
        self.replies = list(replies)
        self.requests: list[dict] = []
        super().__init__(self._answer)

    def enqueue(self, body: dict, status: int = 200, headers: dict | None = None) -> None:
        self.replies.append((status, body, headers or {}))

    def _answer(self, request: httpx2.Request) -> httpx2.Response:
        self.requests.append(json.loads(request.read()))
        if not self.replies:
            raise AssertionError("the scripted model ran out of replies")
        reply = self.replies.pop(0)
        status, body, headers = reply if isinstance(reply, tuple) else (200, reply, {})
        return httpx2.Response(status, json=body, headers={"request-id": f"req_{len(self.requests)}", **headers})
