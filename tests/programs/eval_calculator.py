"""A calculator agent as Python tutorials write it: the tool hands the model's expression to eval().

Usage: python eval_calculator.py "What is 2 to the power of 16?"
Reads ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL from the environment (the SDK does this itself).
"""

import json
import sys

import anthropic

MODEL = "claude-sonnet-4-6"

tools = [
    {
        "name": "calculate",
        "description": "Evaluate a mathematical expression and return the result.",
        "input_schema": {
            "type": "object",
            "properties": {
                "expression": {
                    "type": "string",
                    "description": "The mathematical expression to evaluate, e.g. '2 ** 10 + 5'",
                }
            },
            "required": ["expression"],
        },
    }
]


def calculate(expression):
    # The tutorial's shortcut, kept so the test shows what a model's syntax does to it ("2^16" is XOR in Python).
    # No builtins, and only the offline model talks to this program; never eval what a real model sends.
    return str(eval(expression, {"__builtins__": {}}, {}))  # noqa: S307


def main(question):
    client = anthropic.Anthropic()
    messages = [{"role": "user", "content": question}]
    for turn in range(10):  # noqa: B007 - turn is printed after the loop
        response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
        messages.append({"role": "assistant", "content": response.content})
        if response.stop_reason != "tool_use":
            break
        results = []
        for block in response.content:
            if block.type == "tool_use":
                try:
                    output, failed = calculate(**block.input), False
                except Exception as error:
                    output, failed = f"{type(error).__name__}: {error}", True
                print(f"TOOL {block.name} {json.dumps(block.input)} -> {output}")
                results.append({"type": "tool_result", "tool_use_id": block.id, "content": output, "is_error": failed})
        messages.append({"role": "user", "content": results})
    answer = "".join(block.text for block in response.content if block.type == "text")
    print(f"STOP {response.stop_reason} after {turn + 1} turns")
    print(f"ANSWER {answer}")


if __name__ == "__main__":
    main(" ".join(sys.argv[1:]))
