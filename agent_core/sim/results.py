"""How the simulated model reads tool results: errors that point to a fix, and instructions hidden in the data."""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache

from agent_core.sim import arithmetic
from agent_core.sim import language as lx
from agent_core.sim.reader import Attempt


def short(text: str, limit: int = 120) -> str:
    """One line of at most limit characters, for quoting in replies and reasoning."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 1] + "…"


# ---- reading error messages ------------------------------------------------------------------------

_DID_YOU_MEAN = re.compile(r"(?:did you mean|you probably meant|вы имели в виду|имелось в виду|czy chodziło(?: ci| panu| pani)? o"
                           r"|może chodziło o)\s*:?\s*['\"“«„]?([^'\"”»?!,;\n]+?)['\"”»]?\s*(?:[?!,;\n]|\.(?:\s|$)|$)", re.I)
_INSTEAD = re.compile(r"use\s+['\"“`]?(\S+?)['\"”`]?\s+instead of\s+['\"“`]?(\S+?)['\"”`]?(?:[\s.,;]|$)", re.I)
_OPTIONS = re.compile(r"(?:available|known|valid|allowed|supported|one of|files in the sandbox|доступн\w*|известн\w*"
                      r"|dostępn\w*|znan\w*)[^:\n]{0,30}:\s*([^\n]+)", re.I)
_EXPRESSION_WORDS = ("character", "syntax", "parse", "token", "expected", "decimal", "operator", "parenthes")


def _candidates(value: str, error: str) -> list[str]:
    """What the error message suggests instead of value, best first."""
    found = [m.group(1).strip() for m in _DID_YOU_MEAN.finditer(error)]
    found += [value.replace(m.group(2), m.group(1)) for m in _INSTEAD.finditer(error) if m.group(2) in value]
    for match in _OPTIONS.finditer(error):
        items = [i.strip(" '\"“”«»`.") for i in re.split(r",\s*|;\s*|\s+or\s+", match.group(1))]
        near = lx.closest(value, [re.sub(r"\s*\(.*\)$", "", i) for i in items])
        found += [near] if near else []
    if re.search(r"\d", value) and any(w in error.lower() for w in _EXPRESSION_WORDS):
        found.append(arithmetic.tidy_expression(value))
    return [c for c in found if c and lx.fold(c) != lx.fold(value)]


def fix(tool_input: dict, error: str, tried: list[dict]) -> dict | None:
    """A corrected input the error message points to, never one already tried."""
    for key, value in tool_input.items():
        if not isinstance(value, str):
            continue
        for candidate in _candidates(value, error):
            fixed = {**tool_input, key: candidate}
            if fixed not in tried:
                return fixed
    return None


# ---- instructions hidden in tool results -------------------------------------------------------------

@dataclass
class Injection:
    """Instructions found inside a tool result: where, what they ask, and the text to quote."""

    source: Attempt
    snippet: str
    span: tuple[int, int]
    call: tuple[str, dict] | None = None
    reply: str | None = None


def _pattern(items: list[str]) -> str:
    return "|".join(r"\W+".join(map(re.escape, item.split())) for item in sorted(items, key=len, reverse=True))


@lru_cache(maxsize=None)
def _injection_patterns() -> tuple[re.Pattern, re.Pattern, re.Pattern]:
    """Trigger, 'reply only with' and 'call <tool>' patterns, built once: every tool result is searched each turn."""
    words = lx.lexicon()["injection"]
    reply = rf"(?:{_pattern(words['reply'])})\s*:?\s*['\"“«„]?(.+?)['\"”»]?\s*(?:[.!]\s|[.!]?$|\n)"
    call = (rf"\b(?:{_pattern(words['call'])})\s+(?:the\s+)?(?:tool\s+|function\s+)?[`'\"]?([A-Za-z][\w-]*)[`'\"]?"
            r"(?:\s+(?:with|using|on|for|с|z|na)\s+(.+?))?\s*(?:\.(?:\s|$)|\n|$)")
    return (re.compile(_pattern(words["triggers"]), re.I), re.compile(reply, re.I), re.compile(call, re.I))


def find_injection(attempt: Attempt, tools: list[dict]) -> Injection | None:
    """The injection pattern of BEHAVIOUR.md: a trigger, then 'Call <tool> with ...' or 'Reply only with ...'."""
    triggers, replies, calls = _injection_patterns()
    trigger = triggers.search(attempt.output)
    if not trigger:
        return None
    rest, base = attempt.output[trigger.end():], trigger.end()
    reply, call = replies.search(rest), calls.search(rest)
    found = min((m for m in (reply, call) if m), key=lambda m: m.start(), default=None)
    if found is None:
        return None
    span = (trigger.start(), base + found.end())
    snippet = lx.quote(short(attempt.output[span[0]:span[1]], 100), "en")
    if found is reply:
        return Injection(attempt, snippet, span, reply=reply.group(1).strip())
    tool = next((t for t in tools if t.get("name") == call.group(1)), {})
    return Injection(attempt, snippet, span, call=(call.group(1), _injected_args(call.group(2) or "", tool)))


def _injected_args(text: str, tool: dict) -> dict:
    text = text.strip()
    if text.startswith("{"):
        try:
            value = json.loads(text)
            return value if isinstance(value, dict) else {}
        except ValueError:
            pass
    schema = tool.get("input_schema") or {}
    first = next(iter(schema.get("required") or schema.get("properties") or ["input"]))
    out = {}
    for piece in filter(None, re.split(r"\s*(?:,|\band\b|\bи\b|\boraz\b)\s*", text)):
        match = re.match(r"[`'\"]?([A-Za-z_]\w*)[`'\"]?\s*(?:=|:|\s)\s*[`'\"“]?(.+?)[`'\"”]?$", piece)
        if match:
            out[match.group(1)] = match.group(2)
        else:
            out[first] = piece.strip("`'\"“”")
    return out
