"""A stored entity told as what was saved about it: the MCP memory server's `{"name", "entityType", "observations"}`
-> 'O „Project Falcon” (projekt) zapisano: ...', 'About Ann Kowalska (person) I have saved: ...', never a bare
'Name ..., type ... and notes ...' with no sentence of its own in the user's language."""

from __future__ import annotations

from typing import Any

from agent_core.sim import retell
from agent_core.sim.text import meaning
from agent_core.sim.text.language import quote, say
from agent_core.sim.words import norm, value

_NAME, _TYPES, _NOTES = ("name", "title"), ("entity_type", "type", "kind"), ("observations", "facts", "notes")


def told(record: dict[str, Any], lang: str, question: str = "") -> str | None:
    """The entity's notes in one sentence, or None for a record of another shape (notes must be a list of texts)."""
    keys = {norm(k): k for k in record}
    name = next((record[keys[k]] for k in _NAME if k in keys), None)
    kind = next((record[keys[k]] for k in _TYPES if k in keys), None)
    notes = next((record[keys[k]] for k in _NOTES if k in keys), None)
    if not isinstance(name, str) or not isinstance(notes, list) or not notes or len(record) > 4:
        return None
    if not all(isinstance(n, str) for n in notes):
        return None
    asked = meaning.concepts(question) - meaning.concepts(name)
    notes = [n for n in notes if meaning.concepts(n) & asked] or notes  # 'Gdzie mieszka Ann?': where she lives
    said = "; ".join(_note(n, lang) for n in notes)
    who = name if lang == "en" else quote(name, lang)
    kind_said = f" ({value(kind, lang, 'entity_type')})" if isinstance(kind, str) and kind else ""
    return say("compose.entity_notes", lang, name=who, kind=kind_said, notes=said)


def _note(note: str, lang: str) -> str:
    """One note in the user's words: English prose by what it names ('pracuje, dane, inżynier'), as the answers tell
    English prose (sim/retell.py); a note it names nothing of is quoted as it was saved."""
    if lang == "en" or not retell.english(note):
        return value(note, lang, "observations")
    return retell.retold(note, lang, bare=True) if retell.items(note, lang) else quote(note, lang)
