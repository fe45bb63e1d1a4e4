"""Output tools: a framework's structured result (pydantic-ai's final_result, LangChain's schema-named tool,
smolagents' final_answer, a cookbook's print_entities) and a reply channel under forced choice (send_text_to_user).

The real tools run first when the question needs them; then the output tool is called once with the gathered
values, so a loop with tool_choice any ends (BEHAVIOUR.md, "Structured outputs and forced choice")."""

from __future__ import annotations

import json
import re
from functools import lru_cache
from typing import Any

from agent_core.sim import args as argfill
from agent_core.sim import extract, kinds, knowledge
from agent_core.sim.extract import texty
from agent_core.sim.text import language as lx
from agent_core.sim.text.reader import Need, View, _tool_key
from agent_core.sim.text.results import call_key

_NAMES = ("final_result", "final_answer", "final_output", "final_response", "respond", "submit_answer", "answer")
_DESCRIBED = re.compile(
    r"final (?:response|answer|result|output)|response (?:schema|format)"
    r"|structured (?:output|response|result)|the answer to the user",
    re.I,
)
_SCHEMA = re.compile(r"\b(?:response|output) (?:schema|format)\b|\bschema for\b", re.I)
_REPLY = re.compile(r"\bsends? (?:a |the )?(?:text |sms )?message to (?:a |the )?(?:user|customer)", re.I)


@lru_cache(maxsize=512)
def _is_output(tool_json: str, forced: bool) -> bool:
    tool = json.loads(tool_json)
    name, description = str(tool.get("name", "")), str(tool.get("description") or "")
    schema = tool.get("input_schema") or {}
    if not schema.get("properties") and not schema.get("additionalProperties"):
        return False  # an output tool's input is the result: say_goodbye() 'to end the conversation' carries none
    if name in _NAMES or name.startswith("final_result") or _DESCRIBED.search(description):
        return True
    if name.startswith("print_") and description.lower().startswith("print"):
        return True  # the cookbook's extraction tools: their input is the result
    if re.fullmatch(r"[A-Z][A-Za-z0-9]+(?:Response|Output|Result|Format|Schema|Answer)", name):
        return True  # LangChain's ToolStrategy names the tool after the schema class
    schema_title = schema.get("title")
    if forced and re.fullmatch(r"[A-Z][A-Za-z0-9]+", name) and (schema_title == name or _SCHEMA.search(description)):
        return True
    return forced and bool(_REPLY.search(description))


def outputs(view: View) -> list[dict[str, Any]]:
    """The request's output tools, in their order."""
    forced = view.choice_type in ("any", "tool")
    return [t for t, key in zip(view.tools, view.tool_keys, strict=False) if _is_output(key, forced)]


FORCED_BAR = 1  # under forced choice a tool that shares any meaning with the need serves it


def lower_bar(view: View, choice: dict[str, Any]) -> None:
    """Under tool_choice any/tool the model must call something: a real tool that shares what the need is about
    (get_customer_info's 'previous purchases' for 'my order') serves it rather than the output tool saying it has
    no tool; its missing arguments are then asked for through the output tool ('What is your username?')."""
    if choice.get("type") in ("any", "tool") and view.tools:
        view.bar = FORCED_BAR
        view.notes.append(
            f"tool_choice {choice.get('type')} makes me act, so a tool scoring {FORCED_BAR} serves a need."
        )


def named(view: View, tools: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The output tool the user or the choice names ('Use the print_entities tool', tool_choice tool)."""
    if view.choice_type == "tool":
        return next((t for t in tools if t.get("name") == view.choice.get("name")), None)
    folded = view.question
    return next((t for t in tools if re.search(rf"(?<![\w-]){re.escape(str(t.get('name')))}(?![\w-])", folded)), None)


def pick(view: View, tools: list[dict[str, Any]]) -> dict[str, Any]:
    """Of several output tools (return_fruit, return_vehicle), the one the question's subject is a kind of."""
    if len(tools) == 1:
        return tools[0]
    subject = extract.thing(view.question)
    if subject:
        for tool in tools:
            words = set(lx.words(f"{tool.get('name', '')} {(tool.get('input_schema') or {}).get('title', '')}"))
            if subject.get("kind") in words or any(lx.stem(w) == lx.stem(subject.get("kind", "")) for w in words):
                return tool
    return tools[0]


def fill(view: View, tool: dict[str, Any], answer: str) -> tuple[dict[str, Any], list[str]]:
    """The output tool's input (free text from the answer, every other field by its kind and meaning), and the
    required fields nothing supported (given a default of their type)."""
    schema = tool.get("input_schema") or {}
    need = Need("tool", view.question, None, tool=tool)
    saved = view.choice
    view.choice = {"type": "auto"}  # fill as a careful model would, then complete what is still missing
    try:
        argfill.fill(view, need, guess=False)
    finally:
        view.choice = saved
    missing: list[str] = []
    own = knowledge.without_lack(answer, view.lang)  # what the model says of its tools is no value of a field
    values = extract.complete(view, schema, need.args, addressed(view, own), _tool_key(tool), missing)
    if not own:
        values = advised(view, schema, values)
    return values, missing


def advised(view: View, schema: dict[str, Any], values: dict[str, Any]) -> dict[str, Any]:
    """Free-text fields left empty (the model had nothing of its own to say) composed from the flags judged true:
    'block_card' is "I'm blocking your card now ..." (knowledge.json 'flag_advice'), else a plain offer of help."""
    texts = [k for k, p in (schema.get("properties") or {}).items() if isinstance(p, dict) and texty(k, p)]
    if not texts:
        return values
    table = lx.load("knowledge")["flag_advice"]
    said = [
        table[w][view.lang] for k, v in values.items() if v is True for w in lx.words(k.replace("_", " ")) if w in table
    ]
    text = addressed(view, " ".join(dict.fromkeys(said)) or table["_none"][view.lang])
    return {**values, **{k: text for k in texts if not values.get(k)}}


_BY_NAME = re.compile(
    r"\b(?:reply|respond|answer|address|greet|talk to)\w*\b[^.\n]{0,30}\b(?:using|with|by)\s+(?:the|their|his|her)?\s*"
    r"(?:customer|user|client|caller)?'?s?\s*(?:first\s+)?name",
    re.I,
)
_NAME_IS = re.compile(r"\b(?:customer|user|client|caller)'?s\s+(?:first\s+)?name\s+is\s+['\"“«]?([^\W\d_][\w-]*)", re.I)


def addressed(view: View, answer: str) -> str:
    """The answer addressed to the user by name when the system prompt says to ('Reply using the customer's name.
    The customer's name is 'John'' -> 'John, ...'), as pydantic-ai's bank-support agent is told to."""
    name = _NAME_IS.search(view.system) if _BY_NAME.search(view.system) else None
    if not answer or name is None or name.group(1).lower() in answer.lower():
        return answer
    return f"{name.group(1)}, {answer[:1].lower() if answer[1:2].islower() else answer[:1]}{answer[1:]}"


def ask(view: View, tool: dict[str, Any], missing: list[str]) -> str:
    """The question for what an output still lacks, in words the user knows."""
    from agent_core.sim.text.language import say

    first = missing[0]
    if "unit" in first:
        return say("ask.units", view.lang)
    return say("ask.field", view.lang, what=first.replace("_", " "))


_ASKS_JSON = re.compile(r"\bjson\b", re.I)


def prompted_schema(view: View) -> dict[str, Any] | None:
    """A JSON schema the prompt asks the answer to follow (pydantic-ai's PromptedOutput: 'Always respond with a
    JSON object that's compatible with this schema: {...}'), or one read from an example object the prompt shows
    (ADK's 'Format: {"capital": "capital_name"}'), or None."""
    for text in (view.system, view.question):
        if not _ASKS_JSON.search(text):
            continue
        start = text.find("{")
        while start >= 0:
            found = _balanced(text, start)
            if found is not None:
                try:
                    schema = json.loads(found)
                except ValueError:
                    schema = None
                if isinstance(schema, dict) and isinstance(schema.get("properties"), dict):
                    return schema
                if isinstance(schema, dict) and schema and text is view.system and _answer_format(text):
                    return example_schema(schema)
            start = text.find("{", start + 1)
    return None


def _answer_format(text: str) -> bool:
    """The system prompt says the answer is JSON ('respond ONLY with a JSON object', 'Format: {...}')."""
    said = [c for c in lx.split_clauses(text) if _ASKS_JSON.search(c) or "{" in c]
    return any(lx.hits(lx.words(c), lx.lexicon()["answer_format"]) for c in said)


_TYPES = {bool: "boolean", int: "integer", float: "number", str: "string", list: "array", dict: "object"}


def example_schema(example: dict[str, Any]) -> dict[str, Any]:
    """The schema an example object shows: each key with its value's type; a string value is a placeholder that
    says what goes there ('capital_name')."""
    props: dict[str, Any] = {}
    for key, value in example.items():
        prop: dict[str, Any] = {"type": _TYPES.get(type(value), "string")}
        if isinstance(value, str) and value:
            prop["description"] = value.replace("_", " ")
        if isinstance(value, dict) and value:
            prop = example_schema(value)
        props[key] = prop
    return {"type": "object", "properties": props, "required": list(example)}


def _balanced(text: str, start: int) -> str | None:
    depth, quoted, escaped = 0, False, False
    for i in range(start, min(len(text), start + 20_000)):
        ch = text[i]
        if quoted:
            escaped, quoted = (not escaped and ch == "\\"), quoted and (escaped or ch != '"')
            continue
        if ch == '"':
            quoted = True
        elif ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                return text[start : i + 1]
    return None


def given(view: View, tool: dict[str, Any], values: dict[str, Any]) -> bool:
    """The output tool already took these values and answered (a framework that does not end the run on it, auto
    choice): a careful model does not send the same call again. Under forced choice a call is all it may send."""
    if view.choice_type in ("any", "tool"):
        return False
    key = call_key(str(tool.get("name", "")), values)
    return any(a.key == key and a.status == "ok" for a in view.episode)


def values_text(values: dict[str, Any]) -> str:
    """The one free-text value of an output's input (its answer), or ''."""
    texts = [v for v in values.values() if isinstance(v, str) and v.strip()]
    return texts[0] if len(texts) == 1 else ""


def values_for(view: View, schema: dict[str, Any], answer: str) -> dict[str, Any]:
    """An output_config.format object from what the model read, as an output tool's input would be."""
    tool = {"name": str(schema.get("title") or "output"), "description": "", "input_schema": schema}
    return fill(view, tool, answer)[0]


__all__ = ["fill", "kinds", "named", "outputs", "pick", "texty", "values_for"]
