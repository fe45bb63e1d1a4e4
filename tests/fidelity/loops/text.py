"""What a reader of an answer notices: its language, raw JSON pasted in, and values written in any usual format."""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Iterable
from functools import cache
from importlib import resources
from typing import Any

_SPACES = re.compile(r"[\u00a0\u202f\u2009\u2007]")
_THOUSANDS = re.compile(r"(?<=\d)[ ,'](?=\d{3}(?!\d))")
_DECIMAL_COMMA = re.compile(r"(?<=\d),(?=\d{1,2}(?!\d))")
_MINUS = re.compile(r"[\u2212\u2012\u2013]")
_QUOTES = str.maketrans({"«": '"', "»": '"', "„": '"', "”": '"', "“": '"', "’": "'", "‘": "'"})
_WS = re.compile(r"\s+")
# A JSON object or array as a program prints it: {"key": or [{"... ; prose never looks like this.
_RAW_JSON = re.compile(r"\{\s*\"[^\"\n]{1,60}\"\s*:|\[\s*\{\s*\"|\"[A-Za-z_][A-Za-z0-9_]{0,40}\"\s*:\s*[\[{\"\d\-tfn]")

_EN_WORDS = set(
    "the is are and of to in for it you your with at on this that be was has have what which there here "
    "currently will can not by from an as or".split()
)
_PL_WORDS = set(
    "jest są w na się nie że z do dla jak czy o po od przy oraz ale lub już może masz twoje twój twoja "
    "jaki która który wynosi teraz obecnie godzina pogoda temperatura zamówienie proszę mogę ma także też".split()
)
_PL_LETTERS = set("ąćęłńóśźż")
_PL_PAIRS = ("rz", "sz", "cz", "ie", "owe", "cj", "dz", "wy", "ych", "ej ")
_EN_PAIRS = ("th", "wh", "ing", "ee", "oo", "ou", "ght", "ea")
# English words a Russian or Polish answer has no reason to keep: they come untranslated from a tool's result.
_UNTRANSLATED = set(
    "the and is are with for of not found clear snow rain light cloudy sunny foggy fog drizzle overcast windy "
    "partly mostly showers shipped delivered processing cancelled error degrees today tonight".split()
)
# Words a language writes exactly as English does ('agent', 'model'): an answer saying them is not left in English.
_SAME_SPELLING = {
    "pl": set("agent agents model program test limit token prompt status plan problem system hotel port bank".split()),
    "ru": set(),
}
# A fenced block or a code span, a file path or a web address, or a quoted value short enough to be a name, a title or one line of a
# result: an answer in any language quotes those as they are. A longer quoted passage is pasted text, and it counts.
_QUOTED = re.compile(
    r"```.*?```|`[^`]*`|\bhttps?://\S+|(?<![\w/])~?(?:/[\w.-]+)+/?"
    r"|\"[^\"\n]{0,60}\"|«[^»\n]{0,60}»|„[^”\"\n]{0,60}[”\"]|“[^”\n]{0,60}”",
    re.S,
)
_LACKS_TOOL = re.compile(
    r"(don't|do not|doesn't) have (a|the|any) tool|no tool (to|for)|нет (такого |подходящего )?инструмента|"
    r"nie mam (takiego |odpowiedniego )?narzędzia",
    re.I,
)
# The model's own sentences that say it lacks a tool or the knowledge: read from its catalogue, so the check
# follows whatever the model says, in every language, wherever in the answer it stands.
_LACK_PHRASES = ("no_tool", "know.offline")
# Where a catalogue sentence's fixed head ends: its first value, clause or full stop.
_HEAD_END = re.compile(r"[{,:.]")
# What an answer in any language keeps as it is: code, fenced blocks, web addresses, paths, e-mail addresses.
_VERBATIM = re.compile(r"```.*?```|`[^`]*`|\bhttps?://\S+|[\w.+-]+@[\w-]+\.[\w.]+|(?<![\w/])~?(?:/[\w.-]+)+/?", re.S)
# A token as a tool writes it: an identifier, a version, a path or an address is one token, never prose words.
_TOKEN = re.compile(r"[\w.@/:+-]*\w")
_PROSE_WORD = re.compile(r"[A-Za-z]{3,}")
# The original in brackets right after the answer's own word for it, "ясно («clear»)": a gloss, already translated.
_GLOSS = re.compile(r"(?<=\w)\s*\(\s*[«„\"“][^»”\"\n]{1,40}[»”\"]\s*\)")
# Keys whose values name or identify a record rather than say something about it (an alert's area is a place).
_NAME_KEY = re.compile(
    r"name|title|subject|login|user|email|branch|ref|path|file|url|type|label|tag|sha|area|id$", re.I
)


@cache
def _lack_heads() -> tuple[str, ...]:
    catalogue = json.loads(resources.files("agent_core.sim").joinpath("data", "phrases.json").read_text("utf-8"))
    heads: list[str] = []
    for key in _LACK_PHRASES:
        entry = catalogue
        for part in key.split("."):
            entry = entry[part]
        heads += [fold(_HEAD_END.split(sentence)[0]) for sentence in entry.values()]
    return tuple(head for head in heads if len(head) >= 8)


def fold(text: str) -> str:
    """Lower case, one kind of space and quote, numbers without thousands separators and with a decimal point."""
    text = unicodedata.normalize("NFC", str(text)).translate(_QUOTES)
    text = _MINUS.sub("-", _SPACES.sub(" ", text))
    text = _DECIMAL_COMMA.sub(".", _THOUSANDS.sub("", text))
    return _WS.sub(" ", text).strip().casefold()


def mentions(text: str, alternatives: str) -> bool:
    """True when the text holds one of the '|'-separated fragments (folded alike)."""
    folded = fold(text)
    return any(fold(option) in folded for option in alternatives.split("|") if option)


def has_raw_json(text: str) -> bool:
    """True when the text pastes a JSON object or array instead of saying what it holds."""
    return _RAW_JSON.search(text) is not None


def language(text: str) -> str:
    """'ru', 'pl' or 'en': the language most of the text is written in (code spans and short quotes left out)."""
    prose = _QUOTED.sub(" ", text)
    letters = [c for c in prose if c.isalpha()]
    if not letters:
        # Nothing but quotes and code: the answer has no framing of its own, so the quotes are what it says.
        prose = re.sub(r"`[^`]*`", " ", text)
        letters = [c for c in prose if c.isalpha()]
    if not letters:
        return "?"
    cyrillic = sum("\u0400" <= c <= "\u04ff" for c in letters)
    if cyrillic / len(letters) >= 0.4:
        return "ru"
    folded = prose.casefold()
    words = re.findall(r"\w+", folded)
    polish = sum(w in _PL_WORDS for w in words) + 2 * sum(c in _PL_LETTERS for c in folded)
    english = sum(w in _EN_WORDS for w in words)
    # Letter pairs common in one language and rare in the other settle short answers without function words.
    polish += 0.5 * sum(folded.count(pair) for pair in _PL_PAIRS)
    english += 0.5 * sum(folded.count(pair) for pair in _EN_PAIRS)
    return "pl" if polish > english else "en"


def _values(value: Any, key: str = "") -> Iterable[tuple[bool, str]]:
    """The string values of a parsed JSON result, each marked as a name or as prose: its keys are the API's, and
    values under a key that names or identifies a record (a title, a login, a type, a path) are names."""
    if isinstance(value, str):
        yield bool(_NAME_KEY.search(key)), value
    elif isinstance(value, dict):
        for name, item in value.items():
            yield from _values(item, str(name))
    elif isinstance(value, list):
        for item in value:
            yield from _values(item, key)


def _parsed(text: str) -> list[tuple[bool, str]]:
    try:
        return list(_values(json.loads(text)))
    except (json.JSONDecodeError, TypeError):
        return [(False, text)]


def result_names(results: Iterable[str]) -> list[str]:
    """The names and titles a result holds: an answer in any language quotes them as they are."""
    return sorted({v for text in results for is_name, v in _parsed(text) if is_name and v.strip()}, key=len)[::-1]


def result_words(results: Iterable[str]) -> set[str]:
    """English prose words of tool results: lower-case plain words of their prose values. Identifiers
    (snake_case, dotted, with digits), paths, addresses and capitalised names are not prose and stay out."""
    words: set[str] = set()
    for text in results:
        for is_name, value in _parsed(text):
            if is_name:
                continue
            tokens = _TOKEN.findall(_VERBATIM.sub(" ", value))
            words |= {t for t in tokens if t.islower() and _PROSE_WORD.fullmatch(t)}
    return words


def untranslated(text: str, results: Iterable[str] = (), allowed: Iterable[str] = (), lang: str = "") -> list[str]:
    """English words left in a Russian or Polish answer: well-known ones outside quotes, and any prose word of a
    tool's result, quoted or not (code, paths, addresses, words the user or the case itself uses, and words the
    answer's language spells the same aside)."""
    prose = re.sub(r"`[^`]*`|\"[^\"]*\"|«[^»]*»|„[^”\"]*[”\"]", " ", text)
    left = [w for w in re.findall(r"[A-Za-z]+", prose) if w.casefold() in _UNTRANSLATED]
    results = list(results)
    copied = result_words(results)
    for name in result_names(results):
        text = text.replace(name, " ")
    keep = {w.casefold() for text in allowed for w in re.findall(r"[A-Za-z]+", text)} | _SAME_SPELLING.get(lang, set())
    tokens = _TOKEN.findall(_GLOSS.sub(" ", _VERBATIM.sub(" ", text)))
    left += [t for t in tokens if _PROSE_WORD.fullmatch(t) and t.casefold() in copied and t.casefold() not in keep]
    return list(dict.fromkeys(left))


def claims_no_tool(text: str) -> bool:
    """True when the answer says it has no tool for something."""
    folded = fold(text)
    return _LACKS_TOOL.search(text) is not None or any(head in folded for head in _lack_heads())
