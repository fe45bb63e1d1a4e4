"""The simulated model's knowledge of cities: English, Russian and Polish names with their inflected forms."""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from agent_core.sim.language import fold, load

# A capitalised word after a place preposition: how the model guesses at a city it does not know ("in Mscow").
_PLACE = re.compile(r"(?:\b(?i:in|at|for)|(?<!\w)(?i:в|во|w|we))\s+"
                    r"([A-ZА-ЯЁŁŚŻŹĆŃÓ][\w'’-]+(?:\s+[A-ZА-ЯЁŁŚŻŹĆŃÓ][\w'’-]+)?)")
_NOT_PLACES = {"celsius", "fahrenheit", "english", "russian", "polish", "цельсия", "фаренгейта", "celsjusza",
               "fahrenheita", "python", "json"}


@dataclass(frozen=True)
class City:
    """One city: the English name sent to tools, every known form, and 'in <city>' per language."""

    name: str
    forms: tuple[str, ...]
    in_phrase: tuple[tuple[str, str], ...]

    def where(self, lang: str) -> str:
        """'in Oslo', 'в Москве', 'w Warszawie'."""
        return dict(self.in_phrase).get(lang) or f"in {self.name}"


@lru_cache(maxsize=None)
def _cities() -> tuple[City, ...]:
    out = []
    for entry in load("cities")["cities"]:
        forms = tuple(dict.fromkeys([entry["name"], *entry["en"], *entry["ru"], *entry["pl"]]))
        out.append(City(entry["name"], forms, tuple(sorted(entry.get("in", {}).items()))))
    return tuple(out)


@lru_cache(maxsize=None)
def _patterns() -> tuple[tuple[re.Pattern, City], ...]:
    pairs = [(fold(form), city) for city in _cities() for form in city.forms]
    # Longest first, so "Nowym Jorku" wins over a shorter form inside it.
    pairs.sort(key=lambda p: len(p[0]), reverse=True)
    return tuple((re.compile(rf"(?<![\w-]){re.escape(form)}(?![\w-])"), city) for form, city in pairs)


def _known(text: str) -> list[tuple[int, City]]:
    folded, spans = fold(text), []
    for pattern, city in _patterns():
        for match in pattern.finditer(folded):
            if not any(match.start() < end and start < match.end() for start, end, _ in spans):
                spans.append((match.start(), match.end(), city))
    return sorted(((start, city) for start, _, city in spans), key=lambda s: s[0])


def find_cities(text: str) -> list[City]:
    """Known cities mentioned in text, in the order they appear, each once."""
    return list(dict.fromkeys(city for _, city in _known(text)))


def places(text: str) -> list[str]:
    """Every place in text, in order: known cities by their English name, unknown (or misspelt) ones as written."""
    found = [(start, city.name) for start, city in _known(text)]
    for match in _PLACE.finditer(text):
        guess = match.group(1)
        if fold(guess) not in _NOT_PLACES and not _known(guess):
            found.append((match.start(1), guess))
    return list(dict.fromkeys(name for _, name in sorted(found, key=lambda f: f[0])))


def lookup(name: str) -> City | None:
    """The city a name (any known form) refers to."""
    key = fold(name)
    return next((c for c in _cities() if any(fold(f) == key for f in c.forms)), None)


def where(name: str, lang: str) -> str:
    """'in <city>' in the given language, also for cities the gazetteer does not know."""
    city = lookup(name)
    if city is not None and lang != "en":
        return city.where(lang)
    return {"ru": f"в {name}", "pl": f"w {name}"}.get(lang, f"in {name}")
