"""Values by the example a parameter's description shows ("The customer's zip code, for example '12345'."; "The order's
id, like '#W0000000'"): a string nothing else fills takes the text's value of the example's shape (five digits, '#',
a capital and seven digits), never the sentence around it."""

from __future__ import annotations

import re
from functools import cache
from typing import Any

_EXAMPLE = re.compile(
    r"(?:e\.g\.|for example|for instance|such as|like|например|к примеру|np\.|na przykład)[,:]?\s*"
    r"['\"“«„‘]([^'\"”»“‘’]{2,40})['\"”»“’]",
    re.I,
)

# "Example call signs are WZPZ and WKRP", "a ticker such as AAPL": a code written bare, in capitals (digits allowed),
# shows the shape as well as a quoted one; a capitalised word ('such as London') is no code.
_BARE = re.compile(
    r"(?i:e\.g\.|for example|for instance|such as|examples?\b[^.]{0,30}?\b(?:are|is|include)|например|к примеру|np\."
    r"|na przykład)[,:]?\s+([A-Z0-9][A-Z0-9_#-]{1,20})(?![\w])"
)


def _pattern(example: str) -> str:
    """'12345' -> five digits; 'sara_doe_496' -> letters _ letters _ digits; '#W0000000' -> '#', a capital, 7 digits."""
    # a code of digits or of capitals alone has its length ('12345', 'WZPZ'); mixed ids vary ('sara_doe_4961')
    exact = example.isdigit() or (example.isalpha() and example.isupper())
    out = []
    for run in re.finditer(r"\d+|[A-Z]+|[a-z]+|.", example):
        text = run.group()
        if text.isdigit():
            out.append(rf"\d{{{len(text)}}}" if exact else r"\d+")
        elif text.isupper() and text.isalpha():  # '#W...': a lone letter is part of every id
            out.append(text if len(text) == 1 and not exact else rf"[A-Z]{{{len(text)}}}" if exact else "[A-Z]+")
        elif text.isalpha():
            out.append("[a-z]+")
        else:
            out.append(re.escape(text))
    return "".join(out)


@cache
def _shape(description: str) -> re.Pattern[str] | None:
    for example in _EXAMPLE.findall(description):
        if re.search(r"\d", example) and " " not in example.strip() and "@" not in example:
            return re.compile(rf"(?<![\w#@.-]){_pattern(example.strip())}(?![\w@-])")
    for example in _BARE.findall(description):
        if re.search(r"\d", example) or (example.isalpha() and len(example) >= 2):
            return re.compile(rf"(?<![\w#@.-]){_pattern(example)}(?![\w@-])")
    return None


def by_example(prop: dict[str, Any], texts: list[str]) -> str | None:
    """The first value of the shape the description's example shows, in the texts in order; None without one."""
    if prop.get("type") not in (None, "string") or prop.get("enum"):
        return None
    shape = _shape(str(prop.get("description") or ""))
    if shape is None:
        return None
    for text in texts:
        found = shape.search(text)
        if found:
            return found.group()
    return None


def shaped(prop: dict[str, Any]) -> bool:
    """The description shows the shape of the value (an example with a digit)."""
    return (
        prop.get("type") in (None, "string")
        and not prop.get("enum")
        and _shape(str(prop.get("description") or "")) is not None
    )


def fits(prop: dict[str, Any], value: Any) -> bool:
    """The value has the example's shape, whole."""
    shape = _shape(str(prop.get("description") or ""))
    return isinstance(value, str) and shape is not None and shape.fullmatch(value.strip()) is not None
