"""Weather and clock results told in the user's language: 'В Москве сейчас -3°C, облачно.', a forecast's periods,
the time in a zone or a conversion between two; the unit a weather result gives."""

from __future__ import annotations

import re
from typing import Any

from agent_core.sim.text import gazetteer
from agent_core.sim.text import language as lx
from agent_core.sim.text.language import say
from agent_core.sim.text.reader import Need, View
from agent_core.sim.words import capitalised, norm, said, sky_words, translate, value

_TEMP_KEYS = tuple(
    "temperature temp temp_c temp_f temperature_c temperature_f current_temp temperature_range temp_range".split()
)
_RANGE = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*(?:-|–|to)\s*(-?\d+(?:\.\d+)?)\s*°?\s*([CF])?\s*$", re.I)
_SKY_KEYS = ("conditions", "condition", "description", "sky", "weather", "summary", "forecast", "short_forecast")
CLOCK = re.compile(r"\b(\d{1,2}:\d{2}(?::\d{2})?)\b")
_ISO_TIME = re.compile(r"(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})")


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


CELSIUS = ["celsius", "цельси", "celsjusz"]
FAHRENHEIT = ["fahrenheit", "фаренгейт"]


def asked_unit(text: str) -> str | None:
    """'C' or 'F': the unit a question asks in, by name ('по Цельсию') or a degree word and its letter ('w stopniach
    C', 'in degrees F')."""
    words = lx.words(text)
    if lx.hits(words, CELSIUS):
        return "C"
    if lx.hits(words, FAHRENHEIT):
        return "F"
    lettered = _LETTERED.search(text)
    return lettered.group(1) if lettered else None


_DEGREES = lx.load("entities")["units"]["degrees"]
_LETTERED = re.compile(
    r"(?i:" + "|".join(re.escape(d) + (r"\w*" if d[-1].isalpha() else "") for d in _DEGREES) + r")\s*([CF])\b"
)


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
        r for r in named if any(said(f, view.question) for f in {str(r["name"]), translate(str(r["name"]), view.lang)})
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
            clock = CLOCK.search(raw)
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
