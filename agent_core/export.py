"""Runs as files: versioned JSON export/import, a runnable SDK script, and one turn in OpenAI's format."""

from __future__ import annotations

import base64
import itertools
import json
import math
import pprint
import string
import textwrap
import time
import uuid
from dataclasses import fields, is_dataclass
from pathlib import Path
from typing import Any

import jsonschema

from agent_core import context
from agent_core.model import SCHEMA_VERSION, Run, migrate_run
from agent_core.secrets import env_secrets, redact_headers, scrub_bytes, scrub_secrets, scrub_tree
from agent_core.vocab import STOP_TABLE

SCHEMA_PATH = Path(__file__).parent / "data" / "run.schema.json"
# Limits on an imported file (documented in the README, "What the app trusts and what it does not").
MAX_IMPORT_BYTES = 20_000_000
OLDEST_READABLE = 1  # run formats from here up are migrated on import (agent_core.model.migrate_run)
MAX_DEPTH = 100  # a run nests about 10 levels; tool inputs a few more
MAX_INTEGER = 2**53  # the largest whole number JSON viewers (JavaScript) and SQLite both hold exactly
MIN_TIMESTAMP, MAX_TIMESTAMP = 0.0, 253_402_300_799.0  # 1970-01-01 .. 9999-12-31 23:59:59 UTC
_MAX_REPORTED_ERRORS = 3
_MAX_MESSAGE_CHARS = 200
FINISH_REASONS = {reason: info.openai_finish for reason, info in STOP_TABLE.items()}
_OPENAI_TOOL_CHOICE = {"auto": "auto", "any": "required", "none": "none"}


class RunImportError(ValueError):
    """A file that is not a run this app can read; the message says why in plain words."""


# -- JSON ---------------------------------------------------------------------------------
def export_json(run: Run) -> bytes:
    """The run in the versioned JSON format (pretty, UTF-8), with anything key-shaped scrubbed."""
    return dumps({"schema_version": SCHEMA_VERSION, "run": run}, indent=2).encode("utf-8")


def dumps(value: Any, indent: int | None = None) -> str:
    """JSON text of a run or any part of it, in Run.to_dict()'s encoding, with secrets scrubbed.

    The one JSON encoder for anything that leaves memory (database, exports, the CLI's --json): key-shaped
    strings and the environment's key, in any form or piece, never reach a file."""
    # The C encoder calls _encode_object only for dataclasses and bytes, and the scrub is one pass over the
    # text: far cheaper than asdict() plus a walk per string (the store calls this on every click).
    return scrub_secrets(
        json.dumps(
            value,
            default=_encode_object,
            indent=indent,
            ensure_ascii=False,
            allow_nan=False,
            separators=None if indent else (",", ":"),
        ),
        env_secrets(),
    )


def _encode_object(value: Any) -> Any:
    if is_dataclass(value) and not isinstance(value, type):
        data = {f.name: getattr(value, f.name) for f in fields(value)}
        for name in data:
            if name.endswith("_headers") and isinstance(data[name], dict):
                data[name] = redact_headers(data[name])
        return data
    if isinstance(value, bytes):
        try:
            return {"text": value.decode("utf-8")}  # scrubbed with the rest of the text
        except UnicodeDecodeError:
            return {"base64": base64.b64encode(scrub_bytes(value)).decode("ascii")}
    raise TypeError(f"{type(value).__name__} cannot be saved in a run")


def import_json(data: bytes | str, max_bytes: int = MAX_IMPORT_BYTES, keep_id: bool = False) -> Run:
    """Read an exported run; raises RunImportError (only) with a clear message for anything unreadable."""
    document = _parse(data, max_bytes)
    _check_shape_limits(document)
    _check_text(document)
    document = _migrated(document)
    _validate(document)
    try:
        run = Run.from_dict(document)
    except Exception as exc:  # the schema passed, so any failure here is a mismatch worth one clear message
        raise RunImportError(f"The file looks like a run but could not be loaded: {type(exc).__name__}: {exc}") from exc
    _check_names_and_times(run)
    if not keep_id:
        run.id = uuid.uuid4().hex[:12]  # importing twice must not overwrite the first copy
    return run


def _check_shape_limits(document: Any) -> None:
    """Nesting depth and whole numbers within the documented limits (the parser already refused 1e999 and NaN)."""
    stack: list[tuple[Any, int]] = [(document, 1)]
    while stack:
        value, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise RunImportError(f"The file is nested more than {MAX_DEPTH} levels deep; a run is not.")
        if isinstance(value, dict):
            stack.extend((v, depth + 1) for v in value.values())
        elif isinstance(value, list):
            stack.extend((v, depth + 1) for v in value)
        elif isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_INTEGER:
            raise RunImportError(f"The file holds the number {str(value)[:30]}…, larger than any a run records.")


def _check_names_and_times(run: Run) -> None:
    """Names the app knows and dates a calendar can show: anything else is refused here, not on a page later."""
    from agent_core.lessons.validate import BUGS, CONTEXT_POLICIES, PERSONAS
    from agent_core.providers import PROVIDERS

    cfg = run.config
    for what, value, known in (
        ("provider", cfg.provider, PROVIDERS),
        ("sim.persona", cfg.sim.persona, PERSONAS),
        ("context_policy", cfg.context_policy, CONTEXT_POLICIES),
        *(("bugs", bug, BUGS) for bug in cfg.bugs),
    ):
        if value not in known:
            raise RunImportError(
                f"run.config.{what} is {str(value)[:60]!r}, which this app does not know; known: {', '.join(known)}."
            )
    times = [("run.created_at", run.created_at)]
    times += [(f"run.turns[{i}].started_at", turn.started_at) for i, turn in enumerate(run.turns)]
    for where, stamp in times:
        if not MIN_TIMESTAMP <= stamp <= MAX_TIMESTAMP:
            raise RunImportError(
                f"{where} is {stamp!r}, not a date between 1970 and 9999 (seconds since 1970-01-01 UTC)."
            )


def _check_text(document: Any) -> None:
    """JSON may escape a lone surrogate (\\ud83d); such text can be neither shown nor saved, so refuse it here."""
    try:
        json.dumps(document, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError as exc:
        raise RunImportError(
            "The file holds a lone surrogate (half of an emoji, written as an escape like "
            f"\\ud83d) at character {exc.start} of its text; such text cannot be saved."
        ) from None


def _parse(data: bytes | str, max_bytes: int) -> Any:
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise RunImportError(f"Expected the file's bytes, got {type(data).__name__}.")
    data = bytes(data)
    if len(data) > max_bytes:
        raise RunImportError(
            f"The file is {len(data) / 1e6:.1f} MB; runs larger than {max_bytes / 1e6:.1f} MB are not imported."
        )
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise RunImportError(
            f"The file is not UTF-8 text (byte {exc.start} cannot be decoded); a run export is a JSON file."
        ) from None
    try:
        return json.loads(text, parse_constant=_reject_constant, parse_float=_finite_float)
    except json.JSONDecodeError as exc:
        raise RunImportError(
            f"The file is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}."
        ) from None
    except RecursionError:
        raise RunImportError("The file is not a run: its JSON is nested too deeply.") from None
    except ValueError as exc:  # e.g. NaN, or an integer with thousands of digits
        raise RunImportError(f"The file is not valid JSON for a run: {exc}.") from None


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):  # 1e999 parses as infinity, which can be neither shown nor saved
        raise ValueError(f"the number {text[:30]} is too large to be a number a run records")
    return value


def _check_version(document: Any) -> None:
    if not isinstance(document, dict):
        kind = {list: "an array", str: "a string", bool: "a boolean", type(None): "null"}.get(
            type(document), "a number"
        )
        raise RunImportError(f"The file holds {kind}, not a run export (an object with schema_version and run).")
    if "schema_version" not in document:
        raise RunImportError("The file has no schema_version: it is not an Agent Loop Lab run export.")
    version = document["schema_version"]
    if not isinstance(version, int) or isinstance(version, bool):
        raise RunImportError(f"schema_version must be a whole number, not {version!r}.")
    if version > SCHEMA_VERSION:
        raise RunImportError(
            f"The file uses run format v{version}, written by a newer Agent Loop Lab; "
            f"this app reads v{SCHEMA_VERSION}. Update the app to open it."
        )
    if version < OLDEST_READABLE:
        raise RunImportError(f"The file uses the old run format v{version}; this app reads v{SCHEMA_VERSION}.")


def _migrated(document: Any) -> dict:
    """The document in the current run format: an older version's run is migrated before it is validated."""
    _check_version(document)
    version = document["schema_version"]
    if version == SCHEMA_VERSION:
        return document
    run = document.get("run")
    return {
        **document,
        "schema_version": SCHEMA_VERSION,
        **({"run": migrate_run(run, version)} if isinstance(run, dict) else {}),
    }


def _validate(document: dict) -> None:
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    validator = jsonschema.Draft202012Validator(schema)
    try:
        errors = list(itertools.islice(validator.iter_errors(document), _MAX_REPORTED_ERRORS + 1))
    except RecursionError:
        raise RunImportError("The file is not a run: its JSON is nested too deeply.") from None
    if not errors:
        return
    lines = [
        f"{json_path(e.absolute_path)}: {textwrap.shorten(e.message, _MAX_MESSAGE_CHARS, placeholder=' …')}"
        for e in errors[:_MAX_REPORTED_ERRORS]
    ]
    more = " (and more)" if len(errors) > _MAX_REPORTED_ERRORS else ""
    raise RunImportError("The file does not match the run format: " + "; ".join(lines) + more)


def json_path(parts: Any) -> str:
    """['run', 'turns', 2, 'usage'] -> 'run.turns[2].usage' (the top level is shown as '(top level)')."""
    out = ""
    for part in parts:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(top level)"


# -- a runnable script ----------------------------------------------------------------------
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


def _first_request(run: Run) -> tuple[dict, list]:
    # What was really sent (cache_control, thinking...); a run with no turn yet gets the request it would send.
    first = run.turns[0].request if run.turns and run.turns[0].request else None
    if first is None:
        first = context.build_request(run.config, run.messages[:1])
    return {k: v for k, v in first.items() if k not in ("messages", "stream")}, list(first.get("messages") or [])


def _recorded_results(run: Run) -> dict[tuple[str, str], list[tuple[str, bool]]]:
    recorded: dict[tuple[str, str], list[tuple[str, bool]]] = {}
    for turn in run.turns:
        for tool in turn.tools:
            if tool.approval == "pending":
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
def to_openai_messages(request: dict) -> dict:
    """One Messages API request as an OpenAI Chat Completions request (same conversation, other names)."""
    messages: list[dict] = []
    system = _text_of(request.get("system"))
    if system:
        messages.append({"role": "system", "content": system})
    for message in request.get("messages") or []:
        if message.get("role") == "assistant":
            messages.append(_openai_assistant(message.get("content")))
        else:
            messages.extend(_openai_user(message.get("content")))
    out: dict = {"model": request.get("model"), "messages": messages}
    if request.get("max_tokens") is not None:
        out["max_tokens"] = request["max_tokens"]
    if request.get("tools"):
        out["tools"] = [
            {
                "type": "function",
                "function": {
                    "name": t.get("name"),
                    "description": t.get("description", ""),
                    "parameters": t.get("input_schema", {}),
                },
            }
            for t in request["tools"]
        ]
    out.update(_openai_tool_choice(request.get("tool_choice")))
    if request.get("stop_sequences"):
        out["stop"] = list(request["stop_sequences"])
    return out


def to_openai_response(response: dict) -> dict:
    """One Messages API reply as an OpenAI chat.completion object."""
    message = _openai_assistant(response.get("content"))
    usage = response.get("usage") or {}
    prompt = sum(
        int(usage.get(k) or 0) for k in ("input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens")
    )
    completion = int(usage.get("output_tokens") or 0)
    return {
        "id": response.get("id"),
        "object": "chat.completion",
        "model": response.get("model"),
        "choices": [
            {"index": 0, "message": message, "finish_reason": FINISH_REASONS.get(response.get("stop_reason"), "stop")}
        ],
        "usage": {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion},
    }


def _openai_assistant(content: Any) -> dict:
    blocks, text = _blocks(content), _text_of(content)
    calls = [
        {
            "id": b.get("id"),
            "type": "function",
            "function": {"name": b.get("name"), "arguments": json.dumps(b.get("input", {}), ensure_ascii=False)},
        }
        for b in blocks
        if b.get("type") == "tool_use"
    ]
    # OpenAI has no thinking blocks; they are left out.
    message: dict = {"role": "assistant", "content": text or (None if calls else "")}
    if calls:
        message["tool_calls"] = calls
    return message


def _openai_user(content: Any) -> list[dict]:
    blocks = _blocks(content)
    out: list[dict] = []
    for block in blocks:
        if block.get("type") == "tool_result":
            text = _text_of(block.get("content"))
            # OpenAI has no is_error flag: the words must carry the failure.
            if block.get("is_error") and not text.lower().startswith("error"):
                text = f"Error: {text}"
            out.append({"role": "tool", "tool_call_id": block.get("tool_use_id"), "content": text})
    # Tool messages must follow the assistant's tool_calls directly; any text comes after them.
    text = _text_of(blocks)
    if text or not out:
        out.append({"role": "user", "content": text})
    return out


def _openai_tool_choice(choice: dict | None) -> dict:
    if not choice:
        return {}
    out: dict = {}
    kind = choice.get("type")
    if kind == "tool":
        out["tool_choice"] = {"type": "function", "function": {"name": choice.get("name")}}
    elif kind in _OPENAI_TOOL_CHOICE:
        out["tool_choice"] = _OPENAI_TOOL_CHOICE[kind]
    if choice.get("disable_parallel_tool_use"):
        out["parallel_tool_calls"] = False
    return out


def _blocks(content: Any) -> list[dict]:
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    return [b for b in content or [] if isinstance(b, dict)]


def _text_of(content: Any) -> str:
    return "".join(b.get("text", "") for b in _blocks(content) if b.get("type") == "text")
