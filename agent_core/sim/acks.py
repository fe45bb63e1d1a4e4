"""A change tool's acknowledgement told as the action done: a result that only names what was written (an id, a
number, a link: `{"id": 3011223300, "number": 43, "url": ...}`) says it happened, so the answer says what was done
and what changed ('Задача 43: закрыто (причина не запланировано)'), never the internal id as a number."""

from __future__ import annotations

import re
from typing import Any

from agent_core.sim.text import language as lx
from agent_core.sim.text.language import say
from agent_core.sim.text.reader import Need, View
from agent_core.sim.words import answers_table, capitalised, label, norm, noun, value

_IDENTS = frozenset({"id", "number", "url", "html_url", "web_url", "node_id", "uri", "link", "key", "ref", "sha"})
_LINKS = ("html_url", "web_url", "url", "link", "uri")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_NOT_TOLD = frozenset({"owner", "repo", "method", "number", "id", "body", "content", "text", "description", "message"})
MAX_TOLD = 60  # a changed value longer than this (a body) is not repeated


def line(view: View, need: Need, record: dict[str, Any]) -> str | None:
    """The acknowledgement of a change as a sentence, or None when the record is more than one."""
    sent = need.outcome.input
    echoed = {k for k, v in record.items() if isinstance(v, str) and v in {str(s) for s in sent.values()}}
    if not record or not all(
        (norm(k) in _IDENTS or k in echoed) and isinstance(v, (str, int)) or _names(v) for k, v in record.items()
    ):
        return None  # a record of more than what was written; a value sent back ('name' of a new branch) names it
    done = answers_table()["done"]
    verbs = [lx.fold(str(v)) for v in sent.values() if isinstance(v, str)] + _name_words(need)
    verb = "close" if "closed" in verbs else next((w for w in verbs if w in done and w != "_"), None)
    if verb is None:
        return None
    number = record.get("number", sent.get("issue_number") or sent.get("number"))
    named = next((str(record[k]) for k in echoed if norm(k) not in _IDENTS), None) if number is None else None
    own = str(number) if number is not None else f"`{named}`" if named else ""
    thing = " ".join(p for p in (_thing(need, view.lang), own) if p)
    template = done.get(verb, done["_"]).get(view.lang) or done["_"]["en"]
    said = str(template).format(thing=capitalised(thing) if thing else say("compose.it", view.lang))
    changes = [f"{label(k, view.lang)} {_told(v, view.lang)}" for k, v in _changed(need, record, verb).items()]
    link = next((str(record[k]) for k in _LINKS if k in record), "") if verb == "create" else ""
    extra = ", ".join([*changes, *([link] if link else [])])
    return f"{said.rstrip('.')} ({extra})." if extra else said


def _names(raw: Any) -> bool:
    """A nested record that only names what was written: a new branch's `"object": {"sha": ..., "type": "commit"}`."""
    return isinstance(raw, dict) and bool(raw) and all(norm(k) in _IDENTS | {"type"} for k in raw)


def _name_words(need: Need) -> list[str]:
    name = str((need.tool or {}).get("name", ""))
    return lx.words(_CAMEL.sub(" ", name).replace("_", " "))


def _thing(need: Need, lang: str) -> str:
    """What the tool writes, in the user's words: 'issue' of issue_write, 'задача', 'zgłoszenie'."""
    skip = lx.word_set("subject_skip")
    return next((noun(w, lang) or "" for w in reversed(_name_words(need)) if w not in skip and noun(w, lang)), "")


def _told(raw: Any, lang: str) -> str:
    """A value set: a known word in the user's language, free text quoted ('title “Login page crashes”')."""
    said = value(raw, lang)
    return lx.quote(said, lang) if said == raw and isinstance(raw, str) and " " in raw else said


def _changed(need: Need, record: dict[str, Any], verb: str) -> dict[str, Any]:
    """The values the call set, as the user asked them: not where (owner, repo), not which (the number), not how
    (an operation's method), not what the user wrote out (a body), not a new thing's usual state ('open')."""
    props = (need.tool_def.get("input_schema") or {}).get("properties") or {}
    shown = {str(v) for v in record.values()}
    out = {}
    for key, raw in need.outcome.input.items():
        words = set(norm(key).split("_"))
        if (
            words & _NOT_TOLD
            or str(raw) in shown
            or isinstance(raw, (list, dict))
            or (verb == "create" and "state" in words)
        ):
            continue
        if isinstance(raw, str) and (len(raw) > MAX_TOLD or (raw == "closed" and "state" in words)):
            continue  # 'closed' is the verb already
        if key in props:
            out[key] = raw
    return out


# ---- a result that says an action happened ----------------------------------------------------------------


def verb(need: Need) -> str | None:
    name = str((need.tool or {}).get("name", ""))
    words = lx.words(_CAMEL.sub(" ", name).replace("_", " "))
    table = answers_table()["done"]
    return next((w for w in words if w in table), None)


SUCCESS = ("true", "ok", "success", "done", "succeeded")
_NEGATIVE = re.compile(r"\b(?:not|no|can't|cannot|couldn't|unable|fail\w*|error|denied|invalid)\b", re.I)


def confirms(verb: str, out: str) -> bool:
    """A short result that says the action happened: 'True', 'Cancelled the order', 'Successfully wrote to ...'."""
    text = out.strip()
    if len(text) > 160 or _NEGATIVE.search(text):
        return False
    folded = lx.fold(text).strip(" .!")
    said = (verb[:5], *str(answers_table()["done_past"].get(verb, "")).split("|"))  # 'Email sent to ...'
    return (
        folded in SUCCESS
        or folded.startswith(("successfully", *said))
        or any(f" {w}" in f" {folded}" for w in said if w)
    )


def done_said(verb: str, thing: str, lang: str) -> str:
    table = answers_table()["done"]
    template = (table.get(verb) or table["_"]).get(lang) or table["_"]["en"]
    # a path is written as code, as a model writes it: it is a name, not words of the sentence's language
    thing = _PATH.sub(lambda m: f"`{m.group()}`", thing)
    return str(template).format(thing=thing or say("compose.it", lang))


_PATH = re.compile(r"(?<![\w`])(?:~|\.{1,2})?/[\w.~-]+(?:/[\w.~-]+)*/?(?![\w`])")


_REFUSED = re.compile(r"\b(?:can't|can’t|cannot|can not|couldn't|could not|unable to|not possible|not allowed)\b", re.I)


def refused(verb: str, thing: str, out: str, lang: str) -> str | None:
    """'Order has already shipped. Can't cancel it.': an action the tool would not do, told in the user's words
    ('Zamówienie 74651: nie można anulować (status: wysłane)'), never the tool's English sentence."""
    text = out.strip()
    if len(text) > 160 or not _REFUSED.search(text):
        return None
    table = answers_table()["refused"]
    template = (table.get(verb) or table["_"]).get(lang) or table["_"]["en"]
    said = str(template).format(thing=capitalised(thing) if thing else say("compose.it", lang))
    known = answers_table()["values"]
    state = next((w for w in lx.words(text) if w in known and w != verb), None)
    why = str(table["state"].get(lang) or table["state"]["en"]).format(state=value(state, lang)) if state else ""
    return f"{said} ({why})." if why else f"{said}."
