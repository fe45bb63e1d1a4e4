"""Dates and sizes of a result as the user reads them: a JavaScript date ('Sun Nov 29 2026 12:00:00 GMT+0100', as
the MCP filesystem server writes it) -> 'on 29 November 2026 at 12:00', '29 ноября 2026 в 12:00', '29 listopada 2026
o 12:00'; a size in bytes with its unit ('2048 bytes', '2048 байт', '2048 bajtów'). Words in answers.json 'stamps'."""

from __future__ import annotations

import re
from typing import Any

from agent_core.sim.prose import plural
from agent_core.sim.text import language as lx

_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
_NO_YEAR = re.compile(r"--(\d{2})-(\d{2})")  # ISO 8601's month and day of no year ('December 12th')
_FULL_DATE = re.compile(r"(?<![\w-])((?:19|20)\d\d)-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])(?![\w-])")
_JS_DATE = re.compile(
    r"(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) (" + "|".join(_MONTHS) + r") (\d{1,2}) (\d{4}) (\d{2}:\d{2})(?::\d{2})?"
    r"(?: GMT[+-]\d{4})?(?: \([^)]*\))?"
)


def _table() -> dict[str, Any]:
    table: dict[str, Any] = lx.load("answers")["stamps"]  # lx.load reads the file once
    return table


def told(raw: Any, lang: str, key: str = "") -> str | None:
    """The date or size in the user's words, or None when the value is neither."""
    sized = key.lower() in _table()["size_keys"]
    if isinstance(raw, str) and sized and raw.strip().isdigit():
        raw = int(raw)  # 'size: 2048' of a text result
    if isinstance(raw, str) and _NO_YEAR.fullmatch(raw.strip()):
        month, day = _NO_YEAR.fullmatch(raw.strip()).groups()  # type: ignore[union-attr]
        name = _table()["months"][lang][int(month) - 1]
        return str(_table()["day_month"][lang]).format(day=int(day), month=name)
    if isinstance(raw, str):
        found = _JS_DATE.fullmatch(raw.strip())
        if not found:
            return None
        month, day, year, time = found.groups()
        name = _table()["months"][lang][_MONTHS.index(month)]
        return str(_table()["date"][lang]).format(day=int(day), month=name, year=year, time=time)
    if sized and isinstance(raw, int) and not isinstance(raw, bool) and raw >= 0:
        return f"{raw} {plural(str(raw), list(_table()['bytes'][lang]), lang)}"
    return None


def with_year(value: str, texts: list[str]) -> str:
    """A month and day of no year ('--12-12' of 'on December 12th') in the year of the first full date the
    conversation gives ('Today is 2026-12-04' -> '2026-12-12'); as it was when none gives one."""
    if not _NO_YEAR.fullmatch(value):
        return value
    year = next((m.group(1) for text in texts for m in [_FULL_DATE.search(text)] if m), None)
    return f"{year}{value[1:]}" if year else value
