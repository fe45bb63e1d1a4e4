"""The kind of value a tool parameter wants (a phone, a time, a city, a person), read from its name, description,
type and format, and the small pieces of knowledge used to fill a kind (roles, enum options by meaning, units)."""

from __future__ import annotations

import json
import re
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from agent_core import jsontext
from agent_core.sim import browsing
from agent_core.sim.text import language as lx
from agent_core.sim.text import meaning, sql

if TYPE_CHECKING:
    pass

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
FROM_RESULTS = (
    "id",
    "handle",
    "id_number",
    "revision",
    "city",
    "named",
    "person",
    "email",
    "phone",
    "path",
    "url",
    "timezone",
    "lat",
    "lng",
)
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


def takes_any(words: list[str]) -> bool:
    """'id or url', 'ID or its URL-encoded path': an ID and another form of it, offered as alternatives."""
    forms = lx.lexicon()["either_forms"]
    return "or" in words and bool(lx.hits(words, forms["id"])) and bool(lx.hits(words, forms["other"]))


def name_words(text: str) -> list[str]:
    """The folded words of a name: 'demoRequested', 'demo_requested', 'demo-requested' -> ['demo', 'requested']."""
    return lx.words(re.sub(r"[_\-]+", " ", _CAMEL.sub(" ", text)))


_PROP_JSON = jsontext.encoder(sort_keys=True)  # json.dumps' output; one encoder, not one a call


def kind_of(pname: str, prop: dict[str, Any], tool_json: str) -> str | None:
    """The kind of value a parameter wants (cached: every parameter is read again on every turn)."""
    return _kind_of(pname, _PROP_JSON(prop), tool_json)


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
    browser = browsing.kind(pname, prop, tool_json)  # a CSS selector, the text to type, a screenshot's name
    if browser is not None:
        return browser
    pwords = name_words(pname)
    if kind_type in (None, "string") and _glob(pwords, str(prop.get("description", "")) + tool_json):
        return "glob"  # search_files(pattern): '*.py' for 'Python files', not the sentence
    described = lx.words(_QUOTED.sub(" ", str(prop.get("description", ""))))
    for words in (pwords, described):
        found = _special(words, pname, prop, kind_type, words is pwords)
        if found:
            return found
    slot = _slot(pname, prop, tool_json, pwords)
    if kind_type in ("integer", "number") and slot not in ("number", "id", "id_number", None):
        slot = None  # a number-typed parameter takes a number, never a path or a city ('head' of read_text_file)
    if slot == "path" and lx.hits(pwords, ["repo", "repository", "dir", "directory", "folder", "root", "cwd"]):
        return "directory"  # git's repo_path is a folder
    if slot is None and kind_type in ("integer", "number"):
        return "number"
    if slot is None and kind_type in (None, "string") and pname.lower() == "name" and _about_people(tool_json):
        return "person"  # say_hello(name) 'greets the user by name': a person's name, from 'hi, I'm Ola!'
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
    if kind_type in (None, "string") and takes_any(words):
        return "handle"  # 'Sentry issue ID or URL': whichever form the user gave (sim/handles.py)
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
    if own and kind_type in (None, "string") and lx.hits(words, ["=revision", "=rev", "=sha"]):
        return "revision"  # git_show(revision): a commit's hash, from the text or a log
    if (
        own
        and lx.hits(words, ["=date", "=day", "дата", "=data", "=birthday", "=timestamp", "=since", "=until"])
        and kind_type != "number"
    ):
        return "date"
    if own and lx.hits(words, ["author", "=person", "full name", "first name", "last name", "surname", "given name"]):
        return "person"
    if (
        not own
        and pname.lower() in ("name", "full_name", "fullname")
        and lx.hits(
            words,
            [
                "full name",
                "person",
                "author",
                "customer",
                "user",
                "employee",
                "contact",
                "his name",
                "her name",
                "имя",
                "imię",
            ],
        )
    ):
        return "person"
    labels = ("number", "code", "seat") if len(words) >= 2 else ("seat",)  # a bare 'number' is a quantity
    if own and kind_type in (None, "string") and words and words[-1] in labels:
        # update_seat(confirmation_number, new_seat), change_seat(seat): 'HG52KD', '7A', never the whole sentence
        return "id"
    if own and any(w.startswith("tabl") for w in words) and lx.hits(words, ["names", "=name", "list", "tables"]):
        return "tables"  # sql_db_schema(table_names): the tables a listing showed that the question is about
    if own and words in (["unit"], ["units"], ["unit", "of", "measure"]) and kind_type in (None, "string"):
        return "unit"
    if own and words in (["owner"], ["org"], ["organization"]):
        return "owner"
    if own and words in (["repo"], ["repository"], ["repo", "name"]):
        return "repo"
    if own and kind_type in (None, "string") and _names_branch(words, prop):
        return "branch"  # branch_name, from_branch, a pull request's head and base: a branch's name
    if own and words and words[-1] == "name" and len(words) > 1 and words[0] in _PEOPLE:
        return "person"
    if (
        own
        and len(words) == 2
        and words[-1] == "name"
        and words[0] not in ("file", "path", "user", "full", "first", "last")
    ):
        return "named"  # branch_name, entity_name: the value written after its thing ('branch develop')
    return None


def _about_people(tool_json: str) -> bool:
    """Whether a tool's own description is about a person (greets the user, looks up a customer): its bare `name`
    parameter is then that person's name (lexicon.json people_words)."""
    described = str(json.loads(tool_json).get("description") or "")
    return bool(lx.hits(lx.words(described), lx.lexicon()["people_words"]))


def _glob(pwords: list[str], described: str) -> bool:
    """A parameter named pattern/glob/mask of a tool that speaks of glob patterns or shows one ('*.ext')."""
    return bool(lx.hits(pwords, ["=pattern", "=glob", "=mask", "=wildcard"])) and bool(
        re.search(r"\bglob\b|\bwildcard|['\"`]\*\*?/?\*?\.\w+", described, re.I)
    )


def _names_branch(words: list[str], prop: dict[str, Any]) -> bool:
    if words and (words[-1] == "branch" or words == ["branch", "name"]):
        return True
    # head, base, and a git 'ref' ('The branch, tag or commit to read from'): a branch's name when one is said
    return words in (["head"], ["base"], ["ref"]) and "branch" in lx.words(str(prop.get("description") or ""))


_PEOPLE = {"customer", "user", "person", "recipient", "sender", "client", "employee", "contact", "guest", "passenger"}


def _slot(pname: str, prop: dict[str, Any], tool_json: str, pwords: list[str]) -> str | None:
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
    if found in ("query", None) and "sql" in pwords + lx.words(str(prop.get("description", ""))):
        return "sql"
    own = json.loads(tool_json)
    if found in ("query", None) and len((own.get("input_schema") or {}).get("properties") or {}) == 1:
        if "sql" in lx.words(str(own.get("description") or "")):
            return "sql"  # query(sql) of 'Run a read-only SQL query', or any name: the only input is the SQL
    if found in ("query", None) and "database" in tool.described and prop.get("type", "string") == "string":
        if lx.hits(lx.words(str(prop.get("description", ""))), lx.lexicon()["sql_statement"]):
            return "sql"  # read_query(query): 'The SELECT statement to run' is SQL written from the schema
    about_folder = lx.hits(lx.words(str(prop.get("description", ""))), lx.lexicon()["slots"]["directory"])
    props = (json.loads(tool_json).get("input_schema") or {}).get("properties") or {}
    # the root a glob pattern is matched under (search_files(path, pattern)) is a folder
    under = any(_glob(name_words(p), str(v) + tool_json) for p, v in props.items() if p != pname)
    if found == "path" and ("list" in tool.name or about_folder or under) and not lx.extract_paths(str(prop)):
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


def only_user_knows(tool: dict[str, Any], params: list[str], tool_json: str) -> bool:
    """Which repository is the user's only the user can say: an owner and repo missing are asked, never searched."""
    props = (tool.get("input_schema") or {}).get("properties") or {}
    return bool(params) and all(kind_of(p, props.get(p) or {}, tool_json) in ("owner", "repo") for p in params)


# "use '**' for exponentiation, not '^'": the caret is named only to be ruled out
_NOT_CARET = re.compile(r"\b(?:not|never|instead of|rather than)\s+(?:the\s+)?['\"`]?\^", re.I)


def shows_power_as_stars(tool_json: str) -> bool:
    """The tool's own text writes powers as ** (Python's eval): follow it, never send ^ (XOR there).
    A tool that shows both ("^ or ** (power)") accepts ^, the way the question was read."""
    return "**" in tool_json and ("^" not in tool_json or _NOT_CARET.search(tool_json) is not None)
