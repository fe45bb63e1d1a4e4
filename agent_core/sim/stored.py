"""A note to remove is the note as the store keeps it: 'Ann Kowalska przestała pić herbatę. Usuń tę informację' removes
the observation an earlier result holds for Ann ('Prefers tea to coffee'), chosen by the meaning the user's words share
with it (concepts in three languages, then words), never the user's own sentence."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any

from agent_core.sim.text import language as lx
from agent_core.sim.text import meaning

if TYPE_CHECKING:
    from agent_core.sim.text.reader import Need, View


def _records(data: Any) -> Iterable[dict[str, Any]]:
    """Every object of a parsed result, however deep ('entities': [...], a bare list)."""
    if isinstance(data, dict):
        yield data
        for value in data.values():
            yield from _records(value)
    elif isinstance(data, list):
        for value in data:
            yield from _records(value)


def _result_records(results: Iterable[str]) -> Iterator[dict[str, Any]]:
    """Every object of the JSON results (a text that is not JSON holds none)."""
    for text in results:
        try:
            data = json.loads(text)
        except ValueError:
            continue
        yield from _records(data)


def stored_names(results: Iterable[str]) -> list[str]:
    """The names of the records results list with notes ('Ann Kowalska', 'Acme'), in the order they come."""
    out: list[str] = []
    for record in _result_records(results):
        notes = [v for v in record.values() if isinstance(v, list) and all(isinstance(n, str) for n in v)]
        name = next((v for k, v in record.items() if lx.fold(k).endswith("name") and isinstance(v, str)), None)
        if name and notes and name not in out:
            out.append(name)
    return out


def mentioned(text: str, stored: list[str]) -> str | None:
    """The stored name the text speaks of, in any case of its words ('Ann Kowalskiej', 'у Ann Kowalska')."""
    said = [lx.stem(w) for w in lx.words(text)]
    for name in stored:
        parts = [lx.stem(w) for w in lx.words(name)]
        if parts and all(any(lx.stems_match(p, s) for s in said) for p in parts):
            return name
    return None


def pointed(text: str, stored: list[str]) -> str | None:
    """'Note that it now uses Redis too', 'dopisz jej, że ...': the one stored thing shown before, when the text
    names no one and points back at it by a pronoun."""
    pronouns = lx.lexicon()["back_pronouns"] + lx.lexicon()["keep_requests"]["subjects"]
    if len(stored) != 1 or not lx.hits(lx.words(text), pronouns):
        return None
    from agent_core.sim.text import names  # names reads entities, which read the lexicon this module reads

    named = [n for _, n, kind in names.known_entities(text) if kind != "location"]
    return stored[0] if not named else None


def held(text: str, results: list[str], before: list[str]) -> str | None:
    """The stored thing a text is about: one a result shows that it names, else the one shown in the turns before
    that it points back at."""
    return mentioned(text, stored_names(results + before)) or pointed(text, stored_names(before))


def _kept(results: Iterable[str], who: str) -> list[str] | None:
    """The notes an earlier result lists for who (an object named so with a list of strings), or None."""
    for record in _result_records(results):
        names = [v for v in record.values() if isinstance(v, str) and lx.fold(v) == lx.fold(who)]
        notes = [v for v in record.values() if isinstance(v, list) and v and all(isinstance(n, str) for n in v)]
        if names and notes:
            return list(notes[0])
    return None


def _shared(said: str, note: str) -> int:
    """How much a note and the user's words share: concepts twice, other content words once."""
    common = meaning.concepts(said) & meaning.concepts(note) - {"memory"}
    mine, theirs = meaning.content_stems(said), meaning.content_stems(note)
    words = {w for w in mine if any(lx.stems_match(w, t) for t in theirs) and not meaning.concepts(w)}
    return 2 * len(common) + len(words)


def notes(results: Iterable[str], who: str, said: str) -> list[str] | None:
    """The stored notes of who that said speaks of (the best-sharing ones), [] when it keeps none of them, None when
    no result has shown who's notes yet (they must be looked up before anything is removed)."""
    kept = _kept(results, who)
    if kept is None:
        return None
    scored = [(_shared(said.replace(who, " "), note), note) for note in kept]
    best = max((s for s, _ in scored), default=0)
    return [note for s, note in scored if s == best] if best > 0 else []


def removes(tool: dict[str, Any]) -> bool:
    """A tool named for removing (delete_observations, remove_note)."""
    name = lx.words(str(tool.get("name", "")).replace("_", " ").replace("-", " "))
    return bool(set(name) & set(lx.lexicon()["actions"]["delete"]["names"]))


def finder(view: View, need: Need, fill: Callable[[View, Need], None], action: Callable[[str], str]) -> Need | None:
    """A removal of stored notes that no result has shown yet: the reading tool of the same store called first, for
    the one the notes are about (search_nodes('Ann Kowalska')), so the notes removed are the stored ones. fill and
    action (a tool's action by its name) come from the caller, which this module's notes() serve."""
    from agent_core.sim.text import names
    from agent_core.sim.text.reader import Need, _tool_key  # noqa: F811 (built here, typed above)

    if not removes(need.tool_def) or not need.missing:
        return None
    found = sorted(names.known_entities(view.question))
    if not found:
        return None
    who = next((e for e in found if e[2] == "person"), found[0])[1]
    domain = meaning.profile(_tool_key(need.tool_def))
    for tool in view.tools:
        other = meaning.profile(_tool_key(tool))
        if action(_tool_key(tool)) != "read" or not (domain.described & (other.described | other.name)):
            continue
        trial = Need("tool", who, None, tool=tool, feeds=need)
        fill(view, trial)
        if not trial.missing and trial.args:
            view.notes.append(f"To remove what is stored about {who}, I first read it with {tool.get('name')}.")
            return trial
    return None


def reported_fact(clause: str, request: str, asked: frozenset[str]) -> str:
    """' observation' when a removal says what goes as a fact it reports ('Zapomnij, że Ann mieszka w Krakowie': the
    request is 'Zapomnij', what goes is a fact, so an observation, not the person); asked: the clause's actions."""
    reported = len(lx.content_words(clause)) > len(lx.content_words(request)) + 1
    return " observation" if reported and "delete" in asked else ""
