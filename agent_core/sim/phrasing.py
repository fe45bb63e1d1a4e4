"""Short English phrases of tool results said in Russian or Polish from a small vocabulary (data/vocabulary.json):
'$19 per seat a month, up to 25 seats' -> '$19 за место в месяц, до 25 мест', 'Buffet with high-energy and healthy
food' -> 'шведский стол, энергичная и полезная еда'. All or nothing: a phrase with a word the vocabulary lacks is
not rendered (the caller tells its figures and quotes it), since a half-translated phrase helps nobody."""

from __future__ import annotations

import re
from functools import cache, lru_cache
from typing import Any

from agent_core.sim.prose import plural
from agent_core.sim.text import language as lx

_TOKEN = re.compile(
    r"[$€£]\s?\d[\d,]*(?:\.\d+)?(?:\s?[kKmM]\b)?|\d[\d,]*(?:\.\d+)?\s?%|\d+-[a-z]+|\d[\d,]*(?:\.\d+)?|/[a-z]+|[a-z][a-z'-]*"
    r"|[,;]"
)
_MONEY = re.compile(r"[$€£]|\d\s?%")
_ARTICLES = frozenset({"a", "an", "the"})
_GENDERS = "mfnp"
MAX_LENGTH = 160  # a longer text is a passage, told by its figures


@cache
def _table() -> dict[str, Any]:
    return lx.load("vocabulary")


@cache
def _nouns() -> dict[str, dict[str, str]]:
    return {form: entry for names, entry in _table()["nouns"].items() for form in names.split("|")}


@cache
def _plurals() -> frozenset[str]:
    """The English plural forms of the nouns ('seats', 'drinks'): the first form of each entry is its singular."""
    return frozenset(f for names in _table()["nouns"] for f in names.split("|")[1:])


@cache
def _phrases() -> dict[tuple[str, ...], dict[str, str]]:
    out: dict[tuple[str, ...], dict[str, str]] = {}
    for names, entry in _table()["phrases"].items():
        for name in names.split("|"):
            out[tuple(_TOKEN.findall(name))] = entry
    return out


@cache
def _longest_phrase() -> int:
    return max(len(k) for k in _phrases())


def kinds(lang: str) -> list[str]:
    """Words for the kinds of named things a result lists ('тариф|план' for a plan), the user's language's forms."""
    return [entry[lang] for entry in _table()["kinds"].values()]


def tokens(text: str) -> list[str]:
    return _TOKEN.findall(text.lower())


@lru_cache(maxsize=512)
def render(text: str, lang: str) -> str | None:
    """The phrase in the user's words, or None when a word of it is not in the vocabulary."""
    text = " ".join(text.split())
    if lang == "en" or not text or len(text) > MAX_LENGTH or not re.search(r"[A-Za-z]{2}", text):
        return None
    body = text.rstrip(" .!")
    if re.search(r"[^\w\s$€£%.,;:/'’-]", body):
        return None  # brackets, quotes, a colon-led list: a structure of its own, not a phrase
    clauses = [c for c in re.split(r"\s*[,;]\s*", body) if c]
    told = [_clause(tokens(c), c, lang) for c in clauses]
    if not told or any(t is None for t in told):
        return None
    joined = ", ".join(t for t in told if t)
    joined = re.sub(rf", ({'|'.join(re.escape(_word(w, lang)) for w in ('and', 'or'))}) ", r" \1 ", joined)
    if text[:1].isupper():
        joined = joined[:1].upper() + joined[1:]
    return joined + ("." if text.endswith(".") else "")


def _word(english: str, lang: str) -> str:
    return _phrases()[(english,)][lang]


def _clause(words: list[str], original: str, lang: str) -> str | None:
    """One clause said word group by word group; None at the first group the vocabulary does not know."""
    out: list[str] = []
    i = 0
    genitive = False  # 'within 2 days': the count after it in the genitive (в течение 2 дней)
    while i < len(words):
        step = _group(words, i, original, lang, genitive)
        if step is None:
            return None
        said, used, genitive = step
        if said:
            out.append(said)
        i += used
    return " ".join(out).replace(" ,", ",")


def _group(words: list[str], i: int, original: str, lang: str, genitive: bool) -> tuple[str, int, bool] | None:
    word = words[i]
    for size in range(min(_longest_phrase(), len(words) - i), 0, -1):
        entry = _phrases().get(tuple(words[i : i + size]))
        if entry:
            return entry[lang], size, bool(entry.get("then") == "gen")
    if word in _ARTICLES:
        return "", 1, genitive
    if word == "with":
        return ",", 1, False  # 'dinner with wine and dessert': a list in the user's words, no case to agree
    if _MONEY.search(word):
        return _as_written(word, original), 1, False
    frames = _table()["frames"]
    nxt = words[i + 1] if i + 1 < len(words) else ""
    if word == "per" and nxt in _nouns():
        return frames["per"][lang].format(acc=_noun(nxt, lang, "acc")), 2, False
    if word == "unlimited" and nxt in _nouns():
        return frames["unlimited"][lang].format(many=_counted(nxt, lang)[2]), 2, False
    if word == "up" and nxt == "to" and i + 2 < len(words):
        counted = _count(words, i + 2, original, lang, upto=True)
        if counted:
            return frames["up to"][lang].format(n=counted[0], upto=counted[1]), 2 + counted[2], False
        return None
    if _number(word) is not None:
        if nxt in _table()["adjectives"]:
            return _described(words, i, lang, upto=genitive)
        counted = _count(words, i, original, lang, upto=genitive)
        return (f"{counted[0]} {counted[1]}", counted[2], False) if counted else (_number(word) or "", 1, False)
    return _noun_phrase(words, i, lang)


def _count(words: list[str], i: int, original: str, lang: str, upto: bool) -> tuple[str, str, int] | None:
    """'25 seats' -> ('25', 'мест', 2); '100 GB storage' -> ('100', 'ГБ хранилища', 3): a measure's thing after it
    in the genitive."""
    number = _number(words[i])
    noun = words[i + 1] if i + 1 < len(words) else ""
    if number is None or noun not in _nouns():
        return None
    forms = _counted(noun, lang)
    if upto:
        forms = [_noun(noun, lang, "gen"), forms[2], forms[2]]
    said = plural(number.replace(",", ""), forms, lang) if re.fullmatch(r"[\d,]+(?:\.\d+)?", number) else forms[2]
    after = words[i + 2] if i + 2 < len(words) else ""
    if after in _nouns() and after != noun:
        return number, f"{said} {_noun(after, lang, 'gen')}", 3
    return number, said, 2


def _described(words: list[str], i: int, lang: str, upto: bool) -> tuple[str, int, bool] | None:
    """'2 open incidents' -> '2 открытых инцидента' / '2 otwarte incydenty': adjectives after a number in the form
    the number asks for (the gender's after 1; in Russian the genitive plural after more, in Polish the plural
    after 2-4 and the genitive plural after 5 or more)."""
    j = i + 1
    while j < len(words) and words[j] in _table()["adjectives"]:
        j += 1
    noun = words[j] if j < len(words) else ""
    number = words[i].replace(",", "")
    if upto or noun not in _nouns() or not re.fullmatch(r"\d+", number):
        return None
    counted = plural(number, _counted(noun, lang), lang)
    at = plural(number, ["0", "1", "2"], lang)
    gender = _GENDERS.index(_nouns()[noun][f"{lang}_g"])
    index = gender if at == "0" else 4 if lang == "ru" or at == "2" else 3
    said = [_table()["adjectives"][w][lang].split("|")[index] for w in words[i + 1 : j]]
    return " ".join([number, *said, counted]), j + 1 - i, False


def _noun_phrase(words: list[str], i: int, lang: str) -> tuple[str, int, bool] | None:
    """Adjectives (joined by 'and') and their noun, agreeing: 'high-energy and healthy food' -> 'энергичная и
    полезная еда'; '3-course dinner' -> 'ужин из 3 блюд'."""
    adjectives: list[str] = []
    post = ""
    j = i
    while j < len(words):
        word = words[j]
        compound = re.fullmatch(r"(\d+)-([a-z]+)", word)
        if compound and compound[2] in _nouns():
            forms = [_noun(compound[2], lang, "gen"), _counted(compound[2], lang)[2], _counted(compound[2], lang)[2]]
            post = _table()["frames"]["compound"][lang].format(n=compound[1], upto=plural(compound[1], forms, lang))
        elif word in _table()["adjectives"]:
            adjectives.append(word)
        elif word in ("and", "or") and adjectives and j + 1 < len(words) and words[j + 1] in _table()["adjectives"]:
            adjectives.append(word)
        elif word in _nouns():
            many = word in _plurals()
            gender = 3 if many else _GENDERS.index(_nouns()[word][f"{lang}_g"])
            said = [
                _word(a, lang) if a in ("and", "or") else _table()["adjectives"][a][lang].split("|")[gender]
                for a in adjectives
            ]
            noun = _noun(word, lang, "pl" if many and f"{lang}_pl" in _nouns()[word] else "nom")
            return " ".join([*said, noun, post]).strip(), j + 1 - i, False
        else:
            return None
        j += 1
    return None


def _noun(word: str, lang: str, case: str) -> str:
    entry = _nouns()[word]
    return entry[f"{lang}_{case}"] if case != "nom" else entry[lang].split("|")[0]


def _counted(word: str, lang: str) -> list[str]:
    return _nouns()[word][lang].split("|")


def _number(word: str) -> str | None:
    if re.fullmatch(r"\d[\d,]*(?:\.\d+)?", word):
        return word
    said = _table()["numbers"].get(word)
    return str(said) if said is not None else None


def _as_written(word: str, original: str) -> str:
    """A price or percentage as the result wrote it ('$19', '€15')."""
    match = re.search(re.escape(word), original, re.I)
    return match.group() if match else word
