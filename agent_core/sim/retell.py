"""English prose of a tool's result told in Russian or Polish: what it names (names, versions, figures with their
units) and the terms the vocabulary knows, in the user's words ('Clicking 'Pay now' on Safari 19 does nothing; no
error in the console.' -> 'по-английски; главное: Safari 19, ошибка, консоль'), never the English copied."""

from __future__ import annotations

import re
from functools import cache

from agent_core.sim import phrasing, prose
from agent_core.sim.text import language as lx
from agent_core.sim.text.language import say

MOST = 6
# A word, a number or version, or a quoted piece; a name keeps its number after it ('Safari 19', 'Django 6.1').
# A date ('2026-11-30', '30.11.2026'), a time ('15:00') and a code of digits and letters ('4B', 'A12') are one value.
_TOKEN = re.compile(
    r"'([^']{1,40})'|\"([^\"]{1,40})\"|(?<![\w:.-])(\d{4}-\d{2}-\d{2}|\d{1,2}\.\d{1,2}\.\d{4}|\d{1,2}:\d{2}(?::\d{2})?"
    r"|\d+[A-Za-z]{1,2}\b|[A-Z]{1,2}\d+\b)"
    r"|([A-Za-z][\w-]*)|(\d+(?:\.\d+)*)"
)
_SENTENCE_END = re.compile(r"^(?:[.!?;:]|[ \t]*\n)")  # a line break ends a line of a note as a full stop would
_NOT_TERMS = {"yes", "no", "true", "false", "light"}  # a yes, a no or a 'light' alone says nothing of the text


@cache
def _terms() -> dict[str, str]:
    """English terms (by stem, phrases as words) and their word in each language: the vocabulary's words, the
    terms a page is about, known single-word values."""
    out: dict[str, dict[str, str]] = {}
    answers = lx.load("answers")
    tables = [lx.load("vocabulary")["words"], answers["terms"], answers["values"]]
    for table in tables:
        for english, forms in table.items():
            if english.startswith("_") or not isinstance(forms, dict) or "_" in english or english in _NOT_TERMS:
                continue
            key = " ".join(lx.stem(w) for w in lx.words(english))
            out.setdefault(key, {lang: str(forms.get(lang, "")).split("|")[0] for lang in ("ru", "pl")})
    return {f"{k}\t{lang}": v[lang] for k, v in out.items() for lang in ("ru", "pl") if v[lang]}


def _term(words: list[str], lang: str) -> tuple[str, int]:
    """The user's word for the longest known term starting these words, and how many words it took."""
    table = _terms()
    for size in (3, 2, 1):
        if len(words) >= size:
            key = " ".join(lx.stem(w) for w in words[:size])
            said = table.get(f"{key}\t{lang}")
            if said:
                return said, size
    return "", 1


def english(text: str, strict: bool = False) -> bool:
    """Whether a value reads as English prose: two lower-case English words of 3+ letters, or one of 4+, outside
    addresses (`strict`: any one, as in a piece quoted inside prose: 'Pay now'), and Polish by its words and letters
    is none."""
    plain = re.sub(r"\S+://\S+|\S+@\S+|\S*/\S+|`[^`]*`", " ", text)
    lower = re.findall(r"(?<![\w'-])[a-z]{3,}(?![\w'-])", plain)
    # '4 min' or '12 GB' is a figure with its unit, no prose; 'Reproduced on Safari' is
    prose = len(lower) >= (1 if strict else 2) or any(len(w) >= 4 for w in lower)
    # Russian or Polish prose (a note the user dictated: 'zna też niemiecki') is no English
    return prose and not re.search(r"[а-яё]", plain, re.I) and lx.detect_language(plain) != "pl"


def items(text: str, lang: str) -> list[str]:
    """What the prose names and the terms it uses, in its order, each once; a value stays whole ('15:00', '4B') and
    keeps the thing it numbers ('room 4B' -> 'комната 4B')."""
    found: list[str] = []
    pending: list[str] = []  # lower-case words in a row, looked up as terms together ('pull request')
    start = True
    joins_at, unit = -1, False  # where a value that follows at once belongs to the last item (a name, a noun)

    def flush() -> bool:
        """The pending words' terms; True when the last word's term is the last item (a value may follow it)."""
        i, last = 0, False
        while i < len(pending):
            said, used = _term(pending[i:], lang)
            if said:
                found.append(said)
            i += used
            last = bool(said) and i >= len(pending)
        pending.clear()
        return last

    for match in _TOKEN.finditer(text):
        quoted, whole, word, number = match.group(1) or match.group(2), match.group(3), match.group(4), match.group(5)
        adjacent = joins_at >= 0 and text[joins_at : match.start()].isspace()
        plain = word is not None and (not word[:1].isupper() or start and not word.isupper())  # 'Version 1.0 ...'
        if plain and not unit:
            pending.append(lx.fold(str(word)))
            joins_at = match.end() if _term([lx.fold(str(word))], lang)[0] else -1
            start = bool(_SENTENCE_END.search(text[match.end() : match.end() + 2] or "."))
            continue
        noun = flush()
        adjacent = adjacent and (noun or bool(found) and found[-1][:1].isupper())
        joins_at = -1
        if quoted is not None:
            if not english(quoted, strict=True):
                found.append(lx.quote(quoted, lang))  # a name in quotes ('Pay' would be English)
            else:
                pending.extend(lx.words(quoted))
                flush()
        elif whole is not None or number is not None:
            value = whole or prose.with_unit(str(number), text[match.start() :], lang)
            if found and adjacent:
                found[-1] = f"{found[-1]} {value}"  # 'Safari 19', 'Django 6.1', 'комната 4B': a thing and its number
            else:
                found.append(value)
            unit = whole is None and value != number  # '14 дней': the unit's word is said with it, no term of its own
            start = bool(_SENTENCE_END.search(text[match.end() : match.end() + 2] or "."))
            continue
        elif word[:1].isupper() and (not start or word.isupper()):
            known = _term([lx.fold(word)], lang)[0] if not word.isupper() else ""
            found.append(known or word)  # a name: 'Safari', 'CSV'; a known word capitalised: 'Thursday'
            joins_at = match.end()  # 'Safari 19', 'Django 6.1'
        unit = False  # a word after a figure's unit ('14 days after'): terms count again
        start = bool(_SENTENCE_END.search(text[match.end() : match.end() + 2] or "."))
    flush()
    return list(dict.fromkeys(x for x in found if x))[:MOST]


def retold(text: str, lang: str, bare: bool = False) -> str:
    """English prose in the user's words: said whole when the vocabulary knows every word, else by what it names
    and the terms it uses (`bare`: those alone, for one item of a list)."""
    if lang == "en":
        return text
    rendered = phrasing.render(text, lang)
    if rendered:
        return rendered.rstrip(".")
    said = items(text, lang)
    if bare:
        return ", ".join(said) if said else say("retell.bare", lang)
    return say("retell.told", lang, items=", ".join(said)) if said else say("retell.bare", lang)
