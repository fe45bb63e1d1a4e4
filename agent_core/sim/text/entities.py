"""Typed values the simulated model sees in a text: e-mails, phones, URLs, paths, IDs, numbers, times, dates, names.

Each is an `Entity` with its kind, a normalised value and where it stands, so a tool's parameter can take the value
of its type ("555-123-4567" is a phone, not the user id 555; "john@gmail.com" is an e-mail, not the file gmail.com)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Any

from agent_core.sim.text import clock, gazetteer
from agent_core.sim.text import language as lx
from agent_core.sim.text.values import decimal, normalise_numbers

_EMAIL = re.compile(r"(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_BARE_URL = re.compile(r"(?<![\w/@.:-])(?:[a-z\d-]+\.)+(?:com|net|org|io|dev|app|ai)/[^\s<>\"'`»”)\]]*", re.I)
_URL = re.compile(r"\bhttps?://[^\s<>\"'`»”)\]]+|\bwww\.[\w-]+(?:\.[\w-]+)+(?:/[^\s<>\"'`»”)\]]*)?", re.I)
_PHONE = re.compile(
    r"(?<![\w+-])(?:\+\d{1,3}[\s.-]?)?(?:\(\d{2,4}\)[\s.-]?|\d{2,4}[\s.-])\d{2,4}(?:[\s.-]\d{2,4}){1,2}(?![\w-])"
)
_BARE_PHONE = re.compile(r"(?<![\w+.-])\+?\d{9,12}(?![\w-]|\.\d)")
_PHONE_WORDS = ("phone", "telephone", "mobile", "cell", "телефон", "номер телефона", "telefon", "komórk")
_FILE = re.compile(r"(?<![\w/.@-])((?:~?/)?(?:[\w.-]+/)*[\w-]+\.[A-Za-z][A-Za-z0-9]{0,5})(?![\w@/-])")
_DIRECTORY = re.compile(r"(?<![\w/.-])((?:~|\.{1,2})?/[\w.-]+(?:/[\w.-]+)*/?|[A-Za-z]:\\[\w\\. -]+)(?![\w/])")
_ID = re.compile(r"(?<![\w@.#/-])(?:#\s?(\d{1,12})|([A-Za-z]{1,6}-?\d{1,12}(?:-\d+)?)(?![\w.]\w))")
_NUMBER = re.compile(r"(?<![\w.])[-−]?\d+(?:[.,]\d+)?(?:[eE][-+]?\d+)?")
_ISO_DATE = re.compile(r"(?<![\w-])(\d{4})-(\d{1,2})-(\d{1,2})(?![\w-])")
_DOTTED_DATE = re.compile(r"(?<![\w.])(\d{1,2})[./](\d{1,2})[./](\d{4})(?![\w.])")
_QUOTED = re.compile(
    r"(?<!\w)'([^'\n]{1,300})'(?!\w)|\"([^\"\n]{1,300})\"|“([^”\n]{1,300})”|„([^”\n]{1,300})[”\"]|«([^»\n]{1,300})»"
    r"|`([^`\n]{1,300})`"
)
_NAME_WORD = r"[A-ZА-ЯЁŁŚŻŹĆŃÓ][a-zа-яёąćęłńóśźż'’-]+"
_PERSON = re.compile(rf"(?<![\w-])({_NAME_WORD}(?:\s+(?:[A-Z]\.\s*)?{_NAME_WORD}){{1,2}})(?![\w-])")
_SLUG = re.compile(r"(?<![\w/.@-])[A-Za-z][\w.-]*/[A-Za-z][\w.-]*(?![\w/@])")


@dataclass(frozen=True)
class Entity:
    """One typed value in a text: its kind, its value for a tool, where it stands and how it was written."""

    kind: str  # email url phone file directory id number time date city state quoted person year
    value: Any
    start: int
    end: int
    text: str
    unit: str = ""  # for numbers: the unit written after it (°C, km, USD, %), folded


@cache
def _data() -> dict[str, Any]:
    return lx.load("entities")


def _spans_overlap(a: tuple[int, int], taken: list[tuple[int, int]]) -> bool:
    return any(a[0] < end and start < a[1] for start, end in taken)


@lx.text_cache
def find(text: str) -> tuple[Entity, ...]:
    """Every typed value in text, in order of position (overlaps resolved: an e-mail is not also a file)."""
    found: list[Entity] = []
    taken: list[tuple[int, int]] = []

    def add(kind: str, value: Any, start: int, end: int, unit: str = "", overlap: bool = False) -> None:
        if overlap or not _spans_overlap((start, end), taken):
            found.append(Entity(kind, value, start, end, text[start:end], unit))
            if not overlap:
                taken.append((start, end))

    for m in _QUOTED.finditer(text):
        inner = next(g for g in m.groups() if g is not None)
        found.append(Entity("quoted", inner, m.start(), m.end(), m.group()))
    for m in _URL.finditer(text):
        address = m.group().rstrip(".,;:!?")
        sent = address if "://" in address else "https://" + address  # 'www.python.org/...' opens as a browser does
        add("url", sent, m.start(), m.start() + len(address))
    for m in _BARE_URL.finditer(text):  # 'смотри shop.example.net/pricing': a site and a page, as a browser reads it
        add("url", "https://" + m.group().rstrip(".,;:!?"), m.start(), m.start() + len(m.group().rstrip(".,;:!?")))
    for m in _EMAIL.finditer(text):
        add("email", m.group().rstrip("."), m.start(), m.end())
    for m in _ISO_DATE.finditer(text):
        add("date", f"{m[1]}-{int(m[2]):02d}-{int(m[3]):02d}", m.start(), m.end())
    for m in _DOTTED_DATE.finditer(text):
        add("date", f"{m[3]}-{int(m[2]):02d}-{int(m[1]):02d}", m.start(), m.end())
    _month_dates(text, add)
    for value, start, end in clock.times(text):
        add("time", value, start, end)
    _phones(text, add)
    for m in _FILE.finditer(text):
        if not re.fullmatch(r"[\d.]+", m.group(1)) and not _is_domain(m.group(1)):
            add("file", m.group(1), m.start(1), m.end(1))
    for m in _DIRECTORY.finditer(text):
        folder = m.group(1).rstrip(".")  # '... from /home/ann/projects.': the full stop ends the sentence
        if len(folder) > 1:
            add("directory", folder, m.start(1), m.start(1) + len(folder))
    for m in _ID.finditer(text):
        value = m.group(1) or m.group(2)
        if not re.fullmatch(r"[A-Za-z]+", value) and not _is_unit_number(value):
            add("id", value, m.start(), m.end())
    _numbers(text, add, taken)
    _places(text, add)
    for m in _SLUG.finditer(text):
        add("repo", m.group(), m.start(), m.end())
    _persons(text, add, found)
    return tuple(sorted(found, key=lambda e: (e.start, -e.end)))


def of_kind(text: str, *kinds: str) -> list[Entity]:
    """The entities of these kinds, in order."""
    return [e for e in find(text) if e.kind in kinds]


def _is_domain(name: str) -> bool:
    """gmail.com, example.org: a web domain, not a file."""
    ext = name.rsplit(".", 1)[-1].lower()
    return ext in {"com", "org", "net", "io", "ru", "pl", "de", "uk", "edu", "gov", "dev", "ai", "co", "app"}


def _is_unit_number(value: str) -> bool:
    """'5km', '20kg', '3h': a quantity, not an identifier."""
    match = re.fullmatch(r"(\d+)([A-Za-z]+)", value)
    return match is not None and match.group(2).lower() in _units()


@cache
def _months() -> dict[str, int]:
    return {lx.fold(k): v for k, v in _data()["months"].items()}


@cache
def _month_pattern() -> re.Pattern[str]:
    names = sorted(_months(), key=len, reverse=True)
    alt = "|".join(re.escape(n) for n in names)
    return re.compile(
        rf"(?<![\w])(?:(\d{{1,2}})(?:st|nd|rd|th|-?го|-?е)?\s+(?:of\s+)?({alt})\.?|({alt})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?)"
        rf"(?:,?\s+(\d{{4}}))?(?![\w])",
        re.I,
    )


def _month_dates(text: str, add: Any) -> None:
    folded = lx.fold(text)
    if len(folded) != len(text):
        return  # folding changed the length (rare ligatures): positions would not match
    for m in _month_pattern().finditer(folded):
        day = int(m.group(1) or m.group(4))
        month = _months()[m.group(2) or m.group(3)]
        if not 1 <= day <= 31:
            continue
        year = m.group(5)
        value = f"{year}-{month:02d}-{day:02d}" if year else f"--{month:02d}-{day:02d}"
        add("date", value, m.start(), m.end())


def _phones(text: str, add: Any) -> None:
    for m in _PHONE.finditer(text):
        digits = re.sub(r"\D", "", m.group())
        if 7 <= len(digits) <= 15 and not re.fullmatch(r"\d{1,3}(?:[ ,.]\d{3})+", m.group()):
            add("phone", m.group().strip(), m.start(), m.end())
    folded = lx.fold(text)
    if any(w in folded for w in _PHONE_WORDS):
        for m in _BARE_PHONE.finditer(text):
            add("phone", m.group(), m.start(), m.end())


@cache
def _units() -> dict[str, str]:
    """Unit words and symbols -> the unit's canonical name (°C -> celsius, km -> km, $ -> USD)."""
    out: dict[str, str] = {}
    for unit, names in _data()["units"].items():
        for name in names:
            out[lx.fold(name)] = unit
    for code, names in _data()["currencies"].items():
        for name in names:
            out.setdefault(lx.fold(name), code)
    return out


@cache
def _unit_pattern() -> re.Pattern[str]:
    names = sorted(_units(), key=len, reverse=True)
    # Word units may be inflected ("dollars", "долларов", "złotych" after "dollar", "доллар", "złot").
    alts = [re.escape(n) + (r"[^\W\d_]*" if n[-1].isalpha() and len(n) >= 4 else "") for n in names]
    return re.compile(r"\s?(" + "|".join(alts) + r")(?![\w])", re.I)


def _unit_after(text: str, end: int) -> tuple[str, int]:
    match = _unit_pattern().match(lx.fold(text[end : end + 24]))
    if not match:
        return "", end
    written = match.group(1).lower()
    unit = _units().get(written) or next(
        (u for n, u in _units().items() if written.startswith(n) and n[-1].isalpha()), ""
    )
    return (unit, end + match.end()) if unit else ("", end)


def _unit_before(text: str, start: int) -> str:
    head = text[max(0, start - 2) : start].strip()
    return _units().get(lx.fold(head), "") if head in ("$", "€", "£", "¥", "₽", "zł") else ""


def _numbers(text: str, add: Any, taken: list[tuple[int, int]]) -> None:
    lang = lx.detect_language(text)
    for m in re.finditer(r"(?<![\w.])(\d+(?:[.,]\d+)?)(?:\s*[x×*]\s*(\d+(?:[.,]\d+)?))+", text):
        # Dimensions, "10x20x30 cm": each side a number, the unit after the last one.
        sides = re.findall(r"\d+(?:[.,]\d+)?", m.group())
        unit, end = _unit_after(text, m.end())
        offset = m.start()
        for side in sides:
            at = text.index(side, offset)
            add("number", _as_number(side.replace(",", ".")), at, at + len(side), unit)
            offset = at + len(side)
    for m in re.finditer(r"(?<![\w.])\d{1,3}(?:[,  .]\d{3})+(?:[.,]\d+)?(?![\w])", text):
        joined = normalise_numbers(m.group(), lang)
        if re.fullmatch(r"\d+(?:[.,]\d+)?", joined):
            value = _as_number(joined.replace(",", "."))
            unit, end = _unit_after(text, m.end())
            add("number", value, m.start(), end if unit else m.end(), unit or _unit_before(text, m.start()))
    for m in _NUMBER.finditer(text):
        raw = m.group().replace("−", "-")
        decimal = raw.replace(",", ".") if (lang != "en" or re.fullmatch(r"-?\d+,\d{1,2}", raw)) else raw
        if "," in decimal:
            continue  # "1,5" in English is a list, not a decimal
        unit, end = _unit_after(text, m.end())
        add("number", _as_number(decimal), m.start(), end if unit else m.end(), unit or _unit_before(text, m.start()))
    for start, end, value in _spoken(text):
        if not _spans_overlap((start, end), taken):
            unit, stop = _unit_after(text, end)
            add("number", value, start, stop if unit else end, unit)


def _as_number(raw: str) -> int | float:
    number = float(raw)
    return int(number) if number.is_integer() and "e" not in raw.lower() and "." not in raw else number


_WORDISH = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)?")


def _spoken(text: str) -> list[tuple[int, int, Any]]:
    """Numbers written in words in English, Russian or Polish: 'eighteen', 'twenty-one', 'двести пять', 'dwa tysiące'."""
    values, scales = lx.number_words()
    out: list[tuple[int, int, Any]] = []
    run: list[tuple[int, int, str]] = []

    def close() -> None:
        if run:
            total, current = 0, 0
            for _, _, word in run:
                if word in values:
                    current += values[word]
                elif scales[word] == 100:
                    current = (current or 1) * 100
                else:
                    total, current = total + (current or 1) * scales[word], 0
            out.append((run[0][0], run[-1][1], total + current))
            run.clear()

    previous_end = -1
    for m in _WORDISH.finditer(text):
        parts = [lx.fold(p) for p in m.group().split("-")]
        word = parts[0] if len(parts) == 1 else None
        is_number = all(p in values or (p in scales and run) for p in parts)
        gap = text[previous_end : m.start()] if previous_end >= 0 else ""
        joined = run and gap.strip().lower() in ("", "and", "-")
        if is_number and (not run or joined):
            if word is None:
                run.extend((m.start(), m.end(), p) for p in parts)
            else:
                run.append((m.start(), m.end(), word))
        else:
            close()
            if is_number:
                run.extend((m.start(), m.end(), p) for p in parts)
        previous_end = m.end()
    close()
    spoken = [
        (s, e, v)
        for s, e, v in out
        if lx.fold(text[s:e]) not in ("one", "a", "i")
        and not _partitive(text, e)
        and not _stands_for_one(text, s, e, v)
    ]
    return _with_decimals(text, spoken)


def _stands_for_one(text: str, start: int, end: int, value: Any) -> bool:
    """'do jednego', 'Chcę jedno skomentować': a lone 'one' with no noun after it stands for one of the things
    named before (as English 'one' does), no number; 'w jednej skrzynce' is 1."""
    if value != 1 or " " in text[start:end].strip():
        return False
    after = _NEXT_WORD.match(text, end)
    if after is None:
        return True
    word = after[1].lower()  # unfolded: 'pałac' is no 'ać'
    return any(word.endswith(e) and len(word) > len(e) + 2 for e in lx.lexicon()["one_pronoun"]["verb_endings"])


def _partitive(text: str, end: int) -> bool:
    """'одной из открытых issue', 'jednego z otwartych zgłoszeń': one of several, no value of its own."""
    after = _NEXT_WORD.match(text, end)
    return after is not None and lx.fold(after[1]) in lx.lexicon()["partitive"]


_NEXT_WORD = re.compile(r"\s+([^\W\d_]+)")


def _with_decimals(text: str, spans: list[tuple[int, int, Any]]) -> list[tuple[int, int, Any]]:
    """Two spoken numbers that make one decimal are one: 'ninety-eight point six', 'девяносто восемь и шесть
    десятых' (98.6)."""
    out: list[tuple[int, int, Any]] = []
    i = 0
    while i < len(spans):
        start, end, whole = spans[i]
        if i + 1 < len(spans) and isinstance(whole, int):
            after, stop, part = spans[i + 1]
            denominator = _NEXT_WORD.match(text, stop)
            found = decimal(whole, text[end:after].strip(), part, denominator[1] if denominator else "")
            if found is not None and re.fullmatch(r"\s*[^\W\d_]+\s*", text[end:after]):
                value, longer = found
                out.append((start, denominator.end() if longer and denominator else stop, float(value)))
                i += 2
                continue
        out.append(spans[i])
        i += 1
    return out


def _places(text: str, add: Any) -> None:
    folded_text = lx.fold(text)
    for city in gazetteer.find_cities(text):
        for form in city.forms:
            match = re.search(rf"(?<![\w-]){re.escape(lx.fold(form))}(?![\w-])", folded_text)
            if match:
                add("city", city.name, match.start(), match.end(), overlap=True)
                break
    for state in _states_in(text):
        add("state", state[2], state[0], state[1], overlap=True)


def _states_in(text: str) -> list[tuple[int, int, str]]:
    out = list(gazetteer.us_states(text))
    for match in re.finditer(r"(?<![\w])([A-Z]{2})(?![\w])", text):
        if match.group(1) in _data()["us_states"] and re.search(r"(?:\bin|,)\s*$", text[: match.start()]):
            out.append((match.start(), match.end(), match.group(1)))
    return out


def _persons(text: str, add: Any, found: list[Entity]) -> None:
    """Two or three capitalised words that are no place and no sentence opener: 'John Smith', 'Frank Herbert'."""
    stop = lx.word_set("stopwords") | lx.word_set("name_openers")  # 'I'm Ethan Lopez', 'Jestem Omar Khan'
    places = {(e.start, e.end) for e in found if e.kind in ("city", "state")}
    for m in _PERSON.finditer(text):
        words = m.group(1).split()
        while words and (lx.fold(words[0]) in stop or set(lx.words(words[0])) <= stop):
            words = words[1:]
        if len(words) < 2 or any(lx.fold(w) in stop for w in words):
            continue
        start = m.start(1) + m.group(1).index(words[0])
        end = start + len(" ".join(words))
        if _spans_overlap((start, end), list(places)) or gazetteer.find_cities(" ".join(words)):
            continue
        add("person", " ".join(words), start, end, overlap=True)
    _introduced(text, add, list(places), stop)


def _introduced(text: str, add: Any, places: list[tuple[int, int]], stop: frozenset[str] | set[str]) -> None:
    """A single first name the user gives as their own ('hi, I'm Ola!', 'меня зовут Маша', 'jestem Ola'): a lone
    capitalised word is a person only right after words that introduce the speaker (lexicon.json self_intro)."""
    folded = lx.fold(text)
    for phrase in lx.lexicon()["self_intro"]:
        for m in re.finditer(rf"(?<![\w'’]){re.escape(lx.fold(phrase))}[\s,:—-]+", folded):
            word = re.match(_NAME_WORD, text[m.end() :])
            if word is None or lx.fold(word.group()) in stop or gazetteer.find_cities(word.group()):
                continue
            span = (m.end(), m.end() + len(word.group()))
            if not _spans_overlap(span, places):
                add("person", word.group(), *span, overlap=True)


def yes_no(text: str) -> bool | None:
    """True for a yes ('yes', 'да', 'tak', 'sure'), False for a no, None when the text says neither."""
    tokens = lx.words(text)
    words = lx.lexicon()["yes_no"]
    yes, no = lx.hits(tokens, words["yes"]), lx.hits(tokens, words["no"])
    return True if yes and not no else False if no and not yes else None
