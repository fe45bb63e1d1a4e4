"""Structured values by meaning: what fills an output schema's fields that no tool argument rule does — fields
judged from the text (flags, scores, categories: judged.py), things the model knows (a banana is a yellow fruit, the
2012 Olympics were in London), a name next to its word ('the Enterprise plan'), and a value a result gave under the
field's own name."""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from agent_core.sim import events, judged, kinds, measures
from agent_core.sim.kinds import name_words
from agent_core.sim.text import entities, facts, names
from agent_core.sim.text import language as lx
from agent_core.sim.text.reader import View

# Free-text properties of an output: what the model would say in its answer goes there.
_TEXTY = (
    "text",
    "message",
    "answer",
    "response",
    "reply",
    "advice",
    "summary",
    "content",
    "explanation",
    "output",
    "result",
    "comment",
    "note",
    "body",
    "greeting",
)


def texty(pname: str, prop: dict[str, Any]) -> bool:
    """A free-text property that carries what the model says."""
    if prop.get("type") not in (None, "string") or prop.get("enum") or prop.get("format"):
        return False
    words = lx.words(re.sub(r"[_\-]+", " ", re.sub(r"(?<=[a-z])(?=[A-Z])", " ", pname)))
    return any(w in _TEXTY or w.rstrip("s") in _TEXTY for w in words)


@cache
def _table() -> dict[str, Any]:
    return lx.load("knowledge")


def thing(question: str) -> dict[str, Any] | None:
    """What the small knowledge table knows of the question's subject (a fruit, a vehicle, an event, a recipe)."""
    tokens = lx.words(question)
    for entry in _table()["things"]:
        if all(any(t.startswith(lx.fold(w)) for t in tokens for w in group) for group in entry["match"]):
            return dict(entry)
    from agent_core.sim.knowledge import place_thing  # a capital asked for, a city named: its country too

    return place_thing(question)


def _known(entry: dict[str, Any] | None, pname: str, lang: str) -> Any:
    if not entry:
        return None
    found = entry["values"].get(pname)
    for word in name_words(pname) if found is None else []:
        found = entry["values"].get(word) if found is None else found  # capital_city: the capital
    return _in_lang(found, lang) if found is not None else None


def _in_lang(value: Any, lang: str) -> Any:
    if isinstance(value, dict) and set(value) >= {"en", "ru", "pl"}:
        return value[lang]
    if isinstance(value, dict):
        return {k: _in_lang(v, lang) for k, v in value.items()}
    if isinstance(value, list):
        return [_in_lang(v, lang) for v in value]
    return value


def complete(
    view: View, schema: dict[str, Any], found: dict[str, Any], answer: str, key: str, missing: list[str] | None = None
) -> dict[str, Any]:
    """Every property of an output schema: what the arguments rules found, else by meaning, else by type (those
    go into missing)."""
    props = schema.get("properties") or {}
    required = set(schema.get("required") or [])
    subject = thing(view.question)
    if subject is None and any(_names_capital(k, p) for k, p in props.items()):
        from agent_core.sim.knowledge import place_thing  # 'Polska' for an output {capital}: the country's capital

        subject = place_thing(view.question, capital=True)
    out: dict[str, Any] = {}
    for pname, prop in props.items():
        prop = _resolved(prop)
        value: Any = answer if texty(pname, prop) and answer else _known(subject, pname, view.lang)
        if value is None:
            value = _of_event(view, pname, prop, props)
        if value is None and prop.get("type") == "object" and prop.get("properties"):
            given = found.get(pname)
            inner: dict[str, Any] = given if isinstance(given, dict) else {}
            value = complete(view, prop, inner, answer, key) or None
        if value is None and prop.get("type") == "array":
            value = rows(view, prop)  # {"countries": [{country, customers}]} from the rows a query returned
        if value is None and _judged(pname, prop):
            value = by_meaning(view, pname, prop, key, subject)  # a score, a flag: read for its meaning
        if value is None and pname in found:
            value = found[pname]
        if value is None:
            value = by_meaning(view, pname, prop, key, subject)
        if value is None and pname in required:
            value = _by_type(prop, answer)
            if missing is not None:
                missing.append(pname)
        if value is not None:
            out[pname] = value
    if not props and schema.get("additionalProperties"):
        out = characteristics(view.question)
    return out


def _of_event(view: View, pname: str, prop: dict[str, Any], props: dict[str, Any]) -> Any:
    """An event's people (participants: every person named) and, beside them, its name: the title the sentence
    gives it ('Team retro'), not one of the people."""
    if events.people_field(pname, prop):
        return events.people(view.question) or None
    others = [k for k, p in props.items() if k != pname and isinstance(p, dict) and events.people_field(k, p)]
    if others and name_words(pname)[-1:] in (["name"], ["title"]) and prop.get("type", "string") == "string":
        return events.title(view.question)
    return None


def _names_capital(pname: str, prop: Any) -> bool:
    from agent_core.sim.knowledge import names_capital

    return names_capital(f"{pname} {prop.get('description', '') if isinstance(prop, dict) else ''}")


def _judged(pname: str, prop: dict[str, Any]) -> bool:
    """Fields a model judges rather than copies: scores, risk levels, flags, scored categories."""
    words = name_words(pname)
    kind_type = prop.get("type")
    items: dict[str, Any] = prop["items"] if isinstance(prop.get("items"), dict) else {}
    scored = kind_type == "array" and "score" in (items.get("properties") or {})
    return (
        kind_type == "boolean"
        or scored
        or (kind_type in ("integer", "number") and bool({"score", "risk"} & set(words)))
    )


def _resolved(prop: Any) -> dict[str, Any]:
    if not isinstance(prop, dict):
        return {}
    options = prop.get("anyOf") or prop.get("oneOf")
    if isinstance(options, list):
        usable = [o for o in options if isinstance(o, dict) and o.get("type") != "null"]
        if usable:
            return {**usable[0], **{k: v for k, v in prop.items() if k not in ("anyOf", "oneOf")}}
    return prop


def by_meaning(view: View, pname: str, prop: dict[str, Any], key: str, subject: dict[str, Any] | None) -> Any:
    kind_type = prop.get("type")
    text = f"{view.question}\n{view.system}"
    words = name_words(pname)
    if kind_type == "boolean":
        return judged.flag(view.question, pname)
    if kind_type in ("integer", "number"):
        if "score" in words or "sentiment" in words:
            return judged.sentiment(view.question, pname)
        if "risk" in words:
            return judged.risk(view.question)
        keyed = _keyed(view, pname)
        number = re.search(r"-?\d+(?:[.,]\d+)?", keyed or "")
        if number is None:
            value = measures.measured(view, words, prop)
            return (int(value) if kind_type == "integer" else value) if value is not None else None
        if number:
            raw = float(number.group().replace(",", "."))
            return int(raw) if kind_type == "integer" else raw
        return None
    if kind_type == "array":
        items: dict[str, Any] = prop["items"] if isinstance(prop.get("items"), dict) else {}
        if items.get("type") == "object" and "score" in (items.get("properties") or {}):
            return judged.categories(view.question)
        return None
    if kind_type == "object" and prop.get("properties"):
        return complete(view, prop, {}, "", key) or None
    typed = _typed(view, pname, prop, key)
    if typed is not None:
        return typed  # 'contact.email' of a nested object: the e-mail of the text, as a top-level one takes it
    from_results = measures.direction(view, words, prop) or _from_results(view, words)
    if from_results is not None:
        return from_results
    if words and words[-1] == "name":
        people = [e for e in entities.of_kind(view.question, "person")]
        if people:
            return names.nominative(view.question, people[0], view.lang)
        known = [n for _, n, kind in names.known_entities(view.question) if kind == "person"]
        if known:
            return known[0]
    return adjacent_name(text, words)


_TYPED = {"email": "email", "url": "url", "phone": "phone"}


def _typed(view: View, pname: str, prop: dict[str, Any], key: str) -> str | None:
    """The value of a string field whose kind is a typed value (an e-mail, a URL, a phone): the first in the text."""
    kind = _TYPED.get(kinds.kind_of(pname, prop, key) or "")
    found = entities.of_kind(view.question, kind) if kind else []
    return str(found[0].value) if found else None


def _by_type(prop: dict[str, Any], answer: str) -> Any:
    kind_type = prop.get("type")
    if prop.get("enum"):
        return prop["enum"][0]
    return {"integer": 0, "number": 0, "boolean": False, "array": [], "object": {}}.get(str(kind_type), answer or "")


def characteristics(text: str) -> dict[str, str]:
    """An open object of traits: each phrase of the description, keyed by its last word."""
    body = text.split(":", 1)[1] if ":" in text[:400] else text
    phrases = [p.strip(" .") for p in re.split(r"[.;,]|\band\b|\bwith\b|\bhas\b|\bhad\b", body) if p.strip(" .")]
    out: dict[str, str] = {}
    for phrase in phrases[:20]:
        words = [w for w in re.findall(r"[^\W\d_]+", phrase) if lx.fold(w) not in lx.word_set("stopwords")]
        if words:
            out.setdefault(lx.fold(words[-1]), " ".join(words))
    return out


def _keyed(view: View, pname: str) -> str | None:
    """'temperature: 4' or '"temperature": 4' anywhere in the results, then in the question."""
    label = re.escape(pname).replace("_", "[ _]")
    pattern = re.compile(rf'"?{label}"?\s*[:=]\s*"?([^",\n}}]+)', re.IGNORECASE)
    for text in [a.output for a in reversed(view.episode) if a.status == "ok"] + [view.question]:
        match = pattern.search(text)
        if match:
            return match.group(1).strip()
    return None


def rows(view: View, prop: dict[str, Any]) -> list[dict[str, Any]] | None:
    """An array of objects filled from the latest result's records whose keys hold every required field of an
    item (by name, case and '_' aside): the rows are the list, each kept to the item's own fields, in their order."""
    items = _resolved(prop.get("items"))
    fields = list((items.get("properties") or {}) if isinstance(items, dict) else {})
    wanted = set(items.get("required") or fields) if fields else set()
    fold = {lx.fold(f).replace("_", ""): f for f in fields}
    for attempt in reversed(view.episode) if wanted else ():
        found = facts.records(attempt.output) if attempt.status == "ok" else []
        keyed = [{fold[k]: v for key, v in r.items() if (k := lx.fold(key).replace("_", "")) in fold} for r in found]
        if keyed and all(wanted <= set(r) for r in keyed):
            return keyed
    return None


def _from_results(view: View, words: list[str]) -> Any:
    """A value an earlier result gave under the field's name (weather_conditions <- 'conditions')."""
    wanted = {w for w in words if len(w) > 3}
    for attempt in reversed(view.episode):
        if attempt.status != "ok":
            continue
        for fact in facts.read(attempt.output):
            if set(name_words(fact.key)) & wanted and isinstance(fact.value, (str, int, float)):
                return fact.value
        if "conditions" in wanted or "weather" in wanted:
            text = attempt.output.strip()
            if 0 < len(text) < 120 and facts.parse(text) is None:
                return text
    return None


def adjacent_name(text: str, words: list[str]) -> str | None:
    """A capitalised or quoted name next to one of the field's words: 'our Enterprise plan', 'тарифом Business'."""
    kinds = lx.load("vocabulary")["kinds"]  # 'plan' is 'тарифом Business', 'pakietu Pro' in the user's words
    said = [f for w in words for forms in kinds.get(w, {}).values() for f in forms.split("|")]
    for word in (w for w in [*words, *said] if len(w) > 2):
        stem = re.escape(lx.fold(word)[: max(3, len(word) - 2)])
        for match in re.finditer(rf"(?<![\w])({stem}\w*)", lx.fold(text)):
            after = re.match(r"\s+[«„\"']?([A-ZА-ЯЁ][\w-]+)", text[match.end() :])
            before = re.search(r"([A-ZА-ЯЁ][\w-]+)[»”\"']?\s+$", text[: match.start()])
            for found in (after, before):
                if found and lx.fold(found.group(1)) not in lx.word_set("stopwords"):
                    return found.group(1)
    return None


__all__ = ["complete", "kinds", "thing"]
