"""The built-in tools' own words in the learner's language: a message is a key and values (Said), rendered through the
table data/texts.json (agent_core knows nothing of the UI's catalogue). An error carries its Said, so the registry
can show it in the run's language; str() of the error stays English."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

from agent_core.facts import Fact

TABLE = Path(__file__).parent / "data" / "texts.json"
E = TypeVar("E", bound=BaseException)


@dataclass
class Said(Fact[str, dict[str, Any]]):
    """A message as data, the one Fact shape: its key in the table and its values (a value may be a Said of its own)."""

    params: dict[str, Any] = field(default_factory=dict)


def said(key: str, **values: Any) -> Said:
    """A message by key, with the values its template names."""
    return Said(key, dict(values))


@cache
def _table() -> dict[str, dict[str, str]]:
    data: dict[str, dict[str, str]] = json.loads(TABLE.read_text(encoding="utf-8"))
    return data


def render(message: Said | str, lang: str = "en") -> str:
    """The message in a language (English where the language has no entry)."""
    if not isinstance(message, Said):
        return message
    table = _table()
    template = table.get(lang, {}).get(message.kind) or table["en"][message.kind]
    return template.format(**{k: render(v, lang) if isinstance(v, Said) else v for k, v in message.params.items()})


def error(kind: type[E], key: str, **values: Any) -> E:
    """An exception of kind whose text is the English rendering and which keeps the message for other languages."""
    message = said(key, **values)
    exc = kind(render(message))
    exc.said = message  # type: ignore[attr-defined]
    return exc


def message_of(exc: BaseException, lang: str) -> str:
    """An exception's text in a language: rendered again when it carries a Said, else as it is."""
    message = getattr(exc, "said", None)
    return render(message, lang) if isinstance(message, Said) else str(exc)
