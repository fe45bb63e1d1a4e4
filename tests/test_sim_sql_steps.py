"""SQL written from what the loop has learnt: the schema the user states, the columns a describing tool returned,
an amount summed over a table of events joined to the things they name (helper h2, issue 23)."""

from __future__ import annotations

import sqlite3

from test_sim_planner import loop, string, tool

from agent_core.sim import kinds
from agent_core.sim.text import clauses, sql, sql_join
from agent_core.sim.text.reader import _tool_key

LIBRARY = [
    "CREATE TABLE books (id INTEGER PRIMARY KEY, title TEXT, genre TEXT, fee REAL)",
    "CREATE TABLE loans (id INTEGER PRIMARY KEY, book_id INTEGER, quantity INTEGER, day TEXT)",
    "INSERT INTO books VALUES (1, 'Dune', 'SF', 2.0), (2, 'Emma', 'Classic', 1.5), (3, 'Solaris', 'SF', 3.0)",
    "INSERT INTO loans VALUES (1, 1, 4, 'mon'), (2, 2, 10, 'tue'), (3, 3, 1, 'wed'), (4, 1, 3, 'thu')",
]
RUN_SELECT = tool(
    "run_select",
    "Runs one read-only statement on the library's database",
    {"statement": string("The SELECT statement to execute")},
)
ADD_ROW = tool("add_row", "Adds a row to the library database", {"statement": string("An INSERT statement")})


def _rows(query: str) -> str:
    db = sqlite3.connect(":memory:")
    db.row_factory = sqlite3.Row
    db.executescript(";".join(LIBRARY))
    return str([dict(r) for r in db.execute(query).fetchall()])


def test_a_parameter_described_as_a_select_statement_holds_sql():
    key = _tool_key(RUN_SELECT)
    assert kinds.kind_of("statement", RUN_SELECT["input_schema"]["properties"]["statement"], key) == "sql"


def test_an_amount_is_summed_over_the_events_joined_to_the_things_they_name():
    tables = sql.schema("books(id, title, genre, fee) and loans(id, book_id, quantity, day)")
    top = sql_join.amount("Which book sold the most copies?", tables)
    assert top is not None and "JOIN books" in top and "LIMIT 1" in top
    assert _rows(top).startswith("[{'title': 'Emma', 'total': 10}")
    earned = sql_join.amount("Which book earned the most revenue in fees?", tables)
    assert earned is not None and "fee * e.quantity" in earned
    assert _rows(earned) == "[{'title': 'Emma', 'total': 15.0}]"  # 1.5 x 10 beats Dune's 2.0 x (4 + 3)
    named = sql_join.amount("How much revenue did Dune bring in compared with Solaris?", tables)
    assert named is not None and "IN ('Dune', 'Solaris')" in named and "LIMIT" not in named


def test_the_columns_a_describing_tool_returned_become_a_schema():
    rows = "[{'cid': 0, 'name': 'id', 'type': 'INTEGER'}, {'cid': 1, 'name': 'title', 'type': 'TEXT'}]"
    assert sql_join.described("books", rows) == "CREATE TABLE books (id INTEGER, title TEXT)"
    assert sql_join.described("books", "[{'name': 'books'}]") is None  # a listing of tables states no columns


def test_a_schema_the_user_states_is_no_clause_and_a_prompt_without_one_states_none():
    question = "Który gatunek ma najwięcej wypożyczeń? Tabele: books(id, title, genre), loans(id, book_id, quantity)"
    assert clauses._clauses(question) == ("Który gatunek ma najwięcej wypożyczeń",)
    assert clauses.stated_schema(question).startswith("Tabele: books(")
    assert clauses.stated_schema("Never run DML statements (INSERT, UPDATE, DELETE) on the database.") == ""


def test_a_question_over_stated_tables_runs_one_select_written_from_them():
    def run(name: str, args: dict) -> tuple[str, bool]:
        return _rows(args["statement"]), False

    question = (
        "какую книгу продали больше всего? таблицы: books(id, title, genre, fee), loans(id, book_id, quantity, day)"
    )
    calls, answer, _ = loop(question, [ADD_ROW, RUN_SELECT], run)
    assert [n for n, _ in calls] == ["run_select"]
    assert "JOIN books" in calls[0][1]["statement"] and "SUM(e.quantity)" in calls[0][1]["statement"]
    assert "Emma" in answer


LIST_TABLES = tool("list_tables", "Lists the tables of the warehouse database", {}, [])
GET_COLUMNS = tool(
    "get_columns", "Shows the columns of one table of the warehouse database", {"table_name": string("Which table")}
)


def test_a_table_the_question_names_is_described_without_listing_the_tables_first():
    def run(name: str, args: dict) -> tuple[str, bool]:
        if name == "get_columns" and args == {"table_name": "suppliers"}:
            return "[{'name': 'id', 'type': 'INTEGER'}, {'name': 'country', 'type': 'TEXT'}]", False
        return "[{'name': 'suppliers'}, {'name': 'stock'}]", False

    calls, answer, _ = loop("which columns are in the suppliers table?", [LIST_TABLES, GET_COLUMNS], run)
    assert calls == [("get_columns", {"table_name": "suppliers"})]
    assert "country" in answer


def test_table_names_are_read_where_each_language_puts_them():
    from agent_core.sim.text import sql_filter

    assert sql_filter.tables_named("what does the stock table hold?", "en") == ["stock"]
    assert sql_filter.tables_named("what does the table hold?", "en") == []  # 'the table' names none
    assert sql_filter.tables_named("покажи колонки таблицы stock", "ru") == ["stock"]
    assert sql_filter.tables_named("opisz tabele stock i suppliers", "pl") == ["stock", "suppliers"]
    listed = "[{'name': 'suppliers'}, {'name': 'stock'}]"  # a listing returned as rows
    assert sql_filter.tables_for("how many suppliers are there?", listed) == ["suppliers"]
