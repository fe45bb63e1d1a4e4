"""SQL over a schema the system prompt states: the SQL tool is chosen for a question naming its tables, values the
prompt lists for a column filter ('state is open, overdue or returned'), a country said in Polish is stored in
English, 'in each genre' groups, a follow-up keeps the filter, a read-only tool declines a change, and JSON rows
fill a structured array (helper h6, issue 23)."""

from __future__ import annotations

import json
import sqlite3

from test_sim_planner import loop, string, tool

from agent_core.sim.text import sql, sql_filter, sql_join, sql_values

LIBRARY = [
    "CREATE TABLE members (id INTEGER PRIMARY KEY, name TEXT, country TEXT)",
    "CREATE TABLE loans (id INTEGER PRIMARY KEY, member_id INTEGER, fee REAL, state TEXT)",
    "INSERT INTO members VALUES (1, 'Ola', 'Germany'), (2, 'Ben', 'Germany'), (3, 'Kim', 'Japan')",
    "INSERT INTO loans VALUES (1, 1, 2.5, 'overdue'), (2, 2, 4.0, 'open'), (3, 1, 1.5, 'overdue'), (4, 3, 9.0, 'open')",
]
SYSTEM = (
    "You look after the library's SQL database. Tables: members(id, name, country) and loans(id, member_id, fee, "
    "state); state is open, overdue or returned."
)
DESCRIPTION = "Tables: members(id, name, country) and loans(id, member_id, fee, state)"
SQL_EXEC = {
    "name": "sql_exec",
    "description": "Executes a read-only SQL statement",
    "input_schema": {"type": "object", "properties": {"statement": {"type": "string"}}},
}


def _rows(query: str) -> str:
    db = sqlite3.connect(":memory:")
    db.row_factory = sqlite3.Row
    db.executescript(";".join(LIBRARY))
    return json.dumps([dict(r) for r in db.execute(query).fetchall()], indent=2)


def _run(name: str, args: dict) -> tuple[str, bool]:
    return _rows(args["statement"]), False


def test_a_question_over_the_prompts_tables_goes_to_the_sql_tool_with_the_listed_value():
    note = tool("save_note", "Saves a note for the librarians", {"text": string("The note")})
    calls, answer, _ = loop("How many loans are overdue right now?", [note, SQL_EXEC], _run, system=SYSTEM)
    assert [n for n, _ in calls] == ["sql_exec"]
    assert calls[0][1]["statement"] == "SELECT COUNT(*) FROM loans WHERE state = 'overdue'"
    assert "2" in answer


def test_listed_values_a_country_in_polish_and_each_group():
    tables = sql.schema(DESCRIPTION)
    assert sql_values.listed(SYSTEM, tables) == {"state": ("open", "overdue", "returned")}
    assert sql.stored("Niemiec") == "Germany" and sql.stored("Oslo") == "Oslo"
    assert sql_filter.query("ilu członków jest z Niemiec?", DESCRIPTION) == (
        "SELECT COUNT(*) FROM members WHERE country = 'Germany'"
    )
    grouped = sql_values.per_group("сколько участников в каждой стране?", tables)
    assert grouped is not None and "GROUP BY country" in grouped
    assert json.loads(_rows(grouped))[0] == {"country": "Germany", "members": 2}


def test_money_spent_is_summed_over_the_reference_and_a_follow_up_keeps_the_filter():
    tables = sql.schema(DESCRIPTION)
    top = sql_join.amount("Which member spent the most?", tables)
    assert top is not None and "ON e.member_id = t.id" in top and "SUM(e.fee)" in top
    assert json.loads(_rows(top)) == [{"name": "Kim", "total": 9.0}]
    follow = sql_filter.query("and their combined fee?", DESCRIPTION, SYSTEM, context="how many loans are overdue?")
    assert follow == "SELECT SUM(fee) FROM loans WHERE state = 'overdue'"


def test_a_change_asked_of_only_a_read_only_tool_is_declined_naming_it():
    calls, answer, _ = loop("Zmień stan wypożyczenia 4 na returned", [SQL_EXEC], _run, system=SYSTEM)
    assert calls == []
    assert "tylko do odczytu" in answer and "`sql_exec`" in answer


def test_json_rows_fill_a_structured_array_of_objects():
    schema = {
        "type": "object",
        "properties": {
            "groups": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {"country": {"type": "string"}, "members": {"type": "integer"}},
                    "required": ["country", "members"],
                },
            }
        },
        "required": ["groups"],
    }
    output = {"format": {"type": "json_schema", "schema": schema}}
    _, answer, _ = loop("count the members in each country", [SQL_EXEC], _run, system=SYSTEM, output_config=output)
    assert json.loads(answer)["groups"] == [{"country": "Germany", "members": 2}, {"country": "Japan", "members": 1}]
