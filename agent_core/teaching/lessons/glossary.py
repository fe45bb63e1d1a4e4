"""The one glossary (lessons/glossary.json): each term defined once, in English, Russian and Polish."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from agent_core.teaching.lessons.scenario import LANGUAGES, LessonError


@dataclass(frozen=True)
class Term:
    """A term and its definition, per language."""

    id: str
    term: dict[str, str]
    definition: dict[str, str]


def load_glossary(path: Path) -> list[Term]:
    """Read and check the glossary; a missing language or a duplicate id is a LessonError."""
    data = json.loads(path.read_text(encoding="utf-8"))
    problems, terms, seen = [], [], set()
    for n, item in enumerate(data.get("terms", [])):
        where = f"{path.name}: terms[{n}]"
        if item.get("id") in seen:
            problems.append(f"{where}: duplicate id {item.get('id')!r}")
        seen.add(item.get("id"))
        for key in ("term", "definition"):
            texts = item.get(key)
            if not isinstance(texts, dict) or any(not str(texts.get(lang, "")).strip() for lang in LANGUAGES):
                problems.append(f"{where}.{key}: needs en, ru and pl texts")
        if not problems:
            terms.append(Term(item["id"], item["term"], item["definition"]))
    if problems:
        raise LessonError(problems)
    return terms
