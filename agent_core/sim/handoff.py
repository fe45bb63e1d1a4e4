"""What a result asks to do next: the steps the other modules plan (a follow-up tool, a unit conversion, the rest of
a cut text, a file found then read, a full name looked up), and the hand-off of an identifier: a tool that only
finds an id ('find_user_id_by_email' -> 'sofia_rossi_8776') answers nothing the user asked, so the reading tool that
takes that id (get_user_details(user_id)) is called next with it."""

from __future__ import annotations

from typing import Any

from agent_core.sim import examples, lookup, relist, slots
from agent_core.sim.args import fill
from agent_core.sim.choice import follow_up
from agent_core.sim.files import file_step
from agent_core.sim.mood import tool_action
from agent_core.sim.onward import continuation, conversion
from agent_core.sim.text import facts
from agent_core.sim.text import language as lx
from agent_core.sim.text.reader import Need, View, _tool_key
from agent_core.sim.text.results import Attempt

MAX_ID = 60  # an identifier is one short token, not a record


def next_step(view: View, need: Need, earlier: Attempt | None) -> Need | None:
    """The one call a need's result (or failure) asks for next, or None."""
    return (
        follow_up(view, need)
        or conversion(view, need, earlier)
        or continuation(view, need)
        or file_step(view, need)
        or lookup.finder(view, need)
        or relist.finder(view, need)
        or handed_id(view, need)
    )


def _bare_id(output: str) -> str | None:
    """A result that is one identifier alone ('sofia_rossi_8776', '"C-1042"'), no sentence, no record."""
    parsed = facts.parse(output)
    text = parsed if isinstance(parsed, str) else output if parsed is None else None
    if not isinstance(text, str):
        return None
    text = text.strip().strip("\"'")
    if not text or len(text) > MAX_ID or " " in text or not any(c.isdigit() for c in text):
        return None
    return None if lx.hits(lx.words(text), lx.lexicon()["not_found_errors"]) else text


def _takes(tool: dict[str, Any], value: str, finder: dict[str, Any]) -> str | None:
    """The required parameter of tool the id fills: its example's shape, or the thing the finder's name finds."""
    schema = tool.get("input_schema") or {}
    props = schema.get("properties") or {}
    found_words = set(lx.words(str(finder.get("name", "")).replace("_", " ")))
    for pname in schema.get("required") or []:
        prop: dict[str, Any] = props[pname] if isinstance(props.get(pname), dict) else {}
        if examples.shaped(prop) and examples.fits(prop, value):
            return str(pname)
        if not examples.shaped(prop) and set(slots.entity_words(pname)) & found_words and "id" in found_words:
            return str(pname)
    return None


def handed_id(view: View, need: Need) -> Need | None:
    """The reading call an id just found is for, when the question did not ask for the id itself."""
    if need.result is None or need.tool is None or need.feeds is not None or need.after is not None:
        return None
    value = _bare_id(need.result.output)
    if value is None or value in view.question or "id" in lx.words(need.clause):
        return None
    for tool in view.tools:
        if tool is need.tool or tool_action(_tool_key(tool)) not in ("read", ""):
            continue
        pname = _takes(tool, value, need.tool)
        if pname is None:
            continue
        trial = Need("tool", need.clause, None, tool=tool, after=need, focus=need.focus)
        fill(view, trial)
        trial.args[pname] = value
        trial.missing = [m for m in trial.missing if m != pname]
        if not trial.missing:
            view.notes.append(f"{need.tool.get('name')} found {value}; {tool.get('name')} takes it, so I call it.")
            trial.state = "call"
            need.feeds = trial  # the id is a step towards the answer, not an answer of its own
            return trial
    return None
