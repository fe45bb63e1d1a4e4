"""Typed values the text holds (a commit hash, an issue number, a path, an email) credit the tools whose required
parameters they fill: a value that only some of the tools take tells those apart (BEHAVIOUR.md, "Choosing a tool")."""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from agent_core.sim import kinds, slots
from agent_core.sim.args import fill
from agent_core.sim.mood import tool_action
from agent_core.sim.text import clauses, entities, sql
from agent_core.sim.text import language as lx
from agent_core.sim.text.reader import Need, View

# Kinds whose values are recognised by their form, not by what the words mean: such a value fits a parameter
# without any word of the clause naming the tool ('Show commit b2c3d4e5f6' and git_show(revision)).
FORMAT_KINDS = frozenset(
    {"email", "phone", "url", "date", "datetime", "time", "revision", "directory", "file", "path", "repo", "owner"}
    | {"id", "id_number", "number"}
)
ENTITY_KINDS = frozenset({"email", "phone", "url", "file", "directory", "id", "date", "time", "repo"})
TYPED_POINTS, FILLED_POINTS = 3, 1  # a typed value fit alone reaches the bar (choice.THRESHOLD)
LOOSE_POINTS = 2  # the value only landed in a parameter that says no kind (move_file's source)


def taken(view: View, need: Need, tool: dict[str, Any], key: str) -> tuple[frozenset[str], bool, bool]:
    """The clause's typed values that fill the tool's required parameters, whether a parameter whose own name or
    format says the kind takes one (git_show's revision; not git_diff's free 'target'), and whether all are filled."""
    schema = tool.get("input_schema") or {}
    required = [p for p in schema.get("required") or [] if isinstance(p, str)]
    if not required:
        return frozenset(), False, False
    trial = Need(need.intent, need.clause, need.value, tool=tool)
    fill(view, trial, only_clause=True, results=False)
    props = schema.get("properties") or {}
    written = _typed_in(need.clause)
    values, by_format = set(), False
    for pname in required:
        value = trial.args.get(pname)
        if (
            value is None
            or isinstance(value, (bool, dict, list))
            or str(value) not in need.clause
            and str(value) not in written
        ):
            continue  # a value from the clause as written ('18.45' read as 18:45), not a default or a guess
        formatted = kinds.kind_of(pname, props.get(pname) or {}, key) in FORMAT_KINDS
        if formatted or str(value) in written:
            values.add(str(value))
            by_format = by_format or formatted
    return frozenset(values), by_format, all(p in trial.args for p in required)


_NOTHING: tuple[frozenset[str], bool, bool] = (frozenset(), False, False)


@lru_cache(maxsize=1024)
def _may_take(key: str) -> bool:
    """A tool with a required parameter a typed value can fill: of a typed kind, or of no kind at all."""
    schema = json.loads(key).get("input_schema") or {}
    props = schema.get("properties") or {}
    return any(
        kinds.kind_of(p, props.get(p) or {}, key) in FORMAT_KINDS | {None}
        for p in schema.get("required") or []
        if isinstance(p, str)
    )


@lx.text_cache
def _typed_in(clause: str) -> frozenset[str]:
    """The values the clause writes in a form of their own: whatever parameter takes them (move_file's source)."""
    found = {str(e.value) for e in entities.find(clause) if e.kind in ENTITY_KINDS}
    sha = slots.revision(clause)
    return frozenset(found | ({sha} if sha else set()))


def credits(view: View, need: Need, tools: list[dict[str, Any]], keys: list[str]) -> list[int]:
    """Each tool's credit: TYPED_POINTS when a required parameter takes a typed value of the clause that at most
    half of the tools take (the path every git tool takes, the owner/repo of every GitHub tool tell none apart) or
    that the only tool takes by its format, FILLED_POINTS more when all its required parameters are filled."""
    if need.intent == "arithmetic" or not tools or not _typed_in(need.clause):
        return [0] * len(tools)  # no value written in a form of its own: nothing to tell tools apart by (and fast)
    rows = [
        taken(view, need, tool, key) if _may_take(key) else _NOTHING for tool, key in zip(tools, keys, strict=False)
    ]
    counts: dict[str, int] = {}
    for values, _, _ in rows:
        for value in values:
            counts[value] = counts.get(value, 0) + 1
    out = []
    for values, by_format, complete in rows:
        # the only tool: a value of the very kind its parameter names ('check what https://... says' and fetch(url))
        rare = any(2 * counts[v] <= len(tools) for v in values) or len(tools) == 1 and by_format and bool(values)
        out.append(((TYPED_POINTS if by_format else LOOSE_POINTS) + FILLED_POINTS * complete) if rare else 0)
    return out


def stated_schema(view: View, keys: list[str]) -> list[int]:
    """'Which product sold most? Tables: products(id, name), sales(...)': a question over the tables the user
    states is one for the tool that runs a SELECT on them (TYPED_POINTS), whatever words it shares with others. A
    schema the system prompt states ('You help with the shop database. Tables: customers(...)') counts for a
    question that names one of its tables or columns ('how many customers are from Poland?')."""
    if not clauses.stated_schema(view.question) and not _names_stated(view.question, view.system):
        return [0] * len(keys)
    return [TYPED_POINTS * _selects(key) for key in keys]


def _names_stated(question: str, system: str) -> bool:
    """The question names a table or column of the schema the system prompt states."""
    stated = clauses.stated_schema(system) if system else ""
    tables = sql.schema(stated) if stated else []
    names = {n for t in tables for n in (t.name, *t.columns) if n.lower() not in ("id", "name")}
    return any(sql._mentions(question, n) is not None for n in names)


@lru_cache(maxsize=512)
def _selects(key: str) -> bool:
    """A reading tool with a required parameter that holds SQL (read_query(query), sql_db_query(query)), or whose
    only parameter does (the MCP Postgres server's query(sql), which requires nothing)."""
    schema = json.loads(key).get("input_schema") or {}
    props = schema.get("properties") or {}
    held = schema.get("required") or (list(props) if len(props) == 1 else [])
    holds_sql = any(kinds.kind_of(p, props.get(p) or {}, key) == "sql" for p in held)
    return holds_sql and tool_action(key) in ("read", "")
