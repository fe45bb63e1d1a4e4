"""The words of tool results in the user's language: keys as labels ('unit_price' -> 'цена'), known English values
translated ('light rain' -> 'небольшой дождь', the tool's own word kept beside it), nouns for what a tool is about."""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from agent_core.sim import phrasing, retell, stamps
from agent_core.sim.text import facts, gazetteer
from agent_core.sim.text import language as lx


@cache
def answers_table() -> dict[str, Any]:
    return lx.load("answers")


def norm(key: str) -> str:
    return facts.norm(key)


def label(key: str, lang: str, person: bool = True) -> str:
    """A result key as a word: 'unit_price' -> 'price' / 'цена' / 'cena'; person=False: the key of a thing's
    record, whose name is 'название'/'nazwa', never a person's 'имя'/'imię'."""
    thing = None if person else answers_table()["persons"]["thing_labels"].get(norm(key))
    entry = (
        thing or answers_table()["labels"].get(norm(key)) or answers_table()["labels"].get(norm(key).rsplit("_", 1)[-1])
    )
    if entry:
        return str(entry.get(lang) or entry["en"])
    words = norm(key).replace("_", " ")
    if lang == "en":
        return words
    return phrasing.render(words, lang) or lx.quote(words, lang)  # 'uptime' -> 'доступность'; else the tool's word


def person_record(record: dict[str, Any], tool_name: str = "") -> bool:
    """Whether a record is about a person: a person's key (email, birthday), a type that says so (a memory
    entity's entityType 'person'), or a tool about people (get_user; not get_customer_orders, whose records are
    orders: the tool's last noun counts)."""
    table = answers_table()["persons"]
    keys = {norm(k) for k in record}
    if keys & set(table["keys"]):
        return True
    kinds = {
        lx.fold(str(v)) for k, v in record.items() if isinstance(v, str) and norm(k) in ("type", "entity_type", "kind")
    }
    if kinds:
        return bool(kinds & set(table["types"]))
    words = [w for w in re.split(r"[_\W]+|(?<=[a-z])(?=[A-Z])", tool_name) if w]
    nouns = [lx.stem(w.lower()) for w in words if noun(w.lower(), "en") or w.lower() in table["types"]]
    return bool(nouns) and nouns[-1] in {lx.stem(t) for t in table["types"]}


@cache
def _value_table() -> tuple[tuple[str, dict[str, str]], ...]:
    table = answers_table()["values"]
    return tuple(sorted(((k, v) for k, v in table.items()), key=lambda kv: len(kv[0]), reverse=True))


def value(raw: Any, lang: str, key: str = "") -> str:
    """A result value as the user reads it: numbers as they are, known English words translated, a name quoted
    (it is the tool's, not the model's), English prose under a key that names no record (a body, a message, a
    description) told in the user's words (sim/retell.py)."""
    if isinstance(raw, bool):
        raw = "yes" if raw else "no"
    stamp = stamps.told(raw, lang, key)  # a date or a size in bytes, in the user's words
    if stamp:
        return stamp
    if isinstance(raw, float):
        # 2911783.0384 -> 2911783.04 (an SQL average); 0.0012 keeps its digits instead of becoming 0
        cents = 1 <= abs(raw) < 1e15 or round(raw, 2) == raw
        text = f"{raw:.2f}".rstrip("0").rstrip(".") if cents else f"{raw:.3g}"
    else:
        text = str(raw)
    if lang == "en" or not re.search(r"[A-Za-z]{2}", text):
        return text
    city = gazetteer.named(text, lang)
    if city:
        return city  # 'Madrid' in a Polish answer is 'Madryt': a place the user's language has its own name for
    rendered = phrasing.render(text, lang)
    if rendered:
        # a phrase said whole needs no English beside it; inside the answer's sentence, no capital or full stop
        return (rendered[:1].lower() + rendered[1:]).rstrip(".") if not rendered[1:2].isupper() else rendered
    translated = translate(text, lang)
    if translated != text and key and names(key) and text.lower().strip(" .") not in dict(_value_table()):
        translated = text  # a name ('Porch light') is the tool's: a known word inside it is no word to translate
    if translated != text and _half_said(text):
        translated = text  # 'Fix duplicate search results' -> 'Fix duplikat search results' helps nobody
    if translated == text and len(text) > SHORT_QUOTE and _is_sentence(text):
        return _told(text, lang)
    if translated == text and key and not names(key) and retell.english(text):
        return retell.retold(text, lang)
    if translated == text and key and norm(key) in answers_table()["code_keys"] and re.fullmatch(r"[^\s`]+", text):
        return f"`{text}`"  # a branch's, a host's or a path's own name is code in a Russian or Polish answer
    if translated == text:
        return lx.quote(text, lang) if re.search(r"[A-Za-z]{3,}", re.sub(r"https?://\S+|\S+@\S+", "", text)) else text
    if text.lower().strip(" .") in dict(_value_table()):
        return translated  # a known word said whole ('cloudy' -> 'облачно') needs no English beside it
    # A partial translation keeps the tool's own words beside it: they are what came over the wire.
    return f"{translated} ({lx.quote(text, lang)})"


def _half_said(text: str) -> bool:
    """Whether the known words of a value leave English prose beside them: lower-case words of 3+ letters (every
    word of a title-case value: 'Dense Fog Advisory'), so a translation of those words alone would be half one."""
    rest = text
    for english, _ in _value_table():
        rest = re.sub(rf"(?<![A-Za-z]){re.escape(english)}(?![A-Za-z])", " ", rest, flags=re.I)
    plain = re.sub(r"\S+://\S+|\S+@\S+|\S*/\S+|`[^`]*`", " ", rest)
    titled = all(w[:1].isupper() for w in re.findall(r"[A-Za-z]+", text))
    return any(
        w.islower() or (titled and not w.isupper()) for w in re.findall(r"(?<![\w'-])[A-Za-z]{3,}(?![\w'-])", plain)
    )


SHORT_QUOTE = 60  # an English line this long is quoted as it came; a longer passage is told, not quoted whole


def _told(text: str, lang: str) -> str:
    """An English sentence in a Russian or Polish answer: what it names and its figures in the user's words
    ('14 дней, возврат денег'): a whole English paragraph, or its opening, is no answer there."""
    return retell.retold(text, lang)


def names(key: str) -> bool:
    """Whether a result's key names or identifies its record (a title, a login, a path, an id): its value is a name,
    written as it came in any language (answers.json 'name_keys')."""
    folded = norm(key)
    return folded.endswith("id") or any(k in folded for k in answers_table()["name_keys"])


def translate(text: str, lang: str, keep: bool = False) -> str:
    """Known English words and phrases of a tool's answer in Russian or Polish ('light rain' -> 'небольшой дождь');
    an English sentence is left whole (a half-translated sentence helps nobody)."""
    if lang == "en":
        return text
    folded = text.lower()
    if folded.strip(" .") in dict(_value_table()):
        return dict(_value_table())[folded.strip(" .")][lang]
    rendered = phrasing.render(text, lang)  # '$19 per seat a month' said whole, from the vocabulary
    if rendered:
        return f"{rendered} ({lx.quote(text, lang)})" if keep else rendered
    if _is_sentence(text):
        return text
    out = text
    for english, words in _value_table():
        if english in out.lower():
            said = (
                (lambda m, w=words[lang]: f"{w} ({lx.quote(m.group(), lang)})")
                if keep
                else (lambda m, w=words[lang]: w)
            )
            out = re.sub(rf"(?<![A-Za-z«„]){re.escape(english)}(?![A-Za-z»”])", said, out, flags=re.I)
    return out


_FUNCTION_WORDS = {
    "the",
    "has",
    "have",
    "been",
    "was",
    "is",
    "are",
    "for",
    "with",
    "and",
    "not",
    "your",
    "this",
    "that",
    "of",
    "to",
    "may",
    "will",
    "can",
    "if",
}


def _is_sentence(text: str) -> bool:
    words = re.findall(r"[A-Za-z]+", text.lower())
    return sum(w in _FUNCTION_WORDS for w in words) >= 2 or (
        len(words) >= 3 and any(w in _FUNCTION_WORDS for w in words)
    )


def noun(word: str, lang: str) -> str | None:
    entry = answers_table()["nouns"].get(lx.stem(word)) or answers_table()["nouns"].get(word)
    return str(entry[lang]) if entry else None


def capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]


def in_sentence(subject: str, lang: str) -> str:
    """A subject said inside a sentence: a noun of the answers table starts it in lower case ('cancel order 13579',
    'Отменить заказ 13579?'); a name keeps its capital ('Ann Kowalska')."""
    first = subject.split(" ", 1)[0]
    nouns = {str(entry.get(lang, "")).lower() for entry in answers_table()["nouns"].values()}
    return first.lower() + subject[len(first) :] if first.lower() in nouns else subject


def sky_words(text: str, lang: str) -> str:
    """A weather condition in the user's words: 'Sunny with wind.' -> 'солнечно, ветрено' when each part is known,
    else as value() tells it; no full stop of its own inside the answer's sentence."""
    text = text.strip().rstrip(".")
    if lang == "en":
        return text
    parts = [p for p in re.split(r"\s*(?:,|\bwith\b|\band\b)\s*", text) if p]
    table = answers_table()["values"]
    forms = [p.lower() if p.lower() in table else f"{p.lower()}y" for p in parts]  # wind -> windy
    if len(parts) > 1 and all(f in table for f in forms):
        return ", ".join(table[f][lang] for f in forms) + f" ({lx.quote(text, lang)})"
    return value(text, lang)


_PROSE = re.compile(r"\b(?:it|it's|is|are|was|will|be|the|always|with|and|today|expect)\b", re.I)


_DEGREES = re.compile(r"(-?\d+(?:[.,]\d+)?)\s*degrees?\s+(celsius|fahrenheit|c|f)\b", re.I)


def weather_said(text: str, lang: str) -> str | None:
    """The conditions an English weather sentence names, in the user's words ("It's always sunny in Florida!" ->
    'солнечно'), with its temperature; None in English or for a report that is no sentence ('4°C, light rain')."""
    if lang == "en" or not _PROSE.search(text):
        return None
    rest = _DEGREES.sub(" ", text.lower())  # the degrees are told as the temperature, not as a word
    found = []
    for english, words in _value_table():  # longest first: 'light rain' before 'rain'
        pattern = rf"(?<![a-z]){re.escape(english)}(?![a-z])"
        if re.search(pattern, rest):
            found.append(words[lang])
            rest = re.sub(pattern, " ", rest)
    temp = re.search(r"-?\d+(?:[.,]\d+)?\s*°\s*[CF]?", text)
    worded = None if temp else _DEGREES.search(text)  # 'a temperature of 25 degrees Celsius': 25 °C
    shown = temp.group() if temp else f"{worded[1]} °{worded[2][0].upper()}" if worded else None
    parts = ([shown] if shown else []) + found
    return ", ".join(parts) if parts else None


def said(form: str, question: str) -> bool:
    """Whether every word of a form (a value, a period's name) is said in the question, by stem."""
    stems = [lx.stem(w) for w in lx.words(form)]
    words = {lx.stem(w) for w in lx.words(question)}
    return bool(stems) and all(any(lx.stems_match(s, w) for w in words) for s in stems)
