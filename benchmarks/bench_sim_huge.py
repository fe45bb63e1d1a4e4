"""Simulated model on huge inputs: the reply time for a 1 MB task of each kind (target: well under 1 s each).

A real model bounds its attention, and so does the brain (BEHAVIOUR.md, "Huge inputs"): this prints how long one
reply takes when the user's message is 1 MB of the same question repeated, of log lines, of prose, of Russian prose,
and when a tool result is 1 MB. Timed twice per kind: think() alone, and the whole server reply (SimHandler.handle:
validation, token counting and shaping included). Each figure is the best of a few runs on fresh text (the brain
caches what it has read, so a repeated text would flatter it). Prints figures; asserts nothing.
"""

from __future__ import annotations

import itertools
import json
import time
from pathlib import Path

import bench_sim  # run as a script, this folder is on sys.path

from agent_core.model import SimSettings
from agent_core.sim import SimHandler
from agent_core.sim.brain import think

SIZE = 1_000_000
RUNS = 3
TARGET_MS = 1000.0
SANDBOX = Path(__file__).resolve().parents[1] / "agent_core" / "tools" / "sandboxes" / "default"
TOOLS = [
    *bench_sim.TOOLS,  # the same weather and calculator tools as the 50-turn benchmark
    {
        "name": "read_file",
        "description": "Reads one text file from the sandbox folder and returns its content.",
        "input_schema": {
            "type": "object",
            "properties": {"path": {"type": "string", "description": "File path"}},
            "required": ["path"],
        },
    },
]
QUESTION = "What's the weather in Oslo, and what is 2 to the power of 16?"
PROSE = (
    "The committee met on a grey morning to weigh the proposal once more. Several members argued that the "
    "budget had grown beyond what the town could carry, while others pointed to the library roof, which had "
    "leaked through three winters. After a long discussion they agreed to ask for a second estimate. "
)
RUSSIAN = (
    "Комитет собрался серым утром, чтобы ещё раз обсудить предложение. Одни говорили, что бюджет "
    "вырос сверх того, что город может вынести, другие напоминали о крыше библиотеки, которая "
    "протекает третью зиму. После долгого спора решили запросить вторую смету. "
)


def fill(unit: str, run: int, head: str = "") -> str:
    """head, then unit repeated to SIZE characters; run makes every text new, so no cache has seen it."""
    head = f"({run}) {head}"
    unit = unit if unit.endswith("\n") else unit + " "
    return (head + unit * ((SIZE - len(head)) // len(unit) + 1))[:SIZE]


def task_body(task: str) -> dict:
    return {
        "model": "claude-sonnet-4-6",
        "max_tokens": 1024,
        "tools": TOOLS,
        "messages": [{"role": "user", "content": task}],
    }


def result_body(output: str) -> dict:
    body = task_body("Summarise app.log")
    call = {"type": "tool_use", "id": "toolu_huge", "name": "read_file", "input": {"path": "app.log"}}
    body["messages"] += [
        {"role": "assistant", "content": [call]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_huge", "content": output}]},
    ]
    return body


def log() -> str:
    return (SANDBOX / "app.log").read_text(encoding="utf-8")


KINDS = {
    "the default question repeated": lambda run: task_body(fill(QUESTION, run)),
    "one sentence joined by 'and'": lambda run: task_body(
        fill(QUESTION.replace(", and", " and").replace("?", " and"), run)
    ),
    "log lines": lambda run: task_body(fill(log(), run, "Find the errors in this log:\n")),
    "English prose": lambda run: task_body(fill(PROSE, run, "Summarise this text:\n")),
    "Russian prose": lambda run: task_body(fill(RUSSIAN, run, "Перескажи этот текст кратко:\n")),
    "a 1 MB tool result (log)": lambda run: result_body(fill(log(), run)),
    "1 MB of workflow data (log)": lambda run: task_body(
        fill(log(), run, 'Summarise app.log\n\nData the program already gathered:\n- read_file({"path": "app.log"}): ')
    ),
}


FRESH = itertools.count(1)  # a new number for every text, so no run reads a text an earlier one cached


def best_ms(make, reply) -> tuple[float, object]:
    times, out = [], None
    for _ in range(RUNS):
        body = make(next(FRESH))
        started = time.perf_counter()
        out = reply(body)
        times.append((time.perf_counter() - started) * 1000)
    return min(times), out


def main() -> None:
    handler = SimHandler(SimSettings())
    think(task_body("Hello"), SimSettings())  # load the data files first: a one-off per process
    print(
        f"bench_sim_huge: one reply to a {SIZE / 1e6:.0f} MB input, best of {RUNS} runs on fresh text "
        f"(target < {TARGET_MS:.0f} ms)"
    )
    for label, make in KINDS.items():
        brain_ms, draft = best_ms(make, lambda body: think(body, SimSettings()))
        server_ms, _ = best_ms(
            make,
            lambda body: handler.handle(
                "POST", "/v1/messages", {"content-type": "application/json"}, json.dumps(body).encode()
            ),
        )
        summary = ", ".join(b.get("name") or f"{len(b.get('text', ''))} chars of text" for b in draft.content)
        verdict = "OK" if max(brain_ms, server_ms) < TARGET_MS else "SLOW"
        print(
            f"  {label}: think {brain_ms:.0f} ms, whole reply {server_ms:.0f} ms {verdict}  "
            f"({draft.stop_reason}: {summary})"
        )


if __name__ == "__main__":
    main()
