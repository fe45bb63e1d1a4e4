"""An aggregate over one table filtered by a value of a table it joins to: 'how many jazz tracks do we have?'."""

from __future__ import annotations

import re
from functools import cache

from agent_core.sim.text import language as lx
from agent_core.sim.text import sql


@cache
def _known() -> tuple[tuple[str, str, tuple[str, ...]], ...]:
    """(kind of table, value as stored, its forms) of knowledge.json 'table_values'."""
    table = lx.load("knowledge")["table_values"]
    return tuple(
        (kind, value, tuple(lx.fold(f) for f in forms))
        for kind, values in table.items()
        if kind != "_about"
        for value, forms in values.items()
    )


def known_value(question: str, names: list[str]) -> tuple[str, str] | None:
    """(table, value) of a value the question names that the model knows belongs to one of these tables."""
    tokens = lx.words(question)
    for kind, value, forms in _known():
        owner = next((n for n in names if lx.stems_match(lx.stem(lx.fold(n)), kind)), None)
        if owner and any(t == f or (len(f) > 4 and t.startswith(f)) for t in tokens for f in forms):
            return owner, value
    return None


def _said_value(question: str, tables: list[sql.Table], measured: sql.Table) -> tuple[str, str] | None:
    """(table, value) of a capitalised value said of another named table with a category column ('z USA')."""
    names = {lx.fold(t.name) for t in tables} | {lx.fold(c) for t in tables for c in t.columns}
    for value in sql._values(question, names)[:1]:
        for table in tables:
            if table is measured or sql._mentions(question, table.name) is None:
                continue
            if _category(table):
                return table.name, value
    return None


def _category(table: sql.Table) -> str | None:
    return next((c for cat in sql._CATEGORY for c in table.columns if c.lower() == cat), None)


def _key(a: sql.Table, b: sql.Table) -> str | None:
    return next((c for c in a.columns if c in b.columns and c.lower().endswith("id")), None)


def filtered(question: str, tables: list[sql.Table]) -> str | None:
    """SELECT COUNT(*) / AVG(m.x) FROM the measured table JOIN the value's table WHERE its category = the value."""
    tokens = lx.words(question)
    kind = sql._kind(tokens)
    if kind not in ("COUNT", "AVG", "SUM"):
        return None
    by_name = {t.name: t for t in tables}
    named = sorted((p, t.name) for t in tables if (p := sql._mentions(question, t.name)) is not None)
    known = known_value(question, list(by_name))
    for _, name in named:
        measured = by_name[name]
        found = known if known and known[0] != name else _said_value(question, tables, measured)
        if not found:
            continue
        other = by_name[found[0]]
        key, column = _key(measured, other), _category(other)
        if key is None or column is None:
            continue
        return _select(kind, measured, other, key, f"{other.name}.{column} = '{found[1]}'")
    return None


def _select(kind: str, measured: sql.Table, other: sql.Table, key: str, where: str) -> str | None:
    if kind == "COUNT":
        what = "COUNT(*)"
    else:
        measure = next((c for c in measured.columns if sql._numeric(c) and not re.search(r"id$", c, re.I)), None)
        if measure is None:
            return None
        what = f"{kind}({measured.name}.{measure})"
    return (
        f"SELECT {what} FROM {measured.name} JOIN {other.name} ON {measured.name}.{key} = {other.name}.{key} "
        f"WHERE {where}"
    )
