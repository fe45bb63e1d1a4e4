"""Simulated model speed: median server-side reply time (SimHandler.handle) on a 50-turn history (target < 5 ms).

The brain caches its reading of each text, so sending one request over and over would flatter it. Every timed
request is a history never sent before (its tool results carry a fresh station number), timed two ways:
- in a loop: the same conversation one turn shorter was answered just before, as in a real run (the target);
- cold: none of its tool results was seen before, as for the first request after reopening a long saved run.
Three tool sets: the two tools below, every client tool of the app's catalog (what the Playground can offer;
the brain scores each tool for each need, so more tools cost more), and 20 tools (the catalog's plus tutorial-style
ones from tests/fidelity/tools.json). --twenty: only the 20 tools; --repeats N: fewer requests. Uses the real brain when
agent_core/sim/brain.py is present, otherwise a trivial stand-in (the figure then measures only the HTTP side:
validation, shaping, usage and ids). Each figure is printed beside a floor timed alongside it (parsing the request
and writing it back as JSON), as a multiple of it, so runs on a busy or slower machine compare. Prints figures;
asserts nothing.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path
from types import SimpleNamespace

from agent_core.model import SimSettings
from agent_core.sim import SimHandler
from agent_core.tools.catalog import CATALOG, default_specs

TURNS = 50
REPEATS = int(sys.argv[sys.argv.index("--repeats") + 1]) if "--repeats" in sys.argv else 200
CORPUS_TOOLS = Path(__file__).resolve().parent.parent / "tests" / "fidelity" / "tools.json"
TARGET_MS = 5.0
TOOLS = [
    {
        "name": "get_weather",
        "description": "Current weather for a city. Use it for weather questions only.",
        "input_schema": {
            "type": "object",
            "properties": {"city": {"type": "string", "description": "City name"}},
            "required": ["city"],
        },
    },
    {
        "name": "calculate",
        "description": "Evaluate an arithmetic expression with + - * / ^ and parentheses.",
        "input_schema": {
            "type": "object",
            "properties": {"expression": {"type": "string"}},
            "required": ["expression"],
        },
    },
]
CITIES = ["Oslo", "Warsaw", "Moscow", "Rome", "Lisbon"]


def history(turns: int, station: int = 0) -> list[dict]:
    """A question, then `turns` rounds of one tool call and its result (station: makes every result text new)."""
    messages = [{"role": "user", "content": "What's the weather in Oslo, Warsaw, Moscow, Rome and Lisbon?"}]
    for i in range(turns):
        city = CITIES[i % len(CITIES)]
        call = {"type": "tool_use", "id": f"toolu_{i:04d}", "name": "get_weather", "input": {"city": city}}
        messages.append({"role": "assistant", "content": [{"type": "text", "text": f"Checking {city}."}, call]})
        report = f"{city}: {i % 30}°C, light rain, station {station}"
        messages.append(
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": call["id"], "content": report}]}
        )
    return messages


def catalog_tools() -> list[dict]:
    """Every client tool of the catalog, one per name (get_weather_terse shares get_weather's name)."""
    tools: dict[str, dict] = {}
    for spec in default_specs(list(CATALOG)):
        if not spec.server_type:
            tools.setdefault(spec.name, spec.definition())
    return list(tools.values())


def twenty_tools() -> list[dict]:
    """20 tools with distinct names: the catalog's, then tutorial-style ones from the fidelity corpus."""
    tools = {t["name"]: t for t in catalog_tools()}
    corpus = json.loads(CORPUS_TOOLS.read_text(encoding="utf-8"))
    for key, entry in corpus.items():
        if key != "_about":
            tools.setdefault(entry["definition"]["name"], entry["definition"])
    return list(tools.values())[:20]


def request(turns: int, station: int, tools: list[dict]) -> bytes:
    return json.dumps(
        {"model": "claude-sonnet-4-6", "max_tokens": 1024, "tools": tools, "messages": history(turns, station)}
    ).encode()


def stand_in(body: dict, settings: SimSettings) -> SimpleNamespace:
    return SimpleNamespace(
        content=[{"type": "text", "text": "All five cities checked."}],
        stop_reason="end_turn",
        stop_details=None,
        reasoning="",
    )


def brain_think():
    try:
        from agent_core.sim import brain
    except ImportError:
        return None
    return brain.think


def post(handler: SimHandler, raw: bytes):
    # The headers every SDK sends: the server refuses a request without a version or a key, as the API does.
    headers = {"content-type": "application/json", "anthropic-version": "2023-06-01", "x-api-key": "bench"}
    reply = handler.handle("POST", "/v1/messages", headers, raw)
    assert reply.status == 200, reply.body  # a failing request would time the wrong path
    return reply


def floor_ms(raw: bytes) -> float:
    """The floor: reading the request and writing JSON of its size back (json.loads, json.dumps), the work no server
    skips, in CPU time. Timed beside each request, so a machine that is busy or slow shows in both figures alike."""
    started = time.process_time()
    json.dumps(json.loads(raw), ensure_ascii=False)
    return (time.process_time() - started) * 1000


def median_ms(handler: SimHandler, tools: list[dict], in_loop: bool, first_station: int) -> tuple[float, ...]:
    """Median wall and CPU times of REPEATS fresh 50-turn requests, and of their floors; in_loop: each request after
    its own 49-turn predecessor."""
    walls, cpus, floors = [], [], []
    for station in range(first_station, first_station + REPEATS):
        raw = request(TURNS, station, tools)
        if in_loop:
            post(handler, request(TURNS - 1, station, tools))
        floors.append(floor_ms(raw))
        started, cpu = time.perf_counter(), time.process_time()
        post(handler, raw)
        walls.append((time.perf_counter() - started) * 1000)
        cpus.append((time.process_time() - cpu) * 1000)
    return statistics.median(walls), statistics.median(cpus), statistics.median(floors)


def main() -> None:
    think = brain_think()
    runs = [("HTTP side only (stand-in brain)", stand_in)] + ([("with the real brain", think)] if think else [])
    tool_sets = [
        ("2 tools", TOOLS),
        (f"{len(catalog_tools())} catalog tools", catalog_tools()),
        (f"{len(twenty_tools())} tools", twenty_tools()),
    ]
    if "--twenty" in sys.argv:
        tool_sets = tool_sets[2:]
    print(
        f"bench_sim: {TURNS}-turn history, {TURNS * 2 + 1} messages, "
        f"{len(request(TURNS, 0, TOOLS)) / 1024:.1f} KiB request with 2 tools; median of {REPEATS} requests "
        "never sent before"
    )
    station = 1
    for label, brain_fn in runs:
        for tools_label, tools in tool_sets:
            handler = SimHandler(SimSettings(), think=brain_fn)
            post(handler, request(TURNS, 0, tools))  # load the data files first: a one-off per process
            for in_loop, mode in ((True, "in a loop"), (False, "cold")):
                figure, cpu, floor = median_ms(handler, tools, in_loop, station)
                station += REPEATS
                verdict = "OK" if figure < TARGET_MS else "SLOW"
                print(
                    f"  {label}, {tools_label}, {mode}: {figure:.2f} ms (target < {TARGET_MS:.0f} ms) {verdict}; "
                    f"CPU {cpu:.2f} ms = {cpu / floor:.1f}x the floor ({floor:.2f} ms)"
                )
    print(
        "  floor: the CPU time of json.loads + json.dumps of the same request, timed beside it; on a busy machine "
        "the ms figures grow, read the x floor ones"
    )
    if think is None:
        print("  (agent_core/sim/brain.py not present yet: real-brain figure skipped)")


if __name__ == "__main__":
    main()
