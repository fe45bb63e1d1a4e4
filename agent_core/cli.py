"""Command line: run a task through the loop and print each turn, or serve the simulated model over HTTP."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import TextIO

from agent_core.files.export import export_json
from agent_core.loop.stepper import iter_turns
from agent_core.model import Limits, Run, RunConfig, SimSettings, Turn
from agent_core.secrets import env_secrets, scrub_secrets
from agent_core.tools.catalog import default_specs
from agent_core.vocab import Persona, Provider, StopKind
from agent_core.wire.capture import ENV_MAX_RETRY_WAIT, Wait
from agent_core.wire.errors import explain


def catalogue() -> ModuleType:
    """The words for decisions and stop causes live in the app's catalogue; the command line prints them in English."""
    from lab_ui.words import catalogue as words  # pure Python: lab_ui.words.catalogue imports no Streamlit

    return words


def _english(text: str, **values: object) -> str:
    return text.format(**values) if values else text


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m agent_core", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="run a task through the agent loop and print every turn")
    run.add_argument("task")
    run.add_argument("--provider", choices=list(Provider), default=Provider.OFFLINE.value)
    run.add_argument("--base-url")
    run.add_argument("--model")
    run.add_argument("--max-steps", type=int, default=10, help="0 means no limit (the hard ceiling still applies)")
    run.add_argument(
        "--tools", help="comma-separated catalog tools (default: get_weather,calculate,search_memory,read_file)"
    )
    run.add_argument("--persona", default=Persona.SENSIBLE.value, help="offline model persona: " + ", ".join(Persona))
    run.add_argument("--json", type=Path, help="write the whole run record (every exchange) to this file")
    serve = sub.add_parser("serve", help="serve the simulated model (Anthropic Messages API) over HTTP")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8765)
    serve.add_argument("--persona", default=Persona.SENSIBLE.value)
    serve.add_argument("--latency-ms", type=int, default=0)
    serve.add_argument(
        "--fault",
        action="append",
        default=[],
        metavar="STEPS",
        help="fault plan for the next POST /v1/messages requests, in order, e.g. --fault 429x2 --fault 529 "
        "(statuses, drop, slow:SECONDS; xN repeats a step)",
    )
    serve.add_argument("--lenient-headers", action="store_true", help="accept requests without key/version headers")
    serve.add_argument(
        "--record",
        action="store_true",
        help="record every exchange into the runs store, grouped into runs (shown on the Runs page)",
    )
    serve.add_argument(
        "--upstream",
        default=Provider.OFFLINE.value,
        metavar="WHERE",
        help="with --record: who answers: offline (the simulated model, default), anthropic (passed through with "
        "the program's own key, never stored) or a compatible server's base URL",
    )
    return parser


RECORD_BANNER = (
    "Recording at {{url}}: answered by {upstream}; every exchange goes to the Runs page.\n"
    "  1. export ANTHROPIC_BASE_URL={{url}}\n"
    "  2. run your program (its own key{key})\n"
    "  3. open the Lab (make run) -> Runs: 'recorded from a program'."
)


def say(text: str, file: TextIO | None = None) -> None:
    """Print a line with anything key-shaped, and the environment's key in any form or piece, scrubbed."""
    print(scrub_secrets(text, env_secrets()), file=file or sys.stdout)


def announce_wait(wait: Wait) -> None:
    """One line when a server-requested wait starts (the wait itself is bounded by the transport)."""
    if not wait.first:
        return
    capped = (
        f"; waits are capped at {wait.waiting_s:g} s (set {ENV_MAX_RETRY_WAIT} to change that)" if wait.capped else ""
    )
    say(
        f"  The server asked to wait {wait.asked_s:g} s before retrying{capped}. "
        f"Waiting {wait.waiting_s:g} s, then the SDK retries; Ctrl+C cancels.",
        file=sys.stderr,
    )


def print_turn(turn: Turn, out: TextIO | None = None) -> None:
    usage = turn.usage
    tokens = f"{usage.whole_input} in / {usage.output_tokens} out" if usage else "no usage"
    say(f"Turn {turn.index}: stop_reason={turn.stop_reason}  tokens {tokens}  cost ${turn.cost_usd:.5f}", file=out)
    for tool in turn.tools:
        mark = "ERROR " if tool.is_error else ""
        say(f"  tool {tool.name}({json.dumps(tool.input, ensure_ascii=False)}) -> {mark}{tool.output}", file=out)
    if turn.error:
        say(f"  API error: {explain(turn.error)}", file=out)
    say(f"  decision: {catalogue().decision_text(turn, tr=_english)}", file=out)


def _run(args: argparse.Namespace) -> int:
    names = args.tools.split(",") if args.tools else None
    config = RunConfig(
        task=args.task,
        provider=args.provider,
        base_url=args.base_url,
        tools=default_specs(names),
        limits=Limits(max_steps=args.max_steps or None),
        sim=SimSettings(persona=args.persona),
    )
    if args.model:
        config.model = args.model
    run = Run(config=config)
    for turn in iter_turns(run, on_wait=announce_wait):
        print_turn(turn)
    if run.stop is None:
        say("Paused: a tool needs the learner's approval (use the app for that).")
    say(f"\nStopped because: {catalogue().stop_text(run, tr=_english) if run.stop else 'waiting'}")
    say(f"Final answer: {run.final_text}")
    say(f"Total: {len(run.turns)} turn(s), {run.total_tokens} tokens, ${run.total_cost_usd:.5f}")
    if args.json:
        args.json.write_bytes(export_json(run))  # the one scrubbing encoder
        say(f"Run record written to {args.json}")
    return 0 if run.stop and run.stop.kind != StopKind.API_ERROR else 1


def _record(args: argparse.Namespace, settings: SimSettings) -> int:
    from agent_core.recorder import Recorder, RecorderConfig
    from agent_core.recorder.upstream import upstream_url
    from agent_core.sim import serve_forever
    from agent_core.storage.store import RunStore

    upstream = args.upstream.strip()
    if upstream not in (Provider.OFFLINE, Provider.ANTHROPIC) and not upstream.startswith(("http://", "https://")):
        say("--upstream: write offline, anthropic or a base URL such as http://localhost:11434")
        return 2
    store = RunStore()
    recorder = Recorder(RecorderConfig(upstream, sim=settings, fault_plan=tuple(args.fault)), save=store.save_turn)
    who = "the offline model" if upstream == Provider.OFFLINE else upstream_url(upstream)
    key = ", any value" if upstream == Provider.OFFLINE else ": it is passed on, never stored"
    try:
        serve_forever(args.host, args.port, handler=recorder, banner=RECORD_BANNER.format(upstream=who, key=key))
    finally:
        recorder.close()
        store.close()
    return 0


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.command == "serve":
        from agent_core.sim import serve_forever
        from agent_core.sim.faults import FaultConfigError, parse_steps

        try:
            for spec in args.fault:
                parse_steps(spec)
        except FaultConfigError as exc:
            say(f"--fault: {exc}")
            return 2
        settings = SimSettings(persona=args.persona, latency_ms=args.latency_ms, lenient_headers=args.lenient_headers)
        if args.record:
            return _record(args, settings)
        serve_forever(args.host, args.port, settings, fault_plan=args.fault)
        return 0
    return _run(args)
