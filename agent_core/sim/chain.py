"""Chains: a required argument nothing supplies is found by calling first a tool whose definition promises it
(get_user finds the customer whose orders get_customer_orders lists; get_lat_lng the coordinates get_weather needs;
sql_db_list_tables the tables whose schema sql_db_schema shows), several steps deep if need be."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from agent_core.sim import kinds, narrowing, slots, things
from agent_core.sim.args import fill, key_in_view
from agent_core.sim.mood import tool_action
from agent_core.sim.text import entities, meaning, values
from agent_core.sim.text import language as lx
from agent_core.sim.text.reader import Need, View, _tool_key

MAX_DEPTH = 3  # list tables -> schema -> query is the longest chain tutorials show
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
# What a parameter of a kind is found by: words a producing tool's name or description uses for it.
_PRODUCES = {
    "lat": ["latitude", "coordinates", "geocod", "=lat", "координат", "широт", "współrzędn", "szerokoś"],
    "lng": ["longitude", "coordinates", "geocod", "=lng", "координат", "долгот", "współrzędn", "długoś"],
    "city": ["location", "where the user", "current city", "местоположени", "lokalizacj", "=ip"],
    # where the user is tells their time zone (Glasgow -> Europe/London)
    "timezone": ["user's current location", "where the user", "current city", "местоположени", "lokalizacj", "=ip"],
    "sql": ["schema", "columns", "create table", "схем", "schemat"],
    "tables": ["list of tables", "tables in the database", "list tables", "=tables", "таблиц", "tabel"],
}


def lacking(need: Need) -> list[str]:
    """The required parameters the need's call has no value for."""
    schema = need.tool_def.get("input_schema") or {}
    return [p for p in schema.get("required") or [] if p not in need.args]


def producers(view: View, need: Need, depth: int = 0, seen: frozenset[str] = frozenset()) -> list[Need]:
    """Calls to make first, in order, so that need gets what it lacks: [] when none can be made."""
    if depth >= MAX_DEPTH or view.choice_type in ("any", "tool"):
        return []
    missing = lacking(need)
    if not missing or kinds.only_user_knows(need.tool_def, missing, _tool_key(need.tool_def)):
        return []
    own = str(need.tool_def.get("name", ""))
    seen = seen | {own}
    deeper: list[Need] = []
    # nothing is created or changed only to find a value (create_entities for the names delete_entities takes)
    open_tools = [
        t for t in view.tools if str(t.get("name", "")) not in seen and tool_action(_tool_key(t)) in ("read", "")
    ]
    promised = [t for t in open_tools if any(promises(view, need, t, p) for p in missing)]
    for tool in promised or [t for t in open_tools if _owner_record(view, need, t, missing)]:
        name = str(tool.get("name", ""))
        trial = Need("tool", need.clause, None, tool=tool, feeds=need, focus=need.focus)
        fill(view, trial)
        if not lacking(trial):
            view.notes.append(
                f"{own} needs {', '.join(missing)}, which I do not have; {name} can find it, so I call it first."
            )
            return [trial]
        if not deeper:
            before = producers(view, trial, depth + 1, seen)
            if before:
                deeper = [*before, trial]
    if deeper:
        view.notes.append(
            f"{own} needs {', '.join(missing)}; I get there in steps: "
            + " -> ".join(str(n.tool_def.get("name")) for n in deeper)
            + "."
        )
    return deeper


def _owner_record(view: View, need: Need, tool: dict[str, Any], missing: list[str]) -> bool:
    """'What's the status of my order?' with get_user_details and get_order_details(order_id): nothing promises the
    order's id, but the record of its owner (a user, customer or account: lexicon.json 'owner_entities') is where a
    careful model looks for the user's own things, so that reading comes first."""
    if not lx.hits(lx.words(view.question), lx.lexicon()["own_words"]) or tool_action(_tool_key(tool)) != "read":
        return False
    named = set(lx.words(_name_text(tool)))
    if not named & lx.word_set("owner_entities") or "id" in named:
        return False  # find_user_id_by_email finds the owner's id, not the owner's record
    required = set((tool.get("input_schema") or {}).get("required") or [])
    key = _tool_key(need.tool_def)
    return all(
        p not in required
        and kinds.kind_of(p, _prop(need, p), key) in ("id", "id_number")
        and not set(slots.entity_words(p)) & named
        for p in missing
    )


def listed_instead(view: View, need: Need, found: list[Need]) -> list[Need]:
    """A reading whose tool wants one thing's ID the question never gives ('Покажи мои заказы', 'Które z moich
    zamówień ...'), reached through a tool that lists those things: that list is the answer, and fetching one of
    its items would pick one at random. The need takes the listing tool; the calls before it feed the need."""
    from agent_core.sim.mood import tool_action

    if not found or tool_action(_tool_key(need.tool_def)) not in ("read", ""):
        return found
    last = found[-1]
    wanted = [p for p in lacking(need) if kinds.kind_of(p, _prop(need, p), _tool_key(need.tool_def)) == "id"]
    asked = meaning.concepts(need.clause)
    if (
        last.feeds is not need
        or not wanted
        or tool_action(_tool_key(last.tool_def)) not in ("read", "")
        or not _lists(last.tool_def)
        or not all(slots.about_entity(p, last.tool_def) for p in wanted)
        or not all(meaning.concepts(" ".join(slots.entity_words(p))) & asked for p in wanted)
    ):
        return found  # the question asks about the thing the list holds ('my orders'), not about its owner
    if lx.hits(lx.words(need.clause), lx.lexicon()["one_of_many"]):
        return found  # 'the status of the latest order': one of them, fetched once the list is in
    if entities.of_kind(need.clause, "person"):
        return found  # 'Ann Kowalska's profile': the one of that name, fetched once the list is in
    view.notes.append(
        f"{need.tool_def.get('name')} would fetch one of them, but the question asks about all of them; "
        f"{last.tool_def.get('name')} lists them, so I use it instead."
    )
    need.tool, need.args, need.missing = last.tool, last.args, last.missing
    for before in found[:-1]:
        if before.feeds is last:
            before.feeds = need
    return found[:-1]


def _lists(tool: dict[str, Any]) -> bool:
    profile = meaning.profile(_tool_key(tool))
    return "list" in profile.name | profile.described


def _prop(need: Need, pname: str) -> dict[str, Any]:
    props = (need.tool_def.get("input_schema") or {}).get("properties") or {}
    return props[pname] if isinstance(props.get(pname), dict) else {}


def promising(view: View, need: Need, depth: int = 0, seen: frozenset[str] = frozenset()) -> list[Need]:
    """Calls that could find what need lacks but lack something themselves, as deep as the chain goes: what the
    model asks the user for ('your e-mail, phone or username' for get_user, to find the order to cancel)."""
    missing = lacking(need)
    own = str(need.tool_def.get("name", ""))
    seen = seen | {own}
    out: list[Need] = []
    for tool in view.tools:
        name = str(tool.get("name", ""))
        if depth >= MAX_DEPTH or name in seen or not any(promises(view, need, tool, p) for p in missing):
            continue
        trial = Need("tool", need.clause, None, tool=tool, feeds=need, focus=need.focus)
        fill(view, trial, guess=False)
        if lacking(trial):
            out += promising(view, trial, depth + 1, seen) or [trial]
    return out


def promises(view: View, need: Need, tool: dict[str, Any], pname: str) -> bool:
    """The tool's definition says it finds what the parameter wants, and it does not itself need it."""
    schema = tool.get("input_schema") or {}
    if pname in (schema.get("required") or []):
        return False  # a tool that needs the order ID cannot be the one that finds it
    props = (need.tool_def.get("input_schema") or {}).get("properties") or {}
    prop: dict[str, Any] = props[pname] if isinstance(props.get(pname), dict) else {}
    kind = kinds.kind_of(pname, prop, _tool_key(need.tool_def))
    text = f"{_name_text(tool)} {tool.get('description') or ''}"
    words = lx.words(text)
    if kind not in ("id", "id_number") and finds_an_id(tool):
        return False  # find_user_id_by_name_zip finds an id; the email its description names is not what it returns
    if kind in _PRODUCES:
        return bool(lx.hits(words, _PRODUCES[kind]))
    if kind in ("id", "id_number") or kind is None or kind == "named":
        wanted = slots.entity_words(pname)
        if slots.about_entity(pname, tool) or (not wanted and things.lists_own(need.tool_def, tool)):
            return True  # a bare 'id' is one of the things the tool's name is about (Lights-get_lights)
        stems = {lx.stem(w) for w in words}
        return any(lx.stems_match(lx.stem(w), s) for w in wanted for s in stems if len(w) > 2)
    if kind == "enum" or prop.get("type") in ("integer", "number", "boolean"):
        return False
    wanted_words = slots.entity_words(pname)
    return bool(wanted_words) and bool(meaning.concepts(" ".join(wanted_words)) & meaning.concepts(text))


def _name_text(tool: dict[str, Any]) -> str:
    return _CAMEL.sub(" ", str(tool.get("name", ""))).replace("_", " ")


def finds_an_id(tool: dict[str, Any]) -> bool:
    """The tool's name says it finds an id (find_user_id_by_name_zip), whatever its description tells to try."""
    return "id" in lx.words(_name_text(tool))


def options_only(view: View, need: Need) -> bool:
    """A clause that only sets how the call of the clause beside it runs ('and give me the 3 newest results',
    'w dziedzinie finance', 'najtrafniejsze najpierw') or names its tool ('Poszukaj w bazie wiedzy'): it gives
    that call options, not a request of its own. What is left of its words, once the numbers, the options it
    picks and the tool's own words are taken out, is at most one word when it picked an option, none otherwise."""
    if need.tool is None or need.intent not in ("search", "tool") or not need.value:
        return False
    if entities.of_kind(need.clause, "id", "email", "url", "phone", "file", "repo"):
        return False  # 'the emails of customers C1 and C2': a clause naming a thing of its own asks about it
    key = key_in_view(view, need.tool_def)
    if _own_lookup(need, key):
        return False
    profile = meaning.profile(key)
    theirs = profile.name | profile.described | profile.params
    words = [w for w in lx.content_words(need.value) if not w.isdigit()]
    numbers = {e.text.lower() for e in entities.of_kind(need.clause, "number")}
    listed = {lx.fold(o) for o in _listed(key)}
    said = {lx.fold(w) for w in words if lx.fold(w) in listed or _an_option(w, key)}
    said |= narrowing.filters_said(need.clause, _names(json.loads(key)))  # 'only in the security domain'
    picked = bool(numbers) or bool(said)
    rest: list[str] = []
    for i, word in enumerate(words):
        pair = " ".join(words[i : i + 2]), " ".join(words[max(0, i - 1) : i + 1])
        if word.lower() in numbers or lx.fold(word) in said or meaning.concepts(word) & theirs:
            continue
        if any(meaning.concepts(p) & theirs for p in pair if " " in p):
            continue  # 'bazie wiedzy' is the knowledge base the tool queries
        stem = lx.stem(word)
        if any(lx.stems_match(stem, t) for t in profile.words | profile.param_words) or narrowing.is_noun(word):
            continue
        rest.append(word)
    return len(rest) <= (1 if picked else 0)


def _own_lookup(need: Need, key: str) -> bool:
    """'почта ann.lee@mail.com, логин annlee': a clause that picks get_user's key (username) and gives its value is
    a lookup of its own, tried when the other clause's e-mail finds nobody."""
    selector = kinds.selector(key)
    found = need.args.get(selector["value"]) if selector else None
    return isinstance(found, str) and found.lower() in need.clause.lower()


def _an_option(word: str, key: str) -> bool:
    """The word names one of the tool's enum options, directly or said another way ('newest' for 'date')."""
    from agent_core.sim.slots import enum_value

    options: list[str] = []
    for prop in _props(json.loads(key)):
        options += [o for o in prop.get("enum") or [] if isinstance(o, str)]
    return bool(options) and enum_value(word, tuple(options)) is not None


def _listed(key: str) -> list[str]:
    """Values the tool's string parameters list in quotes ('finance', 'medical')."""
    from agent_core.sim.defaults import _listed_options

    return [o for prop in _props(json.loads(key)) for o in _listed_options(prop)]


def _named_props(schema_owner: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """Every property of a tool's input schema with its name, nested objects' too."""
    out: list[tuple[str, dict[str, Any]]] = []
    stack = [schema_owner.get("input_schema") or {}]
    while stack:
        for name, prop in (stack.pop().get("properties") or {}).items():
            if isinstance(prop, dict):
                out.append((name, prop))
                stack.append(prop)
    return out


def _props(schema_owner: dict[str, Any]) -> list[dict[str, Any]]:
    return [prop for _, prop in _named_props(schema_owner)]


def _names(schema_owner: dict[str, Any]) -> list[str]:
    return [name for name, _ in _named_props(schema_owner)]


def without_options(view: View, needs: list[Need]) -> list[Need]:
    """'Search the knowledge base for our refund policy and give me the 3 newest results' is one call: a clause
    that only gives options to another clause's call of the same tool is read with it (options_only)."""
    tools = [n.tool.get("name") for n in needs if n.tool is not None and not options_only(view, n)]
    out = [n for n in needs if n.tool is None or n.tool.get("name") not in tools or not options_only(view, n)]
    out = [n for i, n in enumerate(out) if not _same_again(n, out[:i])]
    if len(out) < len(needs):
        view.notes.append("Some clauses only say how to run the call another clause asks for; I make it once.")
    return out


def _same_again(need: Need, before: list[Need]) -> bool:
    """'Who is our best customer by total spent, and how much did they spend?': a clause that only points back
    ('they', 'it', 'его') at what an earlier clause's call of the same tool finds is answered by that call."""
    if need.tool is None or not lx.hits(lx.words(need.clause), lx.lexicon()["back_reference"]):
        return False
    if entities.of_kind(need.clause, "city", "number", "id", "email", "file", "url", "phone", "quoted"):
        return False  # 'and what is it in Paris?' asks the same of another value
    return any(n.tool is need.tool for n in before)


def in_order(previous: Need | None, need: Need) -> bool:
    """'stage README.md and commit it': two changes by different tools are made in the order asked, the second once
    the first has answered (the commit records what the staging did); a careful model does not race them."""
    if previous is None or previous.tool is None or need.tool is None:
        return False
    if previous.tool.get("name") == need.tool.get("name"):
        return False
    return all(tool_action(_tool_key(t)) not in ("", "read") for t in (previous.tool, need.tool))


def passes_on(view: View, needs: list[Need]) -> None:
    """'Check the weather in Paris and email it to bob@example.com': a message whose text is what another clause
    finds ('it', 'ją', 'её') waits for that call; its text is then that answer (told_onwards)."""
    for i, need in enumerate(needs):
        if need.tool is None or not lx.hits(lx.words(need.clause), lx.lexicon()["back_reference"]):
            continue  # the cheap test first: most clauses point back at nothing
        body = _body_param(need)
        if body is None or body in need.args:
            continue
        source = next((n for n in reversed(needs[:i]) if n.tool is not None and n.feeds is None), None)
        if source is not None and source.tool is not need.tool:
            source.feeds = need
            view.notes.append(
                f"{need.tool_def.get('name')} sends what {source.tool_def.get('name')} finds, so it waits for it."
            )


def told_onwards(view: View, needs: list[Need], line: Callable[[View, Need], str | None]) -> list[Need]:
    """The messages whose text another call found, filled with its answer line (line: reply.need_line) now that
    it is in: these are decided again."""
    out = []
    for need in needs:
        sources = [n for n in needs if n.feeds is need and n.result is not None]
        if not sources or need.state not in ("wait", "ask"):
            continue
        body = _body_param(need)
        if body is None or body in need.args:
            continue
        text = "\n".join(said for n in sources if (said := line(view, n)))
        if not text:
            continue
        need.args[body] = text
        need.missing = [m for m in need.missing if m not in (body, "body", "subject")]
        for pname in _subject_params(need):
            need.args.setdefault(pname, values.subject_from(text) or text)
        need.missing = [m for m in need.missing if m not in _subject_params(need)]
        out.append(need)
    return out


def _body_param(need: Need) -> str | None:
    if need.tool is None:
        return None
    key = _tool_key(need.tool_def)
    props = (need.tool_def.get("input_schema") or {}).get("properties") or {}
    required = (need.tool_def.get("input_schema") or {}).get("required") or []
    return next((p for p in required if kinds.kind_of(p, _prop(need, p), key) == "body" and p in props), None)


def _subject_params(need: Need) -> list[str]:
    key = _tool_key(need.tool_def)
    required = (need.tool_def.get("input_schema") or {}).get("required") or []
    return [p for p in required if kinds.kind_of(p, _prop(need, p), key) == "subject"]
