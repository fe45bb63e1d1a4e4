"""A tool whose one input is a choice among values its description allows, and a request that names one of them
(BEHAVIOUR.md, 'Choosing a tool'): that tool is what the request is for, more than one that only shares its words."""

from __future__ import annotations

import json
import re
from typing import Any

from agent_core.sim.defaults import _closed_list, _listed_options
from agent_core.sim.mood import asked_actions, tool_action
from agent_core.sim.slots import _option_words, enum_value
from agent_core.sim.text import language as lx
from agent_core.sim.text import meaning

OPTION_POINTS = 5


def _choice(tool_json: str) -> dict[str, Any] | None:
    """The one parameter of a tool, when it is a choice among listed values ('Allowed values: "casual", ...')."""
    props = (json.loads(tool_json).get("input_schema") or {}).get("properties") or {}
    if len(props) != 1:
        return None  # only a tool whose whole input is that one choice: issue_write's state is one of many
    prop = next(iter(props.values()))
    fits = isinstance(prop, dict) and prop.get("type", "string") == "string" and _closed_list(prop)
    return prop if fits else None


@lx.text_cache
def names_an_option(clause: str, tool_json: str) -> bool:
    """The clause names one of the values the one parameter allows, by its word or its meaning ('laid-back' is
    casual, 'w stylu superbohaterów' superhero)."""
    prop = _choice(tool_json)
    return prop is not None and enum_value(clause, _listed_options(prop)) is not None


def options_meaning(clause: str, keys: tuple[str, ...]) -> frozenset[str]:
    """What the allowed values of the tools whose option the clause names are about ('a superhero party'): a tool
    sharing only these with the clause shares only the option's words, not the request."""
    found: set[str] = set()
    for key in keys:
        prop = _choice(key) if names_an_option(clause, key) else None
        if prop is not None:
            found |= meaning.concepts(str(prop.get("description") or ""))
    return frozenset(found)


FILTER_POINTS = 3


@lx.text_cache
def names_a_filter(clause: str, tool_json: str) -> bool:
    """A tool with an optional choice the clause names by its word: a reading tool's filter ('What's open in
    octo-org/webshop?' and list_issues' state OPEN: the things in that state are what the clause asks for, and that
    tool lists them), or, for a clause that asks a change, the value a changing tool sets ('close the dark mode
    one' and issue_write's state closed)."""
    action = tool_action(tool_json)
    if not action or (action != "read") != bool(asked_actions(clause)):
        return False
    schema = json.loads(tool_json).get("input_schema") or {}
    required = set(schema.get("required") or [])
    tokens = lx.words(clause)
    said = _option_words()
    for pname, prop in (schema.get("properties") or {}).items():
        options = [o for o in prop.get("enum") or [] if isinstance(o, str)] if isinstance(prop, dict) else []
        if pname in required or not options or _orders(pname, prop):
            continue
        for option in options:
            words = [option, *said.get(lx.fold(option).replace(" ", "_"), ())]
            if lx.hits(tokens, words):
                return True
    return False


def _orders(pname: str, prop: dict[str, Any]) -> bool:
    """orderBy ('Field to order issues by'), direction, sort: the parameter orders results, it filters none."""
    said = lx.words(
        re.sub(r"(?<=[a-z])(?=[A-Z])", " ", pname).replace("_", " ") + " " + str(prop.get("description") or "")
    )
    return bool(lx.hits(said, lx.lexicon()["ordering_words"]["words"]))
