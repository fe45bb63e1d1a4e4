"""An aggregate over one table filtered by a value of a table it joins to: 'how many jazz tracks do we have?'."""

from __future__ import annotations

import re
from functools import cache

from agent_core.sim.text import language as lx
from agent_core.sim.text import sql, sql_join, sql_values


@cache
def _known() -> tuple[tuple[str, str, tuple[str, ...]], ...]:
    """(kind of table, value as stored, its forms) of knowledge.json 'table_values'."""
    table = lx.load("knowledge")["table_values"]
    return tuple(
        (kind, value, tuple(lx.fold(f) for f in forms))
        for kind, values in table.items()
        if not kind.startswith("_")
        for value, forms in values.items()
    )


def known_value(question: str, names: list[str]) -> tuple[str, str] | None:
    """(table, value) of a value the question names that the model knows belongs to one of these tables."""
    tokens, folded = lx.words(question), lx.fold(question)
    for kind, value, forms in _known():
        owner = _table_of(kind, names)
        if owner and any(_said(f, tokens, folded) for f in forms):
            return owner, value
    return None


def _table_of(kind: str, names: list[str]) -> str | None:
    return next((n for n in names if lx.stems_match(lx.stem(lx.fold(n)), kind)), None)


def _said(form: str, tokens: list[str], folded: str) -> bool:
    if " " in form or "/" in form:
        return re.search(rf"(?<!\w){re.escape(form)}(?!\w)", folded) is not None
    return any(t == form or (len(form) > 4 and t.startswith(form)) for t in tokens)


def through(question: str, names: list[str], known: str) -> list[str]:
    """The tables a named table reaches the known value's table by ('_through': a track's artist is its album's)."""
    links = lx.load("knowledge")["table_values"].get("_through", {})
    kind = next((k for k in links if _table_of(k, [known])), None)
    if kind is None:
        return []
    named = [n for n in names if sql._mentions(question, n) is not None]
    via = [links[kind][k] for k in links[kind] if _table_of(k, named)]
    return [n for n in names if any(_table_of(v, [n]) for v in via)]


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
        joins, column = _path(measured, other, tables), _category(other)
        if joins is None or column is None:
            continue
        return _select(kind, measured, joins, f"{other.name}.{column} = '{found[1]}'")
    return None


def _path(measured: sql.Table, other: sql.Table, tables: list[sql.Table]) -> str | None:
    """The JOINs from the measured table to the value's: on their shared key, or through one table between."""
    key = _key(measured, other)
    if key:
        return f"JOIN {other.name} ON {measured.name}.{key} = {other.name}.{key}"
    for mid in tables:
        first, second = _key(measured, mid), _key(mid, other)
        if mid not in (measured, other) and first and second:
            return (
                f"JOIN {mid.name} ON {measured.name}.{first} = {mid.name}.{first} "
                f"JOIN {other.name} ON {mid.name}.{second} = {other.name}.{second}"
            )
    return None


def _select(kind: str, measured: sql.Table, joins: str, where: str) -> str | None:
    if kind == "COUNT":
        what = "COUNT(*)"
    else:
        measure = next((c for c in measured.columns if sql._numeric(c) and not re.search(r"id$", c, re.I)), None)
        if measure is None:
            return None
        what = f"{kind}({measured.name}.{measure})"
    return f"SELECT {what} FROM {measured.name} {joins} WHERE {where}"


_RECORD_NAME = re.compile(r"['\"](?:name|table_name|tbl_name)['\"]\s*:\s*['\"](\w+)['\"]")
_IDENT = r"[A-Za-z_][A-Za-z0-9_]*(?![^\W_])"


def tables_named(question: str, lang: str) -> list[str]:
    """Tables the question names by a table word, before any listing: in English the name before it ('the sales
    table'), in Russian and Polish after it ('таблица orders', 'tabel products i sales'); 'the table' names none."""
    labels = "|".join(re.escape(w) for w in lx.lexicon()["table_labels"])
    joins = r"\s*(?:,|\band\b|\bi\b|\bи\b|\boraz\b)\s*"
    if lang == "en":
        found = [m.group(1) for m in re.finditer(rf"(?i)\b({_IDENT})\s+(?:{labels})\w*\b", question)]
    else:
        found = [
            name
            for m in re.finditer(rf"(?i)\b(?:{labels})\w*\s+({_IDENT}(?:{joins}{_IDENT})*)", question)
            for name in re.split(joins, m.group(1))
        ]
    stop = lx.word_set("stopwords")
    return list(dict.fromkeys(n for n in found if lx.fold(n) not in stop and len(n) > 2))


def tables_for(question: str, listed: str) -> list[str]:
    """The tables of a listing ('Album, Artist, Genre, ...', or rows "[{'name': 'products'}, ...]") a question is
    about: those its words name."""
    records = _RECORD_NAME.findall(listed)
    names = records or [n.strip(" '\"`[]()") for n in re.split(r"[,\n]", listed) if n.strip(" '\"`[]()")]
    names = [n for n in names if re.fullmatch(r"\w+", n)]
    known = known_value(question, names)  # 'jazz tracks': the Genre table holds jazz
    extra = [known[0], *through(question, names, known[0])] if known else []
    return [n for n in names if sql._mentions(question, n) is not None or n in extra]


def query(question: str, description: str, stated: str = "", context: str = "") -> str | None:
    """The SQL for a question: a count for each value of a column ('in each country'), a filter through a joined
    table ('how many jazz tracks'), else sql.build's; then the WHERE of the column values the question says that
    the schema or the stated text lists ('paid orders'). context: the user's question before, read for a follow-up
    that names no table of its own ('and what's their combined total?')."""
    tables = sql.schema(description)
    if not tables:
        return sql.build(question, description)
    named = any(sql._mentions(question, t.name) is not None for t in tables)
    context = context if not named and any(sql._mentions(context, t.name) is not None for t in tables) else ""
    joined = sql_join.amount(question, tables) if len(tables) > 1 else None
    found = (
        sql_values.per_group(question, tables)
        or joined
        or filtered(question, tables)
        or sql.build(question, description, context)
    )
    said = sql_values.conditions(f"{question} {context}", f"{description} {stated}", tables)
    return sql_values.with_conditions(found, said, tables) if found else found
