"""Structured outputs and forced choice as public examples use them (sources named): the output tool gets values
read by meaning, the real tools run first when the output needs them, and a forced reply channel still asks for
what is missing in words the user knows."""

from __future__ import annotations

import json

import pytest
from test_sim_planner import loop, string, tool

from agent_core.model import SimSettings
from agent_core.sim.brain import think

# ---- Anthropic cookbook, tool_use/tool_choice.ipynb: an SMS bot under tool_choice any -----------------------------

SMS_SYSTEM = (
    "All your communication with a user is done via text message. Only call tools when you have enough information "
    "to accurately call them. Do not call the get_customer_info tool until a user has provided you with their "
    "username. This is important. If you do not know a user's username, simply ask a user for their username."
)
SEND_TEXT = tool("send_text_to_user", "Sends a text message to a user", {"text": string("The text to send")})
CUSTOMER_INFO = tool(
    "get_customer_info",
    "Gets information on a customer by their username: email, username and previous purchases. "
    "Only call this tool once a user has given you their username",
    {"username": string("The username of the user in question.")},
)
PURCHASES = {"purchases": [{"id": 1, "product": "computer mouse"}, {"id": 2, "product": "screen protector"}]}


def customer(name: str, args: dict) -> tuple[str, bool]:
    return json.dumps({"username": args.get("username"), **PURCHASES}), False


def sms(question: str) -> list[tuple[str, dict]]:
    calls, _, _ = loop(
        question,
        [SEND_TEXT, CUSTOMER_INFO],
        customer,
        until=("send_text_to_user",),
        tool_choice={"type": "any"},
        system=SMS_SYSTEM,
    )
    return calls


@pytest.mark.parametrize(
    ("question", "word"),
    [
        ("I need help looking up an order", "username"),
        ("Potrzebuję pomocy ze sprawdzeniem zamówienia", "login"),
        ("Помогите проверить мой заказ", "логин"),
    ],
)
def test_forced_reply_asks_for_the_username_in_words_the_user_knows(question, word):
    calls = sms(question)
    assert [n for n, _ in calls] == ["send_text_to_user"]
    text = calls[0][1]["text"]
    assert word in text.lower() and "get_customer_info" not in text, text


@pytest.mark.parametrize(
    ("question", "username", "product"),
    [
        ("I need help looking up an order.  My username is jenny76", "jenny76", "computer mouse"),
        ("Помогите найти мой заказ, мой логин ivan_petrov", "ivan_petrov", "компьютерная мышь"),
    ],
)
def test_forced_reply_looks_the_order_up_first_once_the_username_is_given(question, username, product):
    calls = sms(question)
    assert calls[0] == ("get_customer_info", {"username": username})
    assert calls[1][0] == "send_text_to_user" and product in calls[1][1]["text"], calls
    assert "нет инструмента" not in calls[1][1]["text"]  # 'мой логин ivan_petrov' gives a value, it asks nothing


# ---- pydantic-ai's bank-support example: SupportOutput as final_result, the customer's name in the instructions ---

BANK_SYSTEM = (
    "You are a support agent in our bank, give the customer support and judge the risk level of their query. "
    "Reply using the customer's name.\n\nThe customer's name is 'John'"
)
SUPPORT_OUTPUT = tool(
    "final_result",
    "The final response which ends this conversation",
    {
        "support_advice": string("Advice returned to the customer"),
        "block_card": {"type": "boolean", "description": "Whether to block their card or not"},
        "risk": {"type": "integer", "description": "Risk level of query"},
    },
)
BALANCE = tool("customer_balance", "Returns the customer's current account balance.", {})


@pytest.mark.parametrize(
    ("question", "block", "risky"),
    [("I just lost my card!", True, True), ("Can I change my card's PIN in the app?", False, False)],
)
def test_bank_support_output_judges_the_card_and_uses_the_customers_name(question, block, risky):
    calls, _, _ = loop(
        question,
        [BALANCE, SUPPORT_OUTPUT],
        lambda name, args: ("$123.45", False),
        until=("final_result",),
        tool_choice={"type": "any"},
        system=BANK_SYSTEM,
    )
    name, output = calls[-1]
    assert name == "final_result" and output["support_advice"].startswith("John, ")
    assert output["block_card"] is block and (output["risk"] >= 5) is risky


# ---- Anthropic cookbook, extracting_structured_json.ipynb: print_entities ----------------------------------------


def test_entities_with_a_company_suffix_are_organisations():
    entity = {
        "type": "object",
        "properties": {"name": string(), "type": string("PERSON, ORGANIZATION or LOCATION"), "context": string()},
    }
    printer = tool(
        "print_entities",
        "Prints extract named entities.",
        {"entities": {"type": "array", "items": entity}},
    )
    text = "<document>\nHe met with Sarah, the CEO of Acme Inc., last week in San Francisco.\n</document>\n\n"
    body = {
        "model": "claude-sonnet-4-6",
        "max_tokens": 500,
        "tools": [printer],
        "messages": [{"role": "user", "content": text + "Use the print_entities tool."}],
    }
    draft = think(body, SimSettings())
    found = {e["name"]: e["type"] for e in draft.content[-1]["input"]["entities"]}
    assert found.get("Acme Inc") == "ORGANIZATION" and found.get("Sarah") == "PERSON", found


def test_an_output_tools_temperature_is_read_from_a_result_in_degrees():
    """pydantic-ai's output_type=Weather(city, temperature) after get_weather -> 'Weather in Oslo: 4°C, light rain'
    (compat's structured case): the output tool gets 4, not a default 0, with no 'temperature:' label to copy."""
    import anthropic
    import httpx2

    from agent_core.model import SimSettings
    from agent_core.sim import SimTransport

    client = anthropic.Anthropic(
        api_key="k", base_url="http://sim.invalid", http_client=httpx2.Client(transport=SimTransport(SimSettings()))
    )
    city = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
    weather = {
        "type": "object",
        "properties": {"city": {"type": "string"}, "temperature": {"type": "number"}},
        "required": ["city", "temperature"],
        "title": "Weather",
    }
    tools = [
        {"name": "get_weather", "description": "Current weather in a city.", "input_schema": city},
        {
            "name": "final_result",
            "description": "The final response which ends this conversation",
            "input_schema": weather,
        },
    ]
    messages: list = [{"role": "user", "content": "What's the weather in Oslo?"}]
    first = client.messages.create(
        model="claude-sonnet-4-6", max_tokens=500, messages=messages, tools=tools, tool_choice={"type": "any"}
    )
    call = next(b for b in first.content if b.type == "tool_use")
    assert call.name == "get_weather"
    messages += [
        {"role": "assistant", "content": first.content},
        {
            "role": "user",
            "content": [{"type": "tool_result", "tool_use_id": call.id, "content": "Weather in Oslo: 4°C, light rain"}],
        },
    ]
    second = client.messages.create(
        model="claude-sonnet-4-6", max_tokens=500, messages=messages, tools=tools, tool_choice={"type": "any"}
    )
    final = next(b for b in second.content if b.type == "tool_use")
    assert (final.name, final.input) == ("final_result", {"city": "Oslo", "temperature": 4.0})
