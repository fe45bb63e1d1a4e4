"""The task every client runs in the matrix: tools as public tutorials write them, and what a correct run shows."""

from __future__ import annotations

QUESTION = "How much warmer is it in Warsaw than in Oslo?"
ONE_CITY = "What's the weather in Oslo?"
WEATHER = {"warsaw": "Weather in Warsaw: 6°C, cloudy", "oslo": "Weather in Oslo: 4°C, light rain"}
# Three model calls: both cities (in parallel), then the difference, then the answer.
TURNS = 3


def get_weather(city: str) -> str:
    """Current weather in a city. Use it for any weather question."""
    return WEATHER.get(city.strip().lower(), f"Weather in {city}: 10°C, clear")


def calculate(expression: str) -> str:
    """Evaluate an arithmetic expression such as 6-4 and return the result."""
    allowed = set("0123456789+-*/(). ")
    if not set(expression) <= allowed:
        return f"Error: unexpected character in {expression!r}"
    return str(eval(expression, {"__builtins__": {}}, {}))  # noqa: S307 (digits and operators only)


def right(answer: str) -> bool:
    """A correct answer names the difference: 2 degrees."""
    return "2" in answer and ("6" in answer or "4" in answer or "warmer" in answer.lower() or "=" in answer)


SCHEMA_DOC = "The weather in one city."


def tool_defs() -> list[dict]:
    """Both tools as Messages API definitions."""
    return [
        {
            "name": "get_weather",
            "description": get_weather.__doc__,
            "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
        },
        {
            "name": "calculate",
            "description": calculate.__doc__,
            "input_schema": {
                "type": "object",
                "properties": {"expression": {"type": "string"}},
                "required": ["expression"],
            },
        },
    ]


def openai_tools() -> list[dict]:
    """Both tools in OpenAI's function form."""
    return [
        {
            "type": "function",
            "function": {"name": t["name"], "description": t["description"], "parameters": t["input_schema"]},
        }
        for t in tool_defs()
    ]


def run_tool(name: str, args: dict) -> str:
    return get_weather(**args) if name == "get_weather" else calculate(**args)
