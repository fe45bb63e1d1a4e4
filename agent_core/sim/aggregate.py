"""Questions answered by a figure worked out over a result's records, as a model reads a list for what was asked:
the record with the most or the least of a field ('Which order was the most expensive?', 'Когда будет теплее
всего?'), how many records match ('Ile zgłoszeń z etykietą bug?'), a field's total, the person with most records.
Words in data/aggregates.json; None when the question asks none of these (the list is told as it came)."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from functools import cache
from typing import Any

from agent_core.sim.text import facts
from agent_core.sim.text import language as lx
from agent_core.sim.text.language import say
from agent_core.sim.words import answers_table, label, said, value

MAX_ITEMS = 6
_NAME_KEYS = ("title", "name", "product", "product_name", "full_name", "city", "label", "subject", "message")
_IDENT_KEYS = ("number", "id", "sha", "order_id")


@dataclass(frozen=True)
class Ask:
    """What a question works out over records: op is max, min, count or total; field a concept of the table."""

    op: str
    field: str = ""


@cache
def _table() -> dict[str, Any]:
    return lx.load("aggregates")


def asked(question: str) -> Ask | None:
    """The figure a question asks of a list, or None."""
    table = _table()
    # 'four results at most', 'o ile stopni' bound or compare; they ask no figure of the list
    tokens = lx.words(re.sub("|".join(re.escape(lx.fold(p)) for p in table["not_asked"]), " ", lx.fold(question)))
    generic = "max" if lx.hits(tokens, table["max"]) else "min" if lx.hits(tokens, table["min"]) else ""
    superlative = (
        bool(generic)
        or bool(lx.hits(tokens, table["superlative"]))
        or any(t.startswith("naj") or t.endswith("est") for t in tokens)
    )
    for concept, entry in table["fields"].items():
        for op in ("max", "min"):
            if superlative and _adjective(tokens, entry.get(op, [])):
                flipped = {"max": "min", "min": "max"}[op] if generic == "min" else op  # 'least expensive'
                return Ask(flipped, concept)
    if generic:
        return Ask(generic)
    if lx.hits(tokens, lx.lexicon()["total_words"]):
        return Ask("total")
    return Ask("count") if lx.hits(tokens, table["count"]) else None


def _adjective(tokens: list[str], stems: list[str]) -> bool:
    """A field's adjective in any degree: 'warmest', 'теплее', 'najcieplej' (the Polish 'naj' left aside)."""
    folded = [lx.fold(s) for s in stems]
    return any((t[3:] if t.startswith("naj") else t).startswith(s) for t in tokens for s in folded)


def number(raw: Any) -> float | None:
    """A numeric value: a number, or a string that is one ('49.99'); never a bool."""
    if isinstance(raw, bool):
        return None
    if isinstance(raw, (int, float)):
        return float(raw)
    try:
        return float(str(raw).strip())
    except ValueError:
        return None


def _numeric(records: list[dict[str, Any]]) -> list[str]:
    keys = [k for k in records[0] if all(number(r.get(k)) is not None for r in records)]
    return [k for k in keys if facts.norm(k) not in _IDENT_KEYS and not facts.norm(k).endswith("_id")]


def field_key(question: str, records: list[dict[str, Any]], ask: Ask, lang: str) -> str | None:
    """The numeric key the question is about: the concept's own key, else a key it names (by the key's words,
    its label in the user's language or the concept's words), else the only numeric key there is."""
    keys = _numeric(records)
    fields = _table()["fields"]
    if ask.field:
        return next((k for k in keys if facts.norm(k) in fields[ask.field]["keys"]), None)
    asked = [lx.stem(w) for w in lx.words(question) if len(w) > 3]
    tokens = lx.words(question)
    for key in keys:
        said = lx.words(facts.norm(key).replace("_", " ")) + lx.words(label(key, lang))
        if any(lx.stems_match(lx.stem(w), a) for w in said if len(w) > 3 for a in asked):
            return key
        concept = next((e for e in fields.values() if facts.norm(key) in e["keys"]), None)
        if concept and lx.hits(tokens, concept["words"]):
            return key
    return keys[0] if len(keys) == 1 and ask.op in ("max", "min") else None


def matching(question: str, records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The records the question picks by a value it names, in a list too ('с меткой bug', 'already shipped',
    'w realizacji'); all of them when it names none, or a value every record has."""
    keep = [r for r in records if names_value(question, r)]
    return keep if keep and len(keep) < len(records) else records


def names_value(question: str, record: dict[str, Any]) -> bool:
    """Whether the question says one of the record's short values, in the tool's word or the user's."""
    values = answers_table()["values"]
    for raw in record.values():
        for v in raw if isinstance(raw, list) else [raw]:
            if not isinstance(v, str) or len(v) > 40:
                continue
            forms = {lx.fold(v)} | {lx.fold(w) for w in (values.get(v.lower()) or {}).values()}
            if any(len(f) > 2 and said(f, question) for f in forms):
                return True
    return False


def line(view: Any, records: list[dict[str, Any]], tool: str = "") -> str | None:
    """The answer to the figure the question asks of these records (a list the tool named `tool` gave), or None."""
    ask = asked(view.question)
    if ask is None or not records or (len(records) < 2 and ask.op != "count"):
        return None
    if ask.op == "count" and not _counts_things(view.question, tool, records):
        return None
    lang = view.lang
    key = field_key(view.question, records, ask, lang)
    if ask.op in ("max", "min"):
        if key is None:
            return _most_by_person(view, records)
        pick = (max if ask.op == "max" else min)(records, key=lambda r: number(r[key]) or 0.0)
        return say(
            f"aggregate.{ask.op}", lang, field=_label(key, lang), item=item(pick, lang), value=_amount(pick, key)
        )
    chosen = matching(view.question, records)
    if key is not None:
        total = sum(number(r[key]) or 0.0 for r in chosen)
        parts = " + ".join(_amount(r, key) for r in chosen[:MAX_ITEMS]) + (" + …" if len(chosen) > MAX_ITEMS else "")
        return say("aggregate.total", lang, field=_label(key, lang), total=_figure(total), parts=parts)
    if ask.op != "count":
        return None
    items = ", ".join(item(r, lang) for r in chosen[:MAX_ITEMS]) + (", …" if len(chosen) > MAX_ITEMS else "")
    return say("aggregate.count", lang, n=len(chosen), items=items)


def _most_by_person(view: Any, records: list[dict[str, Any]]) -> str | None:
    """'Who made the most commits?': the person most records name, with their count."""
    people = _table()["person_keys"]
    names = [v for r in records for k, v in flat(r).items() if facts.norm(k) in people and isinstance(v, str)]
    if not names:
        return None
    who, k = Counter(names).most_common(1)[0]
    shown = who if view.lang == "en" else f"`{who}`"
    return say("gist.most", view.lang, who=shown, k=k, n=len(records))


def _label(key: str, lang: str) -> str:
    return label(key, lang)


def _figure(total: float) -> str:
    return str(int(total)) if total == int(total) else f"{total:.2f}".rstrip("0").rstrip(".")


def _amount(record: dict[str, Any], key: str) -> str:
    """A value with its unit when the record gives one beside it ('temperature_unit': 'F' -> '63°F')."""
    shown = _figure(number(record[key]) or 0.0)
    unit = next((str(v) for k, v in record.items() if facts.norm(k) == f"{facts.norm(key)}_unit"), "")
    if unit in ("F", "C"):
        return f"{shown}°{unit}"
    return f"{shown} {unit}".strip()


def item(record: dict[str, Any], lang: str) -> str:
    """A record as a reader knows it: its number and its name ('7 («Export hangs on large reports»)'), a period
    or a thing by its name in the user's words ('среда («Wednesday»)')."""
    keys = {facts.norm(k): k for k in record}
    ident = next((record[keys[k]] for k in _IDENT_KEYS if k in keys), None)
    name = next((record[keys[k]] for k in _NAME_KEYS if k in keys and isinstance(record[keys[k]], str)), None)
    if name is None and ident is None:  # a table's row by its first word ('South' of region,units)
        name = next((v for v in record.values() if isinstance(v, str) and number(v) is None), None)
    if name is not None and ident is None:
        return value(name, lang) if lang != "en" else str(name)
    named = (lx.quote(name, lang) if lang != "en" else f"“{name}”") if name else ""
    return f"{ident} ({named})" if ident is not None and named else str(ident if ident is not None else "")


def _counts_things(question: str, tool: str, records: list[dict[str, Any]]) -> bool:
    """'How many orders ...' counts the things the tool lists (its name's noun, in any language), not a measure
    inside them ('Ile dni ...'); one record is a count only when the question names a value it has."""
    nouns = answers_table()["nouns"]
    words = lx.words(re.sub(r"(?<=[a-z])(?=[A-Z])", " ", tool).replace("_", " "))
    things = [e for w in words for e in [nouns.get(lx.stem(w)) or nouns.get(w) or nouns.get(w.rstrip("s"))] if e]
    forms = {lx.stem(f) for e in things for f in lx.words(" ".join(str(v) for v in e.values()))}
    asked = {lx.stem(w) for w in lx.words(question)}
    if not any(lx.stems_match(f, a) for f in forms for a in asked):
        return False
    return len(records) > 1 or names_value(question, records[0])


def flat(record: dict[str, Any], depth: int = 2) -> dict[str, Any]:
    """A record's plain fields, with those of the records inside it ({"sha", "commit": {"message", "author":
    {"name"}}} -> sha, message, author): a person or thing inside is told by its name."""
    out: dict[str, Any] = {}
    for key, raw in record.items():
        if isinstance(raw, dict) and depth > 0:
            named = raw.get("name") if isinstance(raw.get("name"), str) else None
            inner = {key: named} if named else flat(raw, depth - 1)
            out.update({k: v for k, v in inner.items() if k not in out})
        elif key not in out:
            out[key] = raw
    return out
