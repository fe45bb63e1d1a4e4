"""A fact the user asks to keep: 'Ann Kowalska has started learning Japanese, please remember that', 'Zapamiętaj, że
...', 'Remember that Acme has opened an office': the request to keep it (lexicon.json keep_requests) is no part of
the fact, and the fact's own words ('opened') ask for nothing."""

from __future__ import annotations

import re
from functools import cache

from agent_core.sim.text import language as lx


@cache
def _table() -> dict[str, list[str]]:
    return {k: v for k, v in lx.lexicon()["keep_requests"].items() if not k.startswith("_")}


def asks_to_keep(clause: str) -> bool:
    """'please remember that', 'zapisz to', 'запиши это в граф', 'Zapamiętaj': only a request to keep, no fact."""
    table = _table()
    said = [w for w in lx.words(clause) if lx.fold(w) not in lx.word_set("stopwords") or w in table["back"]]
    verbs = [w for w in said if lx.fold(w) in {lx.fold(v) for v in table["verbs"]}]
    kept = {lx.fold(w) for key in ("verbs", "back", "store", "to_whom") for w in table[key]}
    return bool(verbs) and "?" not in clause and all(lx.fold(w) in kept for w in said)


@cache
def _reported() -> re.Pattern[str]:
    table = _table()
    verbs = "|".join(map(re.escape, table["verbs"]))
    that = "|".join(map(re.escape, table["that"]))
    return re.compile(rf"^\W*(?:please\s+)?((?:{verbs})\w*)\W*?\s*,?\s*(?:{that})\s+(\S.*)$", re.I | re.S)


def request_head(text: str) -> str:
    """The request of 'Remember that Acme has opened ...' ('Remember'); the text itself when it reports no fact."""
    match = _reported().match(text)
    return match.group(1) if match else text


def fact_part(part: str) -> str:
    """A stated part without the word that reports it ('że biega maratony' -> 'biega maratony')."""
    that = "|".join(map(re.escape, _table()["that"]))
    return re.sub(rf"^(?:{that})\s+", "", part.strip(), flags=re.I)


def fact_of(text: str) -> str:
    """'Remember that Acme has opened an office' -> 'Acme has opened an office': the fact a keep request reports."""
    match = _reported().match(text)
    return match.group(2) if match else text
