"""The same agent loop with streaming: text appears as it is generated, tools run when the message is complete.

Usage: python stream_agent.py "What is 17 times 23?"
"""

import sys

import anthropic
from tool_agent import MODEL, run_tool, tools


def main(question):
    client = anthropic.Anthropic()
    messages = [{"role": "user", "content": question}]
    for turn in range(10):
        with client.messages.stream(model=MODEL, max_tokens=1024, tools=tools, messages=messages) as stream:
            for text in stream.text_stream:
                print(text, end="", flush=True)
            response = stream.get_final_message()
        print()
        messages.append({"role": "assistant", "content": response.content})
        if response.stop_reason != "tool_use":
            break
        results = []
        for block in response.content:
            if block.type == "tool_use":
                output, failed = run_tool(block.name, block.input)
                print(f"TOOL {block.name} {block.input} -> {output}")
                results.append({"type": "tool_result", "tool_use_id": block.id, "content": output, "is_error": failed})
        messages.append({"role": "user", "content": results})
    answer = "".join(block.text for block in response.content if block.type == "text")
    print(f"STOP {response.stop_reason} after {turn + 1} turns")
    print(f"ANSWER {answer}")


if __name__ == "__main__":
    main(" ".join(sys.argv[1:]))
