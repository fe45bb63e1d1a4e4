"""The kind of value a tool parameter wants (a phone, a time, a city, a person), read from its name, description,
type and format, and the small pieces of knowledge used to fill a kind (roles, enum options by meaning, units)."""

from __future__ import annotations

import json
import re
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any

from agent_core.sim.text import entities, gazetteer, meaning, sql
from agent_core.sim.text import language as lx

if TYPE_CHECKING:
    from agent_core.sim.work import Fill

_QUOTED = re.compile(r'"[^"]*"|“[^”]*”|„[^”]*”|«[^»]*»|`[^`]*`')
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
# Kinds filled straight from typed entities of these kinds.
TYPED = {
    "email": ("email",),
    "phone": ("phone",),
    "url": ("url",),
    "date": ("date",),
    "datetime": ("date",),
    "time": ("time",),
    "state": ("state",),
}
CHAINED: tuple[str, ...] = ()
FROM_RESULTS = ("id", "id_number", "city", "named", "person", "email", "phone", "path", "url", "timezone", "lat", "lng")
_SOURCE_WORDS = ("source", "from", "origin", "start", "departure", "src", "исходн", "откуда", "źródł", "z")
_TARGET_WORDS = ("target", "to", "destination", "dest", "end", "arrival", "into", "целев", "куда", "docel", "do")
# Enum options of a 'search by' parameter, and the kind of value each stands for (get_user(key, value)).
_OPTION_KINDS = {
    "email": "email",
    "e_mail": "email",
    "mail": "email",
    "phone": "phone",
    "phone_number": "phone",
    "telephone": "phone",
    "username": "named",
    "user_name": "named",
    "login": "named",
    "id": "id",
    "user_id": "id",
    "customer_id": "id",
    "order_id": "id",
    "name": "person",
    "full_name": "person",
    "city": "city",
    "url": "url",
}


def _words(text: str) -> list[str]:
    return lx.words(re.sub(r"[_\-]+", " ", _CAMEL.sub(" ", text)))


def kind_of(pname: str, prop: dict[str, Any], tool_json: str) -> str | None:
    """The kind of value a parameter wants (cached: every parameter is read again on every turn)."""
    return _kind_of(pname, json.dumps(prop, sort_keys=True, ensure_ascii=False), tool_json)


@lru_cache(maxsize=2048)
def _kind_of(pname: str, prop_json: str, tool_json: str) -> str | None:
    prop = json.loads(prop_json)
    kind_type = prop.get("type")
    if isinstance(kind_type, list):
        kind_type = next((k for k in kind_type if k != "null"), None)
    if kind_type == "object" and prop.get("properties"):
        return "object"
    if kind_type == "array":
        return "array"
    if prop.get("enum"):
        return "enum"
    if kind_type == "boolean":
        return "boolean"
    fmt = str(prop.get("format") or "")
    if fmt in ("email", "idn-email"):
        return "email"
    if fmt in ("uri", "url", "iri"):
        return "url"
    if fmt in ("date", "date-time", "time"):
        return {"date": "date", "date-time": "datetime", "time": "time"}[fmt]
    name_words = _words(pname)
    described = lx.words(_QUOTED.sub(" ", str(prop.get("description", ""))))
    for words in (name_words, described):
        found = _special(words, pname, prop, kind_type, words is name_words)
        if found:
            return found
    slot = _slot(pname, prop, tool_json, name_words)
    if slot is None and kind_type in ("integer", "number"):
        return "number"
    if slot == "id" and kind_type == "integer":
        return "id_number"
    return slot


def _special(words: list[str], pname: str, prop: dict[str, Any], kind_type: Any, own: bool) -> str | None:
    """Kinds told by a parameter's own words (its name first, then its description)."""
    joined = " ".join(words)
    if own and words and words[-1] in ("lat", "latitude"):
        return "lat"
    if own and words and words[-1] in ("lng", "lon", "long", "longitude"):
        return "lng"
    if not own and re.search(r"\blatitude\b", joined) and "longitude" not in joined:
        return "lat"
    if not own and re.search(r"\blongitude\b", joined) and "latitude" not in joined:
        return "lng"
    if kind_type in ("integer", "number") and not own:
        return None  # "the number of ..." in a description is no phone or e-mail
    if lx.hits(words, ["phone", "telephone", "mobile", "телефон", "telefon", "=tel"]):
        return "phone"
    if lx.hits(words, ["=url", "=uri", "=link", "website", "web page", "webpage", "ссылк", "адрес сайта", "=link"]):
        return "url"
    if own and lx.hits(words, ["=username", "=login", "user name", "=handle", "=nickname"]):
        return "named"
    if (own and pname.lower() in ("state", "state_code", "us_state")) or (
        not own and lx.hits(words, ["two letter", "state code", "us state"]) and pname.lower() != "location"
    ):
        return "state"
    if own and lx.hits(words, ["=time", "=hour", "=clock", "время", "godzina", "czas"]) and kind_type != "number":
        return "time" if "zone" not in joined and "timezone" not in joined else None
    if not own and re.search(r"\bhh\s*mm\b|24 hour", joined):
        return "time"
    if own and lx.hits(words, ["=date", "=day", "дата", "=data", "=birthday"]) and kind_type != "number":
        return "date"
    if own and lx.hits(words, ["author", "=person", "full name", "first name", "last name", "surname", "given name"]):
        return "person"
    if own and words in (["owner"], ["org"], ["organization"]):
        return "owner"
    if own and words in (["repo"], ["repository"], ["repo", "name"]):
        return "repo"
    if own and words and words[-1] == "name" and len(words) > 1 and words[0] in _PEOPLE:
        return "person"
    return None


_PEOPLE = {"customer", "user", "person", "recipient", "sender", "client", "employee", "contact", "guest", "passenger"}


def _slot(pname: str, prop: dict[str, Any], tool_json: str, name_words: list[str]) -> str | None:
    """The older slots (city, id, body, sql, ...) from the lexicon's word lists."""
    found = None
    for tokens in (lx.words(pname), lx.words(_QUOTED.sub(" ", str(prop.get("description", ""))))):
        found = next((s for s, kws in lx.lexicon()["slots"].items() if lx.hits(tokens, kws)), None)
        if found:
            break
    if found is None and lx.fold(pname) in ("to", "cc", "bcc"):
        return "email"  # send_email(to, ...); a "to" about a currency said so in its description
    tool = meaning.profile(tool_json)
    if found in ("query", None) and prop.get("type", "string") == "string" and "database" in tool.described:
        if sql.schema(json.loads(tool_json).get("description") or "") or "sql" in lx.words(str(prop)):
            return "sql"
    if found in ("query", None) and "sql" in name_words + lx.words(str(prop.get("description", ""))):
        return "sql"
    about_folder = lx.hits(lx.words(str(prop.get("description", ""))), lx.lexicon()["slots"]["directory"])
    if found == "path" and ("list" in tool.name or about_folder) and not lx.extract_paths(str(prop)):
        return "directory"
    return found


# ---- get_user(key, value): an enum that says what kind the other parameter is -------------------------------


@lru_cache(maxsize=512)
def selector(tool_json: str) -> dict[str, str] | None:
    """{'option': 'key', 'value': 'value'} when an enum names kinds of value (email, phone, username) and another
    string parameter carries 'the value'."""
    schema = json.loads(tool_json).get("input_schema") or {}
    props = schema.get("properties") or {}
    option = next(
        (
            name
            for name, prop in props.items()
            if isinstance(prop, dict)
            and len([o for o in prop.get("enum") or [] if isinstance(o, str) and _option_kind(o)]) >= 2
        ),
        None,
    )
    if option is None:
        return None
    value = next(
        (
            name
            for name, prop in props.items()
            if name != option
            and isinstance(prop, dict)
            and prop.get("type", "string") == "string"
            and not prop.get("enum")
        ),
        None,
    )
    return {"option": option, "value": value} if value else None


def _option_kind(option: str) -> str | None:
    return _OPTION_KINDS.get(re.sub(r"[\s-]+", "_", option.strip().lower()))


@lru_cache(maxsize=512)
def selector_options(tool_json: str) -> tuple[tuple[str, str], ...]:
    """The selector's options with the kind of value each stands for, e-mails and phones first (they are the
    surest to find), in the enum's order otherwise."""
    found = selector(tool_json)
    if found is None:
        return ()
    prop = (json.loads(tool_json).get("input_schema") or {}).get("properties", {}).get(found["option"], {})
    pairs = [(o, k) for o in prop.get("enum") or [] if isinstance(o, str) for k in [_option_kind(o)] if k]
    order = {"email": 0, "phone": 1, "url": 2, "id": 3, "named": 4, "person": 5, "city": 6}
    return tuple(sorted(pairs, key=lambda p: order.get(p[1], 9)))


# ---- roles, places and zones ------------------------------------------------------------------------------


def _role(pname: str) -> str:
    words = _words(pname)
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
    return str(zones[by_role(cities, pname, text).value])


# ---- enums, booleans, people, repositories ------------------------------------------------------------------


@cache
def _option_words() -> dict[str, tuple[str, ...]]:
    return {k: tuple(v) for k, v in lx.load("options")["options"].items() if not k.startswith("_")}


@lx.text_cache
def enum_value(text: str, options: tuple[str, ...], pname: str = "") -> str | None:
    """The option the text means: written out ('fahrenheit'), or said another way ('°F', 'высокий', 'pilne')."""
    tokens = lx.words(text)
    literal = next((v for v in options if lx.words(v) and lx.hits(tokens, [v])), None)
    if literal is not None:
        return literal
    table = _option_words()
    for option in options:
        said = table.get(lx.fold(option).replace(" ", "_"))
        if said and lx.hits(tokens, list(said)):
            return option
    units = {e.unit for e in entities.of_kind(text, "number") if e.unit}
    for option in options:
        if lx.fold(option) in units:
            return option
    return None


def default_by_knowledge(work: Fill, pname: str, prop: dict[str, Any], kind: str | None) -> Any:
    """What a model knows without being told: the temperature unit of the country a city is in."""
    options = [o for o in prop.get("enum") or [] if isinstance(o, str)]
    if kind != "enum" or not options:
        return None
    folded = {lx.fold(o): o for o in options}
    if not ({"celsius", "fahrenheit"} <= set(folded) or {"metric", "imperial"} <= set(folded)):
        return None
    required = pname in set((work.need.tool_def.get("input_schema") or {}).get("required") or [])
    if not required:
        return None
    city = next((c for t in work.texts() for c in gazetteer.places(t)), None) or next(
        (str(v) for v in work.need.args.values() if isinstance(v, str) and gazetteer.lookup(v.split(",")[0])), None
    )
    info = city_info(city.split(",")[0]) if city else None
    if info is None:
        return None
    us = info.get("country") == "US"
    return folded.get("fahrenheit" if us else "celsius") or folded.get("imperial" if us else "metric")


def number_by_knowledge(work: Fill, pname: str, prop: dict[str, Any]) -> float | None:
    """A city's latitude or longitude, from the gazetteer, when no tool of the request finds coordinates."""
    kind = kind_of(pname, prop, work.key)
    if kind not in ("lat", "lng") or _a_tool_finds_coordinates(work):
        return None
    for text in work.texts():
        for name in gazetteer.places(text):
            info = city_info(name)
            if info and "lat" in info:
                return float(info["lat" if kind == "lat" else "lng"])
    return None


def _a_tool_finds_coordinates(work: Fill) -> bool:
    own = work.need.tool_def.get("name")
    for tool in work.view.tools:
        if tool.get("name") == own:
            continue
        words = lx.words(f"{tool.get('name', '')} {tool.get('description', '')}".replace("_", " "))
        if lx.hits(words, ["latitude", "coordinates", "geocod", "=lat", "координат", "współrzędn"]):
            return True
    return False


def boolean(text: str, pname: str, prop: dict[str, Any]) -> bool | None:
    """True when the text asks for what the flag names ('include the forecast' for include_forecast)."""
    words = [w for w in _words(pname) if w not in ("is", "include", "with", "use", "enable", "show", "only")]
    if not words:
        return None
    tokens = lx.words(text)
    if not lx.hits(tokens, words):
        return None
    negated = re.search(
        r"\b(?:no|not|without|don't|без|не|bez|nie)\s+(?:\w+\s+){0,2}" + re.escape(words[0]), text, re.I
    )
    return not negated


def person(work: Fill, text: str, pname: str) -> str | None:
    """A person's full name, or its first or last part for first_name / last_name."""
    found = [e for e in entities.of_kind(text, "person") if (e.start, str(id(text))) not in work.used]
    if not found:
        return None
    name = str(found[0].value)
    words = _words(pname)
    parts = name.split()
    if "first" in words or "given" in words:
        return parts[0]
    if "last" in words or "surname" in words or "family" in words:
        return " ".join(parts[1:]) or None
    work.used.add((found[0].start, str(id(text))))
    return name


def repo_part(text: str, kind: str) -> str | None:
    """The owner or the repository of an 'owner/repo' slug."""
    found = entities.of_kind(text, "repo")
    if not found:
        return None
    owner, _, repo = str(found[0].value).partition("/")
    return owner if kind == "owner" else repo


def named_value(text: str, word: str) -> str | None:
    """The value written after its name: 'my username is adavis', 'login: jdoe'."""
    label = "|".join(re.escape(w) for w in _words(word) or [word]) or re.escape(word)
    match = re.search(rf"(?:{label})\s*(?:is|:|=|-|—)?\s*['\"“«„]?([\w.@+-]{{2,}})", text, re.I)
    if not match:
        return None
    value = match.group(1)
    return None if lx.fold(value) in lx.word_set("stopwords") else value


def typed_spans(text: str) -> tuple[tuple[int, int], ...]:
    """Where e-mails, phones, URLs, dates and times stand: no identifier is read inside them."""
    kinds = ("email", "phone", "url", "date", "time", "file", "directory")
    return tuple((e.start, e.end) for e in entities.of_kind(text, *kinds))


def entity_words(pname: str) -> list[str]:
    """What a parameter identifies: 'customer' of customer_id, 'order' of orderId."""
    return [w for w in _words(pname) if w not in ("id", "ids", "number", "no", "key", "code", "uuid")]


def about_entity(pname: str, tool: dict[str, Any]) -> bool:
    """The tool finds the thing a parameter identifies (get_user finds a customer: 'user' and 'customer' are kin)."""
    wanted = meaning.concepts(" ".join(entity_words(pname)))
    if not wanted:
        return False
    theirs = meaning.concepts(f"{str(tool.get('name', '')).replace('_', ' ')} {tool.get('description', '')}")
    return bool(meaning.kin(wanted) & theirs)


def schema_text(work: Fill) -> str:
    """The table schema the model knows: the tool's description, or a schema an earlier result showed."""
    own = str(work.need.tool_def.get("description") or "")
    if sql.schema(own):
        return own
    for text in work.results():
        if re.search(r"create\s+table", text, re.I):
            return text
    return own
