"""An amount over a table of events joined to the things they refer to: 'which product brought in the most revenue?'
over sales(product_id, quantity) and products(id, name, price), grouped by the thing's name."""

from __future__ import annotations

import re

from agent_core.sim.text import language as lx
from agent_core.sim.text import sql

_QUANTITY = ("quantity", "qty", "amount", "units", "count")
_PRICE = ("price", "unit_price", "unitprice", "cost", "fee")
_LABEL = ("name", "title", "label")
_MONEY = ("total", "sum", "value", "price", "cost", "fee")  # an event's own amount of money, with no quantity beside it


_reference = sql.reference_of  # product_id (or ProductId) of events for products(id, ...)


def _column(table: sql.Table, names: tuple[str, ...]) -> str | None:
    return next((c for c in table.columns if lx.fold(c) in names), None)


def amount(question: str, tables: list[sql.Table]) -> str | None:
    """SELECT the thing's name and the summed amount (quantity, or price x quantity for revenue), grouped by the
    name: the one at the top for 'the most', the named ones when the question names them, else every one."""
    tokens = lx.words(question)
    revenue = bool(lx.hits(tokens, lx.lexicon()["sql_revenue"]))
    sold = revenue or bool(lx.hits(tokens, lx.lexicon()["sql_amounts"]))
    if not sold:
        return None
    for events in tables:
        for things in tables:
            key = _reference(events, things) if things is not events else None
            label = _column(things, _LABEL)
            quantity = _column(events, _QUANTITY)
            money = _column(events, _MONEY) if quantity is None else None  # orders(customer_id, total): spent
            if key is None or label is None or (quantity or money) is None:
                continue
            if money is not None:
                body = f"FROM {events.name} e JOIN {things.name} t ON e.{key} = t.id"
                return f"SELECT t.{label}, SUM(e.{money}) AS total {body}{_tail(question, tokens, 't', label)}"
            price = _column(things, _PRICE) or _column(events, _PRICE)
            e, t = "e", "t"
            measure = f"SUM({e}.{quantity})"
            if revenue and price is not None:
                owner = t if price in things.columns else e
                measure = f"SUM({owner}.{price} * {e}.{quantity})"
            body = f"FROM {events.name} {e} JOIN {things.name} {t} ON {e}.{key} = {t}.id"
            return f"SELECT {t}.{label}, {measure} AS total {body}{_tail(question, tokens, t, label)}"
    return None


def _tail(question: str, tokens: list[str], t: str, label: str) -> str:
    """WHERE for the things the question names, then GROUP BY and the order: the top one, or all of them."""
    named = _names(question)
    listed = ", ".join("'" + n.replace("'", "''") + "'" for n in named)
    where = f" WHERE {t}.{label} IN ({listed})" if named else ""
    least = bool(lx.hits(tokens, sql._AGGREGATES["MIN"]))
    order = " ORDER BY total ASC" if least else " ORDER BY total DESC"
    top = (least or bool(lx.hits(tokens, sql._AGGREGATES["MAX"]))) and not named
    return f"{where} GROUP BY {t}.{label}{order}{' LIMIT 1' if top else ''}"


def _names(question: str) -> list[str]:
    """Names the question gives with capitals ('the Espresso Machine than the Coffee Grinder'), whole."""
    out: list[str] = []
    current: list[str] = []
    start = True
    for word in question.replace("?", " ? ").replace(".", " . ").replace(",", " , ").split():
        if word[:1].isupper() and not start and word.isalpha():
            current.append(word)
        else:
            if current:
                out.append(" ".join(current))
            current = []
        start = word in ("?", ".", "!")
    if current:
        out.append(" ".join(current))
    return out


_ROW = re.compile(r"\{[^{}]*\}")
_FIELD = r"['\"]{}['\"]\s*:\s*['\"]([^'\"]+)['\"]"


def described(table: str, output: str) -> str | None:
    """A table's columns as a describing tool returns them (rows with a name and a type: SQLite's table_info,
    information_schema), written as the CREATE TABLE statement a query is composed from."""
    columns = []
    for row in _ROW.findall(output):
        name, kind = re.search(_FIELD.format("name"), row), re.search(_FIELD.format("type"), row)
        if name and kind:
            columns.append(f"{name.group(1)} {kind.group(1)}")
    if len(columns) < 2 or not re.fullmatch(r"\w+", table):
        return None
    return f"CREATE TABLE {table} ({', '.join(columns)})"
