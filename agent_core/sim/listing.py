"""Lists for tool parameters: arrays built from what the text lists, one value picked from several, the dates a
period's bound takes (the number a numeric parameter means is numeric.py's)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from agent_core.sim import kinds, places, stored, things
from agent_core.sim.text import entities, facts, keeping, names, values
from agent_core.sim.text import language as lx

if TYPE_CHECKING:
    from agent_core.sim.work import Fill

MAX_ITEMS = 20
_SPLIT = re.compile(r"\s*(?:,|;|\band\b|\bor\b|\bи\b|\bили\b|\bi\b|\boraz\b|\blub\b|&|/)\s*", re.I)
_ENTITY_TYPES = {
    "person": ("person", "people", "человек", "osoba"),
    "location": ("location", "place", "city", "country", "место", "miejsce"),
    "organization": ("organization", "organisation", "company", "org", "организация", "firma"),
}
_ORG = re.compile(r"(?<![\w-])([A-Z][A-Za-z0-9&]+(?:\s+(?:Inc|Corp|Ltd|LLC|GmbH)\.?)?)(?![\w-])")


def array(work: Fill, pname: str, prop: dict[str, Any], depth: int) -> list[Any] | None:
    """An array for a parameter: the values of its item kind the text holds, or the list written after its name."""
    items: dict[str, Any] = prop["items"] if isinstance(prop.get("items"), dict) else {"type": "string"}
    item_kind = kinds.kind_of(pname, {k: v for k, v in items.items() if k != "description"}, work.key)
    if items.get("type") == "object" and items.get("properties"):
        return _objects(work, items) or None
    cap = min(MAX_ITEMS, int(prop.get("maxItems") or MAX_ITEMS))
    best: list[Any] = []
    for index, text in enumerate(work.texts()):
        found = _items(work, text, pname, items, item_kind)
        if len(found) > len(best):
            best = found  # the clause may end at 'and' inside the list ('labels bug and frontend'): the question has it all
        if best and index >= 1:
            break
    return best[:cap] or None


def _items(work: Fill, text: str, pname: str, items: dict[str, Any], item_kind: str | None) -> list[Any]:
    if items.get("enum"):
        options = tuple(o for o in items["enum"] if isinstance(o, str))
        tokens = lx.words(text)
        return [o for o in options if lx.hits(tokens, [o])]
    if items.get("type") in ("integer", "number"):
        numbers = [e.value for e in entities.of_kind(text, "number")]
        return [int(n) if items.get("type") == "integer" else n for n in numbers]
    by_kind = {"email": "email", "phone": "phone", "url": "url", "path": "file", "city": "city", "date": "date"}
    own = kinds.kind_of(pname, {"type": "string", "description": str(items.get("description", ""))}, work.key)
    wanted = by_kind.get(own or "") or by_kind.get(item_kind or "")
    if wanted:
        return list(dict.fromkeys(e.value for e in entities.of_kind(text, wanted)))
    props = (work.need.tool_def.get("input_schema") or {}).get("properties") or {}
    written = _written_list(text, pname, [p for p in props if p != pname]) or _known_labels(text, pname)
    return written or _things_named(work, text, pname)


def _things_named(work: Fill, text: str, pname: str) -> list[str]:
    """The names an array of names takes (delete_entities' entityNames, open_nodes' names): the stored records
    the text speaks of, by their stored names ('Ann Kowalskiej' -> 'Ann Kowalska'), else the names it gives."""
    if kinds.name_words(pname)[-1:] != ["names"] or text not in (work.need.clause, work.need.focus, work.view.question):
        return []
    before = [a.output for a in work.view.history.values()]
    kept = stored.stored_names([*work.results(), *before])
    said = [n for n in kept if stored.mentioned(text, [n])]
    return said or ([kept[-1]] if stored.pointed(text, kept[-1:]) else []) or names.proper_names(text)


def _known_labels(text: str, pname: str) -> list[str]:
    """A tracker's well-known labels the question names by their words ('открытые баги' -> ['bug']), for a
    parameter of labels; quoted text (a comment to post, a title) is what the user will write, not a filter."""
    if not {"label", "labels"} & set(kinds.name_words(pname)):
        return []
    plain = text
    for _, passage in values.quoted(text):
        plain = plain.replace(passage, " ")
    tokens = lx.words(plain)
    table = lx.lexicon()["label_values"]
    return [name for name, said in table.items() if not name.startswith("_") and lx.hits(tokens, said)]


def _written_list(text: str, pname: str, others: list[str] | None = None) -> list[str]:
    """The list after the parameter's name, in any of the three languages: 'with labels bug and frontend', 'tags: a,
    b', 'assign it to marek-w', 'метки bug и ui', 'z etykietami i18n oraz bug'; it ends where the name of another
    parameter (others) begins ('labels bug & checkout, assignees anna-k')."""
    stems = _stems(pname)
    if not stems:
        return []
    match = re.search(
        rf"\b(?:{'|'.join(stems)})\w*\s*(?:[:=]|(?:of|called|named)\s)?\s*(?:(?:it|them|this)\s+)?(?:(?:to|на|do)\s+)?(.+?)"
        r"(?:[.!?;\n]|,\s*(?:and|и|i|oraz|a)\s|$)",
        lx.fold(text),
    )
    if not match:
        return []
    raw = text[match.start(1) : match.end(1)]
    raw = re.split(r"\s+(?:to|for|in|with|on|at|and then|then|в|для|na|dla|w)\s+", raw, maxsplit=1)[0]
    later = [s for other in others or [] for s in _stems(other)]
    if later:
        raw = re.split(rf"(?:^|[\s,;]+)(?:{'|'.join(later)})\w*", raw, maxsplit=1, flags=re.I)[0]
    joined = re.search(r"\s(?:and|or|и|или|i|oraz|lub|&)\s", raw, re.I)
    if joined and "," in raw[joined.end() :]:
        raw = raw[: raw.index(",", joined.end())]  # 'биллинг и экспорт, просит демо': the last item came with 'и'
    parts = [_unled(p.strip(" '\"“”„«»`")) for p in _SPLIT.split(raw)]
    return [p for p in parts if p and len(p) <= 40 and lx.fold(p) not in lx.word_set("stopwords")][:MAX_ITEMS]


def _unled(item: str) -> str:
    """An item without the small words that lead to it ('interested in analytics' -> 'analytics')."""
    words = item.split(" ")
    while len(words) > 1 and lx.fold(words[0]) in lx.word_set("stopwords"):
        words = words[1:]
    return " ".join(words)


def _stems(pname: str) -> list[str]:
    return [re.escape(lx.fold(w)[: max(4, len(w) - 3)]) for w in param_words(pname)]


def param_words(pname: str) -> list[str]:
    """A parameter's own words, its Russian and Polish names ('labels': метки, etykiety; data/answers.json) and the
    other words a request names it by (lexicon param_names)."""
    words = kinds.name_words(pname)
    entry = lx.load("answers")["labels"].get(pname.lower()) or {}
    also = lx.lexicon()["param_names"].get(pname.lower(), [])  # 'tag it ...' for labels, 'назначь на ...'
    return [*words[-1:], *(str(v) for lang, v in entry.items() if lang != "en"), *also] if words else []


def _objects(work: Fill, items: dict[str, Any]) -> list[dict[str, Any]]:
    """Objects of an array: one per entity of the text ('John' a person, 'Google' an organization, 'Paris' a place)
    when the item has a name and a type, as entity extractors ask (print_entities)."""
    props = items.get("properties") or {}
    pair = _replacement(work, props)
    if pair is not None:
        return [pair]
    keys = {lx.fold(k): k for k in props}
    if keys.keys() >= {"from", "to"}:
        link = _relation(work, keys)
        return [link] if link else []
    name_key = keys.get("name") or keys.get("entity") or keys.get("text") or keys.get("value")
    name_key = name_key or next((k for f, k in keys.items() if f.endswith("name")), None)  # entityName
    type_key = keys.get("type") or keys.get("label") or keys.get("category") or keys.get("kind")
    type_key = type_key or next((k for f, k in keys.items() if f.endswith("type") and f != "relationtype"), None)
    if not name_key:
        return []
    text = work.view.question if work.view.question and not work.only_clause else next(iter(work.texts()))
    body = _passage(text)
    found = names.known_entities(body)
    notes_key = next((k for f, k in keys.items() if f in _NOTES and props[k].get("type") == "array"), None)
    before = [a.output for a in work.view.history.values()]
    held = stored.held(body, list(work.results()), before) if notes_key else None
    if held and not found:
        found = [(0, "", "person")]  # 'Acme ma nowe biuro ...', 'dopisz jej': a name only the store shows
    if notes_key and found:
        # 'my friend Tomasz Nowak is a dentist and lives in Gdańsk': one entity, what is said of it its notes
        _, who, what = next((e for e in sorted(found) if e[2] == "person"), sorted(found)[0])
        who, what = (held, "person") if held else (who, what)  # the one the store holds, by its stored name
        told = _statements(body, who)
        if stored.removes(work.need.tool_def):  # what is removed is the note as stored, looked up first
            kept = stored.notes(work.results(), who, text)
            if kept is None:
                return []
            told = kept or told
        about: dict[str, Any] = {name_key: who, notes_key: told}
        return [{**about, type_key: _type_option(props.get(type_key) or {}, what)} if type_key else about]
    out = []
    for start, value, kind in sorted(found)[:MAX_ITEMS]:
        item: dict[str, Any] = {name_key: value}
        if type_key:
            item[type_key] = _type_option(props.get(type_key) or {}, kind)
        for key in props:
            if key not in item and lx.fold(key) in ("context", "sentence", "description"):
                item[key] = _sentence(body, start)
        out.append(item)
    return out


def _relation(work: Fill, keys: dict[str, str]) -> dict[str, str] | None:
    """A relation between two named things, in the active voice: 'Ann Kowalska mentors Project Falcon's new intern,
    Piotr' -> from Ann Kowalska, to Piotr (the last name said), its type the verb after the first ('mentors')."""
    text = work.view.question if work.view.question and not work.only_clause else next(iter(work.texts()))
    found = [(start, name) for start, name, kind in names.known_entities(text) if kind != "location"]
    if len(found) < 2:
        return None
    (start, first), (_, last) = found[0], found[-1]
    verb = re.match(r"\s+(?:is\s+|jest\s+)?([^\W\d]+(?:\s+(?:to|at|for|of|w|в))?)", text[start + len(first) :])
    type_key = next((k for f, k in keys.items() if f not in ("from", "to")), None)
    if verb is None or type_key is None or lx.fold(last) == lx.fold(first):
        return None
    return {keys["from"]: first, keys["to"]: last, type_key: verb.group(1)}


_OLD, _NEW = ("old", "from", "find", "search", "before", "original"), ("new", "to", "replace", "replacement", "after")
_CHANGE = re.compile(
    r"\b(?:change|replace|rename|swap|замени|заменить|измени|изменить|поменяй|исправь|zamień|zmień|popraw)\s+(.+?)\s+"
    r"(?:to|with|into|for|на|na)\s+(.+?)\s*[.!?]?\s*$",
    re.I,
)


def _replacement(work: Fill, props: dict[str, Any]) -> dict[str, str] | None:
    """An edit's old and new text (edit_file's edits: [{oldText, newText}]) from 'change A to B', 'замени A на B',
    'zamień A na B'; quoted text is taken as written."""
    roles: dict[str | None, str] = {}
    for key, prop in props.items():
        words = kinds.name_words(key)
        if isinstance(prop, dict) and prop.get("type", "string") == "string":
            role = "old" if set(words) & set(_OLD) else "new" if set(words) & set(_NEW) else None
            roles.setdefault(role, key)
    if "old" not in roles or "new" not in roles:
        return None
    for text in work.texts():
        match = _CHANGE.search(text)
        if match:
            old, new = (_unquote(match.group(i)) for i in (1, 2))
            return {roles["old"]: old, roles["new"]: new}
    return None


def _unquote(text: str) -> str:
    """'"Version 1.1" in README.md' -> 'Version 1.1': a quoted value at the start is the value, as written."""
    found = entities.of_kind(text, "quoted")
    return str(found[0].value) if found and found[0].start == len(text) - len(text.lstrip()) else text.strip()


_NOTES = ("observations", "facts", "notes", "contents", "details", "statements")
_THAT = re.compile(r"(?:\bthat|,?\s*что|,?\s*że)\s+", re.I)
_PRONOUN = re.compile(r"^(?:she|he|they|она|он|они|ona|on|oni)\s+", re.I)


def _statements(body: str, name: str) -> list[str]:
    """What a sentence says of someone, one statement per clause, without the name itself; after 'that' / 'что' /
    'że' when the sentence reports it ("Add to Ann's record that she now speaks Spanish": 'now speaks Spanish')."""
    body = keeping.fact_of(body)
    at = body.find(name)
    at = at if at >= 0 else body.find(name[: max(3, len(name) - 1)])  # 'Marty' said of Marta
    told = _THAT.search(body, at + len(name)) if at >= 0 else None
    if told is not None:
        body = _PRONOUN.sub("", body[told.end() :], count=1)
    rest = re.sub(r"\s+", " ", body.replace(name, " ")).strip(" .!")
    parts = re.split(r",\s*|\s+(?:and|и|а также|i|oraz)\s+", rest)
    parts = [keeping.fact_part(p) for p in parts if not keeping.asks_to_keep(p)]  # not '..., remember that'
    return [p.strip(" .") for p in parts if len(lx.content_words(p)) >= 1][:MAX_ITEMS]


def _passage(text: str) -> str:
    """The text an extraction works on: a <document>, a long quoted or a colon-introduced passage, else the whole."""
    tagged = re.search(r"<(document|text|article|input)>\s*(.+?)\s*</\1>", text, re.S)
    if tagged:
        return tagged.group(2)
    quoted = [str(e.value) for e in entities.of_kind(text, "quoted") if len(str(e.value)) > 40]
    if quoted:
        return max(quoted, key=len)
    head, colon, rest = text.partition(":")
    return rest.strip() if colon and len(rest) > len(head) else text


def _sentence(text: str, at: int) -> str:
    start = max(text.rfind(".", 0, at), text.rfind("!", 0, at), text.rfind("?", 0, at)) + 1
    ends = [i for i in (text.find(".", at), text.find("!", at), text.find("?", at)) if i >= 0]
    return text[start : (min(ends) + 1 if ends else len(text))].strip()


def _type_option(prop: dict[str, Any], kind: str) -> str:
    options = [o for o in prop.get("enum") or [] if isinstance(o, str)]
    options = options or re.findall(r"\b[A-Z]{3,}\b", str(prop.get("description", "")))  # "(e.g., PERSON, ORG)"
    for option in options:
        if lx.fold(option) in _ENTITY_TYPES[kind] or lx.fold(option).startswith(kind[:3]):
            return str(option)
    return str(options[0]) if options else kind


def pick(work: Fill, found: list[Any], prop: dict[str, Any], text: str = "") -> Any:
    """One of several values a result gave (the ids of an order list): the one of the record the question picks by
    a field ('the most recently updated' -> the latest updated_at, 'с наибольшим числом комментариев' -> the most
    comments), else the first."""
    scalars = [v for v in found if isinstance(v, (str, int, float)) and not isinstance(v, bool)]
    if not scalars:
        return None
    records = facts.records(text) if len(scalars) > 1 and text else []
    if len(records) == len(scalars):
        best = _by_field(work, records)
        if best is None:
            best = _by_name(work, records)  # the whole name said, then by stems or meaning (things.py)
        if best is None:
            named = things.named_records(work.need.clause or work.view.question, records)
            best = named[0] if len(named) == 1 else None
        if best is None:
            best = _by_mention(work, records)
        if best is not None:
            return scalars[best]
    return scalars[0]


def _by_mention(work: Fill, records: list[dict[str, Any]]) -> int | None:
    """The index of the one record whose own words the question names most ('Cancel my Smartphone Case order that's
    still processing' -> the Smartphone Case in Processing, not the first order listed; 'zgłoszenie o przycisku
    checkout w Safari' -> 'Checkout button does nothing on Safari'), at least two words; None on a tie. Words every
    record has (the repository in each link) tell none of them apart."""
    said = {lx.stem(w) for w in lx.words(work.view.question or work.need.clause) if len(w) > 2}
    own = [_words_of(r) & said for r in records]
    common = set.intersection(*own) if own else set()
    counts = [len(words - common) for words in own]
    best = max(counts, default=0)
    return counts.index(best) if best >= 2 and counts.count(best) == 1 else None


_NAME_KEYS = ("name", "title", "label", "real_name", "display_name", "username", "full_name")


def _by_name(work: Fill, records: list[dict[str, Any]]) -> int | None:
    """The index of the one record whose own name the question says whole ('in #deploys' -> the channel named
    deploys, 'Ann Kowalska' -> the user whose real_name it is), one word or several; None if none or several."""
    said = f" {' '.join(lx.words(work.view.question or work.need.clause))} "
    hits = [
        i
        for i, record in enumerate(records)
        if any(
            isinstance(record.get(k), str) and len(record[k]) > 2 and f" {' '.join(lx.words(record[k]))} " in said
            for k in _NAME_KEYS
        )
    ]
    return hits[0] if len(hits) == 1 else None


def _words_of(record: dict[str, Any]) -> set[str]:
    stop = lx.word_set("stopwords")
    text = " ".join(v for v in record.values() if isinstance(v, str))
    return {lx.stem(w) for w in lx.words(text) if len(w) > 2 and w not in stop}


def picked_by_mention(work: Fill, text: str) -> bool:
    """One record of a listed result is the one the question names by its values."""
    records = facts.records(text)
    return len(records) > 1 and _by_mention(work, records) is not None


def picks_by_field(work: Fill) -> bool:
    """The question picks one record of a list by a field ('the most recently updated open issue')."""
    tokens = lx.words(work.view.question or work.need.clause)
    return any(not k.startswith("_") and lx.hits(tokens, said) for k, said in lx.lexicon()["picked_by"].items())


def _by_field(work: Fill, records: list[dict[str, Any]]) -> int | None:
    """The index of the record with the largest value of the field the question picks by, or None."""
    tokens = lx.words(work.view.question or work.need.clause)
    for key, said in lx.lexicon()["picked_by"].items():
        present = [r.get(key) for r in records]
        if key.startswith("_") or not lx.hits(tokens, said) or None in present:
            continue
        numbers = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in present)
        ranks: list[Any] = present if numbers else [str(v) for v in present]  # ISO times sort as text
        return max(range(len(records)), key=lambda i: ranks[i])
    return None


_SINCE = re.compile(r"(?:\bsince|\bfrom|\bafter|\bstarting|\bс|\bначиная с|\bпосле|\bod|\bpo)\s+(?:the\s+)?$", re.I)
_UNTIL = re.compile(r"(?:\buntil|\btill|\bbefore|\bto|\bthrough|\bпо|\bдо|\bdo|\bprzed)\s+(?:the\s+)?$", re.I)


def dates_for(found: list[entities.Entity], pname: str, text: str) -> list[entities.Entity]:
    """The dates a period's bound takes: a start (start_timestamp, date_from, since) the dates after 'since / from /
    с / od', an end the dates after 'until / to / до / do'; a parameter with no role takes any date."""
    role = places._role(pname) or ("source" if lx.hits(kinds.name_words(pname), ["since", "after"]) else "")
    role = role or ("target" if lx.hits(kinds.name_words(pname), ["until", "before"]) else "")
    if not role:
        return found
    after = _SINCE if role == "source" else _UNTIL
    return [e for e in found if after.search(text[max(0, e.start - 24) : e.start])]
