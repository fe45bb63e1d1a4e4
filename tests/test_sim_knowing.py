"""What the offline model knows without tools and how it reads numbers: facts from its small table answered without a
call even when a tool shares a word with them, and numbers said as a reader writes them (issue 23, items 1 and 5)."""

from __future__ import annotations

from test_sim_planner import loop, string, tool

# The tool-use overview's weather tools (docs.anthropic.com, tool-use overview): a location tool and a weather tool.
GET_LOCATION = tool("get_location", "Get the current user location based on their IP address.", {})
GET_WEATHER = tool(
    "get_weather",
    "Get the current weather in a given location, temperature included.",
    {"location": string("The city and state, e.g. San Francisco, CA")},
)


def _weather(name: str, args: dict) -> tuple[str, bool]:
    return ("Glasgow, Scotland, UK", False) if name == "get_location" else ("8°C, light rain", False)


def test_a_known_fact_that_shares_a_word_with_a_tool_is_answered_without_calling_it():
    for question, fragment in (
        ("At what temperature does water boil?", "100"),
        ("При какой температуре кипит вода на уровне моря?", "100"),
        ("W jakiej temperaturze wrze woda na poziomie morza?", "100"),
    ):
        calls, answer, _ = loop(question, [GET_LOCATION, GET_WEATHER], _weather)
        assert calls == [] and fragment in answer, (question, calls, answer)
    calls, answer, _ = loop("What's the temperature in Glasgow right now?", [GET_LOCATION, GET_WEATHER], _weather)
    assert calls == [("get_weather", {"location": "Glasgow"})] and "8°C" in answer


def test_a_tool_the_system_prompt_keeps_for_what_the_model_does_not_know_is_not_called_for_what_it_knows():
    # Anthropic's tool-use course, lesson 4: get_article only "if answering requires data you were not trained on".
    system = (
        "If answering the question requires data you were not trained on, you can use the get_article tool. "
        "If you can answer the question without needing to get more information, please do so."
    )
    article = tool("get_article", "Fetch a Wikipedia article.", {"search_term": string("The article to look up")})
    for question, fragment in (
        ("How many legs does an octopus have?", "eight"),
        ("Сколько ног у осьминога?", "восемь"),
        ("Kto napisał książkę „Życie Pi”?", "Yann Martel"),
    ):
        calls, answer, _ = loop(question, [article], lambda n, a: ("No article.", False), system=system)
        assert calls == [] and fragment in answer, (question, calls, answer)


# ---- numbers as people say them, and as a reader writes them ---------------------------------------------------------

# LlamaIndex's starter example: multiply(a: float, b: float) answers 5635678.0.
MULTIPLY = tool("multiply", "Useful for multiplying two numbers.", {"a": {"type": "number"}, "b": {"type": "number"}})
ADD = tool(
    "add", "Add two integers and returns the result integer", {"a": {"type": "integer"}, "b": {"type": "integer"}}
)


def _arith(name: str, args: dict) -> tuple[str, bool]:
    value = float(args["a"]) * float(args["b"]) if name == "multiply" else float(args["a"]) + float(args["b"])
    return str(value), False


def test_a_float_tools_whole_number_is_said_without_its_point_zero():
    calls, answer, _ = loop("What is 1234 * 4567?", [MULTIPLY], _arith)
    assert calls == [("multiply", {"a": 1234, "b": 4567})]
    assert "5635678" in answer and "5635678.0" not in answer


def test_step_by_step_is_how_to_work_not_a_search():
    for question in ("Ile to jest (6+4)*(3+2)? Licz krok po kroku.", "Сколько будет (6+4)*(3+2)? Считай по шагам."):
        calls, answer, _ = loop(question, [ADD, MULTIPLY], _arith)
        assert ("multiply", {"a": 10, "b": 5}) in calls and "50" in answer, (question, answer)
        assert "narzędzia" not in answer and "инструмента" not in answer, answer


def test_powers_said_with_an_ordinal_and_decimals_said_in_words():
    from agent_core.sim.text.arithmetic import extract_expression
    from agent_core.sim.text.entities import of_kind

    assert extract_expression("Что больше: два в десятой степени или тысяча?") == "2^10"
    assert extract_expression("Co jest większe: dwa do potęgi dziesiątej czy tysiąc?") == "2^10"
    assert extract_expression("What is three to the fourth power?") == "3^4"
    for text in (
        "Переведи девяносто восемь и шесть десятых градуса по Фаренгейту в Цельсий.",
        "What is ninety-eight point six degrees Fahrenheit in Celsius?",
        "Przelicz dziewięćdziesiąt osiem i sześć dziesiątych stopnia Fahrenheita na Celsjusza.",
    ):
        assert [e.value for e in of_kind(text, "number")] == [98.6], text
    assert [e.value for e in of_kind("Сложи два и три", "number")] == [2, 3]


def test_a_conversion_tool_answer_names_both_units_in_the_users_language():
    # The Vercel AI SDK's Node.js getting-started: convertFahrenheitToCelsius(temperature).
    convert = tool(
        "convertFahrenheitToCelsius",
        "Convert a temperature in fahrenheit to celsius",
        {"temperature": {"type": "number", "description": "The temperature in fahrenheit to convert"}},
    )
    celsius = lambda n, a: (f'{{"celsius": {round((a["temperature"] - 32) * 5 / 9)}}}', False)  # noqa: E731
    calls, answer, _ = loop(
        "Переведи девяносто восемь и шесть десятых градуса по Фаренгейту в Цельсий.", [convert], celsius
    )
    assert calls == [("convertFahrenheitToCelsius", {"temperature": 98.6})] and answer == "98,6 °F — это 37 °C."
    _, answer, _ = loop("What is ninety-five degrees Fahrenheit in Celsius?", [convert], celsius)
    assert answer == "95°F = 35°C."


def test_a_things_name_is_taken_as_written_and_a_limit_clause_is_part_of_the_call():
    # Anthropic's tool-use course: inventory_lookup(product_name, max_results), both required.
    lookup = tool(
        "inventory_lookup",
        "Looks up a product in the inventory and returns up to max_results matching items with their stock.",
        {
            "product_name": string("The name of the product to look up."),
            "max_results": {"type": "integer", "description": "The most results to return."},
        },
    )
    stock = lambda n, a: ('[{"sku": "X-1", "name": "Item", "in_stock": 37}]', False)  # noqa: E731
    calls, answer, _ = loop("Look up AA batteries in the inventory, four results at most.", [lookup], stock)
    assert calls == [("inventory_lookup", {"product_name": "AA batteries", "max_results": 4})] and "37" in answer
    calls, _, _ = loop(
        "Sprawdź w magazynie świeczki urodzinowe (birthday candle), maksymalnie dziesięć wyników.", [lookup], stock
    )
    assert calls == [("inventory_lookup", {"product_name": "birthday candle", "max_results": 10})]


# Anthropic's tool-use course, lesson 2: calculator(operation: add|subtract|multiply|divide, operand1, operand2).
CALCULATOR = tool(
    "calculator",
    "A simple calculator that performs basic arithmetic operations.",
    {
        "operation": string("The arithmetic operation to perform.", enum=["add", "subtract", "multiply", "divide"]),
        "operand1": {"type": "number", "description": "The first operand."},
        "operand2": {"type": "number", "description": "The second operand."},
    },
)


def _operate(name: str, args: dict) -> tuple[str, bool]:
    a, b = args["operand1"], args["operand2"]
    value = {"add": a + b, "subtract": a - b, "multiply": a * b, "divide": a / b}[args["operation"]]
    return str(int(value) if float(value).is_integer() else value), False


def test_then_on_the_result_is_the_next_operation_with_an_operation_enum_calculator():
    for question in (
        "Add 120 and 80, then divide the result by 4.",
        "Сложи 120 и 80, а потом раздели результат на 4.",
        "Dodaj 120 i 80, a potem podziel wynik przez 4.",
    ):
        calls, answer, _ = loop(question, [CALCULATOR], _operate)
        assert calls == [
            ("calculator", {"operation": "add", "operand1": 120, "operand2": 80}),
            ("calculator", {"operation": "divide", "operand1": 200, "operand2": 4}),
        ], question
        assert "50" in answer


def test_a_word_problem_is_one_sum_for_the_calculator():
    # The cookbook's calculator tool (anthropic-cookbook tool_use/calculator_tool.ipynb) and its chickens question.
    calc = tool("calculator", "A simple calculator for basic arithmetic operations.", {"expression": string()})
    from agent_core.sim.text.arithmetic import evaluate

    for question in (
        "I have 300 chickens. I sell 25% of them, then buy twelve more. How many chickens do I have now?",
        "У меня есть 300 кур. Я продаю 25% из них, а потом покупаю ещё двенадцать. Сколько у меня кур?",
        "Mam 300 kurczaków. Sprzedaję 25% z nich, potem kupuję dwanaście. Ile mam teraz kurczaków?",
    ):
        calls, answer, _ = loop(question, [calc], lambda n, a: (str(evaluate(a["expression"])), False))
        assert len(calls) == 1 and evaluate(calls[0][1]["expression"]) == "237" and "237" in answer, question


# pydantic-ai's tools docs: the dice game, two tools without parameters and the docs' own instructions.
DICE_SYSTEM = (
    "You're a dice game, you should roll the die and see if the number you get back matches the user's guess. "
    "If so, tell them they're a winner. Use the player's name in the response."
)
ROLL = tool("roll_dice", "Roll a six-sided die and return the result.", {})
PLAYER = tool("get_player_name", "Get the player's name.", {})


def _dice(name: str, args: dict) -> tuple[str, bool]:
    return ("4", False) if name == "roll_dice" else ("Anne", False)


def test_the_system_prompts_standing_task_runs_on_a_turn_that_asks_nothing_of_its_own():
    for question, fragments in (
        ("My guess is 4", ("Anne", "winner")),
        ("Думаю, выпадет шесть", ("Anne", "6", "не угадали")),
        ("Obstawiam czwórkę", ("Anne", "wygrana")),
    ):
        calls, answer, drafts = loop(question, [ROLL, PLAYER], _dice, system=DICE_SYSTEM)
        assert sorted(calls) == [("get_player_name", {}), ("roll_dice", {})] and len(drafts) == 2, question
        assert all(f in answer for f in fragments), (question, answer)
    calls, answer, _ = loop("Hello!", [ROLL, PLAYER], _dice, system=DICE_SYSTEM)
    assert calls == []


def test_a_question_a_tools_own_description_answers_needs_no_call():
    calls, answer, _ = loop("How many sides does the die you roll have?", [ROLL, PLAYER], _dice, system=DICE_SYSTEM)
    assert calls == [] and answer.startswith("6") and "six-sided" in answer


def test_which_is_bigger_sets_the_worked_out_sum_against_the_other_number():
    # LlamaIndex's ReAct agent tools (add, multiply): no tool raises to a power, so the sum is worked out in the head.
    for question, expected in (
        ("Which is bigger, 2 to the power of 10 or 1000?", "2^10 = 1024, which is more than 1000."),
        ("Что больше: два в десятой степени или тысяча?", "2^10 = 1024, это больше, чем 1000."),
        ("Co jest większe: dwa do potęgi dziesiątej czy tysiąc?", "2^10 = 1024, czyli więcej niż 1000."),
    ):
        calls, answer, _ = loop(question, [ADD, MULTIPLY], _arith)
        assert calls == [] and answer == expected, (question, answer)


# LangGraph's SQL agent tutorial (langchain-ai.github.io/langgraph/tutorials/sql/sql-agent): its system prompt rules
# out changes to the database.
SQL_SYSTEM = (
    "You are an agent designed to interact with a SQL database. DO NOT make any DML statements (INSERT, UPDATE, "
    "DELETE, DROP etc.) to the database. To start you should ALWAYS look at the tables in the database."
)
SQL_TOOLS = [
    tool("sql_db_list_tables", "Output is a comma-separated list of the database's tables.", {}),
    tool(
        "sql_db_query",
        "Input is a detailed and correct SQL query; output is the database's result.",
        {"query": string()},
    ),
]


def _tables(name: str, args: dict) -> tuple[str, bool]:
    return ("Album, Artist, Customer", False) if name == "sql_db_list_tables" else ("[(3,)]", False)


def test_a_change_the_system_prompt_forbids_is_declined_naming_the_rule():
    for question, fragment in (
        ("Delete all customers from Germany.", "can't"),
        ("Удали из базы всех клиентов из Германии.", "не могу"),
        ("Zmień e-mail klienta 5 na a@b.com.", "Nie mogę"),
    ):
        calls, answer, _ = loop(question, SQL_TOOLS, _tables, system=SQL_SYSTEM)
        assert calls == [] and fragment in answer and "DELETE" in answer, (question, calls, answer)


def test_a_question_under_the_same_rule_is_still_answered():
    calls, answer, _ = loop("How many customers are there?", SQL_TOOLS, _tables, system=SQL_SYSTEM)
    assert calls and calls[0][0] == "sql_db_list_tables" and "can't" not in answer, (calls, answer)
