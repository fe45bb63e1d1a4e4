"""The simulated model's knowledge of cities: English, Russian and Polish names with their inflected forms."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from agent_core.sim.text.language import _ENDINGS, fold, load, stem, text_cache

# A capitalised word after a place preposition: how the model guesses at a city it does not know ("in Mscow").
_PLACE = re.compile(
    r"(?:\b(?i:in|at|for)|(?<!\w)(?i:в|во|w|we))\s+"
    r"([A-ZА-ЯЁŁŚŻŹĆŃÓ][\w'’-]+(?:\s+[A-ZА-ЯЁŁŚŻŹĆŃÓ][\w'’-]+)?)"
)
_NOT_PLACES = {
    "celsius",
    "fahrenheit",
    "english",
    "russian",
    "polish",
    "цельсия",
    "фаренгейта",
    "celsjusza",
    "fahrenheita",
    "python",
    "json",
}


_NOT_PLACE_STARTS = ("celsi", "celsj", "fahren", "цельси", "фаренг", "kelvin")  # "w Celsjuszach" is a unit


@dataclass(frozen=True)
class City:
    """One city: the English name sent to tools, every known form, and 'in <city>' per language."""

    name: str
    forms: tuple[str, ...]
    in_phrase: tuple[tuple[str, str], ...]

    def where(self, lang: str) -> str:
        """'in Oslo', 'в Москве', 'w Warszawie'."""
        return dict(self.in_phrase).get(lang) or f"in {self.name}"


def _declined(forms: list[str], lang: str) -> list[str]:
    """The forms with the case endings a hard-consonant name takes ('Бостон' -> 'Бостону'), so a city listed only in
    some cases is still found in the others."""
    rule = load("cities")["declension"].get(lang)
    if rule is None:
        return forms
    extra = [form + ending for form in forms if form[-1:].lower() in rule["after"] for ending in rule["endings"]]
    return [*forms, *extra]


@cache
def _cities() -> tuple[City, ...]:
    out = []
    for entry in load("cities")["cities"]:
        names = [entry["name"], *entry["en"], *_declined(entry["ru"], "ru"), *entry["pl"]]
        forms = tuple(dict.fromkeys(names))
        out.append(City(entry["name"], forms, tuple(sorted(entry.get("in", {}).items()))))
    return tuple(out)


@cache
def _patterns() -> tuple[tuple[str, re.Pattern[str], City], ...]:
    pairs = [(fold(form), city) for city in _cities() for form in city.forms]
    # Longest first, so "Nowym Jorku" wins over a shorter form inside it.
    pairs.sort(key=lambda p: len(p[0]), reverse=True)
    return tuple((form, re.compile(rf"(?<![\w-]){re.escape(form)}(?![\w-])"), city) for form, city in pairs)


@text_cache
def _known(text: str) -> tuple[tuple[int, City], ...]:
    folded = fold(text)
    spans: list[tuple[int, int, City]] = []
    for form, pattern, city in _patterns():
        if form not in folded:
            continue  # a plain substring test rules out almost every form, and costs far less than the regex
        for match in pattern.finditer(folded):
            if not any(match.start() < end and start < match.end() for start, end, _ in spans):
                spans.append((match.start(), match.end(), city))
    return tuple(sorted(((start, city) for start, _, city in spans), key=lambda s: s[0]))


def find_cities(text: str) -> list[City]:
    """Known cities mentioned in text, in the order they appear, each once."""
    return list(dict.fromkeys(city for _, city in _known(text)))


def mentions(text: str) -> list[tuple[int, str]]:
    """(where, English name) of each known city mentioned in text, in order."""
    return [(start, city.name) for start, city in _known(text)]


def places(text: str) -> list[str]:
    """Every place in text, in order: known cities by their English name, unknown (or misspelt) ones as written."""
    return list(_places(text))


@text_cache
def _places(text: str) -> tuple[str, ...]:
    found = [(start, city.name) for start, city in _known(text)]
    for match in _PLACE.finditer(text):
        guess = match.group(1)
        if fold(guess) not in _NOT_PLACES and not fold(guess).startswith(_NOT_PLACE_STARTS) and not _known(guess):
            found.append((match.start(1), _nominative(guess)))
    return tuple(dict.fromkeys(name for _, name in sorted(found, key=lambda f: f[0])))


@cache
def _by_form() -> dict[str, City]:
    by_form: dict[str, City] = {}
    for city in _cities():
        for form in city.forms:
            by_form.setdefault(fold(form), city)  # the first city that knows a form keeps it, as a scan would
    return by_form


@cache
def _own_names() -> dict[str, dict[str, str]]:
    return {
        fold(form): {lang: entry[lang][0] for lang in ("ru", "pl") if entry.get(lang)}
        for entry in load("cities")["cities"]
        for form in (entry["name"], *entry["en"])
    }


def named(name: str, lang: str) -> str | None:
    """A city a tool names in English as the user's language writes it on its own ('Madrid' -> 'Madryt', 'Мадрид');
    None for a name the gazetteer does not know in English, or in English."""
    return None if lang == "en" else _own_names().get(fold(name.strip()), {}).get(lang)


def lookup(name: str) -> City | None:
    """The city a name (any known form) refers to."""
    return _by_form().get(fold(name))


# 'в Готэме', 'в Калифорнии': an unknown name after 'в' is in the prepositional case; a tool gets it as a name is
# written on its own (the nominative), and the answer puts it back ('в Готэме').
_PREPOSITIONAL = re.compile(r"^([А-ЯЁ][а-яё]*[бвгджзклмнпрстфхцчшщ])е$|^([А-ЯЁ][а-яё]+)ии$")
_NOMINATIVE = re.compile(r"^([А-ЯЁ][а-яё]*[бвгджзклмнпрстфхцчшщ])$|^([А-ЯЁ][а-яё]+)ия$")


def _nominative(name: str) -> str:
    found = _PREPOSITIONAL.match(name)
    if found is None:
        return name
    return found.group(1) or f"{found.group(2)}ия"


def _prepositional(name: str) -> str:
    found = _NOMINATIVE.match(name)
    if found is None:
        return name
    return f"{found.group(1)}е" if found.group(1) else f"{found.group(2)}ии"


def where(name: str, lang: str) -> str:
    """'in <city>' in the given language, also for cities the gazetteer does not know."""
    city = lookup(name)
    if city is not None and lang != "en":
        return city.where(lang)
    return {"ru": f"в {_prepositional(name)}", "pl": f"w {name}"}.get(lang, f"in {name}")


@cache
def _state_names() -> dict[str, tuple[tuple[tuple[tuple[str, ...], ...], str, str], ...]]:
    """Each state name (entities.json 'us_states') as the bases its words may be inflected from, by the first two
    letters, longest first: the word, its stem, and the word without its last vowel ('Юта' -> 'ют', for 'в Юте')."""
    names: dict[str, list[tuple[tuple[tuple[str, ...], ...], str, str]]] = {}
    for code, forms in load("entities")["us_states"].items():
        for form in forms:
            words = _TOKEN.findall(fold(form))
            bases = tuple((w, stem(w), w[:-1] if w[-1] in "aeiouyаяеиоуыю" and len(w) > 2 else w) for w in words)
            names.setdefault(words[0][:2], []).append((bases, code, fold(form)))
    return {k: tuple(sorted(v, key=lambda n: (len(n[0]), len(n[2])), reverse=True)) for k, v in names.items()}


_TOKEN = re.compile(r"\w+")
_STATE_ENDS = frozenset({*_ENDINGS, "ej"})  # the stemmer's endings, and Polish 'Północnej'


def _inflects(token: str, bases: tuple[str, ...]) -> bool:
    return token == bases[0] or any(token.startswith(b) and token[len(b) :] in _STATE_ENDS for b in bases)


@text_cache
def us_states(text: str) -> tuple[tuple[int, int, str], ...]:
    """US states named in any case in en/ru/pl ('в Орегоне', 'w Kolorado', 'in Nevada', 'stanie Nowy Jork') as
    (start, end, two-letter code): words inflected from a name, one of them capitalised, or the name as written."""
    folded = fold(text)
    tokens = [(m.start(), m.end(), m.group()) for m in _TOKEN.finditer(folded)]
    names = _state_names()
    out: list[tuple[int, int, str]] = []
    for i, (start, _, first) in enumerate(tokens):
        for bases, code, form in names.get(first[:2], ()):
            window = tokens[i : i + len(bases)]
            end = window[-1][1]
            if len(window) < len(bases) or any(s < end and start < e for s, e, _ in out):
                continue
            if not all(_inflects(t, b) for (_, _, t), b in zip(window, bases, strict=True)):
                continue
            if folded[start:end] == form or any(text[s].isupper() for s, _, _ in window):
                out.append((start, end, code))
                break
    return tuple(out)
