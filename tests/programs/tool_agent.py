"""A tool-using agent in the style of a public tutorial: the Messages API in a while loop.

Usage: python tool_agent.py "What's the weather in Oslo?"
Reads ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL from the environment (the SDK does this itself).
"""

import ast
import json
import operator
import pathlib
import sys

import anthropic

MODEL = "claude-sonnet-4-6"
FILES = pathlib.Path(__file__).parent / "files"

tools = [
    {
        "name": "get_weather",
        "description": "Get the current weather for a city. Use it whenever the user asks about weather, "
        "temperature or rain somewhere. Returns the temperature in Celsius and the sky.",
        "input_schema": {
            "type": "object",
            "properties": {"city": {"type": "string", "description": "City name, e.g. Oslo"}},
            "required": ["city"],
        },
    },
    {
        "name": "calculate",
        "description": "Calculate an arithmetic expression exactly. Use it for any arithmetic: "
        "sums, products, powers. Supports + - * / ^ and parentheses.",
        "input_schema": {
            "type": "object",
            "properties": {"expression": {"type": "string", "description": "The expression, e.g. 17*23"}},
            "required": ["expression"],
        },
    },
    {
        "name": "read_file",
        "description": "Read a text file from the user's notes folder and return its content. "
        "Use it when the user asks what a file says.",
        "input_schema": {
            "type": "object",
            "properties": {"path": {"type": "string", "description": "File name, e.g. notes.txt"}},
            "required": ["path"],
        },
    },
]


def get_weather(city):
    # A fake weather service: the same city always gets the same report.
    temperature = sum(ord(ch) for ch in city.lower()) % 25
    return f"{city}: {temperature}°C, cloudy"


OPERATORS = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.Pow: operator.pow,
    ast.USub: operator.neg,
}


def calculate(expression):
    def value(node):
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
            return node.value
        if isinstance(node, ast.BinOp) and type(node.op) in OPERATORS:
            return OPERATORS[type(node.op)](value(node.left), value(node.right))
        if isinstance(node, ast.UnaryOp) and type(node.op) in OPERATORS:
            return OPERATORS[type(node.op)](value(node.operand))
        raise ValueError(f"unsupported expression: {expression}")

    result = value(ast.parse(expression.replace("^", "**"), mode="eval").body)
    return str(int(result) if float(result).is_integer() else result)


def read_file(path):
    return (FILES / pathlib.Path(path).name).read_text(encoding="utf-8")


def run_tool(name, tool_input):
    functions = {"get_weather": get_weather, "calculate": calculate, "read_file": read_file}
    try:
        return functions[name](**tool_input), False
    except Exception as error:
        return f"{type(error).__name__}: {error}", True


def main(question):
    client = anthropic.Anthropic()
    messages = [{"role": "user", "content": question}]
    for turn in range(10):  # always cap the loop
        response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
        messages.append({"role": "assistant", "content": response.content})
        if response.stop_reason != "tool_use":
            break
        results = []
        for block in response.content:
            if block.type == "tool_use":
                output, failed = run_tool(block.name, block.input)
                print(f"TOOL {block.name} {json.dumps(block.input, ensure_ascii=False)} -> {output}")
                results.append({"type": "tool_result", "tool_use_id": block.id, "content": output, "is_error": failed})
        messages.append({"role": "user", "content": results})
    answer = "".join(block.text for block in response.content if block.type == "text")
    print(f"STOP {response.stop_reason} after {turn + 1} turns")
    print(f"ANSWER {answer}")


if __name__ == "__main__":
    main(" ".join(sys.argv[1:]))
