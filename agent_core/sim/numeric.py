"""The number a numeric parameter means in a text: beside its word or unit, a year, a count to list, weeks in days."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from agent_core.sim.kinds import name_words
from agent_core.sim.text import entities
from agent_core.sim.text import language as lx
from agent_core.sim.text.meaning import concepts
from agent_core.sim.words import noun

if TYPE_CHECKING:
    from agent_core.sim.work import Fill


def number_for(
    work: Fill, text: str, pname: str, prop: dict[str, Any], nested_required: bool = False, labelled: bool = False
) -> int | float | None:
    """The number a numeric parameter means in text: one with its unit or word beside it, a year for a year,
    else (unless only a labelled one will do) the next number nobody took, in the order the text says them."""
    marker = str(id(text))
    days = _days(text) if "day" in name_words(pname) or "days" in name_words(pname) else None
    if days is not None:
        return days  # 'на неделю' is 7 days, 'dwa tygodnie' 14, 'a fortnight' 14
    free = [
        e for e in entities.of_kind(text, "number") if (e.start, marker) not in work.used and not _inside_other(text, e)
    ]
    if set(name_words(pname)) & _COUNT_PARAM:  # how many is a whole number: 'Python 3.14' names a version
        free = [e for e in free if not isinstance(e.value, float) or e.value.is_integer()]
    if not free:  # 'issue #42': a number written as a reference is a numeric parameter's value too
        free = [e for e in entities.of_kind(text, "id") if e.text.startswith("#") and str(e.value).isdigit()]
        free = [replace(e, value=int(e.value)) for e in free if (e.start, marker) not in work.used]
    if not free:
        counts = bool(set(name_words(pname)) & _COUNT_PARAM)
        return 1 if counts and _newest_one(text, str(work.need.tool_def.get("description", ""))) else None
    words = _own_words(pname)
    chosen = None
    if words:
        chosen = next((e for e in free if e.unit and lx.hits([e.unit], words)), None)
        chosen = chosen or next((e for e in free if _beside(text, e, words, same_thing=True)), None)
    if chosen is None and lx.hits(name_words(pname), ["year", "год", "rok"]):
        chosen = next((e for e in free if isinstance(e.value, int) and 1500 <= e.value <= 2100), None)
        if chosen is not None and lx.hits(name_words(pname), ["birth", "born", "рожден", "urodz"]):
            chosen = chosen if _beside(text, chosen, ["born", "birth", "родил", "urodz"]) else None
    if chosen is None:
        said = _counted(str(prop.get("description", "")))  # 'returns only the first N lines': 'first five lines'
        chosen = next((e for e in free if said and all(_beside(text, e, g) for g in said)), None)
    if chosen is None and set(name_words(pname)) & _COUNT_PARAM:
        # 'the last 3 commits', 'три последних коммита': a number beside 'last' / 'first' is how many to list
        chosen = next((e for e in free if _beside(text, e, lx.lexicon()["list_edge_words"])), None)
    required = nested_required or pname in set((work.need.tool_def.get("input_schema") or {}).get("required") or [])
    required = required or _required_now(work, prop)
    if chosen is None and (labelled or not required and words):
        return None  # an optional number is sent only when the text points at it ('5 guests', 'limit 10')
    if chosen is None:
        mine = {
            n for n in (work.need.tool_def.get("input_schema") or {}).get("properties", {}) if n not in work.need.args
        }
        claimed = [e for e in free if any(_beside(text, e, _own_words(other)) for other in mine if other != pname)]
        rest = [e for e in free if e not in claimed]
        chosen = rest[0] if rest else None
    if chosen is None:
        return None
    work.used.add((chosen.start, marker))
    value = chosen.value
    return value if isinstance(value, (int, float)) else None


_REQUIRED_WHEN = re.compile(r"required (?:when|if) [`'\"]?(\w+)[`'\"]? is [`'\"]?([\w-]+)", re.I)


def _required_now(work: Fill, prop: dict[str, Any]) -> bool:
    """'The issue this one duplicates; required when state_reason is 'duplicate'': once the call sets that value,
    the number is required, so the number the text has left over is it ('the same as issue 42')."""
    said = _REQUIRED_WHEN.search(str(prop.get("description", "")))
    return said is not None and str(work.need.args.get(said.group(1))) == said.group(2)


def _newest_one(text: str, described: str) -> bool:
    """'the last commit', 'ostatni commit', 'последний коммит': the newest one of what the tool lists, in the
    singular (lexicon newest_one), so a count parameter takes 1; 'the last commits' or 'last week' is no such count."""
    tokens = lx.words(text)
    for i in range(len(tokens) - 1):
        after = tokens[i + 1]
        if not lx.hits([tokens[i]], lx.lexicon()["newest_one"]) or (after.isascii() and after.endswith("s")):
            continue
        return bool(concepts(after) & concepts(described))  # the thing listed: a commit of 'Shows the commit logs'
    return False


_COUNT_PARAM = frozenset({"count", "limit", "max", "top", "num", "size", "per"})
_COUNTED = re.compile(r"(\w+)\s+N\s+(\w+)|\bnumber of (\w+)")


def _counted(description: str) -> list[list[str]]:
    """The word groups (lexicon count_words) around a description's count: 'the first N lines' -> first, line."""
    match = _COUNTED.search(description)
    if match is None:
        return []
    said = [lx.fold(w) for w in match.groups() if w]
    groups = [list(g) for g in lx.lexicon()["count_words"]]
    return [g for g in groups if any(lx.fold(x) in said for x in g)]


_WEEK = re.compile(r"\b(?:weeks?|недел[юиья]\w*|tydzień|tygodni\w*|tygodnie)\b", re.I)
_FORTNIGHT = re.compile(r"\bfortnight\b", re.I)


def _days(text: str) -> int | None:
    """A span of days said in weeks: 'a week' 7, 'two weeks' / 'dwa tygodnie' 14, 'a fortnight' 14."""
    if _FORTNIGHT.search(text):
        return 14
    week = _WEEK.search(text)
    if week is None:
        return None
    before = [e for e in entities.of_kind(text[: week.start()], "number") if e.end >= week.start() - 2]
    count = before[-1].value if before and isinstance(before[-1].value, int) else 1
    return 7 * count


def _own_words(pname: str) -> list[str]:
    """A parameter's words that can stand beside its number ('guests' of num_guests; not 'to', not 'number')."""
    stop = lx.word_set("stopwords")
    generic = ("number", "num", "value", "count", "amount", "currency", "code")
    own = [w for w in name_words(pname) if len(w) > 2 and w not in stop and w not in generic]
    # the thing in the user's language too: 'zgłoszenie 19', 'задачу 19' for issue_number (answers.json nouns)
    return own + [t for w in own for lang in ("ru", "pl") if (t := noun(w, lang)) and t not in own]


def _beside(text: str, e: entities.Entity, words: list[str], same_thing: bool = False) -> bool:
    """A parameter's word stands right next to the number ('5 guests', 'limit 10', 'возраст 30'); same_thing: or a
    word for the same thing ('тикет 42' for ticket_number)."""
    # a comma or a semicolon ends what a number goes with: 'Safari 19, błąd' is no 'błąd 19'
    before = re.split(r"[,;\n]", text[max(0, e.start - 24) : e.start])[-1]
    after = re.split(r"[,;\n]", text[e.end : e.end + 24])[0]
    around = lx.words(before)[-2:] + lx.words(after)[:2]
    if not words:
        return False
    return bool(lx.hits(around, words)) or (same_thing and bool(concepts(" ".join(around)) & concepts(" ".join(words))))


def _inside_other(text: str, e: entities.Entity) -> bool:
    """A number that is part of an ID, a phone, a date or a time is not a number to send; nor is one in quoted text,
    which is what is written ("a comment 'Fixed in 2.3' to issue 42")."""
    return any(
        o.start <= e.start and e.end <= o.end and o.kind in ("id", "phone", "date", "time", "email", "file", "quoted")
        for o in entities.find(text)
    )
