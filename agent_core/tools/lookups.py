"""Look-ups over the demo data files: weather by city, facts about the user, short encyclopedia entries."""

from __future__ import annotations

import difflib
import json
import re
import unicodedata
from functools import cache
from pathlib import Path
from typing import Any

from agent_core.tools.texts import error, render, said

DATA_DIR = Path(__file__).parent / "data"
DEMO_LABEL = "(demo data, not a live forecast)"


@cache
def load_data(name: str) -> dict[str, Any]:
    """A JSON file from agent_core/tools/data, read once."""
    data: dict[str, Any] = json.loads((DATA_DIR / name).read_text(encoding="utf-8"))
    return data


def normalize(text: str) -> str:
    """Lower case without accents or punctuation, so 'Kraków', 'krakow' and 'KRAKOW' compare equal."""
    folded = unicodedata.normalize("NFKD", text.casefold())
    plain = "".join(ch for ch in folded if not unicodedata.combining(ch)).replace("ł", "l")
    return re.sub(r"[\s\-.,'’_()]+", " ", plain).strip()


# -- weather --------------------------------------------------------------------------------
@cache
def _city_index() -> dict[str, dict[str, Any]]:
    index: dict[str, dict[str, Any]] = {}
    for city in load_data("weather.json")["cities"]:
        for spelling in [city["name"], *city.get("aliases", [])]:
            index.setdefault(normalize(spelling), city)
    return index


def city_names() -> list[str]:
    """The canonical names of every city with demo weather."""
    return [c["name"] for c in load_data("weather.json")["cities"]]


def _words(lang: str) -> dict[str, Any] | None:
    """The weather report's words in a language other than English (None: English)."""
    words: dict[str, Any] | None = load_data("weather.json")["words"].get(lang)
    return words


def find_city(name: str, lang: str = "en") -> dict[str, Any]:
    """The city record for a spelling; ValueError with a 'did you mean' suggestion (in lang) when unknown."""
    index = _city_index()
    key = normalize(name)
    for attempt in (key, normalize(name.split(",")[0])):
        if attempt in index:
            return index[attempt]
    close = difflib.get_close_matches(key, list(index), n=1, cutoff=0.6)
    words = _words(lang)
    if close:
        suggestion = index[close[0]]["name"]
        if words:
            raise ValueError(words["not_found_close"].format(city=name, close=suggestion))
        raise ValueError(f"city {name!r} not found. Did you mean {suggestion!r}?")
    if words:
        raise ValueError(words["not_found"].format(city=name, known=", ".join(city_names())))
    raise ValueError(f"city {name!r} not found. Known cities: {', '.join(city_names())}.")


def weather_report(city: str, units: str = "celsius", lang: str = "en") -> str:
    """One line of demo weather, labelled as demo data, in the learner's language."""
    if units not in ("celsius", "fahrenheit"):
        raise error(ValueError, "weather.units", units=repr(units))
    record = find_city(city, lang)
    temp_c = record["temp_c"]
    temp = f"{round(temp_c * 9 / 5 + 32)}°F" if units == "fahrenheit" else f"{temp_c}°C"
    words = _words(lang)
    if words:
        report: str = words["report"]
        return report.format(
            where=record.get("in", {}).get(lang) or record["name"],
            temp=temp,
            conditions=words["conditions"].get(record["conditions"], record["conditions"]),
            humidity=record["humidity"],
            wind=record["wind_ms"],
        )
    return (
        f"{record['name']}: {temp}, {record['conditions']}, humidity {record['humidity']}%, "
        f"wind {record['wind_ms']} m/s {DEMO_LABEL}"
    )


# -- memory ---------------------------------------------------------------------------------
def _keyword_hit(words: list[str], keywords: list[str]) -> bool:
    # Stems of 4+ letters match word beginnings ('mieszk' finds 'mieszka'); shorter ones only whole words.
    stems = [normalize(k) for k in keywords]
    return any(w == s or (len(s) >= 4 and w.startswith(s)) for w in words for s in stems)


def search_facts(query: str, lang: str = "en") -> str:
    """Every stored fact about the user whose keywords match the query, in the learner's language."""
    data = load_data("memory.json")
    words_in = data.get("words", {}).get(lang)
    if not query.strip():
        raise ValueError(
            words_in["empty"] if words_in else "the query is empty; give a keyword such as 'city', 'job' or 'trip'."
        )
    words = re.findall(r"\w+", normalize(query))
    facts = data["facts"]
    if not _keyword_hit(words, data.get("everything_keywords", [])):
        facts = [f for f in facts if _keyword_hit(words, [f["topic"], *f["keywords"]])]
    topics = ", ".join(f["topic"] for f in data["facts"])
    if not facts:
        return (
            words_in["none"].format(query=query, topics=topics)
            if words_in
            else (f"No stored facts match {query!r}. Topics on file: {topics}.")
        )
    lines = [f"- {f['topic']}: {f.get(lang) or f['text']}" for f in facts]
    header = words_in["found"].format(query=query) if words_in else f"Stored facts matching {query!r}:"
    return header + "\n" + "\n".join(lines)


# -- encyclopedia ---------------------------------------------------------------------------
def encyclopedia_entry(query: str, lang: str = "en") -> str:
    """A short summary for a well-known topic, or a note listing the topics this demo knows, in lang."""
    topics = load_data("encyclopedia.json")["topics"]
    key = normalize(query)
    for title, entry in topics.items():
        names = [normalize(title), *(normalize(a) for a in entry.get("aliases", []))]
        if key in names or any(len(n) >= 4 and re.search(rf"\b{re.escape(n)}\b", key) for n in names):
            return f"{entry.get('titles', {}).get(lang, title)}: {entry.get(lang) or entry['text']}"
    known = ", ".join(entry.get("titles", {}).get(lang, title) for title, entry in topics.items())
    return render(said("encyclopedia.none", query=repr(query), topics=known), lang)
