"""Calls a result asks for next: the rest of a text its tool cut ('Content truncated. Call the fetch tool with a
start_index of 5000'), and a temperature told in the other unit than the one asked, converted by a tool that does."""

from __future__ import annotations

import re
from typing import Any

from agent_core.sim.text import figures
from agent_core.sim.text import language as lx
from agent_core.sim.text.reader import Need, View
from agent_core.sim.text.results import Attempt
from agent_core.sim.weather import CELSIUS, FAHRENHEIT, asked_unit, result_unit

_MORE = re.compile(r"truncated|more content|more results|next page|обрезан|продолжени|obcięt|więcej", re.I)


def continuation(view: View, need: Need) -> Need | None:
    """A result that says it was cut and how to get the rest ('Content truncated. Call the fetch tool with a
    start_index of 5000'): the same call again with that parameter, once."""
    if need.result is None or need.tool is None or need.after is not None or not _MORE.search(need.result.output):
        return None
    props = (need.tool.get("input_schema") or {}).get("properties") or {}
    for pname, prop in props.items():
        if not isinstance(prop, dict) or prop.get("type") not in ("integer", "number"):
            continue
        said = re.search(rf"\b{re.escape(pname)}\b\W{{0,3}}(?:of|=|:|is|to)?\s*(\d+)", need.result.output)
        if said and need.result.input.get(pname) != int(said.group(1)):
            view.notes.append(
                f"{need.tool.get('name')} cut its answer; I ask for the rest from {pname}={said.group(1)}."
            )
            args = {**need.result.input, pname: int(said.group(1))}
            return Need(need.intent, need.clause, need.value, tool=need.tool, after=need, args=args, state="call")
    return None


def conversion(view: View, need: Need, earlier: Attempt | None = None) -> Need | None:
    """'What's the weather in San Francisco in celsius?' answered in fahrenheit (the Vercel AI SDK's weather tool)
    with a tool that converts fahrenheit to celsius: that tool is called next with the temperature. earlier: the
    same call answered in an earlier turn ('And in celsius?' after the weather was told)."""
    result = need.result or earlier
    if result is None or need.tool is None or need.intent != "weather" or need.after is not None:
        return None
    asked = asked_unit(view.question)
    got = result_unit(need.tool, result.output)
    if asked is None or got is None or asked == got:
        return None
    source, target = (FAHRENHEIT, CELSIUS) if got == "F" else (CELSIUS, FAHRENHEIT)

    def converts(tool: dict[str, Any]) -> bool:
        text = lx.words(f"{tool.get('name', '')} {tool.get('description', '')}".replace("_", " "))
        named = lx.words(re.sub(r"(?<=[a-z])(?=[A-Z])", " ", str(tool.get("name", ""))))
        return bool(
            (lx.hits(text, source) or lx.hits(named, source)) and (lx.hits(text, target) or lx.hits(named, target))
        )

    temperature = figures.temperature(result.output)
    for tool in (t for t in view.tools if t.get("name") != need.tool_def.get("name") and converts(t)):
        props = (tool.get("input_schema") or {}).get("properties") or {}
        numeric = [p for p, v in props.items() if isinstance(v, dict) and v.get("type") in ("number", "integer")]
        if temperature is None or len(numeric) != 1:
            continue
        number = float(temperature)
        value = int(number) if number.is_integer() else number
        view.notes.append(f"{need.tool_def.get('name')} answered in °{got}; {tool.get('name')} converts {value}.")
        return Need("tool", need.clause, None, tool=tool, after=need, args={numeric[0]: value}, state="call")
    return None
