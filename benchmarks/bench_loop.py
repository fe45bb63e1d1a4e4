"""Stepper overhead: a 100-turn offline run through the Stepper versus a bare ~20-line loop on the same transport.

Prints the per-turn time of each and the ratio (target: the stepper costs at most 1.3x the bare loop).
"""
from __future__ import annotations

import statistics
import time

import anthropic
import httpx2

from agent_core.context import build_request
from agent_core.loop import Stepper
from agent_core.model import Limits, Run, RunConfig, SimSettings
from agent_core.sim import SimTransport
from agent_core.tools import ToolRegistry
from agent_core.tools.catalog import default_specs

TURNS = 100


def config() -> RunConfig:
    return RunConfig(task="What is the stock price of ACME?", tools=default_specs(["get_stock_price"]),
                     limits=Limits(max_steps=TURNS), sim=SimSettings(persona="stubborn"))


def bare_loop() -> float:
    """The loop a learner writes, with nothing recorded."""
    cfg = config()
    client = anthropic.Anthropic(api_key="offline", base_url="http://simulated-model.invalid",
                                 http_client=httpx2.Client(transport=SimTransport(cfg.sim)))
    registry = ToolRegistry(cfg.tools)
    messages = [{"role": "user", "content": cfg.task}]
    started = time.perf_counter()
    for _ in range(TURNS):
        response = client.messages.create(**build_request(cfg, messages))
        messages.append({"role": "assistant", "content": [b.to_dict() for b in response.content]})
        if response.stop_reason != "tool_use":
            break
        results = []
        for block in response.content:
            if block.type == "tool_use":
                out = registry.execute(block.name, block.input)
                results.append({"type": "tool_result", "tool_use_id": block.id, "content": out.output,
                                "is_error": out.is_error})
        messages.append({"role": "user", "content": results})
    return (time.perf_counter() - started) / TURNS


def stepper_loop() -> float:
    run = Run(config=config())
    stepper = Stepper(run)
    started = time.perf_counter()
    stepper.run_to_end()
    assert len(run.turns) == TURNS, (len(run.turns), run.stop)
    return (time.perf_counter() - started) / len(run.turns)


def main() -> None:
    bare = statistics.median(bare_loop() for _ in range(3))
    stepped = statistics.median(stepper_loop() for _ in range(3))
    print(f"bare loop:   {bare * 1000:.2f} ms per turn ({TURNS} turns, offline)")
    print(f"stepper:     {stepped * 1000:.2f} ms per turn (records every exchange, usage, cost, decision)")
    print(f"ratio:       {stepped / bare:.2f}x (target <= 1.3x)")


if __name__ == "__main__":
    main()
