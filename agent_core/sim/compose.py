"""Answers told from the facts of tool results, in the user's language: 'В Москве сейчас -3°C, облачно.', an order's
status, a list of orders, a total, the errors of a log; never the raw JSON and never 'X answered: ...'."""

from __future__ import annotations

import re
from typing import Any

from agent_core.sim import acks
from agent_core.sim.prose import clipped
from agent_core.sim.text import facts, gazetteer, meaning, sql
from agent_core.sim.text import language as lx
from agent_core.sim.text.language import say
from agent_core.sim.text.reader import Need, View
from agent_core.sim.words import answers_table, capitalised, label, norm, noun, sky_words, translate, value

MAX_RECORDS = 12
MAX_FIELDS = 6
QUOTE_LIMIT = 600
LONG_FIELD = 110
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_TEMP_KEYS = tuple(
    "temperature temp temp_c temp_f temperature_c temperature_f current_temp temperature_range temp_range".split()
)
_RANGE = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*(?:-|–|to)\s*(-?\d+(?:\.\d+)?)\s*°?\s*([CF])?\s*$", re.I)
_SKY_KEYS = ("conditions", "condition", "description", "sky", "weather", "summary", "forecast", "short_forecast")
_CLOCK = re.compile(r"\b(\d{1,2}:\d{2}(?::\d{2})?)\b")
_ISO_TIME = re.compile(r"(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})")


# ---- what a call was about ------------------------------------------------------------------------------------


def subject(view: View, need: Need) -> str:
    """What a result is about, from the tool's name and the value sent: 'Order O2', 'Заказ O2', 'Klient C1'."""
    name = str((need.tool or {}).get("name", ""))
    words = [w for w in lx.words(_CAMEL.sub(" ", name).replace("_", " ")) if w not in lx.word_set("subject_skip")]
    thing = next((noun(w, view.lang) for w in reversed(words) if noun(w, view.lang)), None)
    sent = need.outcome.input if need.result else need.args
    props = (need.tool_def.get("input_schema") or {}).get("properties") or {}
    # issue_read(method='get', issue_number=42) is about issue 42: an id or number first, never an option (an
    # enum's, or one of the values a description lists: suggest_menu's 'formal')
    plain = [
        (k, v)
        for k, v in sent.items()
        if isinstance(v, (str, int)) and not isinstance(v, bool) and not _an_option(props.get(k) or {}, v)
    ]
    numbered = [str(v) for k, v in plain if {"id", "number", "num"} & set(norm(k).split("_"))]
    paths = [str(v) for _, v in plain if re.fullmatch(r"[\w.~-]*/[\w./~-]+", str(v))]  # write_file's path
    ident = next(iter(numbered + paths), "") or next((str(v) for _, v in plain if len(str(v)) < 20), "")
    if thing and ident:
        return f"{capitalised(thing)} {ident}"
    return capitalised(thing) if thing else ident


def _an_option(prop: dict[str, Any], sent: Any) -> bool:
    from agent_core.sim.args import _closed_list, _listed_options  # args fills calls; compose only tells them

    return bool(prop.get("enum")) or (_closed_list(prop) and sent in _listed_options(prop))


def _verb(need: Need) -> str | None:
    name = str((need.tool or {}).get("name", ""))
    words = lx.words(_CAMEL.sub(" ", name).replace("_", " "))
    table = answers_table()["done"]
    return next((w for w in words if w in table), None)


def place(view: View, need: Need, record: dict[str, Any] | None = None) -> str:
    """Where a weather result is for: the city sent (any spelling the gazetteer knows), said the user's way."""
    sent = need.outcome.input if need.result else need.args
    names = [v for v in sent.values() if isinstance(v, str)] + ([need.value] if need.value else [])
    if record:
        names += [str(record[k]) for k in record if norm(k) in ("city", "location", "name", "place") and record[k]]
    for name in names:
        city = gazetteer.lookup(name.split(",")[0].strip())
        if city:
            return gazetteer.where(city.name, view.lang)
    if need.value and lx.detect_language(need.value) == view.lang:
        return gazetteer.where(need.value, view.lang)
    return gazetteer.where(names[0], view.lang) if names and view.lang == "en" else ""


# ---- the line for one result -----------------------------------------------------------------------------------


def from_data(view: View, need: Need, data: Any) -> str | None:
    """A sentence for a result that is data (JSON, a Python literal), or None to fall back on the text."""
    lang = view.lang
    if isinstance(data, dict):
        weather = weather_line(view, need, data)
        if weather:
            return weather
        clock = time_line(view, data)
        if clock:
            return clock
    records = facts.records(need.outcome.output)
    forecast = forecast_line(view, need, records) if records else None
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


CELSIUS = ["celsius", "цельси", "celsjusz"]
FAHRENHEIT = ["fahrenheit", "фаренгейт"]


def result_unit(tool: dict[str, Any], output: str) -> str | None:
    """'F' or 'C': the unit a weather result states, else the one its tool's description says it gives."""
    stated = re.search(r"°\s*([CF])\b|\"(?:temperature_)?units?\"\s*:\s*\"(celsius|fahrenheit|[CF])\"", output, re.I)
    if stated:
        return (stated.group(1) or stated.group(2))[0].upper()
    words = lx.words(str(tool.get("description", "")))
    said = {u for u, forms in (("F", FAHRENHEIT), ("C", CELSIUS)) if lx.hits(words, forms)}
    return next(iter(said)) if len(said) == 1 else None


def weather_line(view: View, need: Need, record: dict[str, Any]) -> str | None:
    keys = {norm(k): k for k in record}
    temp_key = next((keys[k] for k in _TEMP_KEYS if k in keys), None)
    sky_key = next((keys[k] for k in _SKY_KEYS if k in keys and isinstance(record[keys[k]], str)), None)
    if temp_key is None:
        return None
    temp = record[temp_key]
    unit = str(record.get(keys.get("unit", ""), "") or record.get(keys.get("units", ""), "") or "")
    if isinstance(temp, (int, float)) and not isinstance(temp, bool):
        symbol = {"fahrenheit": "°F", "f": "°F", "celsius": "°C", "c": "°C", "imperial": "°F", "metric": "°C"}
        # no unit in the record: the one its tool says it gives ('Get the weather in a location (fahrenheit)')
        default = "°F" if norm(temp_key).endswith("_f") or result_unit(need.tool_def, "") == "F" else "°C"
        shown = f"{value(temp, 'en')}{symbol.get(unit.lower(), default)}"
    else:
        span = _RANGE.match(str(temp))  # the Agents SDK's "14-20C": a range, said with its unit
        shown = f"{span[1]}–{span[2]}°{(span[3] or 'C').upper()}" if span else str(temp)
    sky = sky_words(str(record[sky_key]), view.lang) if sky_key else ""
    where = place(view, need, record)
    line = say("compose.weather", view.lang, where=where, temp=shown, sky=(", " + sky) if sky else "")
    return capitalised(re.sub(r"\s+", " ", line).replace(" ,", ",").strip())


def _temperature(record: dict[str, Any]) -> str | None:
    """'52°F' of a period or a report: its temperature with the unit it states (°C unless it says F)."""
    keys = {norm(k): k for k in record}
    temp_key = next((keys[k] for k in _TEMP_KEYS if k in keys), None)
    temp = record[temp_key] if temp_key else None
    if not isinstance(temp, (int, float)) or isinstance(temp, bool):
        return None if temp is None else str(temp)
    unit = next((str(record[keys[k]]) for k in ("temperature_unit", "unit", "units") if k in keys), "")
    fahrenheit = unit.lower() in ("f", "fahrenheit", "imperial") or norm(str(temp_key)).endswith("_f")
    return f"{value(temp, 'en')}{'°F' if fahrenheit else '°C'}"


def _period_sky(record: dict[str, Any], lang: str) -> str:
    """A period's sky in a word or two: its short forecast, or the detailed one up to its first comma ('Sunny')."""
    keys = {norm(k): k for k in record}
    text = next(
        (
            str(record[keys[k]])
            for k in ("short_forecast", *_SKY_KEYS, "detailed_forecast")
            if k in keys and record[keys[k]]
        ),
        "",
    )
    short = re.split(r"[,.;]", text)[0].strip()
    if not short or lang == "en":
        return short.lower() if short[:1].isupper() and not short.isupper() else short
    said = translate(short, lang)
    kept = [w for w in re.findall(r"[A-Za-z]{3,}", short) if re.search(rf"\b{w}\b", said)]
    return said if said != short and not kept else lx.quote(short, lang)  # never half English ('ливни likely')


def forecast_line(view: View, need: Need, records: list[dict[str, Any]]) -> str | None:
    """'Forecast in Denver: today 52°F, sunny; tonight 39°F, clear.': the periods the question names (today,
    tonight, a weekday), else the first two, each with its temperature and sky, in the user's language."""
    named = [r for r in records if isinstance(r.get("name"), str) and _temperature(r) is not None]
    if len(named) < 2 or len(named) != len(records):
        return None
    asked = [
        r for r in named if any(_said(f, view.question) for f in {str(r["name"]), translate(str(r["name"]), view.lang)})
    ]
    parts = []
    for record in asked or named[:2]:
        period = translate(str(record["name"]), view.lang)
        period = period.lower() if view.lang == "en" or period != record["name"] else lx.quote(period, view.lang)
        sky = _period_sky(record, view.lang)
        parts.append(f"{period} {_temperature(record)}" + (f", {sky}" if sky else ""))
    where = place(view, need)
    return capitalised(say("compose.forecast", view.lang, where=where, periods="; ".join(parts)).replace("  ", " "))


def time_line(view: View, record: dict[str, Any]) -> str | None:
    """'In Tokyo it is 19:00 (Tuesday).' for a time server's answer; a conversion says both sides."""
    keys = {norm(k): k for k in record}
    if "source" in keys and "target" in keys and isinstance(record[keys["target"]], dict):
        source, target = record[keys["source"]], record[keys["target"]]
        a, b = _clock_of(source, view.lang), _clock_of(target, view.lang)
        if a and b:
            return say(
                "compose.time_convert",
                view.lang,
                t1=a[0],
                where1=_zone_place(source, view.lang),
                t2=b[0],
                where2=_zone_place(target, view.lang),
                day=b[1],
            )
    if "datetime" in keys or ("time" in keys and "timezone" in keys):
        clock = _clock_of(record, view.lang)
        if clock:
            return say("compose.time_now", view.lang, where=_zone_place(record, view.lang), time=clock[0], day=clock[1])
    return None


def _clock_of(record: Any, lang: str = "en") -> tuple[str, str] | None:
    if not isinstance(record, dict):
        return None
    for key in ("datetime", "time", "date_time", "local_time"):
        raw = next((str(v) for k, v in record.items() if norm(k) == key), None)
        if raw:
            match = _ISO_TIME.search(raw)
            if match:
                return f"{match[4]}:{match[5]}", _weekday(raw, record, lang)
            clock = _CLOCK.search(raw)
            if clock:
                return clock.group(1)[:5], _weekday(raw, record, lang)
    return None


def _weekday(raw: str, record: dict[str, Any], lang: str = "en") -> str:
    day = next((str(v) for k, v in record.items() if norm(k) in ("day_of_week", "weekday", "day")), "")
    if not day:
        match = _ISO_TIME.search(raw)
        if match:
            import datetime

            day = datetime.date(int(match[1]), int(match[2]), int(match[3])).strftime("%A")
    return translate(day.capitalize(), lang)  # Tuesday, wtorek, вторник


def _zone_place(record: dict[str, Any], lang: str) -> str:
    zone = next((str(v) for k, v in record.items() if norm(k) in ("timezone", "zone", "tz")), "")
    city = zone.rsplit("/", 1)[-1].replace("_", " ") if zone else ""
    return gazetteer.where(city, lang) if city else ""


def _asked(view: View, need: Need, record: dict[str, Any]) -> list[str]:
    """The keys the question asks about ('the email address' -> email, 'статус' -> status)."""
    tool = need.tool or {}
    own = f"{str(tool.get('name', '')).replace('_', ' ')} {tool.get('description', '')}"
    # What the tool is about anyway ('forecast' of get_forecast) is no particular field the user asks for; the
    # fields its description lists are ('size' of get_file_info's "metadata: size, ... times").
    asked = meaning.concepts(view.question) - meaning.concepts(str(tool.get("name", "")).replace("_", " "))
    # content words only: 'Are there alerts' asks for no 'area'
    question = {lx.stem(lx.fold(w)) for w in lx.content_words(view.question)} - {lx.stem(w) for w in lx.words(own)}
    out = []
    for key in record:
        words = lx.words(norm(key).replace("_", " "))
        said = lx.words(label(key, view.lang))
        if (meaning.concepts(" ".join(words)) & asked) or any(
            lx.stem(w) in question for w in words + said if len(w) > 2
        ):
            out.append(key)
    sent_args = need.outcome.input if need.result else need.args
    sent = {norm(k) for k in sent_args}
    given = {str(v) for v in sent_args.values()}
    # The value the user gave ('the phone 555-123-4567') is how the record was found, not what they ask for.
    return [k for k in out if norm(k) not in sent and norm(k) != "id" and str(record[k]) not in given]


def _main_fields(need: Need, record: dict[str, Any]) -> list[str]:
    sent = {str(v) for v in (need.outcome.input if need.result else need.args).values()}
    keys = [k for k, v in record.items() if (_scalars(v) or not isinstance(v, (dict, list))) and v not in (None, "")]
    keys = [k for k in keys if str(record[k]) not in sent and not norm(k).endswith("_id")]
    return keys[:MAX_FIELDS]


def _scalars(raw: Any) -> bool:
    """A short list of plain values (a memory's observations, an issue's labels), told as one field."""
    return isinstance(raw, list) and 0 < len(raw) <= MAX_RECORDS and all(isinstance(v, (str, int, float)) for v in raw)


def _field(raw: Any, lang: str) -> str:
    if isinstance(raw, str) and len(raw) > LONG_FIELD:
        raw = clipped(raw)  # a paragraph in a field is told by its first clauses, never pasted whole
    return "; ".join(value(v, lang) for v in raw) if _scalars(raw) else value(raw, lang)


def record_line(view: View, need: Need, record: dict[str, Any]) -> str:
    lang = view.lang
    keys = _asked(view, need, record) or _main_fields(need, record)
    total = _total(view, [record])
    keys = [k for k in keys if _scalars(record[k]) or not isinstance(record[k], (dict, list))]
    parts = [f"{label(k, lang)} {_field(record[k], lang)}" for k in keys]
    head = subject(view, need)
    if len(parts) == 1 and not head:
        owner = _owner(record, keys[0]) if lang != "en" else ""
        told = (
            say("compose.owned", lang, name=owner, label=label(keys[0], lang), value=_field(record[keys[0]], lang))
            if owner
            else f"{capitalised(label(keys[0], lang))}: {_field(record[keys[0]], lang)}."
        )
        return told + (f" {total}" if total else "")
    joined = _joined(parts, lang)
    line = f"{head}: {joined}." if head else capitalised(joined) + "."
    return f"{line} {total}" if total else line


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
    chosen = _filtered(view, records)
    total = _total(view, chosen)
    items = [_brief(r, lang) for r in chosen[:MAX_RECORDS]]
    if not items:
        return say("compose.none_match", lang)
    head = say("compose.items", lang, n=len(chosen))
    return f"{head}\n" + "\n".join(f"- {i}" for i in items) + (f"\n{total}" if total else "")


def _flat(record: dict[str, Any], depth: int = 2) -> dict[str, Any]:
    """A record's plain fields, with those of the records inside it ({"sha", "commit": {"message", "author":
    {"name"}}} -> sha, message, author): a person or thing inside is told by its name."""
    out: dict[str, Any] = {}
    for key, raw in record.items():
        if isinstance(raw, dict) and depth > 0:
            named = raw.get("name") if isinstance(raw.get("name"), str) else None
            inner = {key: named} if named else _flat(raw, depth - 1)
            out.update({k: v for k, v in inner.items() if k not in out})
        elif key not in out:
            out[key] = raw
    return out


def _brief(record: dict[str, Any], lang: str) -> str:
    record = _flat(record)
    keys = [k for k, v in record.items() if not isinstance(v, (dict, list)) and v not in (None, "")]
    ident = next((k for k in keys if norm(k) in ("id", "number", "name", "title")), None)
    rest = [k for k in keys if k != ident and not norm(k).endswith("_id")][:MAX_FIELDS]
    body = ", ".join(f"{label(k, lang)} {value(record[k], lang)}" for k in rest)
    return f"{value(record[ident], lang)}: {body}" if ident else body


def _filtered(view: View, records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The records the question picks by a value it names ('still processing', 'в обработке', 'w realizacji')."""
    question = lx.fold(view.question)
    keep = []
    for record in records:
        for v in record.values():
            if not isinstance(v, str) or len(v) > 40:
                continue
            forms = {lx.fold(v)} | {lx.fold(w) for w in (answers_table()["values"].get(v.lower()) or {}).values()}
            if any(len(f) > 3 and _said(f, question) for f in forms):
                keep.append(record)
                break
    return keep if keep and len(keep) < len(records) else records


def _said(form: str, question: str) -> bool:
    stems = [lx.stem(w) for w in lx.words(form)]
    words = {lx.stem(w) for w in lx.words(question)}
    return bool(stems) and all(any(lx.stems_match(s, w) for w in words) for s in stems)


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
    verb = _verb(need)
    thing = subject(view, need) or ""
    if isinstance(data, str) and verb and confirms(verb, data):
        data = True  # 'True' or 'OK' written as text
    if isinstance(data, bool) or data is None:
        if data and verb:
            return capitalised(say(f"compose.done_{'verb'}", lang, said=_done(verb, thing, lang)))
        return say("compose.failed" if data is False else "compose.empty", lang, thing=thing or "")
    return f"{thing}: {value(data, lang)}." if thing else f"{value(data, lang)}."


_SUCCESS = ("true", "ok", "success", "done", "succeeded")
_NEGATIVE = re.compile(r"\b(?:not|no|can't|cannot|couldn't|unable|fail\w*|error|denied|invalid)\b", re.I)


def confirms(verb: str, out: str) -> bool:
    """A short result that says the action happened: 'True', 'Cancelled the order', 'Successfully wrote to ...'."""
    text = out.strip()
    if len(text) > 160 or _NEGATIVE.search(text):
        return False
    folded = lx.fold(text).strip(" .!")
    said = (verb[:5], *str(answers_table()["done_past"].get(verb, "")).split("|"))  # 'Email sent to ...'
    return (
        folded in _SUCCESS
        or folded.startswith(("successfully", *said))
        or any(f" {w}" in f" {folded}" for w in said if w)
    )


def _done(verb: str, thing: str, lang: str) -> str:
    table = answers_table()["done"]
    template = (table.get(verb) or table["_"]).get(lang) or table["_"]["en"]
    # a path is written as code, as a model writes it: it is a name, not words of the sentence's language
    thing = _PATH.sub(lambda m: f"`{m.group()}`", thing)
    return str(template).format(thing=thing or say("compose.it", lang))


_PATH = re.compile(r"(?<![\w`])(?:~|\.{1,2})?/[\w.~-]+(?:/[\w.~-]+)*/?(?![\w`])")
