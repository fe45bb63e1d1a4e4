"""The offline model with tools written the way public tutorials write them: every example of issue 11, as Claude acts."""

from __future__ import annotations

import copy
import re

import pytest

from agent_core.model import SimSettings
from agent_core.sim.brain import Draft, think


def tool(name: str, description: str, params: dict[str, str | dict], required: list[str] | None = None) -> dict:
    """A tool definition as tutorials write it: string parameters with descriptions, all required by default."""
    props = {k: v if isinstance(v, dict) else {"type": "string", "description": v} for k, v in params.items()}
    schema = {"type": "object", "properties": props, "required": list(props) if required is None else required}
    return {"name": name, "description": description, "input_schema": schema}


CUSTOMER = tool(
    "get_customer_info",
    "Retrieves customer information based on their customer ID. Returns the customer's name, email, and phone number.",
    {"customer_id": "The unique identifier for the customer."},
)
ORDER = tool(
    "get_order_details",
    "Retrieves the details of a specific order based on the order ID. Returns the order ID, product name, quantity, "
    "price, and order status.",
    {"order_id": "The unique identifier for the order."},
)
CANCEL = tool(
    "cancel_order",
    "Cancels an order based on the provided order ID. Returns a confirmation message if the cancellation is successful.",
    {"order_id": "The unique identifier for the order to be cancelled."},
)
SUPPORT = [CUSTOMER, ORDER, CANCEL]
ADD = tool(
    "add",
    "Add two numbers together.",
    {"a": {"type": "number", "description": "First number"}, "b": {"type": "number"}},
)
MULTIPLY = tool(
    "multiply",
    "Multiply two numbers.",
    {"a": {"type": "number", "description": "First number"}, "b": {"type": "number"}},
)
STOCK = tool(
    "get_stock_price",
    "Get the current stock price for a given ticker symbol, e.g. AAPL for Apple Inc.",
    {"ticker": "The stock ticker symbol, e.g. AAPL"},
)
CALCULATOR = tool(
    "calculator",
    "A simple calculator that performs basic arithmetic operations.",
    {"expression": "The mathematical expression to evaluate (e.g., '2 + 3 * 4')."},
)
EVAL_CALC = tool(
    "calculate",
    "Evaluate a mathematical expression with Python and return the result.",
    {"expression": "The mathematical expression to evaluate, e.g. '2 ** 10 + 5'"},
)
EMAIL = tool(
    "send_email",
    "Send an email to a recipient.",
    {"to": "Recipient email address", "subject": "Subject line", "body": "Body of the email"},
)
NOTE = tool("save_note", "Save a short note for the user so it can be found later.", {"text": "The note text"})
CONVERT = tool(
    "convert_currency",
    "Convert an amount of money from one currency to another using today's exchange rate.",
    {
        "amount": {"type": "number", "description": "Amount to convert"},
        "from_currency": "ISO 4217 code of the source currency, e.g. USD",
        "to_currency": "ISO 4217 code of the target currency, e.g. EUR",
    },
)
LIST_DIR = tool("list_directory", "List the files in a directory.", {"path": "Path of the directory to list"})
SQL = tool(
    "run_sql",
    "Run a read-only SQL query against the company database. "
    "Table: employees(id, name, department, salary). Returns the rows as JSON.",
    {"query": "The SQL SELECT statement to run"},
)
READ_RU = tool("read_file", "Читает файл с диска и возвращает его содержимое.", {"path": "Путь к файлу"})

OUTPUTS = {
    "get_customer_info": lambda i: f"Customer {i['customer_id']}: John Doe, john@example.com, +1-555-0100",
    "get_order_details": lambda i: f"Order {i['order_id']}: Wireless headphones x1, $79.99, status: Shipped",
    "cancel_order": lambda i: f"Order {i['order_id']} has been cancelled.",
    "add": lambda i: str(i["a"] + i["b"]),
    "multiply": lambda i: str(i["a"] * i["b"]),
    "get_stock_price": lambda i: f"{i['ticker']}: 189.84 USD",
    "calculator": lambda i: str(eval(i["expression"], {"__builtins__": {}})),  # noqa: S307 - the tutorial's own eval
    "calculate": lambda i: str(eval(i["expression"], {"__builtins__": {}})),  # noqa: S307
    "send_email": lambda i: f"Email sent to {i['to']}.",
    "save_note": lambda i: "Note saved (id 7).",
    "convert_currency": lambda i: f"{i['amount']} {i['from_currency']} = 92.10 {i['to_currency']}",
    "list_directory": lambda i: "report.md, data.csv, notes.txt",
    "run_sql": lambda i: '[{"count": 4}]',
    "read_file": lambda i: (
        "2026-11-30 12:01 ERROR Database connection refused\n2026-11-30 12:05 ERROR Timeout in /api/orders"
    ),
}


def request(task: str, tools: list[dict], system: str | None = None) -> dict:
    body = {
        "model": "claude-sonnet-4-6",
        "max_tokens": 1024,
        "tools": tools,
        "messages": [{"role": "user", "content": task}],
    }
    return {**body, "system": system} if system else body


def converse(body: dict, turns: int = 6) -> list[Draft]:
    body, drafts = copy.deepcopy(body), []
    for turn in range(turns):
        draft = think(body, SimSettings())
        drafts.append(draft)
        content = [dict(b, id=f"t{turn}_{i}") if b["type"] == "tool_use" else b for i, b in enumerate(draft.content)]
        body["messages"].append({"role": "assistant", "content": content})
        if draft.stop_reason != "tool_use":
            break
        results = [
            {"type": "tool_result", "tool_use_id": b["id"], "content": OUTPUTS[b["name"]](b["input"])}
            for b in content
            if b["type"] == "tool_use"
        ]
        body["messages"].append({"role": "user", "content": results})
    return drafts


def first_calls(drafts: list[Draft]) -> list[tuple[str, dict]]:
    return [(b["name"], b["input"]) for b in drafts[0].content if b["type"] == "tool_use"]


def answer(drafts: list[Draft]) -> str:
    return " ".join(b["text"] for b in drafts[-1].content if b["type"] == "text")


@pytest.mark.parametrize(
    "task, call, quoted",
    [
        ("What is the status of order O2?", ("get_order_details", {"order_id": "O2"}), "status: Shipped"),
        ("Can you tell me the email address for customer C1?", ("get_customer_info", {"customer_id": "C1"}), "john@"),
        ("Please cancel my order O1.", ("cancel_order", {"order_id": "O1"}), "has been cancelled"),
    ],
)
def test_customer_service_tools_are_used_for_what_their_descriptions_say(task, call, quoted):
    drafts = converse(request(task, SUPPORT))
    assert first_calls(drafts) == [call]
    assert drafts[-1].stop_reason == "end_turn" and quoted in answer(drafts)


def test_send_email_gets_recipient_subject_and_body():
    task = "Send an email to bob@example.com with the subject 'Lunch' saying that I'll be 10 minutes late."
    drafts = converse(request(task, [EMAIL, NOTE]))
    assert first_calls(drafts) == [
        ("send_email", {"to": "bob@example.com", "subject": "Lunch", "body": "I'll be 10 minutes late"})
    ]
    assert "Email sent to bob@example.com" in answer(drafts)


def test_save_note_gets_the_note_text():
    drafts = converse(request("Save a note: buy milk and eggs.", [EMAIL, NOTE]))
    assert first_calls(drafts) == [("save_note", {"text": "buy milk and eggs"})]
    assert "Note saved" in answer(drafts)


def test_convert_currency_gets_iso_codes_from_words():
    for task, pair in (
        ("How much is 100 US dollars in euros?", ("USD", "EUR")),
        ("Сколько будет 100 долларов в евро?", ("USD", "EUR")),
        ("Przelicz 100 złotych na euro.", ("PLN", "EUR")),
    ):
        drafts = converse(request(task, [CONVERT]))
        assert first_calls(drafts) == [
            ("convert_currency", {"amount": 100, "from_currency": pair[0], "to_currency": pair[1]})
        ], task
        assert "92.10" in answer(drafts)


def test_list_directory_gets_the_folder():
    drafts = converse(request("What files are in the docs folder?", [LIST_DIR]))
    assert first_calls(drafts) == [("list_directory", {"path": "docs"})]
    assert "report.md" in answer(drafts)


def test_run_sql_writes_a_select_from_the_schema_in_the_description():
    drafts = converse(request("How many employees are in the Sales department?", [SQL]))
    assert first_calls(drafts) == [("run_sql", {"query": "SELECT COUNT(*) FROM employees WHERE department = 'Sales'"})]
    assert re.search(r"\b4\b", answer(drafts)) and '"count"' not in answer(drafts)  # told, not pasted as JSON


@pytest.mark.parametrize(
    "task, call, result",
    [
        ("What is 1234 plus 5678?", ("add", {"a": 1234, "b": 5678}), "6912"),
        ("Multiply 12 by 34.", ("multiply", {"a": 12, "b": 34}), "408"),
    ],
)
def test_two_operand_tools_get_the_right_tool_and_operands_in_order(task, call, result):
    drafts = converse(request(task, [ADD, MULTIPLY]))
    assert first_calls(drafts) == [call]
    assert result in answer(drafts)


@pytest.mark.parametrize("task", ["What is the current stock price of Apple?", "How is MSFT trading today?"])
def test_stock_price_from_a_company_name_or_a_ticker(task):
    drafts = converse(request(task, [STOCK]))
    ticker = "AAPL" if "Apple" in task else "MSFT"
    assert first_calls(drafts) == [("get_stock_price", {"ticker": ticker})]
    assert "189.84" in answer(drafts)


@pytest.mark.parametrize(
    "task",
    [
        "What is the result of 1,984,135 * 9,343,116?",
        # two comma groups cannot be a decimal, in any language: the whole number, never '135*9.343'
        "Сколько будет 1,984,135 * 9,343,116?",
        "Ile to jest 1,984,135 * 9,343,116?",
        "Сколько будет 1 984 135 * 9 343 116?",
    ],
)
def test_grouped_numbers_reach_the_calculator_whole(task):
    drafts = converse(request(task, [CALCULATOR]))
    assert first_calls(drafts) == [("calculator", {"expression": "1984135*9343116"})]
    assert str(1984135 * 9343116) in answer(drafts)


def test_a_tool_that_shows_python_powers_gets_python_powers():
    drafts = converse(request("What is 2 to the power of 16?", [EVAL_CALC]))
    assert first_calls(drafts) == [("calculate", {"expression": "2**16"})]
    assert "65536" in answer(drafts) and "18" not in answer(drafts)


def test_a_tool_answer_that_disagrees_with_the_arithmetic_is_pointed_out():
    xor_calc = {**EVAL_CALC, "input_schema": CALCULATOR["input_schema"]}  # no example with ** this time
    drafts = converse(request("What is 2 to the power of 16?", [xor_calc]))
    assert first_calls(drafts) == [("calculate", {"expression": "2^16"})]
    text = answer(drafts)
    assert "18" in text and "65536" in text  # quotes what the tool said, and says what it should be
    assert "2^16 = 18" not in text


def test_russian_read_file_finds_the_log_named_in_the_system_prompt():
    system = "Ты помощник разработчика. Логи приложения находятся в файле app.log."
    drafts = converse(request("что за ошибки в логах?", [READ_RU], system=system))
    assert first_calls(drafts) == [("read_file", {"path": "app.log"})]
    text = answer(drafts)
    # The question asks for the errors: they are named (the file too), not the whole log pasted (issue 23, seed 002).
    assert "Database connection refused" in text and "app.log" in text and "Service started" not in text


FETCH = tool("fetch_text", "Returns the contents of a stored document.", {"name": "The document's name"})
OUTPUTS["fetch_text"] = lambda i: f"{i['name']}: 09:12 ERROR Disk quota exceeded"


@pytest.mark.parametrize(
    "system, question",
    [
        ("The server's logs are in server.log; use fetch_text to read them.", "Any errors in the logs?"),
        ("Журнал сервера — в файле server.log; читай его инструментом fetch_text.", "Есть ли в журнале ошибки?"),
        ("Dziennik serwera jest w pliku server.log; czytaj go narzędziem fetch_text.", "Czy w dzienniku są błędy?"),
    ],
)
def test_a_tool_tied_to_the_question_only_by_the_system_prompt_is_used(system, question):
    drafts = converse(request(question, [FETCH, ADD], system=system))
    assert first_calls(drafts) == [("fetch_text", {"name": "server.log"})]
    assert "system prompt names fetch_text" in drafts[0].reasoning  # the thinking says why
    assert "Disk quota exceeded" in answer(drafts)
    unrelated = think(request("What is the capital of Australia?", [FETCH], system=system), SimSettings())
    assert not [b for b in unrelated.content if b["type"] == "tool_use"]  # the tie is to the question's words
