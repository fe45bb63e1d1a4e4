"""How a value of each kind is found in a text: enum options by meaning, what a model knows (a city's unit and
coordinates), flags, people, repositories, units. Roles, places and zones are in places.py."""

from __future__ import annotations

import re
from functools import cache
from typing import TYPE_CHECKING, Any

from agent_core.sim.kinds import kind_of, name_words
from agent_core.sim.places import by_role as by_role  # args.py reads these here
from agent_core.sim.places import city_info
from agent_core.sim.places import place as place
from agent_core.sim.places import time_zone as time_zone
from agent_core.sim.text import clauses, entities, gazetteer, meaning, names, opposites, option_meaning, sql, sql_join
from agent_core.sim.text import language as lx

if TYPE_CHECKING:
    from agent_core.sim.work import Fill


_IN_FOLDER = re.compile(
    r"(?:\b(?:from|in|inside|under|within|at)|(?<!\w)(?:w|we|z|ze|в|во|из|изнутри))\s+(?:(?:the\s+)?(?:folder|directory|"
    r"папк[еиу]|каталог[еа]?|katalogu|folderze|folderu)\s+)?$",
    re.I,
)


def bare_file(text: str) -> str | None:
    """'Read /etc/passwd': a path with no extension read as a file, when no 'in/from/w/в' makes it a folder."""
    found = [e for e in entities.of_kind(text, "directory") if not str(e.value).endswith("/")]
    return str(found[0].value) if len(found) == 1 and not _IN_FOLDER.search(text[: found[0].start]) else None


def in_named_folder(name: str, clause: str, question: str) -> str:
    """'Show me config.json and todo.md from /home/ann/projects': a bare file name is in the one folder the
    question names with 'from/in/w/в' before it."""
    for text in (clause, question):
        folders = {e.value for e in entities.of_kind(text, "directory") if _IN_FOLDER.search(text[: e.start])}
        if len(folders) == 1:
            return f"{next(iter(folders)).rstrip('/')}/{name}"
        if folders:
            return name
    return name


_GLOB = re.compile(r"(?<![\w*/])(?:\*\*/)?\*[\w*]*\.[\w*]+")
_EXTENSION = re.compile(r"(?<![\w/.])\.([A-Za-z][A-Za-z0-9]{0,5})\b")


def glob(text: str, described: str) -> str | None:
    """A glob pattern: written out ('*.py'), else from an extension ('.csv') or a kind of file ('pliki Pythona');
    in every subdirectory ('**/*.py') when the tool's description shows that form."""
    written = _GLOB.search(text)
    if written:
        return written.group()
    bare = re.sub(r"\S*[/@]\S*|\b\w[\w-]*\.\w+", " ", text)  # not a path, a URL, an e-mail or a named file
    ext = _EXTENSION.search(bare)
    tokens = lx.words(bare)
    types = {k: v for k, v in lx.load("entities")["file_types"].items() if not k.startswith("_")}
    found = ext.group(1).lower() if ext else next((k for k, words in types.items() if lx.hits(tokens, words)), None)
    if found is None:
        return None
    return f"**/*.{found}" if "**/" in described else f"*.{found}"


# ---- enums, booleans, people, repositories ------------------------------------------------------------------


@cache
def _option_words() -> dict[str, tuple[str, ...]]:
    return {k: tuple(v) for k, v in lx.load("options")["options"].items() if not k.startswith("_")}


@lx.text_cache
def enum_value(text: str, options: tuple[str, ...], pname: str = "") -> str | None:
    """The option the text means: written out ('fahrenheit'), or said another way ('°F', 'высокий', 'pilne')."""
    # A negated word picks no option: 'not urgent', 'не срочно', 'nie pilne' are no 'high' (options.json says 'low').
    literal = next((v for v in options if lx.words(v) and opposites.plainly(text, [v])), None)
    if literal is not None:
        return literal
    table = _option_words()
    for option in options:
        said = table.get(lx.fold(option).replace(" ", "_"))
        if said and opposites.plainly(text, said):
            return option
    units = {e.unit for e in entities.of_kind(text, "number") if e.unit}
    for option in options:
        if lx.fold(option) in units:
            return option
    return _place_initials(text, options) or option_meaning.by_meaning(text, options)


def _place_initials(text: str, options: tuple[str, ...]) -> str | None:
    """An option that abbreviates a city the text names by its initials: 'sf' for 'в Сан-Франциско', 'nyc' for
    'w Nowym Jorku' (New York City), as a tool's Literal['nyc', 'sf'] spells them."""
    for name in gazetteer.places(text):
        city = gazetteer.lookup(name)
        initials = "".join(w[0] for w in lx.fold(city.name).replace("-", " ").split()) if city else ""
        for option in options:
            if len(initials) > 1 and lx.fold(option) in (initials, initials + "c"):
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
    """True when the text asks for what the flag names ('include the forecast' for include_forecast); a state flag
    ('is_on') from the request's on/off verb."""
    from agent_core.sim.things import state_flag

    state = state_flag(text, pname)
    if state is not None:
        return state
    words = [w for w in name_words(pname) if w not in ("is", "include", "with", "use", "enable", "show", "only")]
    if not words:
        return None
    tokens = lx.words(text)
    said = _option_words().get(words[0], ())  # the flag said another way: 'raw' is 'сырой', 'surowy'
    if not lx.hits(tokens, words) and not (said and lx.hits(tokens, list(said))):
        return None
    negated = re.search(
        r"\b(?:no|not|without|don't|без|не|bez|nie)\s+(?:\w+\s+){0,2}" + re.escape(words[0]), text, re.I
    )
    return not negated


def person(work: Fill, text: str, pname: str) -> str | None:
    """A person's full name, or its first or last part for first_name / last_name; a name the tool's own description
    uses ('Hugging Face Hub' of get_hub_stats) is where it looks, not whom for. An author or owner may be an
    organisation ('the most popular model of Facebook' -> 'Facebook')."""
    own = lx.fold(str(work.need.tool_def.get("description") or ""))
    found = [
        e
        for e in entities.of_kind(text, "person")
        if (e.start, str(id(text))) not in work.used and lx.fold(str(e.value)) not in own
    ]
    if not found and set(name_words(pname)) & {"author", "owner", "org", "organization", "organisation", "publisher"}:
        company = next((n for _, n, kind in names.known_entities(text) if kind == "organization"), None)
        company = company or names.company_in(text)
        return company if company and lx.fold(company) not in own else None
    if not found:
        return _first_name_only(text, own)
    name = str(found[0].value)
    words = name_words(pname)
    parts = name.split()
    if "first" in words or "given" in words:
        return parts[0]
    if "last" in words or "surname" in words or "family" in words:
        return " ".join(parts[1:]) or None
    work.used.add((found[0].start, str(id(text))))
    return name


def _first_name_only(text: str, own: str) -> str | None:
    """A known first name alone, in any case form, as the list spells it ('numer telefonu Ewy' -> 'Ewa')."""
    said = [n for _, n, kind in names.known_entities(text) if kind == "person" and " " not in n]
    return next((n for n in said if names.first_name(n) and lx.fold(n) not in own), None)


def repo_part(text: str, kind: str) -> str | None:
    """The owner or the repository of an 'owner/repo' slug."""
    found = entities.of_kind(text, "repo")
    if not found:
        return None
    owner, _, repo = str(found[0].value).rstrip(".").partition("/")  # "It's octo-org/webshop.": the full stop ends it
    return owner if kind == "owner" else repo


_BRANCH_WORD = r"(?:branch(?:es)?|ветк[аиуеой]*|бранч\w*|gałąź|gałęzi\w*)"
_BRANCH = r"(?<![\w/.-])([A-Za-z0-9][\w./-]*[\w])"
_INTO = re.compile(rf"\b(?:into|onto|в|во|do)\s+(?:the\s+)?(?:{_BRANCH_WORD}\s+)?{_BRANCH}", re.I)
_FROM = re.compile(
    rf"\b(?:from|off|based on|on top of|na bazie|na podstawie|od|z|от|из|на основе)\s+(?:the\s+)?"
    rf"(?:{_BRANCH_WORD}\s+)?{_BRANCH}",
    re.I,
)
_AFTER_WORD = re.compile(rf"\b{_BRANCH_WORD}\s+['\"“«„]?{_BRANCH}", re.I)
_BEFORE_WORD = re.compile(rf"{_BRANCH}\s+{_BRANCH_WORD}\b", re.I)


def branch_mentions(text: str) -> set[str]:
    """Every name the text says as a branch ('from feature/login', 'ветку hotfix/x', 'the docs branch')."""
    return {m.group(1) for rx in (_INTO, _FROM, _AFTER_WORD, _BEFORE_WORD) for m in rx.finditer(text)}


def branch(work: Fill, text: str, pname: str, prop: dict[str, Any]) -> str | None:
    """A branch's name by its role: the one merged into ('into main') for a pull request's base, the one started
    from ('from main', 'na bazie main') for a base or from_branch, else the one named ('branch fix/x', 'the develop
    branch', 'на ветку release')."""
    described = lx.words(str(prop.get("description") or ""))
    words = name_words(pname)
    patterns: tuple[re.Pattern[str], ...] = (_AFTER_WORD, _BEFORE_WORD)
    if "into" in described:
        patterns = (_INTO,)
    elif lx.hits(words, ["from", "base", "source", "start"]) or lx.hits(described, ["start from", "start", "base"]):
        patterns = (_FROM,)
    taken = {v for v in work.need.args.values() if isinstance(v, str)}
    args = work.need.args
    slug = f"{args.get('owner')}/{args.get('repo')}"  # the repository the call names is no branch of it
    skip = lx.word_set("stopwords") | {lx.fold(slug)}
    for pattern in patterns:
        for match in pattern.finditer(text):
            name = match.group(1)
            if lx.fold(name) not in skip and name not in taken and not name.isdigit():
                return name
    return None


def without_repos(work: Fill, text: str) -> str:
    """The text with its 'owner/repo' slugs blanked, when the tool takes the owner and the repository apart."""
    props = (work.need.tool_def.get("input_schema") or {}).get("properties") or {}
    found = {kind_of(p, v if isinstance(v, dict) else {}, work.key) for p, v in props.items()}
    if not {"owner", "repo"} <= found:
        return text
    for e in entities.of_kind(text, "repo"):
        text = text[: e.start] + " " * (e.end - e.start) + text[e.end :]
    return text


def names_files(prop: dict[str, Any]) -> bool:
    """A path parameter that takes files too ('Path of the file or directory')."""
    files = [w for w in lx.lexicon()["slots"]["path"] if w not in ("path", "путь", "ścieżk")]
    return bool(lx.hits(lx.words(str(prop.get("description") or "")), files))


def _label_words(word: str) -> list[str]:
    """The word for a parameter in Russian and Polish ('username' -> 'логин', 'login'; data/answers.json labels)."""
    entry = lx.load("answers")["labels"].get(word.lower()) or {}
    others = lx.lexicon()["named_labels"].get(word.lower(), [])
    return sorted({*(str(v) for lang, v in entry.items() if lang != "en"), *others}, key=len, reverse=True)


def named_value(text: str, word: str) -> str | None:
    """The value written after its name, in any of the three languages: 'my username is adavis', 'login: jdoe',
    'мой логин ivan_petrov'."""
    names = [*(name_words(word) or [word]), *_label_words(word)]
    label = "|".join(re.escape(w) for w in names) or re.escape(word)
    match = re.search(rf"(?:{label})\s*(?:is|'s|’s|:|=|-|—|это|to|jest)?\s*['\"“«„]?([\w.@+-]{{2,}})", text, re.I)
    if not match:
        return None
    value = match.group(1).rstrip(".")  # 'My username is johndoe.': the sentence's full stop is no part of it
    return None if lx.fold(value) in lx.word_set("stopwords") else value


_GLOSS = re.compile(r"\(\s*([A-Za-z][A-Za-z' -]*[A-Za-z])\s*\)")
_TOKEN = re.compile(r"[^\W_]+(?:[-'][^\W_]+)*")
_THING_USERS = frozenset({"user", "login", "nick", "display", "screen", "account", "full", "first", "last"})


def thing_name(text: str, pname: str, tool: dict[str, Any], lang: str) -> str | None:
    """The name of a thing a tool looks up, as the user wrote it (inventory_lookup's product_name): 'AA batteries' of
    'Look up AA batteries in the inventory', the longest run of words that are no request, no place ('in the
    inventory', 'w magazynie') and none of the tool's own words; in Russian or Polish, the English name the user
    glossed in parentheses for an English tool ('świeczki urodzinowe (birthday candle)'). None for a person's name."""
    words = name_words(pname)
    if len(words) != 2 or words[-1] != "name" or words[0] in _THING_USERS:
        return None
    gloss = _GLOSS.search(text)
    if gloss and lang != "en":
        return gloss.group(1)
    own = {lx.stem(w) for w in lx.words(" ".join([pname, str(tool.get("name", "")), str(tool.get("description", ""))]))}
    skip = lx.word_set("stopwords") | lx.word_set("query_drop") | lx.word_set("limit_words")
    places = lx.word_set("place_prepositions")
    numerals = set().union(*lx.number_words())
    runs: list[list[re.Match[str]]] = [[]]
    after_place = False
    for m in _TOKEN.finditer(_GLOSS.sub(" ( ) ", text)):
        folded = lx.fold(m.group())
        dropped = after_place or folded in skip or lx.stem(folded) in own or folded.isdigit() or folded in numerals
        after_place = folded in places or (after_place and folded in ("the", "a", "an", "our", "my"))
        if dropped or after_place:
            runs.append([])
        else:
            runs[-1].append(m)
    best = max(runs, key=len)
    return text[best[0].start() : best[-1].end()] if best else None


_LENGTH_UNITS = {
    "cm": "cm",
    "mm": "mm",
    "m": "m",
    "km": "km",
    "in": "in",
    "inch": "in",
    "inches": "in",
    "ft": "ft",
    "feet": "ft",
    "centimet": "cm",
    "сантиметр": "cm",
    "см": "cm",
    "миллиметр": "mm",
    "дюйм": "in",
    "centymetr": "cm",
    "milimetr": "mm",
    "cal": "in",
    "calach": "in",
    "cali": "in",
    "metr": "m",
}


def unit(text: str) -> str | None:
    """A unit of length the text uses ('10x20x30 cm', 'в сантиметрах', 'w calach'), as its symbol."""
    for e in entities.of_kind(text, "number"):
        if e.unit:
            return e.unit
    for word in lx.words(text):
        for form, symbol in _LENGTH_UNITS.items():
            if word == form or (len(form) > 3 and word.startswith(form)):
                return symbol
    return None


def typed_spans(text: str) -> tuple[tuple[int, int], ...]:
    """Where e-mails, phones, URLs, dates and times stand: no identifier is read inside them."""
    kinds = ("email", "phone", "url", "date", "time", "file", "directory")
    return tuple((e.start, e.end) for e in entities.of_kind(text, *kinds))


def entity_words(pname: str) -> list[str]:
    """What a parameter identifies: 'customer' of customer_id, 'order' of orderId."""
    return [w for w in name_words(pname) if w not in ("id", "ids", "number", "no", "key", "code", "uuid")]


def about_entity(pname: str, tool: dict[str, Any]) -> bool:
    """The tool finds the thing a parameter identifies (get_user finds a customer: 'user' and 'customer' are kin)."""
    wanted = meaning.concepts(" ".join(entity_words(pname)))
    if not wanted:  # a thing no concept knows (a channel): the tool's name says it, channel_id -> slack_list_channels
        named = [lx.stem(w) for w in lx.words(str(tool.get("name", "")).replace("_", " ")) if len(w) > 3]
        return any(lx.stems_match(lx.stem(w), n) for w in entity_words(pname) if len(w) > 3 for n in named)
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
    # describe_table(table_name) answered with its columns' rows: every table described in this episode
    described = [
        sql_join.described(str(next(iter(a.input.values()))), a.output)
        for a in work.view.episode
        if a.status == "ok" and len(a.input) == 1 and isinstance(next(iter(a.input.values())), str)
    ]
    if any(described):
        return "; ".join(dict.fromkeys(d for d in described if d))
    # 'Tables: products(id, name, price) and sales(...)': the schema the user states
    return next((t for t in map(clauses.stated_schema, (work.view.question, work.view.system)) if t), own)


def title_from_body(args: dict[str, Any], found: dict[str, str | None]) -> None:
    """'Create an issue saying the search box is broken on mobile': a thing with a title gets one, the first
    sentence of what it says, when the text names no title of its own."""
    title = next((p for p, k in found.items() if k == "subject" and "title" in p.lower() and p not in args), None)
    body = next((str(args[p]) for p, k in found.items() if k == "body" and isinstance(args.get(p), str)), "")
    first = re.split(r"(?<=[.!?])\s|\n", body.strip(), maxsplit=1)[0].strip(" .!")
    if title and first:
        args[title] = first[:1].upper() + first[1:80]


_SHA = re.compile(r"(?<![0-9A-Za-z])(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}(?![0-9A-Za-z])")


def revision(text: str) -> str | None:
    """A commit's hash in a text (git_show's revision); the first of a log is its newest."""
    sha = _SHA.search(text)
    return sha.group() if sha else None
