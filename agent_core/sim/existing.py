"""A new fact about something a store may already hold ('Ann Kowalska has started learning Japanese, remember that'):
a careful model adds it to the stored entity (add_observations) instead of creating a duplicate (create_entities).
When no result has shown whether the store holds it, the store is read first (search_nodes('Ann Kowalska'), or the
whole graph when the text names no one), and the result decides: a record of that name gets the fact added, no record
means a new entity."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from agent_core.sim.stored import held
from agent_core.sim.text import language as lx
from agent_core.sim.text import meaning, names
from agent_core.sim.text.reader import Need, View, _tool_key

Fill = Callable[[View, Need], None]
Action = Callable[[str], str]


def _named_objects(tool: dict[str, Any]) -> bool:
    """An array of objects keyed by a name, with a list of notes: entities, or observations of one."""
    props = (tool.get("input_schema") or {}).get("properties") or {}
    for prop in props.values():
        items = prop.get("items") if isinstance(prop, dict) and prop.get("type") == "array" else None
        inner = (items or {}).get("properties") or {}
        if any(lx.fold(k).endswith("name") for k in inner) and any(
            isinstance(v, dict) and v.get("type") == "array" for v in inner.values()
        ):
            return True
    return False


def _adds_to_existing(tool: dict[str, Any]) -> bool:
    """'Adds new observations to entities already in the knowledge graph': a tool for things the store holds."""
    said = lx.words(str(tool.get("description", "")))
    return _named_objects(tool) and bool(lx.hits(said, lx.lexicon()["existing_words"]))


def _same_store(one: dict[str, Any], other: dict[str, Any]) -> bool:
    mine, theirs = meaning.profile(_tool_key(one)), meaning.profile(_tool_key(other))
    return bool(mine.described & (theirs.described | theirs.name))


def _results(view: View, action: Action) -> list[str]:
    """What reading calls showed of the store (a write's own echo of what it made says nothing of what was there)."""
    reads = {str(t.get("name")) for t in view.tools if action(_tool_key(t)) == "read"}
    return [a.output for a in view.episode if a.status == "ok" and a.name in reads]


def _reader(view: View, need: Need, fill: Fill, action: Action) -> Need | None:
    """The store's reading call for what the text is about: a search by its name, else a read of the whole store."""
    assert need.tool is not None
    people = [n for _, n, kind in names.known_entities(view.question) if kind != "location"]
    readers = [t for t in view.tools if action(_tool_key(t)) == "read" and _same_store(need.tool, t)]
    # a name to look up is searched for; with none, the whole store is read
    readers.sort(key=lambda t: bool((t.get("input_schema") or {}).get("required")) != bool(people))
    for tool in readers:
        required = (tool.get("input_schema") or {}).get("required") or []
        if not people and required:
            continue
        trial = Need("tool", people[0] if people else view.question, None, tool=tool, feeds=need)
        fill(view, trial)
        if not trial.missing and (trial.args or not required):
            return trial
    return None


def checked(view: View, needs: list[Need], fill: Fill, action: Action) -> list[Need]:
    """Each write that would create an entity the store may hold already: switched to the tool that adds to it when
    a result shows the store holds it, or preceded by the read that tells (the write waits for it)."""
    out: list[Need] = []
    for need in needs:
        adder = _adder(view, need, action)
        if adder is None:
            out.append(need)
            continue
        who = held(view.question, _results(view, action), [a.output for a in view.history.values()])
        read = _reader(view, need, fill, action) if who is None else None
        answered = read is not None and any(a.name == read.tool_def.get("name") for a in view.episode)
        if who is not None:
            need.tool, need.args, need.missing = adder, {}, []
            fill(view, need)
            view.notes.append(f"The store already holds {who}, so I add the new fact to it with {adder.get('name')}.")
        elif read is not None and not answered:
            view.notes.append(f"{read.tool_def.get('name')} first: the store may already hold what this is about.")
            need.waits_for = read
            out.append(read)
        out.append(need)
    return out


def _adder(view: View, need: Need, action: Action) -> dict[str, Any] | None:
    """The tool that adds to what the store holds, when the need would create an entity in that store."""
    if need.tool is None or action(_tool_key(need.tool)) != "create" or not _named_objects(need.tool):
        return None
    if _adds_to_existing(need.tool):
        return None
    return next((t for t in view.tools if _adds_to_existing(t) and _same_store(need.tool, t)), None)
