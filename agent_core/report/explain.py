"""Plain-data explanations of a run for any UI: the request diff between turns and the sequence diagram."""

from __future__ import annotations

import difflib
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from agent_core.model import Run, Turn


@dataclass
class RequestDiff:
    """How turn N's request differs from turn N-1's: what was appended, and how much was sent again."""

    resent_messages: int
    appended: list[dict[str, Any]]
    rewritten_history: bool  # earlier messages changed (summarised / cleared), not just appended to
    unified: str  # a unified diff of the pretty JSON


def _pretty(body: dict[str, Any] | None) -> list[str]:
    return json.dumps(body or {}, indent=2, ensure_ascii=False).splitlines()


def request_diff(previous: Turn | None, current: Turn) -> RequestDiff:
    """Compare two consecutive requests."""
    before = (previous.request or {}) if previous else {}
    after = current.request or {}
    old, new = before.get("messages", []), after.get("messages", [])
    prefix = 0
    while prefix < min(len(old), len(new)) and old[prefix] == new[prefix]:
        prefix += 1
    unified = "\n".join(
        difflib.unified_diff(_pretty(before), _pretty(after), "previous request", "this request", n=2, lineterm="")
    )
    return RequestDiff(prefix, new[prefix:], prefix < len(old), unified)


def _short(text: str, limit: int = 48) -> str:
    text = " ".join(str(text).split()).replace('"', "'").replace(";", ",").replace("#", "")
    return text if len(text) <= limit else text[: limit - 1] + "…"


Label = Callable[[str], str]  # an English diagram text (or template) in the reader's language; str by default


def _call_label(turn: Turn, label: Label) -> str:
    count = len((turn.request or {}).get("messages", []))
    if turn.usage:
        return label("turn {n}: {count} message(s), {tokens} tokens in").format(
            n=turn.index, count=count, tokens=turn.usage.whole_input
        )
    return label("turn {n}: {count} message(s)").format(n=turn.index, count=count)


def sequence_diagram(run: Run, last_turns: int = 12, stop_words: str = "", label: Label = str) -> str:
    """Mermaid sequence diagram of the run so far: User, Agent, Model, Tools (older turns folded in a note).

    `stop_words` says why the run stopped (the UI words the stop cause); the final answer wins when there is one.
    `label` words the diagram's own texts (the UI passes its translation); API names stay as they are."""
    lines = [
        "sequenceDiagram",
        f"    participant U as {_short(label('User'))}",
        f"    participant A as {_short(label('Agent (your program)'))}",
        f"    participant M as {_short(label('Model (API)'))}",
        f"    participant T as {_short(label('Tools'))}",
        f"    U->>A: {_short(run.config.task)}",
    ]
    shown = run.turns[-last_turns:]
    if len(run.turns) > len(shown):
        folded = label("{n} earlier turns not drawn").format(n=len(run.turns) - len(shown))
        lines.append(f"    Note over A,M: {_short(folded)}")
    for turn in shown:
        lines.append(f"    A->>M: {_short(_call_label(turn, label), 60)}")
        if turn.error:
            lines.append(f"    M--xA: HTTP {turn.error.status or turn.error.kind}")
            continue
        if turn.response is None:
            continue
        names = ", ".join(c["name"] for c in turn.tool_calls)
        lines.append(f"    M-->>A: stop_reason {turn.stop_reason}{': ' + _short(names) if names else ''}")
        for tool in turn.tools:
            lines.append(f"    A->>T: {_short(tool.name + '(' + json.dumps(tool.input, ensure_ascii=False) + ')')}")
            arrow = "--x" if tool.is_error else "-->>"
            lines.append(f"    T{arrow}A: {_short((label('error: ') if tool.is_error else '') + tool.output)}")
    if run.stop:
        answer = run.final_text or stop_words or run.stop.kind
        lines.append(f"    A->>U: {_short(answer)}")
    return "\n".join(lines)
