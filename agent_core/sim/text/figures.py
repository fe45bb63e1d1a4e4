"""The figures results are compared by: the degrees of a weather report, the UTC hours of a clock."""

from __future__ import annotations

import re


def temperature(text: str) -> str | None:
    """The first temperature in a weather report ('4°C' -> '4'), or its JSON field ('"temperature": 52')."""
    match = (
        re.search(r"(-?\d+(?:\.\d+)?)\s*°", text)
        or re.search(r"(-?\d+(?:\.\d+)?)\s*(?:degrees|градус|stopn)", text)
        or re.search(r"[\"']?\b(?:temperature|temp)(?:_[cf])?[\"']?\s*:\s*(-?\d+(?:\.\d+)?)", text)
    )
    return match.group(1) if match else None


def compared(intent: str, text: str) -> str | None:
    """The figure two results of a comparison are compared by: the hours of two clocks, else the degrees."""
    return utc_hours(text) if intent == "time" else temperature(text)


def utc_hours(text: str) -> str | None:
    """The UTC offset of the first time in a result, in hours ('2026-12-01T19:00:00+09:00' -> '9', '-05:00' -> '-5')."""
    match = re.search(r"T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?([+-])(\d{2}):?(\d{2})|T\d{2}:\d{2}(?::\d{2})?Z", text)
    if match is None:
        return None
    if match.group(1) is None:
        return "0"
    hours = int(match.group(2)) + int(match.group(3)) / 60
    value = -hours if match.group(1) == "-" else hours
    return str(int(value)) if value == int(value) else str(value)
