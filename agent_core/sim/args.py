"""How the simulated model fills a tool's arguments: each parameter's kind from its name, description, type and
format, and a value of that kind from the question, the system prompt, the conversation and earlier results."""

from __future__ import annotations

import json
import re
from functools import lru_cache
from typing import Any

from agent_core.sim import (
    browsing,
    counts,
    examples,
    handles,
    kinds,
    listing,
    narrowing,
    numeric,
    qualifiers,
    shell,
    slots,
    stamps,
)
from agent_core.sim.defaults import _base_option, _best_effort, _nullable, stated_default
from agent_core.sim.defaults import _closed_list as _closed_list  # compose.py reads them here
from agent_core.sim.defaults import _listed_options as _listed_options
from agent_core.sim.text import arithmetic, entities, facts, gazetteer, meaning, sql, sql_filter, values
from agent_core.sim.text import language as lx
from agent_core.sim.text.clauses import own_part
from agent_core.sim.text.reader import Need, View, _tool_key
from agent_core.sim.work import Fill

GENERIC = ("search", "memory")
# Kinds whose value is the user's own wording: looked for in the whole question first, then the clause.
_WORDING = ("body", "subject")
MAX_DEPTH = 4  # nested objects are filled this deep, then left to their defaults


def fill(view: View, need: Need, only_clause: bool = False, results: bool = True, guess: bool = True) -> None:
    """Arguments for the chosen tool from the question, the system prompt, the conversation and (results) earlier
    results: without them, what is missing says which calls must come first."""
    schema = need.tool_def.get("input_schema") or {}
    work = Fill(view, need, only_clause, key_in_view(view, need.tool_def), results)
    required = set(schema.get("required") or [])
    forced = view.choice_type in ("any", "tool")
    main = lx.lexicon()["main_slot"].get(need.intent)
    need.args, need.missing, need.main_param = {}, [], ""
    command = shell.command_param(need.tool_def) if need.intent == "list" else None
    if command is not None:  # a folder listing with only a shell: ls (sim/shell.py)
        need.args = {command: shell.list_command(values.directory(need.clause) or values.directory(view.question))}
        return
    properties = schema.get("properties") or {}
    selector = kinds.selector(work.key)
    found_kinds = {
        p: kinds.kind_of(p, v if isinstance(v, dict) else {}, work.key)
        or _file_kind(need, v if isinstance(v, dict) else {}, properties, work.key)
        for p, v in properties.items()
    }
    # move_file(source, destination): two paths take their roles from the text, not both the need's one value
    shared_main = sum(k == main for k in found_kinds.values()) > 1
    for pname, prop in properties.items():
        prop = prop if isinstance(prop, dict) else {}
        kind = found_kinds[pname]
        need.main_param = need.main_param or (pname if kind == main else "")
        value: Any = need.value if kind == main and need.value and kind != "query" and not shared_main else None
        if kind == "query" and need.intent in GENERIC and need.value:
            value = need.value
        if selector and pname in selector.values():
            kind = "selected"  # get_user(key, value): both come from the one value the user gave, or neither
            value = value if value is not None else _selected(work, selector, pname)
        if value is None and kind != "selected":
            work.optional = pname not in required
            value = _value(work, pname, prop, kind, pname in required)
        if examples.shaped(prop) and not examples.fits(prop, value):
            value = examples.by_example(prop, [*work.texts(), *work.results()])  # '#W0000000': never a zip's 75203
        if value is None and pname in required and isinstance(prop.get("enum"), list):
            value = _base_option(prop["enum"])
        if value is None and pname in required:
            value = stated_default(prop)
        if kind == "path" and isinstance(value, str) and "/" not in value:
            value = slots.in_named_folder(value, need.clause, view.question)
        if value is None and pname in required and not prop.get("enum") and _closed_list(prop):
            value = _listed_options(prop)[0]  # 'local', 'remote' or 'all': one of them, never the sentence
        if kind == "expression" and isinstance(value, str) and _stars(work, need):
            value = value.replace("^", "**")  # the tool's or the user's own power sign: ^ is XOR in Python's eval
        if value is None and pname in required and _nullable(prop):
            need.args[pname] = None  # strict mode's optional field: required, and null when nothing calls for it
            continue
        if value is None and pname in required and kind == "subject" and guess:
            continue  # a message's subject the writer makes up from its body (below), as anyone writing it would
        if value is None and pname in required:
            if not guess or (not forced and (kind is not None or prop.get("type") in ("object", "array"))):
                need.missing.append(kind if kind and kind in lx.load("phrases")["ask"] else pname)
                continue
            value = _best_effort(prop, kind, need)
        if isinstance(value, str) and value.startswith("--"):
            value = stamps.with_year(value, [view.question, view.system, *view.earlier])
        if value is not None:
            need.args[pname] = value
    slots.title_from_body(need.args, found_kinds)
    qualifiers.apply(need, properties, found_kinds)
    if shared_main and main == "path":
        _beside(need.args, [p for p, k in found_kinds.items() if k == "path"])
    _made_up_subject(need, [p for p, k in found_kinds.items() if k == "subject" and p in required], found_kinds)


def _stars(work: Fill, need: Need) -> bool:
    """Powers written as **: the tool's text shows them so, or the user wrote them so ('2**16') and the tool does not
    ask for ^."""
    said = "**" in need.clause or "**" in work.view.question
    return kinds.shows_power_as_stars(work.key) or (said and "^" not in work.key)


def _made_up_subject(need: Need, subjects: list[str], found_kinds: dict[str, str | None]) -> None:
    """A required subject nobody gave: the first words of the message ('Hi', 'Weather in Paris'), else asked."""
    body = next((str(v) for p, v in need.args.items() if found_kinds.get(p) == "body" and v), "")
    for pname in (p for p in subjects if p not in need.args):
        made = values.subject_from(body)
        if made:
            need.args[pname] = made
        else:
            need.missing.append("subject" if "subject" in lx.load("phrases")["ask"] else pname)
    order = list(found_kinds)
    need.args = dict(sorted(need.args.items(), key=lambda item: order.index(item[0]) if item[0] in order else 99))


def _beside(args: dict[str, Any], paths: list[str]) -> None:
    """'Rename /home/ann/blog/draft.md to final.md': a bare name goes in the folder of the path given with it."""
    folders = [str(args[p]).rsplit("/", 1)[0] for p in paths if "/" in str(args.get(p, ""))]
    for p in paths:
        value = args.get(p)
        if folders and isinstance(value, str) and value and "/" not in value:
            args[p] = f"{folders[0]}/{value}"


def _value(work: Fill, pname: str, prop: dict[str, Any], kind: str | None, required: bool, depth: int = 0) -> Any:
    """The value of one parameter (or a nested property) of its kind, from the first source that has one."""
    kind_type = prop.get("type")
    if isinstance(kind_type, list):  # ["string", "null"]: strict mode's optional string
        kind_type = next((t for t in kind_type if t != "null"), None)
    listed = _listed_options(prop) if kind_type in (None, "string") and not prop.get("enum") else ()
    for text in work.texts() if listed else ():
        said = slots.enum_value(text, listed, pname)
        if said is not None:
            return said
    for text in (work.need.clause, work.view.question) if kind_type in (None, "string") else ():
        found = narrowing.filter_value(text, pname)  # 'only in the security domain': domain_filter "security"
        if found is not None:
            return found
    if kind == "object":
        return _object(work, prop, required, depth)
    if kind == "array":
        return listing.array(work, pname, prop, depth)
    if kind in ("number", "lat", "lng"):
        return _number(work, pname, prop, required)
    for text in work.results() if kind == "result" else ():
        return text
    found = _whole_answer(work, prop, kind)
    if found is not None:
        return found
    for text in work.texts() if kind in ("id", "id_number") and work.view.reply else ():
        # 'My confirmation number is LL0EZ6' given before beats an unlabelled code in the reply ('12C, please.')
        value = extract(kind, text, work, pname, prop, labelled=True)
        if value is not None:
            return value
    # an option is the user's choice: 'comments 1' in the model's own answer asks for no 'get_comments'
    for text in work.texts(kind in _WORDING, own=kind != "enum"):
        if kind == "directory" and not required and text == work.view.question != work.need.clause:
            break  # an optional path filters: only a path of its own clause ('README and the last commits')
        value = extract(kind, text, work, pname, prop)
        if value is not None:
            return value
    if kind == "tables":
        return extract(kind, "", work, pname, prop)
    if kind is None or kind in kinds.FROM_RESULTS:
        found = _from_results_by_key(work, pname, prop, kind)
        if found is not None:
            return found
        tools = {str(t.get("name")): t for t in work.view.tools}
        for name, text in work.named_results() if kind is not None else ():
            if kind in ("id", "id_number") and (
                facts.parse(text) is not None or not slots.about_entity(pname, tools.get(name) or {})
            ):
                continue  # an ID is read from a result about its own thing, never from any number in any result
            value = extract(kind, text, work, pname, prop)
            if value is not None:
                return value
    if kind_type == "boolean":
        return None
    return slots.default_by_knowledge(work, pname, prop, kind)


def _whole_answer(work: Fill, prop: dict[str, Any], kind: str | None) -> str | None:
    """A short plain answer of a call made to find this value is the value itself: get_location's 'San Francisco,
    CA' for a location."""
    if kind not in ("city", "named", None) or prop.get("type", "string") != "string" or not work.view.fed:
        return None
    text = work.view.fed[0].output.strip()
    if len(text) > 80 or "\n" in text or facts.parse(text) is not None or ":" in text:
        return None
    return text.rstrip(".")


def _object(work: Fill, prop: dict[str, Any], required: bool, depth: int) -> dict[str, Any] | None:
    """A nested object filled property by property (an author's name and e-mail), or None if it has nothing."""
    if depth >= MAX_DEPTH:
        return None
    inner = prop.get("properties") or {}
    needed = set(prop.get("required") or [])
    out: dict[str, Any] = {}
    for name, sub in inner.items():
        sub = sub if isinstance(sub, dict) else {}
        kind = kinds.kind_of(name, sub, work.key)
        value = _value(work, name, sub, kind, name in needed, depth + 1)
        if value is not None:
            out[name] = value
        elif name in needed and _nullable(sub):
            out[name] = None
        elif name in needed and counts.result_count(name, sub) is not None:
            out[name] = counts.result_count(name, sub)  # 'How many top results to return': a handful, not asked
        elif name in needed:
            return None
    return out if any(v is not None for v in out.values()) else None


def _selected(work: Fill, selector: dict[str, str], pname: str) -> Any:
    """get_user(key, value): the key is the kind of value the text holds (email), and the value is that e-mail."""
    option_param, value_param = selector["option"], selector["value"]
    if work.selection is None:
        work.selection = ("", None)
        for text in work.texts():
            for option, kind in kinds.selector_options(work.key):
                label = option if kind == "named" else value_param
                found = extract(kind, text, work, label, {"type": "string"})
                if found is not None:
                    work.selection = (option, found)
                    break
            if work.selection[1] is not None:
                break
    option, found = work.selection
    if found is None:
        return None
    return option if pname == option_param else found


def _from_results_by_key(work: Fill, pname: str, prop: dict[str, Any], kind: str | None) -> Any:
    """A value an earlier result gives under the parameter's own key ('customer_id', or the looked-up user's 'id')."""
    tools = {str(t.get("name")): t for t in work.view.tools}
    for name, text in work.named_results():
        about = slots.about_entity(pname, tools.get(name) or {"name": name})
        found = facts.lookup(text, pname, about)
        if not found and about and pname.lower().endswith("_number"):  # issue_number: the 'number' of one issue
            picks = listing.picks_by_field(work) or listing.picked_by_mention(work, text)
            found = [r.get("number") for r in facts.records(text)] if picks else []
        picked = listing.pick(work, found, prop, text)
        if picked is not None:
            return _typed(picked, prop)
    return None


def _typed(value: Any, prop: dict[str, Any]) -> Any:
    kind_type = prop.get("type")
    if kind_type == "string" and isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    if kind_type in ("integer", "number") and isinstance(value, str):
        try:
            number = float(value)
        except ValueError:
            return value
        return int(number) if kind_type == "integer" or number.is_integer() else number
    return value


def _number(work: Fill, pname: str, prop: dict[str, Any], required: bool = False) -> int | float | None:
    """A number for a numeric parameter: one named for it (a unit, a word next to it), else the next in order."""
    need = work.need
    if need.intent == "arithmetic" and need.value:
        found = re.findall(r"\d+(?:\.\d+)?", need.value)
        work.counted += 1
        return _as_number(found[work.counted - 1], prop) if work.counted <= len(found) else None
    # 'zrzut ekranu 1280 na 720': a screenshot's width, then its height
    paired = browsing.size(need.clause, pname) if browsing.page_tool(need.tool_def) else None
    if paired is not None:
        return paired
    own = set(work.view.earlier) - set(work.view.said_before)
    for text in work.texts():
        # the model's own answer ('Safari 19, ...') gives a number only beside its word ('Issue 44')
        picked = numeric.number_for(work, text, pname, prop, required, labelled=text in own)
        if picked is not None:
            return _as_number(str(picked), prop)
    found = _from_results_by_key(work, pname, prop, "number")
    if isinstance(found, (int, float)) and not isinstance(found, bool):
        return found
    return slots.number_by_knowledge(work, pname, prop)


def _as_number(raw: str, prop: dict[str, Any]) -> int | float:
    number = float(raw)
    return int(number) if prop.get("type") == "integer" or number.is_integer() else number


def extract(kind: str | None, text: str, work: Fill, pname: str, prop: dict[str, Any], labelled: bool = False) -> Any:
    """A value of a kind in one text, or None (entities already given to another parameter are skipped)."""
    need = work.need
    if kind is None:
        return None
    if kind in kinds.TYPED:
        return _entity(work, text, kinds.TYPED[kind], pname)
    if kind == "city":
        return slots.place(work, text, pname, prop)
    if kind == "revision":
        return slots.revision(text)
    if kind == "glob":
        return slots.glob(text, str(need.tool_def.get("description", "")) + str(prop.get("description", "")))
    if kind == "expression":
        return arithmetic.extract_expression(text)
    if kind == "path":
        found = _entity(work, text, ("file",), pname)
        return found if found is not None else slots.bare_file(text) if need.intent in ("file", "delete") else None
    if kind == "ticker":
        return values.ticker(text)
    if kind == "query":
        return need.value if need.intent in GENERIC else " ".join(lx.content_words(text)) or None
    if kind == "enum":
        text = meaning.as_request(own_part(text, need.clause) if text == work.view.question else text)
        return slots.enum_value(text, tuple(v for v in prop["enum"] if isinstance(v, str)), pname)
    if kind in ("id", "id_number"):
        # an ID another parameter of this call took is not this one's too (confirmation_number and new_seat)
        given = [str(v) for v in need.args.values() if isinstance(v, (str, int)) and not isinstance(v, bool)]
        taken = tuple((m.start(), m.end()) for v in given if v for m in re.finditer(re.escape(v), text))
        found = values.identifier(
            text, pname, integer=kind == "id_number", skip=slots.typed_spans(text) + taken, labelled=labelled
        )
        return int(found) if found and kind == "id_number" else found
    if kind == "subject":
        found = values.subject(text)
        if found is None and "title" in pname.lower():
            quoted = [
                e for e in entities.of_kind(text, "quoted") if e.value not in [str(v) for v in need.args.values()]
            ]
            found = str(quoted[0].value) if quoted else None  # “Dune”, „Kupić mleko”: the title given in quotes
        return found
    if kind == "body":
        if work.view.dictated:  # "wiadomość commita: aktualizacja README": the text after the label, as written
            return work.view.dictated
        loose = pname in set((need.tool_def.get("input_schema") or {}).get("required") or [])
        return values.body_before(text, work.view.reply, tuple(str(v) for v in need.args.values()), loose=loose)
    if kind == "currency":
        source, target = values.currency_pair(text)
        return target if lx.hits(lx.words(pname), ["=to", "target", "into", "docelow", "целев"]) else source
    if kind == "timezone":
        return slots.time_zone(work, text, pname)
    if kind == "directory":
        text = slots.without_repos(work, text)  # octo-org/webshop is the owner and repo, no folder in it
        found = _entity(work, text, ("file",), pname) if slots.names_files(prop) else None
        return found or (values.known_file(text) if slots.names_files(prop) else None) or values.directory(text)
    if kind == "sql":
        earlier = work.view.said_before[0] if work.view.said_before else ""
        return sql_filter.query(text, slots.schema_text(work), f"{work.view.system} {work.view.question}", earlier)
    if kind == "boolean":
        return slots.boolean(text, pname, prop)
    if kind == "person":
        return slots.person(work, text, pname)
    if kind == "branch":
        return slots.branch(work, text, pname, prop)
    if kind in ("owner", "repo"):
        return slots.repo_part(text, kind)
    if kind == "handle":
        return handles.value(text, pname, tuple(str(v) for v in need.args.values()))
    if kind == "named":
        found = slots.named_value(text, pname)
        if found is None and text in (need.clause, need.focus, work.view.question):
            found = slots.thing_name(text, pname, need.tool_def, work.view.lang)
        return found
    if kind == "unit":
        return slots.unit(text)
    if kind in ("selector", "typed_text", "label", "script"):  # browser tools (sim/browsing.py)
        written = tuple(str(v) for v in need.args.values())
        return browsing.selector(text, written) if kind == "selector" else getattr(browsing, kind)(text)
    if kind == "tables":
        asked = need.clause if need.clause else work.view.question
        listed = next((r for r in work.results() if "," in r and "create table" not in r.lower()), "")
        found = sql_filter.tables_for(asked, listed) if listed else sql_filter.tables_named(asked, work.view.lang)
        return (found[0] if found and not _plural(pname) else ", ".join(found)) or None
    return None


def _plural(pname: str) -> bool:
    """table_names takes several, comma-separated; table_name one."""
    return lx.words(pname.replace("_", " "))[-1:] in (["names"], ["tables"])


def _entity(work: Fill, text: str, wanted: tuple[str, ...], pname: str) -> Any:
    """The first entity of a kind in text that no other parameter took (source/target roles pick their own)."""
    found = [e for e in entities.of_kind(text, *wanted) if (e.start, str(id(text))) not in work.used]
    if "date" in wanted:
        found = listing.dates_for(found, pname, text)  # 'since November 28th' starts a period, it ends none
    if not found:
        return None
    chosen = slots.by_role(found, pname, text)
    work.used.add((chosen.start, str(id(text))))
    return chosen.value


def key_in_view(view: View, tool: dict[str, Any]) -> str:
    """The tool's canonical JSON, already made when the request was read (json.dumps per call was a hot spot)."""
    for candidate, key in zip(view.tools, view.tool_keys, strict=False):
        if candidate is tool:
            return key
    return _tool_key(tool)


def _file_kind(need: Need, prop: dict[str, Any], properties: dict[str, Any], key: str) -> str | None:
    """A string parameter nothing names (fetch_text(name)) of a tool used to read a file, or one the system prompt
    ties to a file ("the logs are in app.log; use fetch_text"), takes the file's name, if no other parameter does."""
    if prop.get("type", "string") != "string":
        return None
    about_file = need.intent in ("file", "delete") or bool(lx.extract_paths(need.context))
    others = (kinds.kind_of(p, v if isinstance(v, dict) else {}, key) for p, v in properties.items())
    return "path" if about_file and not {"path", "directory"} & set(others) else None


@lru_cache(maxsize=512)
def describes_schema(tool_json: str) -> bool:
    """The tool's description states a table schema (for SQL written from it)."""
    tool = json.loads(tool_json)
    return bool(sql.schema(tool.get("description") or "")) and "database" in meaning.profile(tool_json).described


__all__ = ["GENERIC", "Fill", "extract", "fill", "describes_schema", "gazetteer"]
