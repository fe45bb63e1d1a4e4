"""A run as a runnable Python script: the same loop with the official SDK, replaying the recorded tool results."""

from __future__ import annotations

import json
import pprint
import string
import time
from typing import Any

from agent_core.loop import context
from agent_core.model import Run
from agent_core.secrets import scrub_tree
from agent_core.vocab import Approval

_SCRIPT = string.Template('''\
#!/usr/bin/env python3
"""Replay of an Agent Loop Lab run with the official anthropic SDK: the same request, the same loop.

Run it with ANTHROPIC_API_KEY set (the SDK reads it), or with ANTHROPIC_BASE_URL pointing at an
Anthropic-compatible server (for the offline simulated model: `python -m agent_core serve`).
The tools are stand-ins: they replay the results the original run's tools returned.
"""
$comments
import json
import os
import sys

import anthropic

# What the original run sent with its first request (model, max_tokens, system, tools...), minus messages.
PARAMS = $params
# The conversation as it started (usually just the task).
START_MESSAGES = $messages
# The program owns the step limit: the model never stops a runaway loop by itself.
MAX_STEPS = $max_steps
# Tool results of the original run, keyed by (tool name, canonical JSON of the input). A call made
# several times replays its results in order, and the last one repeats.
RECORDED = $recorded
# Only these fields of each reply block go back into the history.
PARAM_FIELDS = {
    "text": ("type", "text", "citations"),
    "tool_use": ("type", "id", "name", "input"),
    "thinking": ("type", "thinking", "signature"),
    "redacted_thinking": ("type", "data"),
}


def canonical(value):
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def run_tool(name, tool_input, seen):
    """Stand-in for the real tool: the recorded result, or an error the model can read."""
    key = (name, canonical(tool_input))
    results = RECORDED.get(key)
    if not results:
        return (f"No recorded result for {name}({canonical(tool_input)}): this script only replays "
                "the calls of the original run.", True)
    count = seen.get(key, 0)
    seen[key] = count + 1
    output, is_error = results[min(count, len(results) - 1)]
    return output, is_error


def history_blocks(content):
    blocks = []
    for block in content:
        data = block.to_dict()
        keep = PARAM_FIELDS.get(data.get("type")) or tuple(data)
        blocks.append({k: data[k] for k in keep if data.get(k) is not None})
    return blocks


def make_client():
    base_url = os.environ.get("ANTHROPIC_BASE_URL")
    api_key = os.environ.get("ANTHROPIC_API_KEY")
    if not api_key and not base_url:
        sys.exit("Set ANTHROPIC_API_KEY (or ANTHROPIC_BASE_URL for a local or offline server) first.")
    # Local servers accept any key, but the SDK insists on having one.
    return anthropic.Anthropic(api_key=api_key or "no-key", base_url=base_url or None)


def main():
    client = make_client()
    messages = list(START_MESSAGES)
    seen = {}
    final = ""
    for step in range(1, MAX_STEPS + 1):
        response = client.messages.create(messages=messages, **PARAMS)
        usage = response.usage
        print(f"--- turn {step}: stop_reason={response.stop_reason} "
              f"(input {usage.input_tokens} tokens, output {usage.output_tokens} tokens)")
        text = "".join(block.text for block in response.content if block.type == "text")
        if text:
            final = text
            print(text)
        # The server remembers nothing: the reply goes into the history we send next time.
        messages.append({"role": "assistant", "content": history_blocks(response.content)})
        if response.stop_reason == "pause_turn":
            continue
        if response.stop_reason != "tool_use":
            break
        results = []
        for block in response.content:
            if block.type == "tool_use":
                output, is_error = run_tool(block.name, block.input, seen)
                print(f"  tool {block.name}({canonical(block.input)}) -> {'ERROR: ' if is_error else ''}{output}")
                result = {"type": "tool_result", "tool_use_id": block.id, "content": output}
                if is_error:
                    result["is_error"] = True
                results.append(result)
        # Every result of this reply goes back in ONE user message.
        messages.append({"role": "user", "content": results})
    else:
        print(f"--- stopped: the step limit ({MAX_STEPS}) was reached")
    print("=== Final answer ===")
    print(final)


if __name__ == "__main__":
    main()
''')


def to_python_script(run: Run) -> str:
    """A standalone script that replays the run's conversation through the anthropic SDK (no key inside)."""
    params, messages = _first_request(run)
    return _SCRIPT.substitute(
        comments=_script_comments(run),
        params=_literal(scrub_tree(params)),
        messages=_literal(scrub_tree(messages)),
        max_steps=run.config.limits.effective_max_steps,
        recorded=_literal(scrub_tree(_recorded_results(run))),
    )


def _first_request(run: Run) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    # What was really sent (cache_control, thinking...); a run with no turn yet gets the request it would send.
    first = run.turns[0].request if run.turns and run.turns[0].request else None
    if first is None:
        first = context.build_request(run.config, run.messages[:1])
    return {k: v for k, v in first.items() if k not in ("messages", "stream")}, list(first.get("messages") or [])


def _recorded_results(run: Run) -> dict[tuple[str, str], list[tuple[str, bool]]]:
    recorded: dict[tuple[str, str], list[tuple[str, bool]]] = {}
    for turn in run.turns:
        for tool in turn.tools:
            if tool.approval == Approval.PENDING:
                continue  # never ran
            key = (tool.name, json.dumps(tool.input, sort_keys=True, separators=(",", ":"), ensure_ascii=False))
            recorded.setdefault(key, []).append((tool.output, tool.is_error))
    return recorded


def _script_comments(run: Run) -> str:
    cfg = run.config
    lines = [
        f"Run {run.id}, recorded {time.strftime('%Y-%m-%d %H:%M', time.gmtime(run.created_at))} UTC, "
        f"provider {cfg.provider}, model {cfg.model}.",
        f"Recorded: {len(run.turns)} turn(s), stop: {run.stop.kind if run.stop else 'not finished'}.",
        "Task:",
        *(f"  {line}" for line in (cfg.task.splitlines() or [""])),
    ]
    if cfg.context_policy != "none" or cfg.bugs or cfg.workflow_steps:
        lines.append(
            "Not reproduced here: context policy, deliberate bugs and workflow steps of the original "
            "run; this is the plain loop."
        )
    lines.append("Other limits of the original run (tokens, cost, time, repeated calls) are not reproduced.")
    return "\n".join("# " + _comment_safe(scrub_tree(line)) for line in lines)


def _comment_safe(text: str) -> str:
    # A carriage return or NUL would end the comment or break the source file.
    return "".join(ch if ch == "\t" or ch.isprintable() else "?" for ch in text)


def _literal(value: Any) -> str:
    """A Python literal of JSON-like data (repr quotes and escapes every string)."""
    return pprint.pformat(value, indent=1, width=110, sort_dicts=False)


# -- OpenAI Chat Completions form --------------------------------------------------------------
