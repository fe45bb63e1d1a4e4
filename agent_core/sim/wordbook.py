"""A word translated without tools: 'Как по-английски «гололёд»?', 'Jak jest po angielsku parasol?', 'How do you say
rain in Polish?' answered from the small word table (data/vocabulary.json `words`); a word outside it gets an honest
note that the table does not hold it, never a guess."""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from agent_core.sim.text import language as lx
from agent_core.sim.text.language import say

_QUOTED = re.compile(r"[«„“\"']([^»”\"']{1,40})[»”\"']")


@cache
def _table() -> dict[str, Any]:
    return lx.load("vocabulary")


def _asks(question: str) -> tuple[str, str] | None:
    """(the language asked for, the words that said so) when the question asks for a translation, else None."""
    folded = lx.fold(question)
    for target, markers in _table()["translate"]["into"].items():
        for marker in markers:
            if re.search(rf"(?<!\w){re.escape(lx.fold(marker))}", folded):
                return target, marker
    return None


def _the_word(question: str, marker: str) -> str:
    """The word to translate: the one quoted, else the last content word that is no word of the request itself."""
    quoted = _QUOTED.search(question)
    if quoted:
        return quoted.group(1).strip()
    frame = {lx.fold(w) for w in _table()["translate"]["frame"]} | {lx.fold(w) for w in lx.words(marker)}
    words = [w for w in re.findall(r"[^\W\d_]+(?:-[^\W\d_]+)?", question) if lx.fold(w) not in frame]
    return words[-1] if words else ""


def _lookup(word: str, target: str) -> str | None:
    """The word's forms in the target language, by any of its forms in another."""
    folded = lx.fold(word)
    for english, forms in _table()["words"].items():
        said = {"en": english, **forms}
        for lang, written in said.items():
            if lang != target and folded in {lx.fold(f) for f in written.split("|")}:
                return str(said[target]).replace("|", ", ")
    return None


def translation(question: str, lang: str) -> str | None:
    """The answer to a request to translate one word, in the user's language, or None when it is no such request."""
    asked = _asks(question)
    if asked is None:
        return None
    target, marker = asked
    if target == lang:
        return None  # 'как по-русски ...' asked in Russian: a question about the word, not a translation
    word = _the_word(question, marker)
    if not word:
        return None
    found = _lookup(word, target)
    language = _table()["translate"]["names"][target][lang]
    quoted = lx.quote(word, lang)
    if found is None:
        return say("know.word_unknown", lang, word=quoted, language=language)
    shown = ", ".join(lx.quote(f, lang) for f in found.split(", ")) if target == "en" and lang != "en" else found
    return say("know.word", lang, word=quoted, language=language, translation=shown)
