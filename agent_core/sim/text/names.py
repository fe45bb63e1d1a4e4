"""Names in a text for an entity extractor: people (two capitalised words, or a known first name in any case form),
places (the gazetteer's cities and states) and organisations (after 'works at', 'компании', 'w firmie', quoted, Inc)."""

from __future__ import annotations

import re
from functools import cache

from agent_core.sim.text import entities
from agent_core.sim.text import language as lx

_COMPANY_SUFFIX = re.compile(r"\b(?:Inc|Corp|Ltd|LLC|GmbH|Co|plc|AG|SA)\.?$")


@cache
def _first_names() -> frozenset[str]:
    return frozenset(lx.fold(n) for n in lx.load("knowledge")["first_names"])


@cache
def _bases() -> dict[str, str]:
    """Each case form of a known first name -> the name as the list spells it ('marty' -> 'Marta')."""
    endings = lx.load("knowledge")["name_endings"]
    out: dict[str, str] = {}
    for name in lx.load("knowledge")["first_names"]:
        low = lx.fold(name)
        if len(low) < 3:
            continue
        forms = [low + e for e in endings["added"]] if low[-1] not in "aя" else []
        forms += [low[:-1] + e for e in endings["instead_of_a"]] if low[-1] in "aя" else []
        for form in forms:
            out.setdefault(lx.fold(form), name)  # looked up folded: 'Ewę' is 'ewe', 'Martą' 'marta'
    for name in lx.load("knowledge")["first_names"]:
        out[lx.fold(name)] = name
    return out


def first_name(word: str) -> bool:
    """A known first name, in any case form."""
    return _inflected(lx.fold(word)) is not None


def base_name(name: str) -> str:
    """A known first name said in another case, as the list spells it ('Marty' -> 'Marta'); else the name."""
    base = _inflected(lx.fold(name)) if " " not in name else None
    return base if base and base.lower() != name.lower() else name  # 'Ewą' folds as 'Ewa' does, and is Ewa


def _inflected(folded: str) -> str | None:
    """'Dopisz do Marty': the name said in another case is the name (Marta), so a lookup finds it."""
    return _bases().get(folded)


def nominative(text: str, person: entities.Entity, lang: str) -> str:
    """A person's name as a name field holds it: said after a word that takes the genitive ('от Сергея Волкова',
    'od Katarzyny Lewandowskiej'), each word is put back to the nominative (Сергей Волков, Katarzyna Lewandowska)."""
    name = str(person.value)
    before = lx.words(text[max(0, person.start - 12) : person.start])[-1:]
    table = lx.load("knowledge")["genitive_names"].get(lang)
    if not table or not before or before[0] not in {lx.fold(w) for w in table["before"]}:
        return name
    return " ".join(_nominative_word(word, table["endings"]) for word in name.split())


def _nominative_word(word: str, endings: list[list[str]]) -> str:
    known = _inflected(lx.fold(word))
    if known:
        return known  # 'Marka' is Marek, 'Pawła' Paweł: the list knows the names whose stem changes
    for genitive, base in endings:
        if word.lower().endswith(genitive) and len(word) - len(genitive) >= 2:
            return word[: len(word) - len(genitive)] + base
    return word


def known_entities(text: str) -> list[tuple[int, str, str]]:
    """(position, name, kind) of people, organisations and places in a text, for an entity extractor's output."""
    first = _first_names()
    out: list[tuple[int, str, str]] = []
    for e in entities.find(text):
        if e.kind == "person":
            # "Acme Inc" reads as two capitalised words, but a company suffix makes it an organisation
            company = _COMPANY_SUFFIX.search(str(e.value))
            out.append((e.start, e.value, "organization" if company else "person"))
        elif e.kind in ("city", "state"):
            out.append((e.start, e.text, "location"))
    taken = [(s, s + len(n)) for s, n, _ in out]
    for m in re.finditer(r"(?<![\w-])([A-ZА-ЯЁŁŚŻ][\w'’-]+)", text):
        if any(s <= m.start() < e for s, e in taken):
            continue
        word = re.sub(r"['’]s?$", "", m.group(1))  # "Ann's record": the name is Ann
        base = _inflected(lx.fold(word))
        if base:
            out.append((m.start(), base if base.lower() != word.lower() else word, "person"))
            taken.append((m.start(), m.end()))
        elif any(lx.fold(word).startswith(n) for n in first if len(n) >= 3):
            out.append((m.start(), word, "person"))
            taken.append((m.start(), m.end()))
    companies = _companies()
    for m in re.finditer(
        r"«([^»]+)»|\b([A-Z][A-Za-z0-9&]+(?:\s+(?:Inc|Corp|Ltd|LLC|GmbH)\.?)?)|(?<=\s)([А-ЯЁŁŚŻ][\w-]+)", text
    ):
        name = next(g for g in m.groups() if g)
        start = m.start()
        if any(s <= start < e for s, e in taken) or lx.fold(name) in lx.word_set("stopwords"):
            continue
        at_work = _org_cue().search(text[max(0, start - 30) : start].lower())
        if m.group(1) or lx.fold(name) in companies or "inc" in lx.fold(name) or at_work:
            out.append((start, name, "organization"))
            taken.append((start, start + len(name)))
    return sorted(out)


@cache
def _companies() -> frozenset[str]:
    return frozenset(lx.fold(n) for names in lx.load("entities")["companies"].values() for n in names)


def company_in(text: str) -> str | None:
    """A well-known company named in any case ('у google', 'models by meta'), as written; for a field that is
    an organisation already (an author, an owner), where a lower-case 'google' is no plain word."""
    return next(
        (m.group() for m in re.finditer(r"(?<![\w.-])[A-Za-z][\w&-]+", text) if lx.fold(m.group()) in _companies()),
        None,
    )


@cache
def _org_cue() -> re.Pattern[str]:
    """The words right before a name that make it an organisation (entities.json 'organisation_cues')."""
    table = lx.load("entities")["organisation_cues"]
    cues = sorted((c for lang, words in table.items() if lang != "_about" for c in words), key=len, reverse=True)
    alts = "|".join(re.escape(c.rstrip("*")) + (r"\w*" if c.endswith("*") else "") for c in cues)
    return re.compile(rf"(?<![\w])(?:{alts})\s+[«\"]?$")


_JOINS = frozenset({"and", "or", "и", "или", "а", "i", "oraz", "lub", "albo"})
_BE = frozenset({"is", "was", "jest", "był", "była", "является"})


@lx.text_cache
def linked(text: str) -> bool:
    """Whether two named things are joined by a verb phrase ('Ewa Lis reports to Tomek Nowak', 'Jan pracuje w
    Northwind', 'Ольга руководит Acme'): what is said is how they relate, the concept relation. A place is no party
    to it ('moved to Gdańsk'), and a phrase that starts with a small word ('Ann Smith the notes about Project Falcon') is no verb."""
    found = [(s, n) for s, n, kind in known_entities(text) if kind != "location"]
    stop = lx.word_set("stopwords")
    for (start, name), (after, _) in zip(found, found[1:], strict=False):
        between = text[start + len(name) : after].strip()
        words = between.split()
        if not 1 <= len(words) <= 3 or not re.fullmatch(r"[^\W\d_]+(?:\s+[^\W\d_]+)*", between):
            continue
        verb = words[1] if words[0] in _BE and len(words) > 1 else words[0]  # 'is married to'
        if between == between.lower() and not _JOINS & set(words) and verb not in stop:
            return True
    return False


_CAPITALISED = re.compile(r"(?<![\w-])[A-ZА-ЯЁŁŚŻŹĆ][\w'’&-]*(?:\s+[A-ZА-ЯЁŁŚŻŹĆ][\w'’&-]*)*")
_QUOTED_NAME = re.compile(r"[«\"“„]([^»\"”]{2,40})[»\"”]")


def proper_names(text: str) -> list[str]:
    """The names a text gives, as written: quoted ones, and runs of capitalised words ('Acme', 'Project Falcon'),
    places aside; a sentence's first word is a name only when it is no word of the language ('Delete Acme')."""
    out = [m.group(1).strip() for m in _QUOTED_NAME.finditer(text)]
    places = {lx.fold(n) for _, n, kind in known_entities(text) if kind == "location"}  # 'in Gdańsk' names no record
    for m in _CAPITALISED.finditer(_QUOTED_NAME.sub(" ", text)):
        words = m.group().split()
        opening = not text[: m.start()].strip() or text[: m.start()].rstrip()[-1:] in ".!?:"
        if opening and (lx.fold(words[0]) in lx.word_set("stopwords") or _a_word(words[0])):
            words = words[1:]
        name = re.sub(r"['’]s$", "", " ".join(words))
        if name and lx.fold(name) not in lx.word_set("stopwords") | places and name not in out:
            out.append(name)
    return out


def _a_word(word: str) -> bool:
    """A word the model knows as a word of the language (a request verb, a concept's word), not a name."""
    from agent_core.sim.text import meaning  # meaning reads the lexicon's concepts, which need no names

    return bool(meaning.concepts(word)) or lx.fold(word) in lx.word_set("request_verbs")
