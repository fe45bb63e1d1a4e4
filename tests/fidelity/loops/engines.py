"""The fakes' engines: tools whose answer is computed (a calculator, the MCP time server, a SQL database) rather
than looked up in rules. Each takes the fake's settings, the call's input and the file's shared data."""

from __future__ import annotations

import ast
import json
import operator
import re
import sqlite3
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

# The fakes' "now": every clock in the corpus reads this instant, so results never depend on the day it runs.
NOW = datetime(2026, 12, 1, 10, 0, tzinfo=ZoneInfo("UTC"))

_OPS: dict[type, Any] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.Pow: operator.pow,
    ast.Mod: operator.mod,
    ast.FloorDiv: operator.floordiv,
    ast.USub: operator.neg,
    ast.UAdd: operator.pos,
}


@dataclass
class Answer:
    """What the program sends back for one call."""

    text: str
    is_error: bool = False
    invalid: str = ""  # the schema violation, when the input did not validate


def as_text(result: Any) -> str:
    """A result as the tool returns it: text unchanged, anything else as JSON."""
    return result if isinstance(result, str) else json.dumps(result, ensure_ascii=False, indent=2)


def evaluate(expression: str) -> float:
    def value(node: ast.AST) -> Any:
        if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
            return node.value
        if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
            return _OPS[type(node.op)](value(node.left), value(node.right))
        if isinstance(node, ast.UnaryOp) and type(node.op) in _OPS:
            return _OPS[type(node.op)](value(node.operand))
        raise ValueError("unsupported expression")

    return value(ast.parse(expression, mode="eval").body)


def _number_text(value: float) -> str:
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return str(round(value, 10) if isinstance(value, float) else value)


def arithmetic(expression: str) -> str:
    """An expression as Python reads it, keeping only digits and operators (as the cookbook's calculator does)."""
    expression = expression.replace("×", "*").replace("÷", "/").replace("^", "**").replace(",", "")
    return re.sub(r"[^0-9+\-*/().% ]", "", expression)


def _calculator(fake: dict[str, Any], args: dict[str, Any], data: dict[str, Any]) -> Answer:
    """The cookbook's calculator: eval() of the expression after stripping what is not a digit or an operator."""
    expression = str(args[fake.get("param", "expression")])
    if fake.get("strip", True):
        expression = arithmetic(expression)
    try:
        return Answer(_number_text(evaluate(expression)))
    except (SyntaxError, ValueError, ZeroDivisionError, TypeError, OverflowError):
        return Answer(fake.get("invalid", "Error: Invalid expression"), bool(fake.get("invalid_is_error")))


def _arith(fake: dict[str, Any], args: dict[str, Any], data: dict[str, Any]) -> Answer:
    """add / multiply / ... over the named parameters, returning the number as the function would."""
    values = [float(args[name]) for name in fake["args"]]
    ops = {"add": operator.add, "subtract": operator.sub, "multiply": operator.mul, "divide": operator.truediv}
    ops |= {"power": operator.pow, "modulus": operator.mod}
    result = values[0]
    for other in values[1:]:
        result = ops[fake["op"]](result, other)
    if fake.get("float"):
        return Answer(str(float(result)))
    return Answer(_number_text(result))


def _zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as error:
        raise ValueError(f"Invalid timezone: {error}") from None


def _time_result(name: str, moment: datetime) -> dict[str, Any]:
    stamp = moment.isoformat(timespec="seconds")
    return {"timezone": name, "datetime": stamp, "day_of_week": moment.strftime("%A"), "is_dst": bool(moment.dst())}


def _time_now(fake: dict[str, Any], args: dict[str, Any], data: dict[str, Any]) -> Answer:
    """The MCP time server's get_current_time, at the corpus's fixed now."""
    name = str(args["timezone"])
    try:
        return Answer(as_text(_time_result(name, NOW.astimezone(_zone(name)))))
    except ValueError as error:
        return Answer(str(error), True)


def _time_convert(fake: dict[str, Any], args: dict[str, Any], data: dict[str, Any]) -> Answer:
    """The MCP time server's convert_time: HH:MM today in the source zone, shown in the target zone."""
    try:
        source, target = _zone(str(args["source_timezone"])), _zone(str(args["target_timezone"]))
        parsed = datetime.strptime(str(args["time"]), "%H:%M")
    except ValueError as error:
        text = str(error) if "timezone" in str(error) else "Invalid time format. Expected HH:MM [24-hour format]"
        return Answer(text, True)
    today = NOW.astimezone(source)
    start = datetime(today.year, today.month, today.day, parsed.hour, parsed.minute, tzinfo=source)
    end = start.astimezone(target)
    hours = ((end.utcoffset() or timedelta()) - (start.utcoffset() or timedelta())).total_seconds() / 3600
    difference = f"{hours:+.1f}h" if hours.is_integer() else f"{hours:+.2f}".rstrip("0").rstrip(".") + "h"
    result = {
        "source": _time_result(str(args["source_timezone"]), start),
        "target": _time_result(str(args["target_timezone"]), end),
        "time_difference": difference,
    }
    return Answer(as_text(result))


def _database(data: dict[str, Any], name: str) -> sqlite3.Connection:
    """A fresh in-memory database from the file's statements, read-only once built."""
    connection = sqlite3.connect(":memory:")
    connection.executescript(";\n".join(data[name]))
    connection.execute("PRAGMA query_only = ON")
    return connection


def _sql_tables(fake: dict[str, Any], args: dict[str, Any], data: dict[str, Any]) -> Answer:
    """LangChain's sql_db_list_tables: the table names, comma-separated."""
    with _database(data, fake["db"]) as db:
        names = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name")]
    return Answer(", ".join(names))


def _sql_schema(fake: dict[str, Any], args: dict[str, Any], data: dict[str, Any]) -> Answer:
    """LangChain's sql_db_schema: each table's CREATE statement and three sample rows."""
    wanted = [
        name.strip().strip('"') for name in str(args[fake.get("param", "table_names")]).split(",") if name.strip()
    ]
    with _database(data, fake["db"]) as db:
        known = {row[0]: row[1] for row in db.execute("SELECT name, sql FROM sqlite_master WHERE type='table'")}
        missing = {name for name in wanted if name not in known}
        if missing:
            return Answer(f"Error: table_names {missing} not found in database")
        parts = []
        for name in wanted:
            cursor = db.execute(f'SELECT * FROM "{name}" LIMIT 3')
            header = "\t".join(d[0] for d in cursor.description)
            rows = "\n".join("\t".join(str(v) for v in row) for row in cursor.fetchall())
            parts.append(f"{known[name]}\n\n/*\n3 rows from {name} table:\n{header}\n{rows}\n*/")
    return Answer("\n\n".join(parts))


def _sql_query(fake: dict[str, Any], args: dict[str, Any], data: dict[str, Any]) -> Answer:
    """LangChain's sql_db_query: the rows as a Python list of tuples; a database error comes back as text."""
    query = str(args[fake.get("param", "query")])
    with _database(data, fake["db"]) as db:
        try:
            rows = db.execute(query).fetchall()
        except sqlite3.Error as error:
            return Answer(
                f"Error: (sqlite3.{type(error).__name__}) {error}\n[SQL: {query}]", fake.get("errors_flagged", False)
            )
    return Answer(str([tuple(round(v, 2) if isinstance(v, float) else v for v in row) for row in rows]) if rows else "")


def _echo(fake: dict[str, Any], args: dict[str, Any], data: dict[str, Any]) -> Answer:
    """A checker that finds nothing wrong: it gives the input back (LangChain's query checker on a good query)."""
    return Answer(str(args[fake["param"]]))


def _calc_op(fake: dict[str, Any], args: dict[str, Any], data: dict[str, Any]) -> Answer:
    """The courses' calculator: an operation enum over two operands; dividing by zero is its error."""
    a, b = float(args["operand1"]), float(args["operand2"])
    if args["operation"] == "divide" and b == 0:
        return Answer("Error: Division by zero is not allowed.", True)
    ops = {"add": operator.add, "subtract": operator.sub, "multiply": operator.mul, "divide": operator.truediv}
    return Answer(_number_text(ops[str(args["operation"])](a, b)))


def _mcp_sqlite(fake: dict[str, Any], args: dict[str, Any], data: dict[str, Any]) -> Answer:
    """The MCP SQLite server: str() of the rows as dictionaries; its errors come back as text, not flagged."""
    op, query = fake["op"], str(args.get("query", ""))
    if op == "list_tables":
        query = "SELECT name FROM sqlite_master WHERE type='table'"
    elif op == "describe_table":
        query = "SELECT * FROM pragma_table_info('" + str(args["table_name"]).replace("'", "''") + "')"
    elif op == "read_query" and not query.strip().upper().startswith("SELECT"):
        return Answer("Error: Only SELECT queries are allowed for read_query")
    elif op == "write_query" and query.strip().upper().startswith("SELECT"):
        return Answer("Error: SELECT queries are not allowed for write_query")
    connection = sqlite3.connect(":memory:")
    connection.row_factory = sqlite3.Row
    try:
        connection.executescript(";\n".join(data[fake["db"]]))
        cursor = connection.execute(query)
        if op == "write_query":
            return Answer(str([{"affected_rows": cursor.rowcount}]))
        return Answer(str([dict(row) for row in cursor.fetchall()]))
    except sqlite3.Error as error:
        return Answer(f"Database error: {error}")
    finally:
        connection.close()


def _mcp_postgres(fake: dict[str, Any], args: dict[str, Any], data: dict[str, Any]) -> Answer:
    """The MCP Postgres server's query tool: JSON.stringify(rows, null, 2) inside a READ ONLY transaction, so a
    write is refused with Postgres's own words; other errors are thrown, which the client shows as an error."""
    query = str(args.get(fake.get("param", "sql"), ""))
    verb = (query.strip().split() or [""])[0].upper()
    if verb in {"INSERT", "UPDATE", "DELETE", "CREATE", "DROP", "ALTER", "TRUNCATE"}:
        return Answer(f"cannot execute {verb} in a read-only transaction", True)
    connection = sqlite3.connect(":memory:")
    connection.row_factory = sqlite3.Row
    try:
        connection.executescript(";\n".join(data[fake["db"]]))
        rows = [dict(row) for row in connection.execute(query).fetchall()]
        return Answer(json.dumps(rows, indent=2, ensure_ascii=False))
    except sqlite3.Error as error:
        return Answer(str(error), True)
    finally:
        connection.close()


ENGINES = {
    "mcp_postgres": _mcp_postgres,
    "calc_op": _calc_op,
    "sql_tables": _sql_tables,
    "sql_schema": _sql_schema,
    "sql_query": _sql_query,
    "echo": _echo,
    "mcp_sqlite": _mcp_sqlite,
    "calculator": _calculator,
    "arith": _arith,
    "time_now": _time_now,
    "time_convert": _time_convert,
}
