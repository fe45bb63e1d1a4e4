"""One clause, several values for one parameter: 'the status of orders 24601 and 86420', 'the time in Tokyo and in
Sydney' are one call per value, made together, each filled from its own part of the clause; and a clause that only
gives the call before its values ('..., labelled bug and frontend') is part of that call."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from agent_core.sim import chain, kinds, listing
from agent_core.sim.args import fill
from agent_core.sim.defaults import _base_option
from agent_core.sim.text import entities
from agent_core.sim.text import language as lx
from agent_core.sim.text.reader import Need, View, intent_hits

# choice.feeder, handed in: choice scores with this module, so this module cannot import it
Finder = Callable[[View, Need], Need | None]

MAX_SPREAD = 4  # a clause listing more values than this is a list for one call, not calls
_JOINS = re.compile(r"^\s*(?:,|and|or|&|и|или|а также|i|lub|oraz|albo)\s+(?:(?:in|at|for|в|во|на|w|we|dla)\s+)?", re.I)


def siblings(view: View, need: Need) -> list[Need]:
    """The further calls of a need whose clause gives several values of the kind one of its parameters took."""
    if need.tool is None or need.missing or need.focus or need.intent in ("weather", "arithmetic"):
        return []
    anchors = _anchors(need)
    if not 2 <= len(anchors) <= MAX_SPREAD:
        return []
    ends = [start for start, _ in anchors[1:]] + [len(need.clause)]
    segments = [need.clause[start:end] for (start, _), end in zip(anchors, ends, strict=True)]
    between = [need.clause[end : anchors[i + 1][0]] for i, (_, end) in enumerate(anchors[:-1])]
    if not all(_JOINS.match(gap + " ") or not gap.strip() for gap in between):
        return []  # 'order 24601 costs 80' is one call: the values must be listed ('24601 and 86420')
    out: list[Need] = []
    for segment in segments[1:]:
        sibling = Need(need.intent, need.clause, need.value, tool=need.tool, focus=segment.strip())
        fill(view, sibling, results=False)
        if not sibling.missing and sibling.args != need.args and all(s.args != sibling.args for s in out):
            out.append(sibling)
    if out:
        need.focus = segments[0].strip()
        fill(view, need, results=False)
        view.notes.append(f"The clause names {len(out) + 1} values for {need.tool.get('name')}: one call each.")
    return out


def _anchors(need: Need) -> list[tuple[int, int]]:
    """(start, end) of the values in the clause of the kind a parameter of the call took: numbers, ids, cities."""
    clause = need.clause
    sent = [str(v) for v in need.args.values() if isinstance(v, (str, int)) and not isinstance(v, bool)]
    found = entities.find(clause)
    for kind in ("number", "id", "email", "url", "phone", "repo", "file", "state"):
        spans = [(e.start, e.end) for e in found if e.kind == kind]
        values = [str(e.value) for e in found if e.kind == kind]
        # one value sent: a call per value; two sent ('from 123 to 456') are the one call's own
        if len(spans) >= 2 and sum(v in sent for v in set(values)) == 1 and len(set(values)) == len(values):
            return spans
    zones = lx.load("entities")["zones"]
    cities = [e for e in found if e.kind == "city" and e.value in zones]  # 'в Лондоне': the inflected word's span
    if len(cities) >= 2 and sum(zones[e.value] in sent or e.value in sent for e in cities) == 1:
        return [(e.start, e.end) for e in cities]
    return []


_THEN = re.compile(
    r"^\s*(?:and\s+|и\s+|а\s+|i\s+|a\s+)?(?:then|after that|затем|потом|после этого|potem|następnie)\b", re.I
)


def after_then(clause: str) -> bool:
    """'then open a draft pull request from it', 'потом закоммить': a step that comes after the one before."""
    return bool(_THEN.match(clause))


def gives_values(view: View, previous: Need, need: Need) -> bool:
    """'..., labelled bug and frontend, and assign it to marek-w': a clause with no request of its own whose words
    are all values the call before took from it, or that call's parameters' names, gives that call values."""
    if previous.tool is None or need.derived is not None or intent_hits(need.clause) or not previous.args:
        return False
    own = set(lx.words(previous.clause))
    taken = set(_words(list(previous.args.values())))
    taken -= own
    props = (previous.tool.get("input_schema") or {}).get("properties") or {}
    names = tuple(lx.fold(w[: max(4, len(w) - 3)]) for p in props for w in listing.param_words(p))
    words = lx.content_words(need.clause)
    values = [w for w in words if w in taken]
    named = [w for w in words if w not in taken and lx.fold(w).startswith(names)]
    return bool(values) and len(values) + len(named) == len(words)


def _words(value: object) -> list[str]:
    """The words of a value, of the items of a list and the values of an object too."""
    if isinstance(value, dict):
        return _words(list(value.values()))
    if isinstance(value, list):
        return [w for item in value for w in _words(item)]
    return lx.words(str(value)) if isinstance(value, (str, int)) and not isinstance(value, bool) else []


_DICTATED = frozenset({"body", "subject"})


def _found_first(view: View, need: Need, pname: str) -> bool:
    """Another offered tool finds what the parameter wants (sql_db_query's query is written from the schema that
    sql_db_schema shows): the model calls that one first, so the user lacks nothing."""
    own = need.tool_def.get("name")
    return any(t.get("name") != own and chain.promises(view, need, t, pname) for t in view.tools)


def _feeds(view: View, need: Need, best: Any, other: Any, feeder: Finder) -> bool:
    """The other tool is the one called first to find what the best lacks, and the clause asks the best for a
    reading of its own (issue_read's 'get_comments' for 'the comments on the Safari bug'), which no record of the
    list holds: choosing the best calls both. 'Which issue has the most comments?' picks a record of the list."""
    whole = Need(need.intent, need.clause, need.value, tool=best[2])
    fill(view, whole, results=False)
    if not chain.lacking(whole) or not _own_reading(view, need, best[2]) or _picks_by_field(need.clause):
        return False
    said = len(view.notes)
    first = feeder(view, whole)
    del view.notes[said:]  # only a trial: the call is planned, and noted, once the tool is chosen
    return first is not None and first.tool_def.get("name") == other[2].get("name")


def _picks_by_field(clause: str) -> bool:
    """'the most commented issue': one record of a list, picked by a field (lexicon.json 'picked_by')."""
    tokens = lx.words(clause)
    return any(not k.startswith("_") and lx.hits(tokens, said) for k, said in lx.lexicon()["picked_by"].items())


def _own_reading(view: View, need: Need, tool: dict[str, Any]) -> bool:
    """The clause itself picks an option of the tool other than its plain one (a method, a part to read)."""
    trial = Need(need.intent, need.clause, need.value, tool=tool)
    fill(view, trial, only_clause=True, results=False)
    props = (tool.get("input_schema") or {}).get("properties") or {}
    return any(
        isinstance((props.get(p) or {}).get("enum"), list) and v != _base_option(props[p]["enum"])
        for p, v in trial.args.items()
    )


def best_filled(view: View, need: Need, ranked: list[Any], best: Any, bar: int, window: int, feeder: Finder) -> Any:
    """Of tools scored within a point of the best, the one the clause gives most arguments to: 'when it is 4 PM in
    New York, what time is it in London' fills convert_time(source, time, target), not get_current_time(zone)."""
    if need.intent == "arithmetic":
        # A computation's operands come from results still to arrive, so a tool the clause fills now (get_weather's
        # city in 'How much warmer is Warsaw than Oslo?') is no better at it.
        return best
    close = [r for r in ranked if r[0] >= bar and best[0] - r[0] <= window and r is not best]
    if not close:
        return best

    def filled(row: Any, only_clause: bool = True) -> int:
        whole, trial = (Need(need.intent, need.clause, need.value, tool=row[2]) for _ in "ab")
        fill(view, whole, results=False)
        if only_clause:  # what the clause gives, not the other clauses (each asks its own tool)
            fill(view, trial, only_clause=True, results=False)
        # distinct values: search_files(path='todo.md', pattern='todo.md') is given one thing, not two
        given = {
            json.dumps(v, sort_keys=True, ensure_ascii=False) for v in (trial if only_clause else whole).args.values()
        }
        props = (row[2].get("input_schema") or {}).get("properties") or {}
        found = {kinds.kind_of(p, props.get(p) or {}, row[4]) for p in (trial if only_clause else whole).args}
        # a text only the user can dictate (a commit's message) is asked for, no reason to take another tool
        lacking = [
            p
            for p in whole.missing
            if kinds.kind_of(p, props.get(p) or {}, row[4]) not in _DICTATED and not _found_first(view, whole, p)
        ]
        return len(given) - ({"lat", "lng"} <= found) - 2 * len(lacking)  # coordinates are one place

    mine = filled(best)
    other = max(close, key=lambda r: (filled(r), r[0], r[1]))
    if _feeds(view, need, best, other, feeder):
        return best  # 'the comments on the Safari bug': list_issues finds the issue issue_read reads, no rival of it
    gain = filled(other) - mine
    if gain == 0 and best[0] - other[0] <= 1:  # the clause gives both as much: the whole question may tell
        gain = filled(other, False) - filled(best, False)
    # A near tie goes to the tool given more; a clear lead yields only to one given much more of the clause.
    return other if gain >= 2 or (gain >= 1 and best[0] - other[0] <= 1) else best
