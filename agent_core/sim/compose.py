"""Answers told from the facts of tool results, in the user's language: an order's status, a list of orders, a
total, a value; weather and clock results in weather.py; never the raw JSON and never 'X answered: ...'."""

from __future__ import annotations

import re
from typing import Any

from agent_core.sim import acks, aggregate, notes, phrasing, stamps, weather
from agent_core.sim.prose import clipped
from agent_core.sim.text import entities, facts, gazetteer, meaning, sql
from agent_core.sim.text import language as lx
from agent_core.sim.text.language import say
from agent_core.sim.text.reader import Need, View
from agent_core.sim.words import answers_table, capitalised, label, norm, noun, person_record, said, value

MAX_RECORDS = 12
MAX_FIELDS = 6
QUOTE_LIMIT = 600
LONG_FIELD = 110
_ADDRESS = re.compile(r"\S+://\S+|\S+\.\w+/\S*")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


# ---- what a call was about ------------------------------------------------------------------------------------


def subject(view: View, need: Need, record: dict[str, Any] | None = None) -> str:
    """What a result is about, from the tool's name and the value sent: 'Order O2', 'Заказ O2', 'Klient C1'; the
    one record a list tool returned (get_customer_orders) by its own id, never by its owner's (the customer's)."""
    name = str((need.tool or {}).get("name", ""))
    words = [w for w in lx.words(_CAMEL.sub(" ", name).replace("_", " ")) if w not in lx.word_set("subject_skip")]
    thing = next((noun(w, view.lang) for w in reversed(words) if noun(w, view.lang)), None)
    sent = need.outcome.input if need.result else need.args
    # a need served by data with no tool of its own (workflow mode, or a clause that chose none) has no schema
    props = ((need.tool or {}).get("input_schema") or {}).get("properties") or {}
    # issue_read(method='get', issue_number=42) is about issue 42: an id or number first, never an option (an
    # enum's, or one of the values a description lists: suggest_menu's 'formal')
    plain = [
        (k, v)
        for k, v in sent.items()
        if isinstance(v, (str, int)) and not isinstance(v, bool) and not _an_option(props.get(k) or {}, v)
    ]
    numbered = [str(v) for k, v in plain if {"id", "number", "num"} & set(norm(k).split("_"))]
    own = next((record[k] for k in record if norm(k) == "id"), None) if record else None
    named = next((w for w in reversed(words) if noun(w, view.lang)), "")
    if own is not None and named and any(_owners_id(k, [named]) for k, _ in plain):
        numbered = [str(own)]
    paths = [str(v) for _, v in plain if re.fullmatch(r"[\w.~-]*/[\w./~-]+", str(v))]  # write_file's path
    ident = next(iter(numbered + paths), "") or next((str(v) for _, v in plain if len(str(v)) < 20), "")
    ident = stamps.told(ident, view.lang) or ident  # '--12-12' sent is '12 grudnia' said
    if not thing and ident:
        return _state_said(view.question, ident) or ident
    if thing and ident:
        return f"{capitalised(thing)} {ident}"
    return capitalised(thing) if thing else ident


def _owners_id(pname: str, named: list[str]) -> bool:
    """customer_id of get_customer_orders names who owns the orders, not an order."""
    parts = norm(pname).split("_")
    entity = [w for w in parts if w not in ("id", "number", "num")]
    stems = {lx.stem(w) for w in named}
    return len(parts) > len(entity) and bool(entity) and not any(lx.stem(w) in stems for w in entity)


_PLACE_BEFORE = re.compile(r"(?i:\b(?:in|в|во|w|we)\s+)$")


def _state_said(question: str, code: str) -> str:
    """A US state sent by its code ('FL') as the question names it ('Во Флориде'), so the answer speaks its words."""
    for start, end, found in gazetteer.us_states(question):
        if found == code:
            lead = _PLACE_BEFORE.search(question[:start])
            return capitalised(question[lead.start() if lead else start : end])
    return ""


def _an_option(prop: dict[str, Any], sent: Any) -> bool:
    from agent_core.sim.args import _closed_list, _listed_options  # args fills calls; compose only tells them

    return bool(prop.get("enum")) or (_closed_list(prop) and sent in _listed_options(prop))


# ---- the line for one result -----------------------------------------------------------------------------------


def from_data(view: View, need: Need, data: Any) -> str | None:
    """A sentence for a result that is data (JSON, a Python literal), or None to fall back on the text."""
    lang = view.lang
    if isinstance(data, dict):
        told = weather.weather_line(view, need, data)
        if told:
            return told
        clock = weather.time_line(view, data)
        if clock:
            return clock
    if (
        isinstance(data, list)
        and data
        and all(isinstance(r, dict) for r in data)
        and sql.aggregated(need.outcome.input)
    ):
        # a query's rows as JSON records (the MCP Postgres server): told by what each selected column is
        return sql.rows_line(
            need.outcome.input, [[value(v, lang) for v in r.values()] for r in data[:MAX_RECORDS]], lang
        )
    records = facts.records(need.outcome.output)
    listed = len(records) > 1 or (len(records) == 1 and records[0] != data)  # one record of a list is a count
    figure = (
        aggregate.line(view, [aggregate.flat(r) for r in records], str((need.tool or {}).get("name", "")))
        if listed
        else None
    )
    if figure:
        return figure  # 'Which one has the most comments?' is answered by the one, not by the list
    forecast = weather.forecast_line(view, need, records) if records else None
    if forecast:
        return forecast
    if isinstance(data, list) and not data:
        return say("compose.empty", lang, thing=subject(view, need) or say("compose.nothing", lang))
    if len(records) == 1 and (isinstance(data, list) or records[0] != data):
        return record_line(view, need, records[0])  # one record, alone or inside a wrapper ({"entities": [...]})
    if records and (isinstance(data, list) or len(records) > 1):
        return list_line(view, need, records)
    if isinstance(data, dict):
        return acks.line(view, need, data) or record_line(view, need, data)
    if isinstance(data, (bool, int, float, str)) or data is None:
        return scalar_line(view, need, data)
    if isinstance(data, (list, tuple)) and data and all(isinstance(r, (list, tuple)) for r in data):  # SQL rows
        return sql.rows_line(need.outcome.input, [[value(v, lang) for v in r] for r in data[:MAX_RECORDS]], lang)
    if isinstance(data, list) and all(not isinstance(v, (dict, list)) for v in data):
        return f"{subject(view, need) or ''}: {', '.join(value(v, lang) for v in data[:MAX_RECORDS])}".lstrip(": ")
    return None


def _asked(view: View, need: Need, record: dict[str, Any], loose: bool = False) -> list[str]:
    """The keys the question asks about ('the email address' -> email, 'статус' -> status); loose: also those the
    tool is about anyway (the 'status' of get_order_details, whose 'details' are a status)."""
    tool = need.tool or {}
    own = "" if loose else f"{str(tool.get('name', '')).replace('_', ' ')} {tool.get('description', '')}"
    # What the tool is about anyway ('forecast' of get_forecast) is no particular field the user asks for; the
    # fields its description lists are ('size' of get_file_info's "metadata: size, ... times").
    named = "" if loose else str(tool.get("name", "")).replace("_", " ")
    asked = meaning.concepts(view.question) - meaning.concepts(named)
    # content words only: 'Are there alerts' asks for no 'area'
    question = {lx.stem(lx.fold(w)) for w in lx.content_words(view.question)} - {lx.stem(w) for w in lx.words(own)}
    out = []
    for key in record:
        words = lx.words(norm(key).replace("_", " "))
        said = lx.words(f"{label(key, view.lang)} {label(key, view.lang, person=False)}")  # 'imię' or 'nazwa'
        if (meaning.concepts(" ".join(words)) & asked) or any(
            lx.stem(w) in question for w in words + said if len(w) > 2
        ):
            out.append(key)
    out += [k for k in record if k not in out and _asked_by(norm(k), view.question)]
    if out and meaning.concepts(view.question) & meaning.concepts(str(tool.get("name", "")).replace("_", " ")):
        # 'Jakie ostrzeżenia ... i jak są poważne?': which alerts (by their name) and the field asked about each
        name_key = next((k for k in record if norm(k) in answers_table()["name_keys"] and k not in out), None)
        unsaid = name_key is not None and not set(lx.words(str(record[name_key]))) <= set(lx.words(view.question))
        if name_key is not None and unsaid:  # 'dr Nikola Tesla' asked by name is not name_key again
            out = [name_key, *out]
    sent_args = need.outcome.input if need.result else need.args
    sent = {norm(k) for k in sent_args}
    given = {str(v) for v in sent_args.values()}
    # The value the user gave ('the phone 555-123-4567') is how the record was found, not what they ask for.
    return [k for k in out if norm(k) not in sent and norm(k) != "id" and str(record[k]) not in given]


def _asked_by(key: str, question: str) -> bool:
    """The question asks for the field in words its key does not use ('Co jest w moim zamówieniu?' -> items)."""
    ways = answers_table().get("asked_by", {}).get(key) or []
    folded = f" {' '.join(lx.words(question))} "
    return any(f" {' '.join(lx.words(way))} " in folded for way in ways)


def asked_fields(view: View, need: Need, loose: bool = False) -> list[str] | None:
    """The fields of a need's result (one record) that the question asks for; None when it is no record."""
    data = facts.parse(need.outcome.output) if need.result is not None else None
    return _asked(view, need, data, loose) if isinstance(data, dict) else None


def _counted(view: View, key: str, raw: Any) -> str | None:
    """'Сколько у меня заказов?': a list field asked for with 'how many' is told by its count, '2 заказа'."""
    forms = (answers_table().get("counted", {}).get(norm(key)) or {}).get(view.lang)
    if not forms or not isinstance(raw, (list, dict)) or not lx.hits(lx.words(view.question), lx.lexicon()["how_many"]):
        return None
    from agent_core.sim.prose import plural

    n = str(len(raw))
    return f"{n} {plural(n, forms.split('|'), view.lang)}"


def _main_fields(need: Need, record: dict[str, Any]) -> list[str]:
    sent = {str(v) for v in (need.outcome.input if need.result else need.args).values()}
    keys = [k for k, v in record.items() if (_scalars(v) or not isinstance(v, (dict, list))) and v not in (None, "")]
    # a value the call sent is no news, but a switch it set is: 'is_on: true' back from change_state confirms it
    keys = [
        k for k in keys if (isinstance(record[k], bool) or str(record[k]) not in sent) and not norm(k).endswith("_id")
    ]
    return keys[:MAX_FIELDS]


def _scalars(raw: Any) -> bool:
    """A short list of plain values (a memory's observations, an issue's labels), told as one field."""
    return isinstance(raw, list) and 0 < len(raw) <= MAX_RECORDS and all(isinstance(v, (str, int, float)) for v in raw)


def _field(raw: Any, lang: str, key: str = "") -> str:
    if isinstance(raw, str) and len(raw) > LONG_FIELD and lang == "en":
        raw = clipped(raw)  # a paragraph in a field is told by its first clauses, never pasted whole
    if isinstance(raw, dict):
        return _nested(raw, lang)
    if isinstance(raw, list) and raw and all(isinstance(v, dict) for v in raw):
        return "; ".join(_entry(v, lang) for v in raw[:MAX_RECORDS])
    return "; ".join(value(v, lang, key) for v in raw) if _scalars(raw) else value(raw, lang, key)


def _entry(record: dict[str, Any], lang: str) -> str:
    """One record of a list field (an order's items): by its name, with its price when it has one."""
    keys = {norm(k): v for k, v in record.items()}
    name = next((keys[k] for k in ("name", "title", "product", "id") if k in keys), None)
    if name is None:
        return _brief(record, lang)
    price = next((keys[k] for k in ("price", "amount", "cost") if k in keys), None)
    return f"{value(name, lang)} ({value(price, lang)})" if price is not None else value(name, lang)


def _nested(raw: dict[str, Any], lang: str) -> str:
    """A field asked for that holds a record: an address by its parts in order ('255 Chestnut Street, Suite 383,
    Dallas, ...'), records keyed by their ids (payment methods) by those ids."""
    plain = [v for v in raw.values() if isinstance(v, (str, int, float)) and not isinstance(v, bool) and v != ""]
    if plain and len(plain) == len(raw):
        return ", ".join(value(v, lang) for v in plain)
    return "; ".join(str(k) for k in list(raw)[:MAX_RECORDS])


def record_line(view: View, need: Need, record: dict[str, Any]) -> str:
    lang = view.lang
    absent = _absent_id(view, need, [record])
    if absent:
        return say("compose.no_such_id", lang, id=absent)  # the one record found is another one
    asked = _asked(view, need, record)
    stored = None if asked else notes.told(record, lang, view.question)  # a memory's entity: what was saved about it
    if stored:
        return stored
    keys = asked or _main_fields(need, record)
    total = _total(view, [record])
    keys = [k for k in keys if _scalars(record[k]) or not isinstance(record[k], (dict, list)) or k in asked]
    if not keys:  # only nested main fields: the record's own plain values say what it is (no 'Branch x: .')
        keys = [k for k, v in record.items() if isinstance(v, (str, int, float)) and not isinstance(v, bool)][:3]
    person = person_record(record, str((need.tool or {}).get("name", "")))
    parts = [_part(view, record, k, person) for k in keys]
    head = subject(view, need, record)
    if head and len(parts) > 1 and "id" in record and head.endswith(f" {record['id']}") and "id" in keys:
        parts.pop(keys.index("id"))  # 'Заказ 19283: товар ...', the id said once
        keys.remove("id")
    if len(parts) == 1 and not head:
        owner = _owner(record, keys[0]) if lang != "en" else ""
        told = (
            say(
                "compose.owned",
                lang,
                name=owner,
                label=label(keys[0], lang),
                value=_field(record[keys[0]], lang, keys[0]),
            )
            if owner
            else f"{capitalised(_key_said(view, keys[0], person))}: {_field(record[keys[0]], lang, keys[0])}."
        )
        return told + (f" {total}" if total else "")
    joined = _joined(parts, lang)
    line = f"{head}: {joined}." if head else capitalised(joined) + "."
    return f"{line} {total}" if total else line


def _part(view: View, record: dict[str, Any], key: str, person: bool = True) -> str:
    told = f"{label(key, view.lang, person)} {_field(record[key], view.lang, key)}"
    count = _counted(view, key, record[key])
    return f"{count} ({told})" if count else told


def _key_said(view: View, key: str, person: bool = True) -> str:
    """A key as the answer names it: a field by its label ('цена'); a key that is a name as written ('Team' of a
    page's '- Team: $19 ...'), after the word for its kind the question uses ('в тарифе Team' -> 'тариф Team')."""
    said = label(key, view.lang, person)
    if norm(key) in answers_table()["labels"] or not key[:1].isupper() or view.lang == "en" or said[:1].isalpha():
        return said  # a known label, or one the vocabulary says ('Uptime' -> 'доступность')
    asked = {lx.stem(w) for w in lx.words(_ADDRESS.sub(" ", view.question))}  # not the 'plans' of a URL
    kinds = [f for forms in phrasing.kinds(view.lang) for f in forms.split("|")]
    kind = next((f for f in kinds if any(lx.stems_match(lx.stem(f), w) for w in asked)), "")
    return f"{kind} {key}" if kind else key


def _joined(parts: list[str], lang: str) -> str:
    """'size 2048 and modified Sat Nov 28': in English the last field is joined by 'and', as a sentence says it."""
    if lang != "en" or len(parts) < 2:
        return ", ".join(parts)
    return f"{', '.join(parts[:-1])} and {parts[-1]}"


def _owner(record: dict[str, Any], key: str) -> str:
    """Whose field it is: the record's name ('Dr. Nikola Tesla'), so one field is a sentence about someone."""
    name = next((v for k, v in record.items() if norm(k) in ("name", "full_name", "title") and k != key), None)
    return name if isinstance(name, str) and 0 < len(name) <= 60 else ""


def list_line(view: View, need: Need, records: list[dict[str, Any]]) -> str:
    lang = view.lang
    absent = _absent_id(view, need, records)
    if absent:
        return say("compose.no_such_id", lang, id=absent)
    chosen = _filtered(view, records)
    total = _total(view, chosen)
    tool = str((need.tool or {}).get("name", ""))
    items = [_brief(r, lang, person_record(r, tool)) for r in chosen[:MAX_RECORDS]]
    if not items:
        return say("compose.none_match", lang)
    head = say("compose.items", lang, n=len(chosen))
    return f"{head}\n" + "\n".join(f"- {i}" for i in items) + (f"\n{total}" if total else "")


def _brief(record: dict[str, Any], lang: str, person: bool = True) -> str:
    record = aggregate.flat(record)
    keys = [k for k, v in record.items() if not isinstance(v, (dict, list)) and v not in (None, "")]
    ident = next((k for k in keys if norm(k) in ("id", "number", "name", "title")), None)
    ident = ident or next((k for k in keys[:1] if norm(k).endswith("_id")), None)  # an order's own order_id first
    rest = [k for k in keys if k != ident and not norm(k).endswith("_id")][:MAX_FIELDS]
    body = ", ".join(f"{label(k, lang, person)} {value(record[k], lang, k)}" for k in rest)
    return f"{value(record[ident], lang)}: {body}" if ident else body


def _absent_id(view: View, need: Need, records: list[dict[str, Any]]) -> str:
    """An id the question asks about that no record of a listing has, where the records' ids are of its shape ('order
    A-999' among A-100, A-101): none of them is it, so none is told as if it were. Not an id the call was sent (the
    tool has filtered by it: a customer's orders need not repeat the customer)."""
    sent = {lx.fold(str(v)) for v in (need.outcome.input if need.result else need.args).values()}
    asked = [str(e.value) for e in entities.of_kind(view.question, "id") if lx.fold(str(e.value)) not in sent]
    own = [str(v) for r in records for k, v in r.items() if norm(k) == "id" or norm(k).endswith("_id")]
    shape = {re.sub(r"\d", "9", lx.fold(v)) for v in own}
    held = {lx.fold(v) for v in own}
    if any(lx.fold(str(e.value)) in held for e in entities.of_kind(view.question, "id")):
        return ""  # 'the status of O1 and O2': the record of O1 is one of those asked
    return next((a for a in asked if re.sub(r"\d", "9", lx.fold(a)) in shape and lx.fold(a) not in held), "")


def _filtered(view: View, records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The records the question picks by a value it names ('still processing', 'в обработке', 'w realizacji')."""
    question = lx.fold(view.question)
    keep = []
    for record in records:
        for v in record.values():
            if not isinstance(v, str) or len(v) > 40:
                continue
            forms = {lx.fold(v)} | {lx.fold(w) for w in (answers_table()["values"].get(v.lower()) or {}).values()}
            if any(len(f) > 3 and said(f, question) for f in forms):
                keep.append(record)
                break
    return keep if keep and len(keep) < len(records) else records


def _total(view: View, records: list[dict[str, Any]]) -> str:
    """Price x quantity added up, when the question asks for a total."""
    if not lx.hits(lx.words(view.question), lx.lexicon()["total_words"]):
        return ""
    sum_ = 0.0
    found = False
    for record in records:
        keys = {norm(k): v for k, v in record.items()}
        price = next((keys[k] for k in ("price", "unit_price", "amount", "total", "cost") if k in keys), None)
        try:
            number = float(price)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            continue
        quantity = keys.get("quantity") or keys.get("qty") or 1
        try:
            sum_ += number * float(quantity)
            found = True
        except (TypeError, ValueError):
            continue
    return say("compose.total", view.lang, total=f"{sum_:.2f}") if found else ""


def scalar_line(view: View, need: Need, data: Any) -> str:
    lang = view.lang
    verb = acks.verb(need)
    thing = subject(view, need) or ""
    if isinstance(data, str) and verb and acks.confirms(verb, data):
        data = True  # 'True' or 'OK' written as text
    if isinstance(data, bool) or data is None:
        if data and verb:
            return capitalised(say(f"compose.done_{'verb'}", lang, said=acks.done_said(verb, thing, lang)))
        return say("compose.failed" if data is False else "compose.empty", lang, thing=thing or "")
    return f"{thing}: {value(data, lang)}." if thing else f"{value(data, lang)}."
