"""Stepper overhead: a 100-turn offline run through the Stepper versus a bare ~20-line loop on the same transport.

Prints the per-turn time of each and the ratio (target: the stepper costs at most 1.3x the bare loop).
The two alternate, PAIRS times, so a busy machine slows both alike; the ratio is the median of the pairs' ratios.
CPU time (this process, all threads) is printed next to wall time: it is what the loop itself costs when other
processes share the CPUs. The first pair only warms up (imports, data files, the SDK's lazy setup, the simulated
model's per-text caches, which a real run has warm too: each turn re-reads the texts of the turn before) and is dropped.
Each run starts after a full garbage collection: a finished run is freed only by the cycle collector, and left
alone it would bill its clean-up to whichever run comes next (swinging single ratios between 0.8x and 1.5x).
"""

from __future__ import annotations

import gc
import statistics
import time

import anthropic
import httpx2

from agent_core.loop.context import build_request
from agent_core.loop.stepper import Stepper
from agent_core.model import Limits, Run, RunConfig, SimSettings
from agent_core.sim import SimTransport
from agent_core.tools import ToolRegistry
from agent_core.tools.catalog import default_specs

TURNS = 100
PAIRS = 7


def config() -> RunConfig:
    return RunConfig(
        task="What is the stock price of ACME?",
        tools=default_specs(["get_stock_price"]),
        limits=Limits(max_steps=TURNS),
        sim=SimSettings(persona="stubborn"),
    )


def bare_loop() -> tuple[float, float]:
    """The loop a learner writes, with nothing recorded; (wall, cpu) seconds per turn."""
    cfg = config()
    client = anthropic.Anthropic(
        api_key="offline",
        base_url="http://simulated-model.invalid",
        http_client=httpx2.Client(transport=SimTransport(cfg.sim)),
    )
    registry = ToolRegistry(cfg.tools)
    messages = [{"role": "user", "content": cfg.task}]
    gc.collect()
    started, cpu = time.perf_counter(), time.process_time()
    turns = 0
    for _ in range(TURNS):
        turns += 1
        response = client.messages.create(**build_request(cfg, messages))
        messages.append({"role": "assistant", "content": [b.to_dict() for b in response.content]})
        if response.stop_reason != "tool_use":
            break
        results = []
        for block in response.content:
            if block.type == "tool_use":
                out = registry.execute(block.name, block.input)
                results.append(
                    {"type": "tool_result", "tool_use_id": block.id, "content": out.output, "is_error": out.is_error}
                )
        messages.append({"role": "user", "content": results})
    assert turns == TURNS, turns  # the same work as the stepper, or the ratio means nothing
    return (time.perf_counter() - started) / TURNS, (time.process_time() - cpu) / TURNS


def stepper_loop() -> tuple[float, float]:
    """The app's loop, recording everything; (wall, cpu) seconds per turn."""
    run = Run(config=config())
    stepper = Stepper(run)
    gc.collect()
    started, cpu = time.perf_counter(), time.process_time()
    stepper.run_to_end()
    assert len(run.turns) == TURNS, (len(run.turns), run.stop)
    return (time.perf_counter() - started) / TURNS, (time.process_time() - cpu) / TURNS


def main() -> None:
    pairs = [(bare_loop(), stepper_loop()) for _ in range(PAIRS + 1)][1:]
    for label, index in (("wall", 0), ("cpu ", 1)):
        bare = statistics.median(b[index] for b, _ in pairs)
        stepped = statistics.median(s[index] for _, s in pairs)
        ratio = statistics.median(s[index] / b[index] for b, s in pairs)
        print(
            f"{label}: bare loop {bare * 1000:.2f} ms/turn, stepper {stepped * 1000:.2f} ms/turn, "
            f"ratio {ratio:.2f}x (target <= 1.3x; pair ratios {min(s[index] / b[index] for b, s in pairs):.2f}"
            f"-{max(s[index] / b[index] for b, s in pairs):.2f})"
        )
    print(
        f"({TURNS} turns offline, median of {PAIRS} alternating pairs; the stepper records every exchange, "
        "usage, cost and decision)"
    )


if __name__ == "__main__":
    main()
