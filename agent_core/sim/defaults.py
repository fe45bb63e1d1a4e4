"""What a parameter takes when the text names no value: its stated default, the plain option of an enum, the
first of the values its description lists in quotes, null where the schema allows it, or a forced call's best effort."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from agent_core.sim.text.reader import Need


def _nullable(prop: dict[str, Any]) -> bool:
    """The schema lets the value be null (OpenAI's strict mode writes an optional field as ["string", "null"])."""
    kind_type = prop.get("type")
    return (
        (isinstance(kind_type, list) and "null" in kind_type) or kind_type == "null" or None in (prop.get("enum") or [])
    )


_DEFAULT_SAID = re.compile(
    r"\bdefaults?\s*(?:to|is|:|=)\s*['\"`“]?([\w/.:+-]*\w)"
    r"|\buse\s+['\"`“]([^'\"`”\n]{1,60})['\"`”]\s+(?:as\s+(?:the\s+)?[\w ]{1,30}?\s+)?(?:when|if|unless|by default)\b",
    re.I,
)


def stated_default(prop: dict[str, Any]) -> Any:
    """The value a required parameter's schema gives for when the user names none: its `default`, or one its
    description states ("Use 'Europe/Warsaw' as the local timezone when the user names none", "defaults to 10")."""
    if "default" in prop:
        return prop["default"]
    found = _DEFAULT_SAID.search(str(prop.get("description", "")))
    if found is None:
        return None
    said = found.group(1) or found.group(2)
    if prop.get("type") in ("integer", "number"):
        try:
            return int(said) if prop.get("type") == "integer" else float(said)
        except ValueError:
            return None
    return said


def _base_option(options: list[Any]) -> str | None:
    """The plain option the others extend, when the text picks none: issue_read's method 'get' of 'get',
    'get_comments', 'get_labels' (reading an issue is getting it)."""
    names = [o for o in options if isinstance(o, str) and o]
    base = [o for o in names if sum(other.startswith(f"{o}_") for other in names) >= 1]
    return min(base, key=len) if len(base) == 1 else None


def _best_effort(prop: dict[str, Any], kind: str | None, need: Need) -> Any:
    """What a forced call sends for a value it could not find: the first option, a zero, the clause."""
    if prop.get("enum"):
        return prop["enum"][0]
    kind_type = prop.get("type")
    if kind_type in ("integer", "number") or kind == "number":
        return 0
    if kind_type == "boolean":
        return False
    if kind_type == "array":
        return []
    if kind_type == "object":
        return {}
    return need.value or need.clause


_QUOTED_OPTION = re.compile(r"'([^'\n]{2,40})'|\"([^\"\n]{2,40})\"|“([^”\n]{2,40})”")


def _listed_options(prop: dict[str, Any]) -> tuple[str, ...]:
    """The values a string parameter's description lists in quotes, as an enum by other means ("Which branches to
    list: 'local', 'remote' or 'all'", "(e.g., 'classic heroes', 'villain masquerade')"): a text that names one
    sends it as written there."""
    return _quoted_options(str(prop.get("description") or ""))


@lru_cache(maxsize=2048)
def _quoted_options(description: str) -> tuple[str, ...]:
    # Cached: every parameter of every tool is read again for every clause, on every turn.
    found = [next(g for g in m.groups() if g) for m in _QUOTED_OPTION.finditer(description)]
    return tuple(dict.fromkeys(found)) if len(found) >= 2 else ()


_EXAMPLES = re.compile(r"\be\.\s?g\b|\bfor example\b|\bsuch as\b|\blike\b|например|\bnp\.|\bnp\b|\bprzykład", re.I)


def _closed_list(prop: dict[str, Any]) -> bool:
    """The quoted values are all there is ('local', 'remote' or 'all'), not examples ("e.g. 'Oslo', 'Paris'")."""
    return bool(_listed_options(prop)) and not _EXAMPLES.search(str(prop.get("description") or ""))
