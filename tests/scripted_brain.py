"""A scripted brain for the simulated model (turn 1 calls a tool, then it answers), and a handler that records the
credentials each request carried: the Playground tests pin the app's handling, not the real brain's wording."""

from __future__ import annotations

from agent_core.model import SimSettings
from agent_core.sim import SimHandler
from agent_core.sim.brain import Draft  # scripted brains return the real type


def _question(body: dict) -> str:
    content = body["messages"][0]["content"]
    return content if isinstance(content, str) else " ".join(b.get("text", "") for b in content if "text" in b)


def scripted_think(body: dict, settings: SimSettings) -> Draft:
    """Turn 1 calls a tool (delete_file when asked to delete, else calculate); with results, it answers."""
    last = body["messages"][-1]["content"]
    results = [b for b in last if b.get("type") == "tool_result"] if isinstance(last, list) else []
    question = _question(body)
    if results:
        said = "; ".join(str(r.get("content")) for r in results)
        return Draft([{"type": "text", "text": f"Done. You asked: {question[:80]} The tools said: {said}"}], "end_turn")
    tools = {t.get("name") for t in body.get("tools") or []}
    if "delete" in question and "delete_file" in tools:
        call = {"type": "tool_use", "id": None, "name": "delete_file", "input": {"path": "notes.txt"}}
    elif "calculate" in tools:
        call = {"type": "tool_use", "id": None, "name": "calculate", "input": {"expression": "2^16"}}
    else:
        return Draft([{"type": "text", "text": f"You asked: {question[:80]}"}], "end_turn")
    return Draft([{"type": "text", "text": "Let me use a tool."}, call], "tool_use")


class RecordingHandler(SimHandler):
    """The simulated model, remembering the credentials each request carried."""

    def __init__(self) -> None:
        super().__init__(SimSettings(), think=scripted_think)
        self.credentials: list[str] = []

    def handle(self, method, path, headers, body):
        lowered = {k.lower(): v for k, v in headers.items()}
        self.credentials += [lowered[h] for h in ("authorization", "x-api-key") if h in lowered]
        return super().handle(method, path, headers, body)
