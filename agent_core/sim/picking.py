"""A follow-up that picks one of the items a tool listed before ('the second one', 'второй', 'ten o Safari'): the
item of that earlier result, in its order, with the rest of the follow-up as what to do with it."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from typing import Any

from agent_core.sim.gist import ENTRY, HASH, field_blocks, listing
from agent_core.sim.text import entities
from agent_core.sim.text import language as lx
from agent_core.sim.text.language import say
from agent_core.sim.text.reader import View
from agent_core.sim.text.results import calls_with_results

# The field that names a record, best first: what a call that acts on the record takes.
_ID_FIELDS = ("number", "id", "sha", "hash", "full_name", "path", "name", "title")
_LABEL_FIELDS = ("title", "name", "subject", "summary", "message", "description", "full_name")
_FOLDER = re.compile(r"(?<![\w/.~-])~?/[\w.@-]+(?:/[\w.@-]+)*/?(?<!\.)")
MAX_OFFERED = 6  # a longer list is told, and the user names the one they mean


@dataclass(frozen=True)
class Item:
    """One listed item: the value a call takes, what it is (issue, commit; '' for a path), and what it says."""

    value: str
    noun: str
    text: str
    label: str = ""  # what a reader knows it by: a record's title, a commit's message

    @property
    def name(self) -> str:
        return f"{self.noun} {self.value}" if self.noun else self.value


@cache
def _words() -> dict[str, Any]:
    table = dict(lx.load("picking"))
    table["ordinals"] = {lx.fold(k): v for k, v in table["ordinals"].items()}  # words() folds 'й', 'ą'
    return table


def ordinals() -> dict[str, int]:
    """'second' 1, 'последний' -1, 'pierwszą' 0: an item's place said in words, folded as words() folds."""
    return dict(_words()["ordinals"])


def earlier_items(messages: list[dict[str, Any]], q_index: int) -> list[Item]:
    """The items of the latest result before the reply that lists two or more, from the turn before it."""
    results = [
        (tool_input, text) for _, tool_input, text, failed in calls_with_results(messages[:q_index]) if not failed
    ]
    for tool_input, out in reversed(results):
        found = items_of(out, tool_input)
        if len(found) >= 2:
            return found
    return []


def items_of(out: str, call_input: dict[str, Any]) -> list[Item]:
    """The items a result lists, in order: a JSON list of records, a log of records, or a folder's entries."""
    return _records_json(out) or _records_log(out) or _entries(out, call_input)


def _records_json(out: str) -> list[Item]:
    try:
        data = json.loads(out)
    except ValueError:
        return []
    noun, rows = "", data
    if isinstance(data, dict):
        key, rows = next(((k, v) for k, v in data.items() if _records(v)), ("", []))
        noun = re.sub(r"ies$", "y", key) if key.endswith("ies") else key.removesuffix("s")
    if not _records(rows):
        return []
    items = []
    for row in rows:
        field = next((f for f in _ID_FIELDS if isinstance(row.get(f), (str, int)) and row.get(f) != ""), None)
        if field is None:
            return []
        said = " ".join(str(v) for v in row.values() if isinstance(v, (str, int)))
        label = next((str(row[f]) for f in _LABEL_FIELDS if f != field and isinstance(row.get(f), str)), "")
        items.append(Item(str(row[field]), noun if field in ("number", "id") else "", said, label))
    return items


def _records(value: Any) -> bool:
    return isinstance(value, list) and len(value) >= 2 and all(isinstance(v, dict) for v in value)


def _records_log(out: str) -> list[Item]:
    """'Commit: …' / 'Author: …' blocks: each block's hash is its value, its first field's name its noun."""
    found = [[(key, value.strip("'")) for key, value in block] for block in field_blocks(out)]
    items = []
    for block in found:
        value = next((v for _, v in block if HASH.match(v)), None)
        if value is None:
            return []
        label = next((v for k, v in block if k.lower() in _LABEL_FIELDS), "").strip().strip("\\n")
        items.append(Item(value, block[0][0].lower(), " ".join(v for _, v in block), label))
    return items


def _entries(out: str, call_input: dict[str, Any]) -> list[Item]:
    """A folder's entries, each as a full path under the folder the listing call was given."""
    if listing(out) is None:
        return []
    folder = next((v for v in call_input.values() if isinstance(v, str) and _FOLDER.fullmatch(v)), "")
    items = []
    for line in out.splitlines():
        match = ENTRY.match(line) if line.strip() else None
        if match and not line.rstrip().endswith(":"):
            name = match.group(2)
            full = name if name.startswith(("/", "~")) or not folder else f"{folder.rstrip('/')}/{name}"
            items.append(Item(full, "", name))
    return items


def pick(reply: str, items: list[Item]) -> tuple[Item, str] | None:
    """The item a reply picks, by its place ('the second one', 'ostatni') or by what it is about ('the one about
    Safari'), and the word that picked it."""
    ordinals = _words()["ordinals"]
    tokens = lx.words(reply)
    for at, token in enumerate(tokens):
        counted = at + 1 < len(tokens) and tokens[at + 1][:1].isdigit()  # 'the last 10 lines' picks no item
        if token in ordinals and not counted and -len(items) <= ordinals[token] < len(items):
            return items[ordinals[token]], token
    dated = _by_age(tokens, items)
    if dated is not None:
        return dated
    if not lx.hits(tokens, [f"={w}" for w in _words()["about"]]) and not _described_one(tokens):
        return None
    asked = [w for w in lx.content_words(reply) if len(w) > 2]
    scores = [sum(lx.fold(w) in lx.fold(item.text) for w in asked) for item in items]
    best = max(scores, default=0)
    if best == 0 or scores.count(best) > 1:
        return None
    return items[scores.index(best)], ""


_DATE = re.compile(r"\b\d{4}-\d{2}-\d{2}(?:[ T]\d{2}:\d{2}(?::\d{2})?)?")


def _by_age(tokens: list[str], items: list[Item]) -> tuple[Item, str] | None:
    """'what did the older one change': the item with the earliest date ('the newer one': the latest), by the dates
    the items carry (a log's 'Date: 2026-11-29 ...'), whatever order they were listed in."""
    ages = _words()["by_age"]
    wanted = next((age for age in ("oldest", "newest") if lx.hits(tokens, [f"={w}" for w in ages[age]])), None)
    dates = [min(_DATE.findall(item.text), default="") for item in items]
    if wanted is None or not all(dates) or len(set(dates)) != len(dates):
        return None
    at = dates.index(min(dates) if wanted == "oldest" else max(dates))
    said = {lx.fold(w) for w in ages[wanted]}
    return items[at], next((t for t in tokens if t in said), "")


def _described_one(tokens: list[str]) -> bool:
    """'close the dark mode one': what the item is about said before the word that stands for it."""
    ones = {lx.fold(w) for w in _words()["described_one"]}
    told = {lx.fold(w) for w in lx.content_words(" ".join(tokens))}
    return any(t in ones and at and tokens[at - 1] in told for at, t in enumerate(tokens))


def retell(request: str, reply: str, item: Item, word: str, pending: bool) -> str:
    """The follow-up as a request of its own: the earlier request's statements when the model asked which item
    (pending: its question was answered by the list, its task waits for the item), the places it names, and the
    reply acting on the item: 'What did the second one change?' -> 'What did commit b2c3 change?'; 'The last one -
    add a comment: X' -> 'issue 44 add a comment: X' (one clause: the item is what the action is done to)."""
    sentences = re.split(r"(?<=[.!?])\s+", request.strip()) if pending else []
    kept = " ".join(s for s in sentences if s and not s.endswith("?")) or " ".join(_waiting(request))
    places = [e.text for e in entities.of_kind(request, "repo")] + _FOLDER.findall(request)
    context = [p for p in dict.fromkeys(places) if p not in kept and not item.value.startswith(p.rstrip("/"))]
    rest = _without_pick(reply, word)
    said = _in_place(reply, word, item) if rest is None else " ".join(x for x in (_called(item), rest) if x)
    where = f"{', '.join(context)}:" if context else ""  # the place the items were listed in
    return " ".join(x for x in (kept, where, said) if x)


def _waiting(request: str) -> list[str]:
    """'List the open issues, I want to leave a comment on one': the parts of the earlier request that wait for the
    item the user picks, each a sentence of its own."""
    ones = {lx.fold(w) for w in _words()["one_of"]}
    parts = re.split(r"(?<=[.!?])\s+|,\s+", request.strip())
    return [p.rstrip(".!") + "." for p in parts if p and not p.endswith("?") and ones & set(lx.words(p))]


def _without_pick(reply: str, word: str) -> str | None:
    """The reply without its parts that only pick ('The last one', 'yes, that first one'); None when the pick is
    inside a clause of other words ('What did the second one change?'), where the item takes its place."""
    parts = [p for p in re.split(r"\s*(?:[.,;!?]|\s[-–—]\s)\s*", reply.strip()) if p]
    filler = {lx.fold(w) for w in _words()["one"]}
    rest = []
    for part in parts:
        own = [w for w in lx.words(part) if w not in filler and w != word]
        if word and word in lx.words(part) and own:
            return None
        if own and not (len(own) == 1 and entities.yes_no(part) is not None):
            rest.append(part)
    return " ".join(rest)


def _in_place(reply: str, word: str, item: Item) -> str:
    one = "|".join(map(re.escape, _words()["one"]))
    at = next(m for m in re.finditer(r"\w+", reply) if lx.fold(m.group()) == word)
    after = re.match(rf"\s+(?:{one})(?!\w)", reply[at.end() :], re.I)
    # 'ten pierwszy', 'the second one': the words around the ordinal go with it ('ten' is no number ten here)
    before = re.sub(rf"(?i)(?<!\w)(?:{one})\s+$", "", reply[: at.start()])
    return before + _called(item) + reply[at.end() + (after.end() if after else 0) :]


def _called(item: Item) -> str:
    """How the follow-up names the item: an issue by its noun and number; a thing a bare list gives only a number
    for ('id': 2) by its name too ('Porch light 2'), so the request says what it acts on."""
    if item.noun or not item.label or not item.value.isdigit():
        return item.name
    return f"{item.label} {item.value}"


def which(view: View) -> str | None:
    """The clarifying question when this turn's results list what the call lacks: the items by what the user
    knows them by ('42 (Checkout button does nothing on Safari) or 44 (...)'), never a schema field."""
    for attempt in reversed(view.episode):
        found = items_of(attempt.output, attempt.input) if attempt.status == "ok" else []
        if 2 <= len(found) <= MAX_OFFERED:
            named = [f"{i.value} ({lx.quote(i.label, view.lang)})" if i.label else i.value for i in found]
            return say("ask.which_item", view.lang, items=_either(named, view.lang))
    return None


def _either(items: list[str], lang: str) -> str:
    word = {"en": "or", "ru": "или", "pl": "czy"}[lang]
    return ", ".join(items[:-1]) + f" {word} " + items[-1]
