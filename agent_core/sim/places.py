"""Where a value has a role (source or target), and the places and time zones a text names."""

from __future__ import annotations

import re
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any

from agent_core.sim.kinds import _SOURCE_WORDS, _TARGET_WORDS, name_words
from agent_core.sim.text import entities, gazetteer
from agent_core.sim.text import language as lx

if TYPE_CHECKING:
    from agent_core.sim.work import Fill


@lru_cache(maxsize=1024)
def _role(pname: str) -> str:
    # Cached: a place parameter's role is asked for every candidate city of every clause, on every turn.
    words = name_words(pname)
    if lx.hits(words, [f"={w}" if len(w) <= 3 else w for w in _SOURCE_WORDS]):
        return "source"
    if lx.hits(words, [f"={w}" if len(w) <= 3 else w for w in _TARGET_WORDS]):
        return "target"
    return ""


def by_role(found: list[entities.Entity], pname: str, text: str) -> entities.Entity:
    """Of several candidates, the one a source/target parameter means: the one after 'to'/'into'/'в'/'do' is the
    target, the other the source; a parameter with no role takes the first."""
    role = _role(pname)
    if role == "" or len(found) == 1:
        return found[0]
    after_to = [
        e for e in found if re.search(r"(?:\bto|\binto|\bin|\bв|\bна|\bdo|\bna|\bw)\s+$", text[: e.start], re.I)
    ]
    if role == "target":
        return after_to[-1] if after_to else found[-1]
    rest = [e for e in found if e not in after_to[-1:]]
    return rest[0] if rest else found[0]


def place(work: Fill, text: str, pname: str, prop: dict[str, Any]) -> str | None:
    """A place for a city/location parameter: a known city (its English name) or one written after 'in'."""
    found = gazetteer.places(text)
    taken = {v for v in work.need.args.values() if isinstance(v, str)}
    free = [p for p in found if p not in taken]
    if not free:
        return None
    if len(free) > 1 and _role(pname):
        cities = [e for e in entities.of_kind(text, "city") if e.value in free]
        name = by_role(cities, pname, text).value if cities else free[0]
    else:
        name = free[0]
    return _with_state(name, str(prop.get("description", "")))


def _with_state(name: str, description: str) -> str:
    """'San Francisco, CA' when the parameter's example writes a US city with its state."""
    if not re.search(r"e\.g\.?,?\s+[A-Z][\w ]+,\s*[A-Z]{2}\b", description):
        return name
    info = city_info(name)
    return f"{name}, {info['state']}" if info and info.get("state") else name


@cache
def _city_table() -> dict[str, dict[str, Any]]:
    return {entry["name"]: entry for entry in lx.load("cities")["cities"]}


def city_info(name: str) -> dict[str, Any] | None:
    """What the gazetteer knows of a city: country, US state, coordinates."""
    city = gazetteer.lookup(name)
    return _city_table().get(city.name) if city else None


def time_zone(work: Fill, text: str, pname: str) -> str | None:
    """An IANA zone written out, else the zone of the city the parameter's role points to."""
    written = re.findall(r"\b(?:[A-Z][a-z]+/[A-Z][A-Za-z_]+(?:/[A-Z][A-Za-z_]+)?|UTC|GMT)\b", text)
    taken = {v for v in work.need.args.values() if isinstance(v, str)}
    free = [z for z in written if z not in taken]
    if free:
        return str(free[0] if _role(pname) != "target" or len(free) == 1 else free[-1])
    zones = lx.load("entities")["zones"]
    cities = [e for e in entities.of_kind(text, "city") if zones.get(e.value) and zones[e.value] not in taken]
    if not cities:
        return None
    stated = _stated_at(cities, text, pname)
    return str(zones[(stated or by_role(cities, pname, text)).value])


def _stated_at(cities: list[entities.Entity], text: str, pname: str) -> entities.Entity | None:
    """'Która godzina będzie w Tokio, gdy w Warszawie jest 16.30?': of two places, the one a time is stated for (the
    nearest to it) is the source of a conversion, the other its target."""
    times, role = entities.of_kind(text, "time"), _role(pname)
    if not times or not role or len({e.value for e in cities}) < 2:
        return None
    at = times[0]
    source = min(cities, key=lambda e: min(abs(e.start - at.end), abs(at.start - e.end)))
    others = [e for e in cities if e.value != source.value]
    return source if role == "source" else others[-1]
