"""Simulated model speed: median server-side reply time (SimHandler.handle) on a 50-turn history (target < 5 ms).

Uses the real brain when agent_core/sim/brain.py is present, otherwise a trivial stand-in (the figure then
measures only the HTTP side: validation, shaping, usage and ids). Prints figures; asserts nothing.
"""
from __future__ import annotations

import json
import statistics
import time
from types import SimpleNamespace

from agent_core.model import SimSettings
from agent_core.sim import SimHandler

TURNS = 50
REPEATS = 200
TARGET_MS = 5.0
TOOLS = [
    {"name": "get_weather", "description": "Current weather for a city. Use it for weather questions only.",
     "input_schema": {"type": "object", "properties": {"city": {"type": "string", "description": "City name"}},
                      "required": ["city"]}},
    {"name": "calculate", "description": "Evaluate an arithmetic expression with + - * / ^ and parentheses.",
     "input_schema": {"type": "object", "properties": {"expression": {"type": "string"}}, "required": ["expression"]}},
]
CITIES = ["Oslo", "Warsaw", "Moscow", "Rome", "Lisbon"]


def history(turns: int) -> list[dict]:
    """A question, then `turns` rounds of one tool call and its result."""
    messages = [{"role": "user", "content": "What's the weather in Oslo, Warsaw, Moscow, Rome and Lisbon?"}]
    for i in range(turns):
        city = CITIES[i % len(CITIES)]
        call = {"type": "tool_use", "id": f"toolu_{i:04d}", "name": "get_weather", "input": {"city": city}}
        messages.append({"role": "assistant", "content": [{"type": "text", "text": f"Checking {city}."}, call]})
        messages.append({"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": call["id"], "content": f"{city}: {i % 30}°C, light rain"}]})
    return messages


def stand_in(body: dict, settings: SimSettings) -> SimpleNamespace:
    return SimpleNamespace(content=[{"type": "text", "text": "All five cities checked."}], stop_reason="end_turn",
                           stop_details=None, reasoning="")


def brain_think():
    try:
        from agent_core.sim import brain
    except ImportError:
        return None
    return brain.think


def median_ms(handler: SimHandler, raw: bytes) -> float:
    times = []
    for _ in range(REPEATS):
        started = time.perf_counter()
        reply = handler.handle("POST", "/v1/messages", {"content-type": "application/json"}, raw)
        times.append((time.perf_counter() - started) * 1000)
    assert reply.status == 200, reply.body  # a failing request would time the wrong path
    return statistics.median(times)


def main() -> None:
    body = {"model": "claude-sonnet-4-6", "max_tokens": 1024, "tools": TOOLS, "messages": history(TURNS)}
    raw = json.dumps(body).encode()
    think = brain_think()
    runs = [("HTTP side only (stand-in brain)", SimHandler(SimSettings(), think=stand_in))]
    if think is not None:
        runs.append(("with the real brain", SimHandler(SimSettings(), think=think)))
    print(f"bench_sim: {TURNS}-turn history, {len(body['messages'])} messages, {len(raw) / 1024:.1f} KiB request")
    for label, handler in runs:
        figure = median_ms(handler, raw)
        verdict = "OK" if figure < TARGET_MS else "SLOW"
        print(f"  median handle() {label}: {figure:.2f} ms (target < {TARGET_MS:.0f} ms) {verdict}")
    if think is None:
        print("  (agent_core/sim/brain.py not present yet: real-brain figure skipped)")


if __name__ == "__main__":
    main()
