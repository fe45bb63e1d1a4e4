"""A search query in the tool's own search syntax: when a query parameter's description shows qualifiers
('stars:>1000 language:python'), what the question says of them becomes qualifiers, as a careful model writes it:
"Python repositories about web scraping with more than 1000 stars" -> 'scraping language:python stars:>1000'."""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from agent_core.sim.text import language as lx
from agent_core.sim.text.reader import Need

# 'language:python', 'stars:>1000', 'in:name' in a description's examples (never 'https://')
_QUALIFIER = re.compile(r"(?<![\w/.-])([a-z][a-z_]{1,20}):(?=[\w><=\"'*.-])")
_NUMBER = r"(\d{1,3}(?:[ ,.\u00a0]\d{3})+|\d+)\s*(k|тыс\.?|tys\.?)?"


def apply(need: Need, properties: dict[str, Any], found_kinds: dict[str, str | None]) -> None:
    """The need's query parameter rewritten with the qualifiers its description shows and the question gives."""
    for pname, kind in found_kinds.items():
        value = need.args.get(pname)
        if kind != "query" or not isinstance(value, str) or not value:
            continue
        prop = properties.get(pname)
        names = set(_QUALIFIER.findall(str(prop.get("description", "")))) if isinstance(prop, dict) else set()
        if names:
            need.args[pname] = _rewrite(value, need.clause or value, names, str(need.tool_def.get("name", "")))


def _rewrite(query: str, text: str, names: set[str], tool_name: str) -> str:
    table = lx.lexicon()["search_qualifiers"]
    added: list[str] = []
    used: set[str] = set()
    if "language" in names:
        for token in lx.words(text):
            if token in _languages():
                added.append(f"language:{token}")
                used.add(token)
                break
    for qualifier, unit_words in table["counts"].items():
        found = _count(text, unit_words) if qualifier in names else None
        if found is not None:
            sign, number, said = found
            added.append(f"{qualifier}:{sign}{number}")
            used.update(lx.words(said))
    if not added:
        return query
    # the thing the tool finds ('repositories' for search_repositories) is no search term, nor the words just used
    things = [*lx.words(tool_name.replace("_", " ")), *table["things"]]
    kept = [w for w in query.split() if lx.fold(w) not in used and not lx.hits(lx.words(w), things)]
    return " ".join([*kept, *added])


@cache
def _languages() -> frozenset[str]:
    return frozenset(lx.fold(w) for w in lx.lexicon()["search_qualifiers"]["languages"])


@cache
def _comparisons() -> list[tuple[str, re.Pattern[str]]]:
    """Each sign with the words that say it, right before the number ('more than', 'не менее', 'co najmniej')."""
    table = lx.lexicon()["search_qualifiers"]["comparisons"]
    return [
        (sign, re.compile(rf"(?<!\w)(?:{'|'.join(re.escape(w) for w in words)})(?:\s+(?:than|чем|niż))?\s*$", re.I))
        for sign, words in table.items()
    ]


def _count(text: str, unit_words: list[str]) -> tuple[str, int, str] | None:
    """'more than 1000 stars' -> ('>', 1000, the words said); '1k+ stars', 'не менее 500 звёзд' too."""
    unit = "|".join(re.escape(w) for w in unit_words)
    for match in re.finditer(rf"{_NUMBER}\s*(\+)?\s*(?:{unit})\w*", text, re.I):
        number = int(re.sub(r"\D", "", match.group(1))) * (1000 if match.group(2) else 1)
        if match.group(3):
            return ">=", number, match.group(0)
        before = text[max(0, match.start() - 30) : match.start()]
        for sign, pattern in _comparisons():
            said = pattern.search(before)
            if said:
                return sign, number, f"{said.group(0)} {match.group(0)}"
    return None
