"""What a reader of an answer notices: its language, raw JSON pasted in, and values written in any usual format."""

from __future__ import annotations

import re
import unicodedata

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


def untranslated(text: str) -> list[str]:
    """English words left in a Russian or Polish answer (quoted spans and code aside)."""
    prose = re.sub(r"`[^`]*`|\"[^\"]*\"|«[^»]*»|„[^”\"]*[”\"]", " ", text)
    return [w for w in re.findall(r"[A-Za-z]+", prose) if w.casefold() in _UNTRANSLATED]


def claims_no_tool(text: str) -> bool:
    """True when the answer says it has no tool for something."""
    return _LACKS_TOOL.search(text) is not None
