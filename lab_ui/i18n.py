"""UI strings in English, Russian and Polish, read from lab_ui/locales/*.json (content lives in data files)."""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType

LANGUAGES = {"en": "English", "ru": "Русский", "pl": "Polski"}
_DIR = Path(__file__).parent / "locales"


@lru_cache(maxsize=None)
def strings(lang: str) -> MappingProxyType:
    """The (read-only) string table of one language; missing keys fall back to English."""
    path = _DIR / f"{lang}.json"
    table = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    if lang != "en":
        table = {**strings("en"), **table}
    return MappingProxyType(table)


def translate(lang: str, key: str, **values) -> str:
    """The string for `key` in `lang`, formatted with `values`; the key itself if nobody wrote it yet."""
    text = strings(lang).get(key, key)
    return text.format(**values) if values else text
