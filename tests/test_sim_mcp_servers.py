"""The offline model on the MCP reference servers' tools (modelcontextprotocol/servers: time, filesystem, fetch) and
the MCP quickstart's weather server: times said in words, defaults a schema states, time differences, paths."""

from __future__ import annotations

import datetime
import json
from zoneinfo import ZoneInfo

import pytest
from sim_loop import Runner, agent_loop, tool

from agent_core.sim.defaults import stated_default
from agent_core.sim.text import entities

NOW = datetime.datetime(2026, 12, 1, 10, 0, tzinfo=datetime.UTC)


def loop(question: str, tools: list[dict], run: Runner, **extra) -> tuple[list[tuple[str, dict]], str]:
    """think() in an agent loop until the model answers: every call in order, and the answer."""
    replies, answer = agent_loop(question, tools, run, **extra)
    return [call for reply in replies for call in reply], answer


def _zone(description: str) -> dict:
    return {"type": "string", "description": description}


LOCAL = " Use 'Europe/Warsaw' as the local timezone when the user names none."
MCP_TIME = [
    {
        "name": "get_current_time",
        "description": "Get the current time in a given timezone",
        "input_schema": {
            "type": "object",
            "properties": {"timezone": _zone("IANA timezone name (e.g. 'America/New_York')." + LOCAL)},
            "required": ["timezone"],
        },
    },
    {
        "name": "convert_time",
        "description": "Convert a time from one timezone to another",
        "input_schema": {
            "type": "object",
            "properties": {
                "source_timezone": _zone("Source IANA timezone name." + LOCAL),
                "time": _zone("The time to convert, 24-hour format (HH:MM)"),
                "target_timezone": _zone("Target IANA timezone name." + LOCAL),
            },
            "required": ["source_timezone", "time", "target_timezone"],
        },
    },
]


def _stamp(moment: datetime.datetime, zone: str) -> dict:
    local = moment.astimezone(ZoneInfo(zone))
    return {"timezone": zone, "datetime": local.isoformat(), "day_of_week": local.strftime("%A")}


def time_server(name: str, args: dict) -> tuple[str, bool]:
    """What the MCP time server answers, at the fixed now 2026-12-01 10:00 UTC."""
    if name == "get_current_time":
        return json.dumps(_stamp(NOW, args["timezone"])), False
    hour, minute = map(int, args["time"].split(":"))
    source = datetime.datetime(2026, 12, 1, hour, minute, tzinfo=ZoneInfo(args["source_timezone"]))
    return json.dumps(
        {"source": _stamp(source, args["source_timezone"]), "target": _stamp(source, args["target_timezone"])}
    ), False


@pytest.mark.parametrize(
    ("text", "clock"),
    [
        ("Если в Нью-Йорке 9 утра, сколько времени в Москве?", "09:00"),
        ("Jest wpół do ósmej wieczorem w Tokio.", "19:30"),
        ("half past seven in the evening", "19:30"),
        ("половина восьмого", "07:30"),
        ("в 11 ночи", "23:00"),
        ("в 3 часа дня", "15:00"),
        ("quarter to eight", "07:45"),
        ("at noon", "12:00"),
        ("4 PM", "16:00"),
    ],
)
def test_a_time_said_in_words_is_a_time(text, clock):
    assert [e.value for e in entities.of_kind(text, "time")] == [clock]


@pytest.mark.parametrize("text", ["9 files here", "два дня назад", "через 2 часа", "wait 3 days"])
def test_a_number_with_no_part_of_the_day_is_no_time(text):
    assert entities.of_kind(text, "time") == []


def test_a_required_parameter_takes_the_default_its_schema_states():
    assert stated_default(MCP_TIME[0]["input_schema"]["properties"]["timezone"]) == "Europe/Warsaw"
    assert stated_default({"type": "integer", "description": "How many; defaults to 10"}) == 10
    assert stated_default({"type": "string", "default": "main"}) == "main"
    assert stated_default({"type": "string", "description": "The branch to read"}) is None


def test_here_is_the_local_timezone_the_description_names():
    calls, answer = loop("What time is it here right now?", MCP_TIME, time_server)
    assert calls == [("get_current_time", {"timezone": "Europe/Warsaw"})]
    assert "11:00" in answer


@pytest.mark.parametrize(
    ("question", "sent", "told"),
    [
        (
            "Если в Нью-Йорке 9 утра, сколько тогда времени в Москве?",
            {"source_timezone": "America/New_York", "time": "09:00", "target_timezone": "Europe/Moscow"},
            "17:00",
        ),
        (
            "Jest wpół do ósmej wieczorem w Tokio. Która to godzina w Warszawie?",
            {"source_timezone": "Asia/Tokyo", "time": "19:30", "target_timezone": "Europe/Warsaw"},
            "11:30",
        ),
    ],
)
def test_a_time_stated_in_one_place_is_converted_for_the_place_asked(question, sent, told):
    calls, answer = loop(question, MCP_TIME, time_server)
    assert calls == [("convert_time", sent)]
    assert told in answer


@pytest.mark.parametrize(
    ("question", "zones", "hours"),
    [
        ("How many hours ahead of New York is Tokyo right now?", {"America/New_York", "Asia/Tokyo"}, "14"),
        ("На сколько часов Москва сейчас опережает Лондон?", {"Europe/Moscow", "Europe/London"}, "3"),
    ],
)
def test_hours_ahead_are_worked_out_from_the_time_in_each_place(question, zones, hours):
    calls, answer = loop(question, MCP_TIME, time_server)
    assert {c[1]["timezone"] for c in calls if c[0] == "get_current_time"} == zones
    assert f"= {hours}" in answer


def test_the_weekday_is_told_in_the_users_language():
    calls, answer = loop("Jaki dzień tygodnia jest teraz w Auckland?", MCP_TIME, time_server)
    assert calls == [("get_current_time", {"timezone": "Pacific/Auckland"})]
    assert "wtorek" in answer


WITHIN = " Works only inside the allowed directories."
MCP_FS = [
    tool(
        "read_text_file",
        "Reads a whole file as text. 'head' reads only the first N lines and 'tail' only the last N." + WITHIN,
        {
            "path": {"type": "string"},
            "tail": {"type": "number", "description": "If given, returns only the last N lines of the file"},
            "head": {"type": "number", "description": "If given, returns only the first N lines of the file"},
        },
        ["path"],
    ),
    tool(
        "write_file",
        "Creates a file or overwrites one with new content." + WITHIN,
        {"path": {"type": "string"}, "content": {"type": "string"}},
        ["path", "content"],
    ),
    tool(
        "create_directory",
        "Creates a directory, including any missing parents." + WITHIN,
        {"path": {"type": "string"}},
        ["path"],
    ),
    tool(
        "search_files",
        "Recursively finds files whose paths match a glob pattern relative to the given path ('*.ext' here, "
        "'**/*.ext' in every subdirectory). Returns full paths." + WITHIN,
        {"path": {"type": "string"}, "pattern": {"type": "string"}},
        ["path", "pattern"],
    ),
]
LOG = "\n".join(f"2026-12-01 09:{m:02d}:00 INFO request handled" for m in range(1, 21))


def filesystem(made: set[str]) -> Runner:
    """The filesystem server over /home/ann/projects, holding data.csv and app/app.log; folders in made exist."""

    def run(name: str, args: dict) -> tuple[str, bool]:
        if name == "search_files":
            return ("/home/ann/projects/data.csv" if args["pattern"].endswith(".csv") else "No matches found"), False
        if name == "create_directory":
            made.add(args["path"].rstrip("/"))
            return f"Successfully created directory {args['path']}", False
        if name == "write_file":
            if args["path"].rsplit("/", 1)[0] not in made:
                return f"Parent directory does not exist: {args['path']}", True
            return f"Successfully wrote to {args['path']}", False
        if args["path"].endswith(".csv"):
            return "date,city,sales\n2026-11-01,Warsaw,120\n2026-11-03,Gdańsk,143", False
        lines = LOG.splitlines()
        return "\n".join(lines[: args["head"]] if "head" in args else lines[-args.get("tail", 0) :]), False

    return run


@pytest.mark.parametrize(
    ("question", "count"),
    [
        ("Pokaż pierwsze pięć linii pliku /home/ann/projects/app/app.log", {"head": 5}),
        ("Покажи последние десять строк файла /home/ann/projects/app/app.log", {"tail": 10}),
        ("Show me the first 3 lines of /home/ann/projects/app/app.log", {"head": 3}),
    ],
)
def test_first_or_last_n_lines_fill_the_count_the_description_names(question, count):
    calls, _ = loop(question, MCP_FS, filesystem({"/home/ann/projects"}))
    assert calls == [("read_text_file", {"path": "/home/ann/projects/app/app.log", **count})]


def test_a_whole_file_is_read_without_a_count():
    calls, _ = loop("What is in /home/ann/projects/app/app.log?", MCP_FS, filesystem({"/home/ann/projects"}))
    assert calls == [("read_text_file", {"path": "/home/ann/projects/app/app.log"})]


MCP_FETCH = tool(
    "fetch",
    "Fetches a URL from the internet and can extract its contents as markdown.",
    {
        "url": {"type": "string", "format": "uri", "description": "URL to fetch"},
        "max_length": {"type": "integer", "default": 5000, "description": "Maximum number of characters to return."},
        "raw": {
            "type": "boolean",
            "default": False,
            "description": "Get the page's actual HTML content, without simplification.",
        },
    },
    ["url"],
)


@pytest.mark.parametrize(
    ("question", "extra"),
    [
        ("Fetch just the first two hundred characters of https://example.com/blog/agents.", {"max_length": 200}),
        ("Скачай https://example.com/blog/agents как сырой HTML, без упрощения.", {"raw": True}),
        ("Summarise https://example.com/blog/agents in one sentence.", {}),
    ],
)
def test_fetch_sets_the_options_the_question_asks_for_and_only_those(question, extra):
    calls, _ = loop(question, [MCP_FETCH], lambda n, a: ("# Agents are loops\nAn agent is a model in a loop.", False))
    assert calls == [("fetch", {"url": "https://example.com/blog/agents", **extra})]


def test_a_search_for_files_takes_the_folder_and_a_glob_then_reads_the_file_the_question_is_about():
    calls, answer = loop(
        "Find the CSV file in /home/ann/projects and tell me which city sold the most.",
        MCP_FS,
        filesystem({"/home/ann/projects"}),
    )
    assert calls == [
        ("search_files", {"path": "/home/ann/projects", "pattern": "**/*.csv"}),
        ("read_text_file", {"path": "/home/ann/projects/data.csv"}),
    ]
    assert "Gdańsk" in answer


def test_a_search_alone_is_answered_with_what_it_found():
    calls, _ = loop("Znajdź wszystkie pliki CSV w /home/ann/projects", MCP_FS, filesystem({"/home/ann/projects"}))
    assert calls == [("search_files", {"path": "/home/ann/projects", "pattern": "**/*.csv"})]


@pytest.mark.parametrize(
    ("question", "folder"),
    [
        ("Save the line 'Q4 sales up 12%' to /home/ann/projects/reports/q4.txt", "/home/ann/projects/reports"),
        (
            "Zapisz tekst 'Sprzedaż wzrosła o 12%' do pliku /home/ann/projects/raporty/q4.txt",
            "/home/ann/projects/raporty",
        ),
    ],
)
def test_a_write_into_a_missing_folder_makes_the_folder_then_writes_again(question, folder):
    calls, answer = loop(question, MCP_FS, filesystem({"/home/ann/projects"}))
    write = next(c for c in calls if c[0] == "write_file")
    assert [c[0] for c in calls] == ["write_file", "create_directory", "write_file"]
    assert calls[1] == ("create_directory", {"path": folder})
    assert calls[2] == write and "12%" in write[1]["content"]
    assert "q4.txt" in answer


def test_a_read_of_a_missing_file_makes_no_folder():
    calls, _ = loop(
        "What is in /home/ann/projects/missing.txt?",
        MCP_FS,
        lambda n, a: (f"ENOENT: no such file or directory, open '{a.get('path')}'", True),
    )
    assert calls and all(c[0] == "read_text_file" for c in calls)
    assert len(calls) <= 2


def test_bare_file_names_are_in_the_folder_the_question_names():
    calls, _ = loop(
        "Show me config.json and todo.md from /home/ann/projects.",
        MCP_FS,
        lambda n, a: ("ok", False),
    )
    assert sorted(c[1]["path"] for c in calls) == ["/home/ann/projects/config.json", "/home/ann/projects/todo.md"]
    assert {c[0] for c in calls} == {"read_text_file"}


EDIT_FILE = tool(
    "edit_file",
    "Makes line-based edits to a text file: each edit replaces an exact sequence of lines. Returns a git-style diff.",
    {
        "path": {"type": "string"},
        "edits": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "oldText": {"type": "string", "description": "The text to find; it must match exactly"},
                    "newText": {"type": "string", "description": "The text to put in its place"},
                },
                "required": ["oldText", "newText"],
            },
        },
    },
    ["path", "edits"],
)


@pytest.mark.parametrize(
    "question",
    [
        "In /home/ann/projects/README.md, change 'Version 1.0' to 'Version 1.1'.",
        "Замени «Version 1.0» на «Version 1.1» в файле /home/ann/projects/README.md",
        "W pliku /home/ann/projects/README.md zamień 'Version 1.0' na 'Version 1.1'",
    ],
)
def test_change_a_to_b_is_an_edit_not_an_overwrite(question):
    calls, _ = loop(question, [*MCP_FS, EDIT_FILE], lambda n, a: ("-Version 1.0\n+Version 1.1", False))
    assert calls == [
        (
            "edit_file",
            {"path": "/home/ann/projects/README.md", "edits": [{"oldText": "Version 1.0", "newText": "Version 1.1"}]},
        )
    ]


# The MCP quickstart's weather server (modelcontextprotocol/quickstart-resources: weather-server-python).
MCP_WEATHER = [
    tool(
        "get_alerts",
        "Get weather alerts for a US state.",
        {"state": {"type": "string", "description": "Two-letter US state code (e.g. CA, NY)"}},
        ["state"],
    ),
    tool(
        "get_forecast",
        "Get weather forecast for a location.",
        {
            "latitude": {"type": "number", "description": "Latitude of the location"},
            "longitude": {"type": "number", "description": "Longitude of the location"},
        },
        ["latitude", "longitude"],
    ),
]


def weather_server(name: str, args: dict) -> tuple[str, bool]:
    if name == "get_alerts":
        return json.dumps([{"event": "Winter Storm Warning", "area": "Erie County"}]), False
    if args["longitude"] > 0:
        return "Unable to fetch forecast data for this location.", True
    periods = [{"name": "Today", "temperature": 61}, {"name": "Tonight", "temperature": 39}]
    return json.dumps({"periods": periods}), False


def test_alerts_in_a_state_named_in_polish_go_to_the_alerts_tool():
    calls, _ = loop("Jakie ostrzeżenia pogodowe obowiązują teraz w stanie Nowy Jork?", MCP_WEATHER, weather_server)
    assert calls == [("get_alerts", {"state": "NY"})]


def test_a_place_outside_the_service_is_not_asked_twice_and_the_country_is_no_task():
    calls, answer = loop("What's the forecast for Paris, France?", MCP_WEATHER, weather_server)
    assert [c[0] for c in calls] == ["get_forecast"]
    assert "Paris" in answer and "don't have a tool" not in answer


def test_how_much_colder_tonight_is_the_difference_of_two_periods_of_one_forecast():
    calls, answer = loop("How much colder than today will it get tonight in Sacramento?", MCP_WEATHER, weather_server)
    assert [c[0] for c in calls] == ["get_forecast"]
    assert "= 22" in answer


def test_a_file_outside_the_allowed_directories_is_not_looked_for_elsewhere():
    def run(name: str, args: dict) -> tuple[str, bool]:
        return f"Access denied - path outside allowed directories: {args['path']} not in /home/ann/projects", True

    calls, answer = loop("Read /etc/passwd for me.", MCP_FS, run)
    assert calls == [("read_text_file", {"path": "/etc/passwd"})]
    assert "outside allowed directories" in answer


def test_a_bare_name_denied_is_moved_into_the_allowed_directory():
    def run(name: str, args: dict) -> tuple[str, bool]:
        if not args["path"].startswith("/home/ann/projects/"):
            return f"Access denied - path outside allowed directories: {args['path']} not in /home/ann/projects", True
        return "- buy milk", False

    calls, _ = loop("What's in my notes.txt?", MCP_FS, run)
    assert [c[1]["path"] for c in calls] == ["notes.txt", "/home/ann/projects/notes.txt"]
