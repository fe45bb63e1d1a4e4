"""Values a query filters by that the question says in lower case or in its own language: a column's values the
schema's text lists ('status is paid, pending or cancelled': "paid orders" -> status = 'paid'), a country named in
Russian or Polish stored by its English name ('z Polski' -> 'Poland': sql.stored), and 'in each country' -> GROUP BY country."""

from __future__ import annotations

import re

from agent_core.sim.text import language as lx
from agent_core.sim.text import sql

# '<column> is a, b or c', '<column>: a, b, c', '<column> — a, b или c', '<column> to a, b lub c'
_LISTED = re.compile(
    r"\b(\w+)\s*(?:\bis\b|\bare\b|\bcan be\b|\bone of\b|:|—|-|\bto\b|\bэто\b)\s*"
    r"((?:'?[\w-]+'?\s*,\s*)*'?[\w-]+'?\s*,?\s*(?:\bor\b|\band\b|\bили\b|\bи\b|\blub\b|\balbo\b|\bi\b)\s*'?[\w-]+'?)",
    re.I,
)
_SPLIT = re.compile(r"\s*(?:,|\bor\b|\band\b|\bили\b|\bи\b|\blub\b|\balbo\b|\bi\b)\s*", re.I)


def listed(text: str, tables: list[sql.Table]) -> dict[str, tuple[str, ...]]:
    """Column -> the values the text lists for it, for columns of the schema only."""
    columns = {lx.fold(c): c for t in tables for c in t.columns}
    out: dict[str, tuple[str, ...]] = {}
    for match in _LISTED.finditer(text):
        column = columns.get(lx.fold(match.group(1)))
        if column is None:
            continue
        found = [v.strip("'") for v in _SPLIT.split(match.group(2)) if v.strip("'")]
        if len(found) >= 2:
            out[column] = tuple(found)
    return out


def conditions(question: str, text: str, tables: list[sql.Table]) -> list[tuple[str, str, str]]:
    """(table, column, value) for each listed value the question says ('paid orders', 'still pending')."""
    tokens = lx.words(question)
    out = []
    for column, values in listed(text, tables).items():
        said = [v for v in values if lx.fold(v) in tokens]
        owner = next((t.name for t in tables if column in t.columns), None)
        if len(said) == 1 and owner:
            out.append((owner, column, said[0]))
    return out


def with_conditions(query: str, found: list[tuple[str, str, str]], tables: list[sql.Table]) -> str:
    """The query with each condition added to its WHERE (the column qualified by the table's alias in a JOIN)."""
    for table, column, value in found:
        if re.search(rf"\b{re.escape(column)}\s*=\s*'{re.escape(value)}'", query, re.I):
            continue
        alias = re.search(rf"\b(?:FROM|JOIN)\s+{re.escape(table)}(?:\s+(?!ON\b|JOIN\b|WHERE\b|GROUP\b)(\w+))?", query)
        if alias is None:
            continue
        name = f"{alias.group(1)}.{column}" if alias.group(1) else column
        if alias.group(1) is None and " JOIN " in query:
            name = f"{table}.{column}"
        cond = f"{name} = '{value}'"
        tail = re.search(r"\s+(GROUP BY|ORDER BY|LIMIT)\b", query)
        head, rest = (query[: tail.start()], query[tail.start() :]) if tail else (query, "")
        joiner = " AND " if re.search(r"\bWHERE\b", head) else " WHERE "
        query = f"{head}{joiner}{cond}{rest}"
    return query


def per_group(question: str, tables: list[sql.Table]) -> str | None:
    """'policz klientów w każdym kraju', 'customers per country': the rows counted for each value of the column."""
    tokens = lx.words(question)
    each = lx.lexicon()["sql_each"]
    # the table the question names first, else the first that holds the column
    after = [" ".join(tokens[i + 1 : i + 3]) for i, t in enumerate(tokens) if lx.hits([t], each)]
    for table in sorted(tables, key=lambda t: sql._mentions(question, t.name) is None):
        for column in table.columns:
            if sql._numeric(column) or column.lower() in ("id", "name"):
                continue
            if any(sql._mentions(words, column) is not None for words in after):  # 'each' right before it
                return (
                    f"SELECT {column}, COUNT(*) AS {table.name} FROM {table.name} GROUP BY {column} "
                    f"ORDER BY {table.name} DESC"
                )
    return None
