"""A lookup that found nothing, tried once more in other words: a search, FAQ or knowledge-base tool described in
English often matches English words only, so a query in the user's Russian or Polish words ('мест бизнес-класса')
is sent again with its key words in English ('seats business'), and an English one with a broader word ('exit rows'
-> 'exit rows seats'). One retry per goal; the answer is still told in the user's language."""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from agent_core.sim import prose
from agent_core.sim.text import gazetteer
from agent_core.sim.text import language as lx
from agent_core.sim.text.language import say
from agent_core.sim.text.reader import Need, View
from agent_core.sim.text.results import Attempt

_EMPTY = re.compile(r"^\s*(?:\[\s*\]|\{\s*\}|null|none|)\s*$", re.I)
_CYRILLIC = re.compile(r"[\u0400-\u04ff]")
_NOT_WORDS = re.compile(r"[/\\@]|\w\.[A-Za-z]{1,4}\b|://")


@cache
def _glossary() -> tuple[tuple[tuple[str, ...], str], ...]:
    """(the words of the user's languages, the English word a query takes) for each glossary line."""
    table = lx.load("answers")["prose"]
    return tuple((tuple(said.split("|")), english.split("|")[0]) for said, english in table["glossary"])


@cache
def _broader() -> tuple[tuple[tuple[str, ...], str], ...]:
    return tuple((tuple(words.split("|")), wider) for words, wider in lx.load("answers")["prose"]["broader"])


@cache
def _letters() -> dict[str, str]:
    return dict(lx.load("answers")["prose"]["latin"])


@lx.text_cache
def empty(out: str) -> bool:
    """A result that found nothing: '[]', 'No results found for ...', "I'm sorry, I don't know the answer"."""
    return bool(_EMPTY.match(out)) or prose.nothing(out)


def reopens(need: Need, attempt: Attempt, spare: set[int]) -> bool:
    """The call after an empty answer is this need's retry: same tool, same other arguments, other words (`spare`:
    the ids of the needs an empty answer has so far, so the others cost nothing)."""
    if id(need) not in spare:
        return False
    first = need.attempts[0] if len(need.attempts) == 1 else None
    if first is None or need.result is not first or attempt is first or attempt.name != first.name:
        return False
    if set(attempt.input) != set(first.input) or not empty(first.output):
        return False
    return all(isinstance(v, str) or attempt.input[k] == v for k, v in first.input.items())


def again(view: View, need: Need) -> dict[str, Any] | None:
    """The input of the one retry an empty lookup gets, or None (it found something, was retried, or has no query in
    words a retry could change)."""
    if need.tool is None or need.result is None or len(need.attempts) != 1 or not empty(need.result.output):
        return None
    if view.persona == "stubborn" or _CYRILLIC.search(str(need.tool.get("description", ""))):
        return None
    sent = need.result.input
    changed = {k: english(v, view.lang) for k, v in sent.items() if _free_text(v)}
    # only words the query did not have make a retry: 'octo org' is no other wording of 'octo-org'
    changed = {k: v for k, v in changed.items() if set(lx.words(v)) - set(lx.words(str(sent[k])))}
    if not changed:
        return None
    old, new = next(iter(changed.items()))
    quoted = {"old": lx.quote(str(sent[old]), view.lang), "new": lx.quote(new, view.lang)}
    need.say_before = say("retry_words", view.lang, **quoted)
    view.notes.append(f"{need.tool.get('name')} found nothing for {sent[old]!r}; I try {new!r} once.")
    return {**sent, **changed}


def _free_text(value: Any) -> bool:
    """A query in words (two or more), not a name, an id, a path, an address or a file."""
    return isinstance(value, str) and len(lx.words(value)) >= 2 and not _NOT_WORDS.search(value)


def english(query: str, lang: str) -> str:
    """The query's key words in English: each word the glossary knows in its English form, a known city by its
    English name, names and numbers as they are (a Cyrillic name in Latin letters; the query's capitalised first
    word is no name); other words go. In English, with the broader word of a word that has one."""
    out: list[str] = []
    drop = lx.query_drop(lx.words(query))
    for index, word in enumerate(lx.content_words(query)):
        folded = lx.fold(word)
        if folded in drop:
            continue
        said = next((en for forms, en in _glossary() if lx.hits([folded], forms)), None)
        said = said or next((city.name for city in gazetteer.find_cities(word)), None)  # 'Майами' -> 'Miami'
        named = word[:1].isupper() and not (index == 0 and query.lstrip().startswith(word))  # 'Можно ...' opens
        if said is None and lang != "en" and (named or any(c.isdigit() for c in word)):
            said = _latin(word)
        elif said is None and (lang == "en" or (lang == "ru" and word.isascii())):
            said = word  # an English word in a Russian question ('wifi') stays; a Polish one is no English
        if said:
            out.append(said)
    if lang == "en":
        out += [wider for forms, wider in _broader() if lx.hits(lx.words(query), forms)]
    return " ".join(dict.fromkeys(out))


def _latin(word: str) -> str:
    """'Лавлейс' -> 'Lavleis': a name in Cyrillic letters spelled in Latin ones, so an English index may know it."""
    if not _CYRILLIC.search(word):
        return word
    spelled = "".join(_letters().get(c, c) for c in word.lower())
    return spelled.capitalize() if word[:1].isupper() else spelled
