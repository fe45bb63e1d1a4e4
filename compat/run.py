"""Client matrix (`make compat`): the clients learners move on to, against the offline server on loopback.

Every case runs through the recorder (offline upstream, nothing saved), so besides the client's own check (a
three-turn tool task answered right, a structured output, a stream, a retried fault) it checks that the Lab would
record the client's loop as one run with one turn per model call. The table at the end says PASS/FAIL/SKIP per
case; exit status 1 when any case fails. `python compat/run.py python` or `node` runs one part."""

from __future__ import annotations

import os
import sys
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
# litellm fetches its price map and Anthropic beta-header table from GitHub unless told to use the copies it ships:
# the matrix stays off the network (LITELLM_OFFLINE_MODE on newer releases, the two older switches on older ones)
for switch in ("LITELLM_OFFLINE_MODE", "LITELLM_LOCAL_MODEL_COST_MAP", "LITELLM_LOCAL_ANTHROPIC_BETA_HEADERS"):
    os.environ.setdefault(switch, "True")
sys.path[:0] = [str(HERE.parent), str(HERE)]

import node_clients as node  # noqa: E402
import python_clients as py  # noqa: E402
from tasks import TURNS  # noqa: E402

from agent_core.recorder import RecorderConfig, start_recorder  # noqa: E402


@dataclass
class Case:
    """One row: a client, what it does, the function, a fault plan, and the recorded turns its main run has."""

    client: str
    what: str
    check: Callable[[str], str]
    faults: tuple[str, ...] = ()
    turns: int | None = TURNS  # None: no loop to group (one call, or a wire the recorder does not group)
    part: str = "python"


@dataclass
class Outcome:
    client: str
    what: str
    status: str  # PASS / FAIL / SKIP
    detail: str = ""


CASES = [
    Case("anthropic SDK", "tool loop, 3 turns", py.anthropic_loop),
    Case("anthropic SDK", "streaming tool loop", lambda url: py.anthropic_loop(url, stream=True)),
    Case("anthropic SDK", "through 429 + 529x2 (SDK retries)", py.anthropic_loop, ("429", "529x2")),
    Case("anthropic SDK", "tool_runner (thread=False)", py.anthropic_tool_runner),
    Case("anthropic SDK", "messages.parse (structured)", py.anthropic_parse, turns=None),
    Case("pydantic-ai", "Agent with tools, 3 turns", py.pydantic_ai_tools),
    Case("pydantic-ai", "run_stream", py.pydantic_ai_stream),
    Case("pydantic-ai", "output_type (structured)", py.pydantic_ai_structured, turns=None),
    Case("pydantic-ai", "through 529x2", py.pydantic_ai_retry, ("529x2",)),
    Case("LangGraph", "create_react_agent, 3 turns", py.langgraph_agent),
    Case("LangGraph", "stream (values)", py.langgraph_stream),
    Case("LangGraph", "through 529", py.langgraph_retry, ("529",)),
    Case("LangChain", "with_structured_output", py.langchain_structured, turns=None),
    Case("LangChain", "create_agent(response_format=...)", py.langchain_response_format, turns=2),
    Case("litellm", "tool loop (OpenAI form), 3 turns", py.litellm_tools),
    Case("litellm", "streaming tool loop", py.litellm_stream),
    Case("litellm", "response_format json_schema", py.litellm_structured, turns=None),
    Case("litellm", "num_retries through 429 + 529", py.litellm_retry, ("429", "529")),
    Case("OpenAI SDK", "chat.completions tool loop", py.openai_tools_case),
    Case("OpenAI SDK", "streaming tool loop", py.openai_stream),
    Case("OpenAI SDK", "through 529x2", py.openai_retry, ("529x2",)),
    Case("TypeScript SDK", "tool loop, through 529", node.typescript_sdk, ("529",), part="node"),
    Case("Vercel AI SDK", "generateText + stopWhen", node.vercel_ai_sdk, part="node"),
    Case("Claude Code", "claude -p: list the files and count", node.claude_code, turns=None, part="node"),
]


def _grouping(case: Case, runs: list) -> str:
    """The recorded runs' shape, checked: one run holding the whole loop, a turn per model call."""
    if case.turns is None:
        return ""
    assert runs, "nothing was recorded"
    biggest = max(runs, key=lambda r: len(r.turns))
    assert len(biggest.turns) == case.turns, (
        f"recorded as {[len(r.turns) for r in runs]} turn(s), not one run of {case.turns}"
    )
    return f"[1 run, {case.turns} turns] "


def run_case(case: Case) -> Outcome:
    config = RecorderConfig(fault_plan=case.faults)
    server, url, recorder = start_recorder(config, save=lambda run, turn: None)
    try:
        detail = case.check(url)
        return Outcome(case.client, case.what, "PASS", _grouping(case, list(recorder.runs.values())) + detail)
    except py.Skip as exc:
        return Outcome(case.client, case.what, "SKIP", str(exc))
    except Exception as exc:  # the table reports every failure; the traceback goes to stderr
        traceback.print_exc()
        return Outcome(case.client, case.what, "FAIL", f"{type(exc).__name__}: {exc}"[:140])
    finally:
        server.shutdown()
        recorder.close()


def table(outcomes: list[Outcome]) -> str:
    width = max(len(o.client) for o in outcomes), max(len(o.what) for o in outcomes)
    lines = [f"{'client':<{width[0]}}  {'case':<{width[1]}}  result  detail"]
    lines += [f"{o.client:<{width[0]}}  {o.what:<{width[1]}}  {o.status:<6}  {o.detail}" for o in outcomes]
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    parts = set(argv) & {"python", "node"} or {"python", "node"}
    outcomes = [run_case(c) for c in CASES if c.part in parts]
    print("\n" + table(outcomes))
    counts = {s: sum(o.status == s for o in outcomes) for s in ("PASS", "FAIL", "SKIP")}
    print(f"\ncompat: {counts['PASS']} passed, {counts['FAIL']} failed, {counts['SKIP']} skipped")
    return 1 if counts["FAIL"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
