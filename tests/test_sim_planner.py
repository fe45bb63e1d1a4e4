"""Issue 23's examples, one test each: whole loops on tools as public tutorials define them (sources named), and the
offline model behaving as a careful model would (chains, typed arguments, choice, follow-ups, errors, answers)."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from sim_loop import structured, tool  # other test modules import tool from here too

from agent_core.lineup import lineup
from agent_core.model import SimSettings
from agent_core.sim.brain import Draft, think

Runner = Callable[[str, dict], tuple[str, bool]]


def string(description: str = "", **extra) -> dict:
    return {"type": "string", "description": description, **extra}


def loop(
    question: str | list[dict], tools: list[dict], run: Runner, turns: int = 10, until: tuple[str, ...] = (), **extra
) -> tuple[list[tuple[str, dict]], str, list[Draft]]:
    """An agent loop around think(): every tool_use run, all results in one user message; (calls, answer, drafts).
    A call of a tool named in until ends the run, as a framework's output tool does."""
    messages = copy.deepcopy(question) if isinstance(question, list) else [{"role": "user", "content": question}]
    body = {"model": "claude-sonnet-4-6", "max_tokens": 1024, "messages": messages, "tools": tools, **extra}
    calls, drafts = [], []
    for turn in range(turns):
        draft = think(body, SimSettings())
        drafts.append(draft)
        content = [
            dict(b, id=f"toolu_{turn}_{i}") if b["type"] == "tool_use" else b for i, b in enumerate(draft.content)
        ]
        body["messages"].append({"role": "assistant", "content": content})
        if draft.stop_reason != "tool_use":
            break
        results = []
        if any(b["type"] == "tool_use" and b["name"] in until for b in content):
            calls += [(b["name"], b["input"]) for b in content if b["type"] == "tool_use"]
            break
        for block in content:
            if block["type"] == "tool_use":
                calls.append((block["name"], block["input"]))
                output, failed = run(block["name"], block["input"])
                results.append(
                    {"type": "tool_result", "tool_use_id": block["id"], "content": output, "is_error": failed}
                )
        body["messages"].append({"role": "user", "content": results})
    answer = " ".join(b["text"] for b in drafts[-1].content if b["type"] == "text")
    return calls, answer, drafts


def plain(answer: str) -> None:
    """A composed answer: no raw JSON, no 'X answered:'."""
    assert "{" not in answer and "answered:" not in answer and "ответил:" not in answer, answer


# ---- Anthropic courses, tool_use/06_chatbot_with_multiple_tools (TechNova support) -------------------------------

TECHNOVA = [
    tool(
        "get_user",
        "Looks up a user by email, phone, or username.",
        {
            "key": string(
                "The attribute to search for a user by (email, phone, or username).",
                enum=["email", "phone", "username"],
            ),
            "value": string("The value to match for the specified attribute."),
        },
    ),
    tool(
        "get_order_by_id",
        "Retrieves the details of a specific order based on the order ID. Returns the order ID, product name, "
        "quantity, price, and order status.",
        {"order_id": string("The unique identifier for the order.")},
    ),
    tool(
        "get_customer_orders",
        "Retrieves the list of orders belonging to a user based on a user's customer id.",
        {"customer_id": string("The customer_id belonging to the user")},
    ),
    tool(
        "cancel_order",
        "Cancels an order based on a provided order_id.  Only orders that are 'processing' can be cancelled",
        {"order_id": string("The order_id pertaining to a particular order")},
    ),
]
USERS = [
    {"id": "1213210", "name": "John Doe", "email": "john@gmail.com", "phone": "123-456-7890", "username": "johndoe"},
    {
        "id": "3924156",
        "name": "Liam Nguyen",
        "email": "lnguyen@yahoo.com",
        "phone": "555-123-4567",
        "username": "liamn",
    },
]
ORDERS = [
    {
        "id": "24601",
        "customer_id": "1213210",
        "product": "Wireless Headphones",
        "quantity": 1,
        "price": 79.99,
        "status": "Shipped",
    },
    {
        "id": "13579",
        "customer_id": "1213210",
        "product": "Smartphone Case",
        "quantity": 2,
        "price": 19.99,
        "status": "Processing",
    },
    {
        "id": "86420",
        "customer_id": "3924156",
        "product": "Fitness Tracker",
        "quantity": 1,
        "price": 129.99,
        "status": "Delivered",
    },
]


def technova(name: str, args: dict) -> tuple[str, bool]:
    """The course's FakeDatabase, whose results reach the model as str(dict)."""
    if name == "get_user":
        if args.get("key") not in ("email", "phone", "username"):
            return f"ValueError: Invalid key: {args.get('key')}", True
        found = next((u for u in USERS if u[args["key"]] == args.get("value")), None)
        return (
            (str(found), False) if found else (f"Couldn't find a user with {args['key']} of {args.get('value')}", False)
        )
    if name == "get_customer_orders":
        return str([o for o in ORDERS if o["customer_id"] == args.get("customer_id")]), False
    if name == "get_order_by_id":
        return str(next((o for o in ORDERS if o["id"] == args.get("order_id")), None)), False
    if name == "cancel_order":
        order = next((o for o in ORDERS if o["id"] == args.get("order_id")), None)
        ok = order is not None and order["status"] == "Processing"
        return ("Cancelled the order" if ok else "Order has already shipped.  Can't cancel it."), False
    return f"unknown tool {name}", True


def test_orders_are_looked_up_through_the_user_found_by_email():
    calls, answer, _ = loop("Can you look up my orders? My email is john@gmail.com", TECHNOVA, technova)
    assert calls[:2] == [
        ("get_user", {"key": "email", "value": "john@gmail.com"}),
        ("get_customer_orders", {"customer_id": "1213210"}),
    ]
    assert all(n not in ("read_file",) for n, _ in calls)
    assert "24601" in answer and "13579" in answer and "Processing" in answer
    plain(answer)


def test_a_phone_number_is_a_phone_not_a_user_id():
    calls, answer, _ = loop("What orders do I have? My phone number is 555-123-4567.", TECHNOVA, technova)
    assert calls[0] == ("get_user", {"key": "phone", "value": "555-123-4567"})
    assert ("get_customer_orders", {"customer_id": "3924156"}) in calls
    assert "Fitness Tracker" in answer


def test_yes_please_cancel_it_answers_the_question_asked():
    history = [
        {"role": "user", "content": "What's the status of order 13579?"},
        {"role": "assistant", "content": "Order 13579 (Smartphone Case, 2 pieces) is Processing. Shall I cancel it?"},
        {"role": "user", "content": "Yes, please cancel it."},
    ]
    calls, answer, _ = loop(history, TECHNOVA, technova)
    assert calls == [("cancel_order", {"order_id": "13579"})]
    assert re.search(r"cancel", answer, re.I)


# ---- Anthropic docs, "Sequential tools": get_location, then get_weather ------------------------------------------

LOCATION = tool(
    "get_location",
    "Get the current user location based on their IP address. This tool has no parameters or arguments.",
    {},
)
DOCS_WEATHER = tool(
    "get_weather",
    "Get the current weather in a given location",
    {
        "location": string("The city and state, e.g. San Francisco, CA"),
        "unit": string("The unit of temperature, either 'celsius' or 'fahrenheit'", enum=["celsius", "fahrenheit"]),
    },
    ["location"],
)


def test_where_i_am_is_found_by_the_location_tool_first():
    def run(name: str, args: dict) -> tuple[str, bool]:
        if name == "get_location":
            return "San Francisco, CA", False
        return json.dumps(
            {"location": args["location"], "temperature": 59, "unit": "fahrenheit", "conditions": "foggy"}
        ), False

    calls, answer, _ = loop("What's the weather like where I am?", [LOCATION, DOCS_WEATHER], run)
    assert calls[0] == ("get_location", {})
    assert calls[1][0] == "get_weather" and calls[1][1]["location"].startswith("San Francisco")
    assert "59" in answer and "fog" in answer
    plain(answer)


def test_a_required_unit_is_chosen_by_what_a_model_knows_of_the_city():
    weather = copy.deepcopy(DOCS_WEATHER)
    weather["input_schema"]["required"] = ["location", "unit"]
    calls, _, _ = loop("What's the weather in Glasgow?", [weather], lambda n, a: ("12 degrees, drizzle", False))
    assert calls[0][1]["unit"] == "celsius" and calls[0][1]["location"].startswith("Glasgow")
    calls, _, _ = loop("What's the weather in Chicago?", [weather], lambda n, a: ("50 degrees, windy", False))
    assert calls[0][1]["unit"] == "fahrenheit"


# ---- pydantic-ai's weather agent: get_lat_lng, then get_weather(lat, lng) -------------------------------------

LAT_LNG = tool(
    "get_lat_lng",
    "Get the latitude and longitude of a location.",
    {"location_description": string("A description of a location.")},
)
LAT_WEATHER = tool(
    "get_weather",
    "Get the weather at a location.",
    {
        "lat": {"type": "number", "description": "Latitude of the location."},
        "lng": {"type": "number", "description": "Longitude of the location."},
    },
)


def test_coordinates_are_found_first_then_the_weather_for_each_place():
    coords = {"london": (51.1, -0.1), "wiltshire": (51.1, -2.11)}

    def run(name: str, args: dict) -> tuple[str, bool]:
        if name == "get_lat_lng":
            lat, lng = coords.get(args["location_description"].lower(), (0, 0))
            return json.dumps({"lat": lat, "lng": lng}), False
        rain = abs(args["lng"] + 0.1) < 0.05
        return json.dumps(
            {"temperature": "21 °C" if not rain else "14 °C", "description": "Raining" if rain else "Sunny"}
        ), False

    calls, answer, drafts = loop("What is the weather like in London and in Wiltshire?", [LAT_LNG, LAT_WEATHER], run)
    assert [c for c in calls if c[0] == "get_lat_lng"] == [
        ("get_lat_lng", {"location_description": "London"}),
        ("get_lat_lng", {"location_description": "Wiltshire"}),
    ]
    assert ("get_weather", {"lat": 51.1, "lng": -0.1}) in calls and (
        "get_weather",
        {"lat": 51.1, "lng": -2.11},
    ) in calls
    assert sum(1 for b in drafts[0].content if b["type"] == "tool_use") == 2  # both places at once
    assert "Raining" in answer and "Sunny" in answer and "London" in answer and "Wiltshire" in answer
    plain(answer)


# ---- LlamaIndex's ReAct agent with add / multiply ------------------------------------------------------------

INT_ADD = tool(
    "add", "Add two integers and returns the result integer", {"a": {"type": "integer"}, "b": {"type": "integer"}}
)
INT_MULTIPLY = tool(
    "multiply",
    "Multiply two integers and returns the result integer",
    {"a": {"type": "integer"}, "b": {"type": "integer"}},
)


def test_numbers_in_words_are_numbers():
    calls, answer, _ = loop(
        "What is eighteen times three?", [INT_ADD, INT_MULTIPLY], lambda n, a: (str(a["a"] * a["b"]), False)
    )
    assert calls == [("multiply", {"a": 18, "b": 3})] and "54" in answer
    calls, _, _ = loop(
        "Сколько будет двадцать пять умножить на четыре?", [INT_ADD, INT_MULTIPLY], lambda n, a: ("100", False)
    )
    assert calls == [("multiply", {"a": 25, "b": 4})]


# ---- LangChain's SQL agent on the Chinook database ------------------------------------------------------------

SQL_SYSTEM = (
    "You are an agent designed to interact with a SQL database. Given an input question, create a syntactically "
    "correct sqlite query to run, then look at the results of the query and return the answer. To start you should "
    "ALWAYS look at the tables in the database to see what you can query. Do NOT skip this step. Then you should "
    "query the schema of the most relevant tables."
)
SQL_TOOLS = [
    tool(
        "sql_db_query",
        "Input to this tool is a detailed and correct SQL query, output is a result from the database. If the query "
        "is not correct, an error message will be returned.",
        {"query": string("A detailed and correct SQL query.")},
    ),
    tool(
        "sql_db_schema",
        "Input to this tool is a comma-separated list of tables, output is the schema and sample rows for those "
        "tables. Be sure that the tables actually exist by calling sql_db_list_tables first!",
        {"table_names": string("A comma-separated list of the table names for which to return the schema.")},
    ),
    tool(
        "sql_db_list_tables",
        "Input is an empty string, output is a comma-separated list of tables in the database.",
        {"tool_input": string("An empty string", default="")},
        [],
    ),
]
CHINOOK_SCHEMA = (
    'CREATE TABLE "Genre" (\n\t"GenreId" INTEGER NOT NULL, \n\t"Name" NVARCHAR(120), \n\tPRIMARY KEY ("GenreId")\n)\n\n'
    'CREATE TABLE "Track" (\n\t"TrackId" INTEGER NOT NULL, \n\t"Name" NVARCHAR(200) NOT NULL, \n\t"AlbumId" INTEGER, '
    '\n\t"GenreId" INTEGER, \n\t"Composer" NVARCHAR(220), \n\t"Milliseconds" INTEGER NOT NULL, \n\t"UnitPrice" '
    'NUMERIC(10, 2) NOT NULL, \n\tPRIMARY KEY ("TrackId"), \n\tFOREIGN KEY("GenreId") REFERENCES "Genre" ("GenreId")\n)'
)


# ---- GitHub's MCP server and rich schemas -----------------------------------------------------------------------

CREATE_ISSUE = tool(
    "create_issue",
    "Create a new issue in a GitHub repository.",
    {
        "owner": string("Repository owner"),
        "repo": string("Repository name"),
        "title": string("Issue title"),
        "body": string("Issue body content"),
        "labels": {"type": "array", "items": {"type": "string"}, "description": "Labels to apply to this issue"},
        "assignees": {"type": "array", "items": {"type": "string"}, "description": "Usernames to assign to this issue"},
    },
    ["owner", "repo", "title"],
)


BOOK = tool(
    "add_book",
    "Add a book to the catalogue.",
    {
        "title": string("The book's title"),
        "author": {
            "type": "object",
            "properties": {"name": string("The author's full name"), "birth_year": {"type": "integer"}},
            "required": ["name"],
        },
        "year": {"type": "integer", "description": "Year of first publication"},
    },
    ["title", "author"],
)


PRINT_ENTITIES = tool(
    "print_entities",
    "Prints extract named entities.",
    {
        "entities": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "name": string("The extracted entity name."),
                    "type": string("The entity type (e.g., PERSON, ORGANIZATION, LOCATION)."),
                    "context": string("The context in which the entity appears in the text."),
                },
                "required": ["name", "type", "context"],
            },
        }
    },
)


def test_use_the_x_tool_is_obeyed():
    question = "Use the print_entities tool. Text: John Smith works at Google in Paris."
    calls, _, drafts = loop(question, [PRINT_ENTITIES, DOCS_WEATHER], lambda n, a: ("printed", False))
    assert calls and calls[0][0] == "print_entities"
    names = {e["name"] for e in calls[0][1]["entities"]}
    assert {"John Smith", "Google", "Paris"} <= names


# ---- choosing among many tools -----------------------------------------------------------------------------------

PARTY = [
    tool(
        "web_search",
        "Performs a web search for a query and returns the top search results.",
        {"query": string("The search query")},
    ),
    tool(
        "get_catering_options", "Returns the highest-rated catering services in a city.", {"city": string("The city")}
    ),
    tool(
        "suggest_party_theme",
        "Suggests a creative themed party idea for a category of party.",
        {"category": string("The party category, e.g. 'villain masquerade' or 'classic heroes'")},
    ),
    tool("get_weather", "Get the current weather in a city.", {"city": string("The city")}),
    tool("calculate", "Evaluate an arithmetic expression.", {"expression": string("The expression")}),
]


def test_dedicated_tools_win_over_a_generic_web_search():
    question = "Find the best catering services in Gotham and suggest a party theme for a villain masquerade."
    calls, _, _ = loop(
        question,
        PARTY,
        lambda n, a: ("Gotham Catering Co." if n == "get_catering_options" else "A Gothic masquerade", False),
    )
    names = [n for n, _ in calls]
    assert "get_catering_options" in names and "suggest_party_theme" in names and "web_search" not in names


MCP_TIME = [
    tool(
        "fetch",
        "Fetches a URL from the internet and extracts its contents as markdown.",
        {"url": string("URL to fetch", format="uri")},
    ),
    tool(
        "get_current_time",
        "Get current time in a specific timezones",
        {"timezone": string("IANA timezone name (e.g., 'America/New_York', 'Europe/London').")},
    ),
    tool(
        "convert_time",
        "Convert time between timezones",
        {
            "source_timezone": string("Source IANA timezone name (e.g., 'America/New_York', 'Europe/London')."),
            "time": string("Time to convert in 24-hour format (HH:MM)"),
            "target_timezone": string("Target IANA timezone name (e.g., 'Asia/Tokyo', 'America/San_Francisco')."),
        },
    ),
]


MCP_WEATHER = [
    tool(
        "get_alerts", "Get weather alerts for a US state.", {"state": string("Two-letter US state code (e.g. CA, NY)")}
    ),
    tool(
        "get_forecast",
        "Get weather forecast for a location.",
        {
            "latitude": {"type": "number", "description": "Latitude of the location"},
            "longitude": {"type": "number", "description": "Longitude of the location"},
        },
    ),
]


def test_alerts_go_to_the_alerts_tool_with_the_state_code():
    calls, _, _ = loop(
        "Are there any weather alerts in California?",
        MCP_WEATHER,
        lambda n, a: ("No active alerts for this state.", False),
    )
    assert calls == [("get_alerts", {"state": "CA"})]


# ---- follow-ups in Russian and Polish -----------------------------------------------------------------------------

TASKS = [
    tool(
        "create_task",
        "Tworzy nowe zadanie na liście zadań.",
        {"title": string("Tytuł zadania"), "priority": string("Priorytet zadania", enum=["low", "medium", "high"])},
    )
]


# ---- errors that say what to do ----------------------------------------------------------------------------------

READ_FILE = tool(
    "read_text_file",
    "Read the complete contents of a file from the file system as text. Only works within allowed directories.",
    {"path": string("Path of the file")},
)


def test_an_access_denied_naming_the_allowed_directory_moves_the_path_there():
    def run(name: str, args: dict) -> tuple[str, bool]:
        if not args["path"].startswith("/srv/work/"):
            return f"Error: Access denied - path outside allowed directories: {args['path']} not in /srv/work", True
        return "Buy milk. Call Anna.", False

    calls, answer, _ = loop("Read the file notes.txt", [READ_FILE], run)
    assert [a["path"] for _, a in calls] == ["notes.txt", "/srv/work/notes.txt"]
    assert "Buy milk" in answer


def test_the_same_failing_call_is_not_repeated_more_than_once_then_an_honest_answer():
    calls, answer, drafts = loop("Read the file notes.txt", [READ_FILE], lambda n, a: ("failed", True))
    assert len(calls) == 2 and calls[0] == calls[1]
    assert drafts[-1].stop_reason == "end_turn" and "notes.txt" in answer and "failed" in answer


# ---- knowledge, and saying plainly what it does not know ---------------------------------------------------------


def test_a_fact_from_the_small_knowledge_table_is_answered():
    draft = think(
        {
            "model": "claude-sonnet-4-6",
            "max_tokens": 100,
            "messages": [{"role": "user", "content": "What color are emeralds?"}],
        },
        SimSettings(),
    )
    assert draft.stop_reason == "end_turn" and "green" in draft.content[-1]["text"].lower()
    draft = think(
        {
            "model": "claude-sonnet-4-6",
            "max_tokens": 100,
            "messages": [{"role": "user", "content": "Какая столица Австралии?"}],
        },
        SimSettings(),
    )
    assert "Канберра" in draft.content[-1]["text"]


def test_outside_its_knowledge_it_says_it_is_the_offline_model_and_notes_it():
    draft = think(
        {
            "model": "claude-sonnet-4-6",
            "max_tokens": 100,
            "messages": [{"role": "user", "content": "Who won the 1998 World Cup final?"}],
        },
        SimSettings(),
    )
    text = draft.content[-1]["text"]
    assert "offline" in text.lower() and draft.note == "no_world_knowledge"


# ---- answers composed from facts, in the question's language ----------------------------------------------------

RU_WEATHER = tool(
    "get_weather",
    "Возвращает текущую погоду в городе.",
    {"city": string("Название города на английском, например Moscow")},
)


def test_errors_in_a_log_are_named_not_the_whole_log_pasted():
    log = (
        "2026-11-30 12:00:01 INFO Service started on port 8080\n"
        "2026-11-30 12:01:17 ERROR Database connection refused (db:5432)\n"
        "2026-11-30 12:03:40 WARN Slow request /api/orders 2300 ms\n"
        "2026-11-30 12:05:02 ERROR Timeout while calling payment service\n"
    )
    read = tool("read_file", "Читает файл с диска и возвращает его содержимое.", {"path": string("Путь к файлу")})
    calls, answer, _ = loop(
        "что за ошибки в логах?", [read], lambda n, a: (log, False), system="Логи приложения находятся в файле app.log."
    )
    assert calls == [("read_file", {"path": "app.log"})]
    assert "Database connection refused" in answer and "Timeout while calling payment service" in answer
    assert "Service started" not in answer


def test_the_simulator_note_reaches_the_client_as_a_header():
    import anthropic
    import httpx2

    from agent_core.sim import SimHandler, SimTransport

    settings = SimSettings()
    transport = SimTransport(settings, SimHandler(settings))
    client = anthropic.Anthropic(
        api_key="k", base_url="http://sim.invalid", http_client=httpx2.Client(transport=transport)
    )
    asked = {"model": "claude-sonnet-4-6", "max_tokens": 100}
    raw = client.messages.with_raw_response.create(
        **asked, messages=[{"role": "user", "content": "Who won the 1998 World Cup final?"}]
    )
    assert raw.headers.get("x-sim-note") == "no_world_knowledge"
    known = client.messages.with_raw_response.create(
        **asked, messages=[{"role": "user", "content": "What color are emeralds?"}]
    )
    assert "x-sim-note" not in known.headers


# ---- structured outputs and forced choice (pydantic-ai, LangChain, messages.parse) -------------------------------

FINAL_RESULT = tool(
    "final_result",
    "The final response which ends this conversation",
    {"city": string(), "temperature": {"type": "number"}, "conditions": string()},
)
CITY_WEATHER = tool("get_weather", "Get the current weather in a city.", {"city": string("The city")})


def weather_json(name: str, args: dict) -> tuple[str, bool]:
    return json.dumps({"city": args.get("city"), "temperature": 4, "conditions": "light rain"}), False


# Every served model of the lineup that takes forced tool choice (models.json `behaviour.forced_tool_choice`): the
# frameworks below send tool_choice any, which the others refuse with a 400.
FORCING_MODELS = [row.id for row in lineup().served if row.behaviour.forced_tool_choice]


def test_the_forcing_models_are_read_from_the_lineup():
    refusing = [row.id for row in lineup().served if not row.behaviour.forced_tool_choice]
    assert FORCING_MODELS and refusing and lineup().default_model in FORCING_MODELS + refusing
    assert not set(FORCING_MODELS) & set(refusing)


@pytest.mark.parametrize("model", FORCING_MODELS)
def test_pydantic_ai_final_result_under_tool_choice_any_finishes(model):
    # pydantic-ai sends its output type as a final_result tool with tool_choice any; the run ends when it is called.
    calls, _, drafts = loop(
        "What's the weather in Oslo?",
        [CITY_WEATHER, FINAL_RESULT],
        weather_json,
        until=("final_result",),
        tool_choice={"type": "any"},
        model=model,
    )
    names = [n for n, _ in calls]
    assert names[:2] == ["get_weather", "final_result"] and len(drafts) == 2
    assert calls[1][1] == {"city": "Oslo", "temperature": 4, "conditions": "light rain"}


@pytest.mark.parametrize("model", FORCING_MODELS)
def test_langchain_response_format_tool_is_called_after_the_real_tools(model):
    # LangChain's create_agent(response_format=Schema) sends the schema as a tool named after its class.
    schema_tool = tool(
        "WeatherResponse", "Response schema for the agent.", {"summary": string(), "temperature": {"type": "number"}}
    )
    calls, _, _ = loop(
        "How warm is it in Oslo?",
        [schema_tool, CITY_WEATHER],
        weather_json,
        until=("WeatherResponse",),
        tool_choice={"type": "any"},
        model=model,
    )
    assert [n for n, _ in calls][:2] == ["get_weather", "WeatherResponse"]
    assert calls[1][1]["temperature"] == 4 and "4" in calls[1][1]["summary"]


def test_json_asked_for_in_the_prompt_is_answered_as_json():
    schema = {
        "type": "object",
        "properties": {
            "city": string(),
            "temperature": {"type": "number"},
            "unit": string(enum=["celsius", "fahrenheit"]),
        },
        "required": ["city", "temperature", "unit"],
    }
    system = f"Always respond with a JSON object that's compatible with this schema:\n\n{json.dumps(schema)}\n\nDon't include any text."
    body = {
        "model": "claude-sonnet-4-6",
        "max_tokens": 200,
        "system": system,
        "messages": [{"role": "user", "content": "In Oslo it is 4 degrees Celsius."}],
    }
    draft = think(body, SimSettings())
    assert json.loads(draft.content[-1]["text"]) == {"city": "Oslo", "temperature": 4, "unit": "celsius"}


def test_structured_output_values_are_read_by_meaning_and_type():
    schema = {
        "type": "object",
        "properties": {"name": string(), "email": string(), "city": string(), "demo_requested": {"type": "boolean"}},
        "required": ["name", "email", "city", "demo_requested"],
        "additionalProperties": False,
    }
    text = "John Smith (john.smith@example.com) from Oslo wants a demo; it is 4 degrees Celsius there."
    assert structured(text, schema) == {
        "name": "John Smith",
        "email": "john.smith@example.com",
        "city": "Oslo",
        "demo_requested": True,
    }


def test_without_anything_to_look_up_it_asks_for_what_the_user_knows():
    calls, answer, _ = loop("I want to cancel my order.", TECHNOVA, technova)
    assert calls == []
    assert re.search(r"e-?mail", answer, re.I) and re.search(r"phone", answer, re.I)
    assert "“key”" not in answer and "“value”" not in answer and "order_id" not in answer


def test_an_error_that_states_the_format_gets_a_corrected_call():
    def stored_as(name: str, args: dict) -> tuple[str, bool]:
        if name == "get_user" and args.get("key") == "phone" and args.get("value") != "555-123-4567":
            return "No user with that phone. Phone numbers are stored as 123-456-7890.", True
        return technova(name, args)

    calls, answer, _ = loop("Show my orders, my phone is (555) 123 4567", TECHNOVA, stored_as)
    phones = [a["value"] for n, a in calls if n == "get_user"]
    assert phones[-1] == "555-123-4567" and len(phones) == 2
    assert "Fitness Tracker" in answer


def test_an_expression_is_worked_out_with_the_operation_tools_inner_part_first():
    def run(name: str, args: dict) -> tuple[str, bool]:
        return str(args["a"] + args["b"] if name == "add" else args["a"] * args["b"]), False

    calls, answer, _ = loop("What is 20+(2*4)? Calculate step by step.", [INT_MULTIPLY, INT_ADD], run)
    assert calls == [("multiply", {"a": 2, "b": 4}), ("add", {"a": 20, "b": 8})]
    assert "28" in answer


def test_the_sql_agent_lists_tables_reads_the_schema_then_queries():
    def run(name: str, args: dict) -> tuple[str, bool]:
        if name == "sql_db_list_tables":
            return (
                "Album, Artist, Customer, Employee, Genre, Invoice, InvoiceLine, MediaType, Playlist, PlaylistTrack, Track",
                False,
            )
        if name == "sql_db_schema":
            return CHINOOK_SCHEMA, False
        query = args["query"].lower()
        ok = "avg" in query and "milliseconds" in query and "genre" in query and "join" in query
        return ("[('Sci Fi & Fantasy', 2911783.0384615385)]" if ok else "Error: no such column"), not ok

    calls, answer, _ = loop("Which genre on average has the longest tracks?", SQL_TOOLS, run, system=SQL_SYSTEM)
    names = [n for n, _ in calls]
    assert names[:3] == ["sql_db_list_tables", "sql_db_schema", "sql_db_query"]
    assert set(re.split(r",\s*", calls[1][1]["table_names"])) == {"Genre", "Track"}
    assert "Sci Fi & Fantasy" in answer


def test_an_array_is_built_from_the_list_in_the_question():
    question = 'Create an issue in octocat/hello-world titled "Login button broken" with the labels bug and frontend.'
    calls, answer, _ = loop(
        question,
        [CREATE_ISSUE],
        lambda n, a: (
            json.dumps({"number": 42, "html_url": "https://github.com/octocat/hello-world/issues/42"}),
            False,
        ),
    )
    assert calls == [
        (
            "create_issue",
            {"owner": "octocat", "repo": "hello-world", "title": "Login button broken", "labels": ["bug", "frontend"]},
        )
    ]
    assert "42" in answer


def test_a_nested_object_is_filled_property_by_property():
    calls, _, _ = loop(
        "Add the book “Dune” by Frank Herbert, published in 1965.", [BOOK], lambda n, a: ("Added.", False)
    )
    assert calls == [("add_book", {"title": "Dune", "author": {"name": "Frank Herbert"}, "year": 1965})]


def test_a_time_in_one_city_is_converted_for_another():
    calls, answer, _ = loop(
        "When it's 4 PM in New York, what time is it in London?",
        MCP_TIME,
        lambda n, a: (
            json.dumps(
                {
                    "source": {"timezone": "America/New_York", "datetime": "2026-12-01T16:00:00-05:00"},
                    "target": {"timezone": "Europe/London", "datetime": "2026-12-01T21:00:00+00:00"},
                    "time_difference": "+5.0h",
                }
            ),
            False,
        ),
    )
    assert calls == [
        ("convert_time", {"source_timezone": "America/New_York", "time": "16:00", "target_timezone": "Europe/London"})
    ]
    assert "21:00" in answer
    plain(answer)


def test_a_forecast_by_coordinates_uses_what_a_model_knows_of_the_city():
    calls, answer, _ = loop(
        "What's the weather forecast for Sacramento?",
        MCP_WEATHER,
        lambda n, a: ("Tonight:\nTemperature: 48°F\nWind: 5 mph NW\nForecast: Clear.", False),
    )
    assert calls[0][0] == "get_forecast"
    assert abs(calls[0][1]["latitude"] - 38.58) < 0.1 and abs(calls[0][1]["longitude"] + 121.49) < 0.1
    assert "48°F" in answer


def test_tak_uzyj_priorytetu_high_fills_the_question_asked():
    history = [
        {"role": "user", "content": "Dodaj zadanie „Kupić mleko”."},
        {"role": "assistant", "content": "Jaki priorytet ma mieć zadanie: low, medium czy high?"},
        {"role": "user", "content": "Tak, użyj priorytetu high."},
    ]
    calls, _, _ = loop(history, TASKS, lambda n, a: ("Zadanie utworzone.", False))
    assert calls == [("create_task", {"title": "Kupić mleko", "priority": "high"})]


def test_a_short_reply_answers_the_question_the_model_asked():
    weather = copy.deepcopy(DOCS_WEATHER)
    weather["input_schema"]["required"] = ["location", "unit"]
    history = [
        {"role": "user", "content": "What's the temperature in Oslo?"},
        {"role": "assistant", "content": "Which unit would you like: celsius or fahrenheit?"},
        {"role": "user", "content": "celsius"},
    ]
    calls, _, _ = loop(history, [weather], lambda n, a: ("4 degrees", False))
    assert calls == [("get_weather", {"location": "Oslo", "unit": "celsius"})]


def test_a_json_result_is_told_in_russian_with_the_city_inflected():
    calls, answer, _ = loop(
        "Какая погода в Москве?",
        [RU_WEATHER],
        lambda n, a: (json.dumps({"city": "Moscow", "temp": -3, "sky": "облачно"}, ensure_ascii=False), False),
    )
    assert calls == [("get_weather", {"city": "Moscow"})]
    assert "в москве" in answer.lower() and "-3" in answer and "облачно" in answer and "Moscow" not in answer
    plain(answer)


# ---- several places in one clause, forecasts, and which one is warmer (MCP quickstart weather, docs examples) ---

FORECASTS = {
    (39.74, -104.99): [("Today", 52, "Sunny, with a high near 52."), ("Tonight", 25, "Clear, with a low around 25.")],
    (25.76, -80.19): [("Today", 79, "Partly cloudy, with a high near 79."), ("Tonight", 70, "Mostly clear.")],
}


def forecast(name: str, args: dict) -> tuple[str, bool]:
    if name == "get_alerts":
        event = {"CA": "Red Flag Warning", "WA": "Coastal Flood Advisory"}.get(args["state"], "none")
        return json.dumps([{"event": event, "area": args["state"]}]), False
    periods = FORECASTS[(round(args["latitude"], 2), round(args["longitude"], 2))]
    return json.dumps(
        {
            "periods": [
                {"name": n, "temperature": t, "temperature_unit": "F", "detailed_forecast": f} for n, t, f in periods
            ]
        }
    ), False


def test_each_place_of_a_clause_gets_its_own_call():
    calls, answer, _ = loop("Какая погода будет сегодня в Денвере и в Майами?", MCP_WEATHER, forecast)
    assert sorted((n, a["latitude"], a["longitude"]) for n, a in calls) == [
        ("get_forecast", 25.76, -80.19),
        ("get_forecast", 39.74, -104.99),
    ]
    calls, _, _ = loop(
        "Are there weather alerts in California or in Washington state right now?", MCP_WEATHER, forecast
    )
    assert sorted(a["state"] for _, a in calls) == ["CA", "WA"]


def test_a_forecast_is_told_period_by_period_in_the_users_language():
    _, answer, _ = loop("Какая погода будет сегодня в Денвере и в Майами?", MCP_WEATHER, forecast)
    assert "Прогноз в Денвере: сегодня 52°F, солнечно." in answer and "в Майами: сегодня 79°F" in answer, answer
    assert "Sunny" not in answer and "Today" not in answer, answer


def test_which_is_warmer_is_the_difference_worked_out_without_a_clock_tool():
    def run(name: str, args: dict) -> tuple[str, bool]:
        if name == "get_weather":
            return {"Glasgow": "8°C, light rain", "London": "10°C, drizzle"}[args["location"]], False
        return '{"timezone": "Europe/London", "datetime": "2026-12-01T10:00:00+00:00"}', False

    clock = tool("get_time", "Get the current time in a given time zone", {"timezone": string("IANA time zone")})
    weather = tool("get_weather", "Get the current weather in a given location", {"location": string("The city")})
    calls, answer, _ = loop(
        "Which is warmer right now, Glasgow or London, and by how many degrees?", [weather, clock], run
    )
    assert [n for n, _ in calls] == ["get_weather", "get_weather"]
    assert "10-8 = 2" in answer, answer


# ---- github/github-mcp-server's issue_read: an enum nothing names, a 404 ---------------------------------------

ISSUE_READ = tool(
    "issue_read",
    "Gets information about one issue in a GitHub repository.",
    {
        "method": string("What to read: 'get' the issue, 'get_comments' its comments.", enum=["get", "get_comments"]),
        "owner": string("Repository owner"),
        "repo": string("Repository name"),
        "issue_number": {"type": "number", "description": "The number of the issue"},
    },
    ["method", "owner", "repo", "issue_number"],
)


def test_an_option_nothing_names_is_the_plain_one_the_others_extend():
    calls, answer, _ = loop(
        "What's issue 42 in octo-org/webshop about?",
        [ISSUE_READ],
        lambda n, a: (json.dumps({"number": 42, "title": "Checkout button does nothing on Safari"}), False),
    )
    assert calls == [("issue_read", {"method": "get", "owner": "octo-org", "repo": "webshop", "issue_number": 42})]
    assert "Issue 42" in answer and "Checkout button does nothing on Safari" in answer, answer


def test_a_not_found_error_is_not_repeated_and_is_told_plainly():
    calls, answer, drafts = loop(
        "О чём issue номер 4200 в octo-org/webshop?",
        [ISSUE_READ],
        lambda n, a: (
            "failed to get issue: GET https://api.github.com/repos/octo-org/webshop/issues/4200: 404 Not Found",
            True,
        ),
    )
    assert len(calls) == 1 and calls[0][1]["issue_number"] == 4200
    assert "ответил" not in answer and "issue_read ответил" not in answer, answer
    assert "не нашёл `4200`" in answer, answer  # told in Russian from the error's facts
    assert "`failed to get issue" in answer and "«failed" not in answer, answer  # its own words only as code


# ---- vercel/ai getting started: weather in fahrenheit, then convertFahrenheitToCelsius ------------------------

VERCEL_TOOLS = [
    tool(
        "weather",
        "Get the weather in a location (fahrenheit)",
        {"location": string("The location to get the weather for")},
        ["location"],
    ),
    tool(
        "convertFahrenheitToCelsius",
        "Convert a temperature in fahrenheit to celsius",
        {"temperature": {"type": "number", "description": "The temperature in fahrenheit to convert"}},
        ["temperature"],
    ),
]


def test_a_temperature_asked_in_celsius_is_converted_with_the_tool_that_converts_it():
    def run(name: str, args: dict) -> tuple[str, bool]:
        if name == "weather":
            return json.dumps(
                {"location": args["location"], "temperature": {"Warsaw": 41, "Moscow": 23}[args["location"]]}
            ), False
        return json.dumps({"celsius": round((args["temperature"] - 32) * 5 / 9)}), False

    calls, answer, _ = loop("What's the weather in Warsaw and Moscow in celsius?", VERCEL_TOOLS, run)
    assert sorted(a["temperature"] for n, a in calls if n == "convertFahrenheitToCelsius") == [23, 41]
    assert "41°F = 5°C." in answer and "23°F = -5°C." in answer and "41°C" not in answer, answer


# ---- numbers in words (Anthropic cookbook's tool_choice calculator, the courses' calculator with an operation) --

ADDS = tool(
    "calculator",
    "Adds two numbers",
    {
        "num1": {"type": "number", "description": "first number to add"},
        "num2": {"type": "number", "description": "second number to add"},
    },
    ["num1", "num2"],
)


@pytest.mark.parametrize(
    ("question", "numbers"),
    [
        ("What's seventeen plus twenty-five?", {"num1": 17, "num2": 25}),
        ("Сложи, пожалуйста, три тысячи двести и восемьсот пятнадцать.", {"num1": 3200, "num2": 815}),
        ("Dodaj dwieście czterdzieści siedem do osiemdziesięciu trzech.", {"num1": 247, "num2": 83}),
    ],
)
def test_numbers_in_words_reach_a_calculator_of_two_numbers(question, numbers):
    calls, answer, _ = loop(question, [ADDS], lambda n, a: (str(a["num1"] + a["num2"]), False))
    assert calls == [("calculator", numbers)]
    assert str(numbers["num1"] + numbers["num2"]) in answer, answer


def test_subtracting_from_a_number_in_the_genitive_keeps_the_order():
    from agent_core.sim.text.arithmetic import extract_expression

    assert extract_expression("Отними от тысячи двухсот пятидесяти триста семьдесят пять.") == "1250-375"
    assert extract_expression("one hundred and five plus two") == "105+2"


# ---- one clause, several values for one parameter: one call each -------------------------------------------------


def first_calls(question: str, tools: list[dict]) -> list[tuple[str, dict]]:
    """The tool calls of the model's first reply to a question."""
    body = {"model": "claude-sonnet-4-6", "max_tokens": 500, "tools": tools}
    draft = think({**body, "messages": [{"role": "user", "content": question}]}, SimSettings())
    return [(b["name"], b["input"]) for b in draft.content if b["type"] == "tool_use"]


def test_two_order_numbers_in_one_clause_are_two_calls_in_one_reply():
    calls = first_calls("What's the status of orders 24601 and 86420?", TECHNOVA)
    assert calls == [("get_order_by_id", {"order_id": "24601"}), ("get_order_by_id", {"order_id": "86420"})]


def test_the_time_in_two_cities_is_two_calls():
    zones = [a.get("timezone") for _, a in first_calls("What time is it in Tokyo and in Sydney right now?", MCP_TIME)]
    assert zones == ["Asia/Tokyo", "Australia/Sydney"]


def test_and_in_celsius_converts_the_temperature_told_the_turn_before():
    def run(name: str, args: dict) -> tuple[str, bool]:
        if name == "weather":
            return json.dumps({"location": args["location"], "temperature": 68}), False
        return json.dumps({"celsius": 20}), False

    first_calls, first, drafts = loop("What's the weather in San Francisco?", VERCEL_TOOLS, run)
    history = drafts[0].content
    messages = [
        {"role": "user", "content": "What's the weather in San Francisco?"},
        {"role": "assistant", "content": [dict(b, id="toolu_w") if b["type"] == "tool_use" else b for b in history]},
        {
            "role": "user",
            "content": [
                {"type": "tool_result", "tool_use_id": "toolu_w", "content": run("weather", first_calls[0][1])[0]}
            ],
        },
        {"role": "assistant", "content": [{"type": "text", "text": first}]},
        {"role": "user", "content": "And in celsius?"},
    ]
    calls, answer, _ = loop(messages, VERCEL_TOOLS, run)
    assert calls == [("convertFahrenheitToCelsius", {"temperature": 68})]
    assert "68°F = 20°C." in answer, answer


def test_a_confirmation_is_told_in_the_users_words_with_the_tools_beside_them():
    history = [
        {"role": "user", "content": "Отмени заказ 19283."},
        {"role": "assistant", "content": "Отменить заказ 19283? Подтвердите, пожалуйста."},
        {"role": "user", "content": "Да, отменяйте"},
    ]
    calls, answer, _ = loop(history, TECHNOVA, lambda n, a: ("Cancelled the order", False))
    assert calls == [("cancel_order", {"order_id": "19283"})]
    assert answer == "Заказ 19283: отменено («Cancelled the order»).", answer


# ---- openai-agents-python's airline example: a booking code and a seat; Russian time questions -----------------

UPDATE_SEAT = tool(
    "update_seat",
    "Update the seat for a given confirmation number.",
    {
        "confirmation_number": string("The confirmation number for the flight."),
        "new_seat": string("The new seat to update to."),
    },
    ["confirmation_number", "new_seat"],
)


def test_a_booking_code_and_a_seat_go_to_their_own_parameters():
    calls, answer, _ = loop(
        "Please move me to seat 7A, confirmation number HG52KD.",
        [UPDATE_SEAT],
        lambda n, a: (f"Updated seat to {a['new_seat']} for confirmation number {a['confirmation_number']}", False),
    )
    assert calls == [("update_seat", {"confirmation_number": "HG52KD", "new_seat": "7A"})]
    assert "don't have a tool" not in answer, answer


def test_changing_a_seat_without_the_booking_asks_for_its_number_in_russian():
    calls, answer, _ = loop("Хочу поменять место в самолёте.", [UPDATE_SEAT], lambda n, a: ("", False))
    assert calls == [] and "номер подтверждения" in answer, answer


def test_kotoryj_seichas_chas_in_two_cities_is_two_calls():
    zones = [a.get("timezone") for _, a in first_calls("Который сейчас час в Лондоне и в Нью-Йорке?", MCP_TIME)]
    assert zones == ["Europe/London", "America/New_York"]


# ---- modelcontextprotocol/servers: filesystem's allowed folder, fetch's start_index -----------------------------


def _server_tools(stem: str) -> list[dict]:
    server = json.loads((Path(__file__).parent / f"fidelity/loops/cases/{stem}.json").read_text())
    return [spec["definition"] for spec in server["tools"].values()]


def test_a_relative_path_is_put_inside_the_folder_the_error_names():
    def run(name: str, args: dict) -> tuple[str, bool]:
        if not args["path"].startswith("/home/ann/projects/"):
            return "Each path must be inside /home/ann/projects", True
        return "- buy milk\n- call the bank", False

    calls, answer, _ = loop("What's in my notes.txt?", _server_tools("mcp_server_filesystem"), run)
    assert calls == [
        ("read_text_file", {"path": "notes.txt"}),
        ("read_text_file", {"path": "/home/ann/projects/notes.txt"}),
    ]
    assert "milk" in answer, answer


def test_a_cut_result_is_read_on_from_the_index_it_names():
    def run(name: str, args: dict) -> tuple[str, bool]:
        if args.get("start_index") == 5000:
            return "## 7. Stopping the loop\nAlways cap the number of turns.", False
        return (
            "# Agent guide\n...\n<error>Content truncated. Call the fetch tool with a start_index of 5000 to get more content.</error>",
            False,
        )

    url = "https://docs.example.org/agents/guide"
    calls, _, _ = loop(
        f"What does the last part of {url} say about stopping the loop?", _server_tools("mcp_server_fetch"), run
    )
    assert calls == [("fetch", {"url": url}), ("fetch", {"url": url, "start_index": 5000})]


def test_a_list_of_nested_records_is_told_by_their_inner_fields_with_labels_in_the_users_language():
    commits = [
        {"sha": "5e6f7a8", "commit": {"message": "Fix duplicate search results", "author": {"name": "Marek W."}}},
        {"sha": "4d5e6f7", "commit": {"message": "Add product filters", "author": {"name": "Ola Z."}}},
    ]
    list_commits = tool(
        "list_commits",
        "Lists the commits of a GitHub repository.",
        {"owner": string("Repository owner"), "repo": string("Repository name")},
        ["owner", "repo"],
    )
    _, answer, _ = loop(
        "Jakie są ostatnie commity w octo-org/webshop?", [list_commits], lambda n, a: (json.dumps(commits), False)
    )
    assert (
        "commit 5e6f7a8" in answer
        and "duplikat, wyszukiwanie" in answer
        and "Fix duplicate" not in answer
        and "Ola Z." in answer
    ), answer
    assert "„sha”" not in answer and "„message”" not in answer, answer


def test_a_folder_listing_of_the_filesystem_server_is_told_as_its_entries():
    _, answer, _ = loop(
        "Co jest w katalogu /home/ann/projects/app?",
        _server_tools("mcp_server_filesystem"),
        lambda n, a: ("[FILE] app.log\n[FILE] main.py\n[DIR] tests", False),
    )
    # in a Polish answer the names are written as code, as they came
    assert "`app.log`, `main.py`" in answer and "`tests/`" in answer and "[FILE]" not in answer, answer


def test_a_long_result_is_told_by_its_heading_and_cut_where_a_clause_ends():
    """A document is told by its heading (report.md's 'Q3 sales report'), not its first table row; a sentence cut
    short ends where a clause ends, never inside a parenthesis ('(dane demonstracyjne, nie…')."""
    from agent_core.sim import gist

    report = (
        "# Q3 sales report (draft)\n\n| Region | July |\n|---|---:|\n| Poland | 48,200 |\n\n" + "Returns were low. " * 8
    )
    told = gist.tell("Read report.md", "en", report, " (report.md)")
    assert told is not None and "Q3 sales report (draft)" in told and "| Region" not in told
    weather = "6°C, zachmurzenie całkowite, wilgotność 76%, wiatr 4 m/s (dane demonstracyjne, nie prawdziwa prognoza)"
    cut = gist._piece(weather)
    assert cut.count("(") == cut.count(")") and not cut.endswith("nie…") and cut.startswith("6°C")


def test_a_status_a_diff_and_a_log_are_told_by_their_files_and_records():
    """git's plain text: a status and a diff by the files they name, a branch list with its current branch, a log
    one line a record, and 'who made the most' by the count."""
    from agent_core.sim import gist

    status = 'On branch main\nChanges not staged for commit:\n  (use "git add <file>...")\n\tmodified:   README.md\n'
    status += "\tmodified:   app/main.py\n\nUntracked files:\n\tnotes/\n\nno changes added to commit"
    told = gist.changes("en", status, " in /r")
    assert told == "Changed in /r: README.md, app/main.py. Not tracked yet: notes/.", told
    diff = "Unstaged changes:\ndiff --git a/README.md b/README.md\n-1.0\n+1.1\ndiff --git a/x.py b/x.py\n-a\n+b"
    # each file with the one short line its diff changes, as a reader tells what changed
    assert "`README.md` (`1.0` → `1.1`), `x.py` (`a` → `b`)" in (gist.changes("ru", diff) or "")
    assert gist.changes("pl", "Staged changes:\n", " (`/r`)") == "Pusto (`/r`): lista jest pusta."
    assert gist.listing("  dev\n  feature/search\n* main") == (["dev", "feature/search", "main"], [])
    log = "".join(
        f"Commit: '{h * 40}'\nAuthor: <git.Actor \"{who} <{who.split()[0].lower()}@x.com>\">\nDate: 2026-11-2{i} 10:00\n"
        f"Message: '{msg}\\n'\n\n"
        for i, (h, who, msg) in enumerate(
            [("a", "Ann K", "Fix login"), ("b", "Bo L", "Add search"), ("c", "Ann K", "Bump")]
        )
    )
    rows = gist.records("Show the log", "en", log) or ""
    assert "- “Fix login” by Ann K on 2026-11-20" in rows and "by Bo L on " in rows and "aaaaaaa" not in rows, rows
    assert "- `Fix login` (`Ann K`, 2026-11-20)" in (gist.records("Покажи лог", "ru", log) or "")
    assert gist.records("Кто сделал больше всего коммитов?", "ru", log) == "Больше всего записей у `Ann K` (2 из 3)."


def test_a_number_beside_last_is_how_many_a_count_parameter_lists():
    for question in (
        "Покажи три последних коммита в /home/ann/projects/app",
        "Show the last 3 commits in /home/ann/projects/app",
    ):
        calls, _, _ = loop(question, _server_tools("mcp_server_git"), lambda n, a: ("ok", False))
        assert calls and calls[0][1].get("max_count") == 3, calls
