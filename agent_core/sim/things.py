"""Things a tool acts on by a bare id (Lights-change_state(id, is_on)): the tool that lists those things finds the
id, the one meant is the record the request names (the porch light, «люстру», 'Chandelier'), and a state flag is
set by the request's on/off verb."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from agent_core.sim import kinds
from agent_core.sim.mood import asked_actions, tool_action
from agent_core.sim.text import language as lx
from agent_core.sim.text import meaning
from agent_core.sim.text.reader import Need, View

# words of a name that say how a tool acts or what part it touches, not which thing it is about
_NOT_THINGS = frozenset("state status info data details item items one all by for of the a an".split())
_NAME_KEYS = ("name", "title", "label")


def lists_own(needing: dict[str, Any], tool: dict[str, Any]) -> bool:
    """A reading tool that needs no input and is about the thing the needing tool's name is about (Lights-get_lights
    for Lights-change_state's bare id) lists the things that id is one of."""
    schema = tool.get("input_schema") or {}
    if schema.get("required") or tool_action(_key(tool)) not in ("read", ""):
        return False
    own = _things(str(needing.get("name", "")))
    theirs = {lx.stem(w) for w in kinds.name_words(str(tool.get("name", "")))}
    return any(lx.stems_match(lx.stem(w), t) for w in own for t in theirs)


def _things(name: str) -> list[str]:
    """The words of a tool's name that name a thing: no action verb, no 'state' ('Lights-change_state': lights)."""
    verbs = {w for k, v in lx.lexicon()["actions"].items() if not k.startswith("_") for w in v["names"]}
    return [w for w in kinds.name_words(name) if w not in verbs and w not in _NOT_THINGS and len(w) > 2]


def _key(tool: dict[str, Any]) -> str:
    return json.dumps(tool, sort_keys=True, ensure_ascii=False)


def named_records(text: str, records: list[dict[str, Any]]) -> list[int]:
    """The records the text names by their own name, in the order it names them: every word of a record's name
    said (its stem or its meaning in another language: «люстру» is the Chandelier), and no other record's name
    holding more of the text's words ('the porch light' is not every light)."""
    tokens = lx.words(text)
    stems = {lx.stem(w) for w in tokens if len(w) > 2}
    said = meaning.concepts(text)
    hits: list[tuple[int, int]] = []
    for i, record in enumerate(records):
        name = next((record[k] for k in _NAME_KEYS if isinstance(record.get(k), str)), "")
        at = _named_at(name, tokens, stems, said)
        if at is not None:
            hits.append((at, i))
    return [i for _, i in sorted(hits)]


def _named_at(name: str, tokens: list[str], stems: set[str], said: frozenset[str]) -> int | None:
    """Where in the text a record's name is said, or None: each of its words by stem, or the whole by meaning."""
    words = [w for w in lx.words(name) if len(w) > 2]
    if not words:
        return None
    if all(any(lx.stems_match(lx.stem(w), s) for s in stems) for w in words):
        first = lx.stem(words[0])
        return next((n for n, t in enumerate(tokens) if lx.stems_match(lx.stem(t), first)), 0)
    own = _concepts(name)
    if own and own <= said:
        return next((n for n, t in enumerate(tokens) if _concepts(t) & own), 0)
    return None


@lru_cache(maxsize=1024)
def _concepts(text: str) -> frozenset[str]:
    return frozenset(meaning.concepts(text))


def state_flag(text: str, pname: str) -> bool | None:
    """A flag that holds a thing's state ('is_on', 'enabled', 'power') from the request's verb: True for 'turn on',
    «включи», 'włącz', False for 'switch off', «выключи», 'wyłącz'; None when the text says neither."""
    words = [w for w in kinds.name_words(pname) if w != "is"]
    if not words or not lx.hits(words, lx.lexicon()["state_flags"]):
        return None
    tokens, states = lx.words(text), lx.lexicon()["switch_states"]
    on, off = lx.first_hit(tokens, states["on"]), lx.first_hit(tokens, states["off"])
    if on is None and off is None:
        return None
    return off is None or (on is not None and on < off)


def more_of(view: View, previous: Need, need: Need, choose: Callable[[View, Need], None]) -> bool:
    """'switch on the table lamp and the porch light': a clause with no verb of its own after a change is another
    thing for the same change, read with the verb of the clause before ('switch on the porch light'), when that
    reading takes the same tool (True); else the clause stays as it was."""
    if previous.tool is None or need.tool is previous.tool or asked_actions(need.clause):
        return False
    if tool_action(_key(previous.tool)) in ("read", "") or lx.words(need.clause)[:1] in ([w] for w in _WH):
        return False
    verb = _verb_part(previous.clause)
    if not verb:
        return False
    trial = copy.copy(need)
    trial.clause, trial.tool, trial.intent = f"{verb} {need.clause}", None, "search"
    trial.value = " ".join(lx.content_words(trial.clause))
    choose(view, trial)
    if trial.tool is previous.tool:
        need.clause, need.value, need.intent, need.tool, need.score = (
            trial.clause,
            trial.value,
            trial.intent,
            trial.tool,
            trial.score,
        )
        view.notes.append(f"“{need.clause}” asks the same change as the clause before, of another thing.")
        return True
    return False


_WH = ("what", "which", "who", "where", "when", "how", "что", "какой", "кто", "где", "co", "jaki", "kto", "gdzie")


def _verb_part(clause: str) -> str:
    """The words of a clause up to the end of its change verb ('switch on' of 'switch on the table lamp')."""
    tokens = lx.words(clause)
    words = [w for k, v in lx.lexicon()["actions"].items() if not k.startswith("_") for w in v["words"]]
    ends = []
    for word in words:
        at = lx.first_hit(tokens, [word])
        if at is not None:
            ends.append((at, -(at + len(lx.words(word.lstrip("="))))))
    if not ends:
        return ""
    at, end = min(ends)
    return " ".join(tokens[:-end])
