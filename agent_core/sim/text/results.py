"""How the simulated model reads tool calls and results: the history, errors that point to a fix, injected orders."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache, cached_property
from typing import Any

from agent_core import jsontext
from agent_core.sim.text import arithmetic
from agent_core.sim.text import language as lx

SHORT_RESULT = 200  # only short results can mean "unavailable"; a long document merely mentioning it is data
# Tool calls the program reports in plain text (summaries of old turns, workflow data): "- name({json}) -> result: text",
# the status word in the run's language (lexicon.json call_status: "- read_file({...}) -> ошибка: ...").
# json.dumps(value, sort_keys=True, ensure_ascii=False) without building an encoder per call (a hot spot).
SORTED_JSON = jsontext.encoder(sort_keys=True)


@cache
def _call_line() -> re.Pattern[str]:
    words = [re.escape(w) for ws in lx.lexicon()["call_status"].values() for w in ws]
    return re.compile(rf"^- ([A-Za-z0-9_-]{{1,64}})\((\{{.*\}})\)(?: -> ({'|'.join(words)}))?: ?(.*)$", re.I)


def _is_error_word(word: str | None) -> bool:
    return word is not None and word.lower() in lx.lexicon()["call_status"]["error"]


# ---- calls and results in the history -------------------------------------------------------------


@dataclass
class Attempt:
    """One tool call found in the history, with what came back (status: ok, error or unavailable)."""

    name: str
    input: dict[str, Any]
    output: str
    status: str

    @cached_property
    def key(self) -> str:
        """call_key of this call, made once: the history's calls are looked up several times a turn."""
        return call_key(self.name, self.input)


def blocks(content: Any) -> list[dict[str, Any]]:
    """The content blocks of a message (a plain string is one text block)."""
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    return [b for b in content or [] if isinstance(b, dict)]


def text_of(content: Any) -> str:
    """The text blocks of a message, joined."""
    return "\n".join(b.get("text", "") for b in blocks(content) if b.get("type") == "text")


_NOT_FOUND = re.compile(
    r"couldn't find|could not find|not found|no such|does not exist|doesn't exist|no user|no match|invalid"
    r"|не найден|нет такого|не существует|nie znaleziono|nie istnieje|brak takiego",
    re.I,
)


@lx.text_cache
def _status(text: str, is_error: bool) -> str:
    unavailable = len(text) < SHORT_RESULT and lx.hits(lx.words(text), lx.lexicon()["unavailable"])
    # "Couldn't find a user with phone of 5551234567. Phone numbers are stored as 123-456-7890." is returned as a
    # plain result by the course's database, and read, as a model does, as a failure that says how to fix it.
    refused = len(text) < 2 * SHORT_RESULT and bool(_NOT_FOUND.search(text)) and _hint(text)
    return "unavailable" if unavailable else "error" if is_error or refused or _in_band_error(text) else "ok"


_IN_BAND = re.compile(r'^\s*\{\s*"status"\s*:\s*"(?:error|failed|failure)"\s*,', re.I)


def _in_band_error(text: str) -> bool:
    """A result that reports its own failure ({"status": "error", "error_message": ...}, as ADK's tools return):
    an error, though the call itself did not fail."""
    return len(text) < 2 * SHORT_RESULT and bool(_IN_BAND.match(text))


def _refused_lookup(text: str, tool_input: dict[str, Any]) -> bool:
    """'Couldn't find a user with email of ann@x.com', returned as a plain result: a short answer that opens by
    saying the thing asked for is not there and names the value sent is a failed look-up, not data."""
    if len(text) >= SHORT_RESULT or not _opens_not_found(text):
        return False  # most results: the values sent are not looked at
    sent = [str(v) for v in tool_input.values() if isinstance(v, str | int) and not isinstance(v, bool) and str(v)]
    return any(v in text for v in sent)


@lx.text_cache
def _opens_not_found(text: str) -> bool:
    # Cached: every earlier result is read again on every turn, and the case-blind match costs microseconds.
    return bool(_NOT_FOUND.match(text.strip()[:40]))


def _hint(text: str) -> bool:
    """The message says what would work: a format, a list, a suggestion, an allowed directory."""
    return bool(_DID_YOU_MEAN.search(text) or _FORMAT.search(text) or _OPTIONS.search(text) or _ALLOWED.search(text))


def attempts_in(messages: list[dict[str, Any]], input_keys: dict[int, str] | None = None) -> list[Attempt]:
    """Every tool call in the messages that has its result, in order (input_keys: id of a call's input -> its
    SORTED_JSON, made by the server once per message text: each Attempt's key is then not made again)."""
    out = []
    for name, tool_input, text, is_error in calls_with_results(messages):
        failed = is_error or _refused_lookup(text, tool_input)
        attempt = Attempt(name, tool_input, text, _status(text, failed))
        if input_keys and (known := input_keys.get(id(tool_input))) is not None:
            attempt.__dict__["key"] = name + known  # what the cached property would make: call_key(name, input)
        out.append(attempt)
    return out


def calls_with_results(messages: list[dict[str, Any]]) -> Iterator[tuple[str, dict[str, Any], str, bool]]:
    """Each tool call that has its result, in order: its name, its input, the result's text and its is_error."""
    asked: dict[str, tuple[str, dict[str, Any]]] = {}
    for message in messages:
        content = message.get("content")
        if not isinstance(content, list):
            continue  # a plain string holds no tool blocks
        assistant = message.get("role") == "assistant"
        for block in content:
            kind = block.get("type") if isinstance(block, dict) else None
            if kind == "tool_use" and assistant:
                tool_input = block.get("input")
                asked[block.get("id")] = (block.get("name", ""), tool_input if isinstance(tool_input, dict) else {})
            elif kind == "tool_result" and block.get("tool_use_id") in asked:
                name, tool_input = asked.pop(block["tool_use_id"])
                result = block.get("content")
                text = result if isinstance(result, str) else text_of(result)
                yield name, tool_input, text, bool(block.get("is_error"))


def noted_calls(text: str) -> tuple[str, list[Attempt]]:
    """Split the question from tool calls the program wrote into it as text (summaries, workflow data)."""
    lines, found, failed, first = text.split("\n"), [], [], None
    outputs: list[list[str]] = []  # joined once at the end: adding line by line to a huge output was quadratic
    for index, line in enumerate(lines):
        match = _call_line().match(line.strip())
        if match:
            first = index if first is None else first
            try:
                tool_input = json.loads(match.group(2))
            except ValueError:
                tool_input = {}
            found.append(Attempt(match.group(1), tool_input if isinstance(tool_input, dict) else {}, "", ""))
            outputs.append([match.group(4)])
            failed.append(_is_error_word(match.group(3)))
        elif found and line.strip():
            outputs[-1].append(line)
    for attempt, output, error in zip(found, outputs, failed, strict=False):
        attempt.output = "\n".join(output)
        attempt.status = _status(attempt.output, error)
    if first is None:
        return text, []
    head = lines[:first]
    if head and head[-1].rstrip().endswith(":"):
        head = head[:-1]  # the header line that introduced the list
    return "\n".join(head).strip(), found


def call_key(name: str, tool_input: Any) -> str:
    """Identity of a call: the same tool with the same input."""
    return name + SORTED_JSON(tool_input)


def short(text: str, limit: int = 120) -> str:
    """One line of at most limit characters, for quoting in replies and reasoning."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


# ---- reading error messages ------------------------------------------------------------------------

_DID_YOU_MEAN = re.compile(
    r"(?:did you mean|you probably meant|вы имели в виду|имелось в виду|czy chodziło(?: ci| panu| pani)? o"
    r"|może chodziło o)\s*:?\s*['\"“«„]?([^'\"”»?!,;\n]+?)['\"”»]?\s*(?:[?!,;\n]|\.(?:\s|$)|$)",
    re.I,
)
_INSTEAD = re.compile(r"use\s+['\"“`]?(\S+?)['\"”`]?\s+instead of\s+['\"“`]?(\S+?)['\"”`]?(?:[\s.,;]|$)", re.I)
_OPTIONS = re.compile(
    r"(?:available|known|valid|allowed|supported|one of|files in the sandbox|доступн\w*|известн\w*"
    r"|dostępn\w*|znan\w*)[^:\n]{0,30}:\s*([^\n]+)",
    re.I,
)
# An expression error in any of the three languages (the built-in calculator answers in the learner's).
_EXPRESSION_WORDS = (
    *("character", "syntax", "parse", "token", "expected", "decimal", "operator", "parenthes"),
    *("символ", "синтакс", "ожидал", "операци", "скобк"),
    *("znak", "składni", "oczekiwano", "działani", "nawias"),
)


# A format shown by example: "Phone numbers are stored as 123-456-7890", "use the format YYYY-MM-DD", "e.g. 14:30".
_FORMAT = re.compile(
    r"(?:stored as|formatted as|in the format|format(?: is| should be| must be)?:?|expected format:?|must look like"
    r"|should look like|like|e\.g\.,?|for example|в формате|формат:?|например|w formacie|format:?|np\.)"
    r"\s*['\"“«„`]?([\w+()./: -]*\d[\w+()./: -]*|[YMDHhms]{2,4}(?:[-./: ][YMDHhms]{2,4})+)['\"”»`]?",
    re.I,
)
# "Access denied - path outside allowed directories: /home/a/notes.txt not in /srv/work", "allowed directories: ..."
_ALLOWED = re.compile(
    r"(?:not in|allowed director(?:y|ies)(?: are| is)?:?|only (?:within|inside|under)|разрешённые каталоги:?"
    r"|dozwolone katalogi:?)\s+((?:~|/|[A-Za-z]:\\)[^\s,;]*(?:,\s*(?:~|/)[^\s,;]*)*)",
    re.I,
)


def _reformatted(value: str, error: str) -> list[str]:
    """The value written the way the error's example shows: 5551234567 -> 555-123-4567 for 123-456-7890."""
    out = []
    digits = re.sub(r"\D", "", value)
    for match in _FORMAT.finditer(error):
        example = match.group(1).strip(" .")
        if re.fullmatch(r"[YMDHhms]{2,4}(?:[-./: ][YMDHhms]{2,4})+", example):
            continue  # a pattern written in letters: dates are made right when they are read
        slots = re.sub(r"\d", "#", example)
        if digits and slots.count("#") == len(digits) and slots != value:
            out.append(_into_slots(slots, digits))
    return out


def _into_slots(slots: str, digits: str) -> str:
    """'###-###-####' filled with digits, in order."""
    it = iter(digits)
    return re.sub("#", lambda _: next(it), slots)


def _moved_into_allowed(value: str, error: str) -> list[str]:
    """A path outside the allowed directories, moved into the first of them (its file name kept)."""
    if "/" not in value and "\\" not in value and "." not in value:
        return []
    if re.match(r"(?:/|~|[A-Za-z]:\\)", value):
        return []  # '/etc/passwd' is that very file: the denial is the answer, not a hint to look elsewhere
    out = []
    for match in _ALLOWED.finditer(error):
        if _denied_path(error, match):
            continue
        for folder in re.split(r",\s*", match.group(1)):
            folder = folder.rstrip("/.,;")
            name = re.split(r"[\\/]", value.rstrip("/"))[-1]
            if folder and folder != value.rstrip("/") and not value.startswith(folder + "/") and name:
                out.append(f"{folder}/{name}")
    return out


def _denied_path(error: str, match: re.Match[str]) -> bool:
    """'allowed directories: /root/a.md not in /srv': the path matched is the denied one, the folder follows."""
    return re.match(r"['\"”»]?\s+not in\b", error[match.end() :], re.I) is not None


def _candidates(value: str, error: str) -> list[str]:
    """What the error message suggests instead of value, best first."""
    found = [m.group(1).strip() for m in _DID_YOU_MEAN.finditer(error)]
    found += _reformatted(value, error) + _moved_into_allowed(value, error)
    found += [value.replace(m.group(2), m.group(1)) for m in _INSTEAD.finditer(error) if m.group(2) in value]
    for match in _OPTIONS.finditer(error):
        items = [i.strip(" '\"“”«»`.") for i in re.split(r",\s*|;\s*|\s+or\s+", match.group(1))]
        near = lx.closest(value, [re.sub(r"\s*\(.*\)$", "", i) for i in items])
        found += [near] if near else []
    if re.search(r"\d", value) and any(w in error.lower() for w in _EXPRESSION_WORDS):
        found.append(arithmetic.tidy_expression(value))
    return [c for c in found if c and lx.fold(c) != lx.fold(value) and not _echoes(value, c)]


def _echoes(value: str, candidate: str) -> bool:
    """'/etc/hosts not in /data/irena': the error repeating the value with its own words after it, no new value."""
    at = lx.fold(candidate).find(lx.fold(value))
    rest = (lx.fold(candidate)[:at] + " " + lx.fold(candidate)[at + len(lx.fold(value)) :]).split()
    return at >= 0 and bool(value) and len(rest) >= 3


_INSIDE = re.compile(
    r"(?:must be (?:inside|within|under)|allowed director(?:y|ies)(?: are| is)?:?|внутри|только в|wewnątrz|tylko w)"
    r"\s+['\"“«„]?(/[\w./~-]+)",
    re.I,
)


def _inside(value: Any, error: str) -> Any:
    """'Each path must be inside /home/ann/projects': a relative path (or a list of them) put inside that folder."""
    found = next((m for m in _INSIDE.finditer(error) if not _denied_path(error, m)), None)
    if not found:
        return None
    folder = found.group(1).rstrip("/.")
    if isinstance(value, str) and value and not value.startswith(("/", "~", "http")):
        return f"{folder}/{value.lstrip('./')}"
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        moved = [_inside(v, error) or v for v in value]
        return moved if moved != value else None
    return None


def fix(tool_input: dict[str, Any], error: str, tried: list[dict[str, Any]]) -> dict[str, Any] | None:
    """A corrected input the error message points to, never one already tried."""
    error = lx.attend(error)
    for key, value in tool_input.items():
        moved = _inside(value, error)
        if moved is not None and {**tool_input, key: moved} not in tried:
            return {**tool_input, key: moved}
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
    snippet: str  # the start of the instructions, to quote to the user
    text: str  # the instructions as they stand in the result, cut out of it when the result is quoted
    call: tuple[str, dict[str, Any]] | None = None
    reply: str | None = None


def _pattern(items: list[str]) -> str:
    return "|".join(r"\W+".join(map(re.escape, item.split())) for item in sorted(items, key=len, reverse=True))


@cache
def _injection_patterns() -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    """Trigger, 'reply only with' and 'call <tool>' patterns, built once: every tool result is searched each turn."""
    words = lx.lexicon()["injection"]
    reply = rf"(?:{_pattern(words['reply'])})\s*:?\s*['\"“«„]?(.+?)['\"”»]?\s*(?:[.!]\s|[.!]?$|\n)"
    call = (
        rf"\b(?:{_pattern(words['call'])})\s+(?:the\s+)?(?:tool\s+|function\s+)?[`'\"]?([A-Za-z][\w-]*)[`'\"]?"
        r"(?:\s+(?:with|using|on|for|с|z|na)\s+(.+?))?\s*(?:\.(?:\s|$)|\n|$)"
    )
    return (re.compile(_pattern(words["triggers"]), re.I), re.compile(reply, re.I), re.compile(call, re.I))


@lx.text_cache
def _triggered(output: str) -> bool:
    # Every result of the history is searched again on every turn: whether it holds a trigger is read once.
    return bool(_injection_patterns()[0].search(lx.attend(output)))


def find_injection(attempt: Attempt, tools: list[dict[str, Any]]) -> Injection | None:
    """The injection pattern of BEHAVIOUR.md: a trigger, then 'Call <tool> with ...' or 'Reply only with ...'."""
    if not _triggered(attempt.output):
        return None
    triggers, replies, calls = _injection_patterns()
    output = lx.attend(attempt.output)  # like everything else, read closely only at the start and the end
    trigger = triggers.search(output)
    if not trigger:
        return None
    rest = output[trigger.end() :]
    reply, call = replies.search(rest), calls.search(rest)
    found = min((m for m in (reply, call) if m), key=lambda m: m.start(), default=None)
    if found is None:
        return None
    text = output[trigger.start() : trigger.end() + found.end()]
    snippet = short(text, 100)
    if found is reply:
        return Injection(attempt, snippet, text, reply=found.group(1).strip())
    tool = next((t for t in tools if t.get("name") == found.group(1)), {})
    return Injection(attempt, snippet, text, call=(found.group(1), _injected_args(found.group(2) or "", tool)))


def _injected_args(text: str, tool: dict[str, Any]) -> dict[str, Any]:
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
