"""Агент, читающий логи, как его пишут в русскоязычных уроках: цикл Messages API с инструментом read_file.

Запуск: python ru_log_reader.py "что за ошибки в логах?"
ANTHROPIC_API_KEY и ANTHROPIC_BASE_URL берутся из окружения (SDK читает их сам).
"""

import json
import pathlib
import sys

import anthropic

MODEL = "claude-sonnet-4-6"
FILES = pathlib.Path(__file__).parent / "files"
SYSTEM = "Ты помощник разработчика. Логи приложения находятся в файле app.log. Отвечай по-русски."

tools = [
    {
        "name": "read_file",
        "description": "Читает файл с диска и возвращает его содержимое.",
        "input_schema": {
            "type": "object",
            "properties": {"path": {"type": "string", "description": "Путь к файлу"}},
            "required": ["path"],
        },
    }
]


def read_file(path):
    # Только файлы из папки files: имя файла выбирает модель, а не путь на диске.
    return (FILES / pathlib.Path(path).name).read_text(encoding="utf-8")


def main(question):
    client = anthropic.Anthropic()
    messages = [{"role": "user", "content": question}]
    for turn in range(10):  # noqa: B007 - turn is printed after the loop
        response = client.messages.create(model=MODEL, max_tokens=1024, system=SYSTEM, tools=tools, messages=messages)
        messages.append({"role": "assistant", "content": response.content})
        if response.stop_reason != "tool_use":
            break
        results = []
        for block in response.content:
            if block.type == "tool_use":
                try:
                    output, failed = read_file(**block.input), False
                except Exception as error:
                    output, failed = f"{type(error).__name__}: {error}", True
                print(f"TOOL {block.name} {json.dumps(block.input, ensure_ascii=False)} -> {output!r}")
                results.append({"type": "tool_result", "tool_use_id": block.id, "content": output, "is_error": failed})
        messages.append({"role": "user", "content": results})
    answer = "".join(block.text for block in response.content if block.type == "text")
    print(f"STOP {response.stop_reason} after {turn + 1} turns")
    print(f"ANSWER {answer}")


if __name__ == "__main__":
    main(" ".join(sys.argv[1:]))
