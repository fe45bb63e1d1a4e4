"""UI strings in English, Russian and Polish, read from lab_ui/words/locales/*.json (content lives in data files)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from types import MappingProxyType

from agent_core.report.numbers import money_text, number_text

LANGUAGES = {"en": "English", "ru": "Русский", "pl": "Polski"}
_DIR = Path(__file__).parent / "locales"


def catalog_files(lang: str) -> list[Path]:
    """The files of one language's table: locales/{lang}.json, then one locales/<topic>/{lang}.json per topic
    (a topic keeps one feature's strings together, so parallel work seldom edits the same file)."""
    main = _DIR / f"{lang}.json"
    return [main] * main.exists() + sorted(_DIR.glob(f"*/{lang}.json"))


@cache
def strings(lang: str) -> MappingProxyType:
    """The (read-only) string table of one language; missing keys fall back to English."""
    table: dict[str, str] = {}
    for path in catalog_files(lang):
        table.update(json.loads(path.read_text(encoding="utf-8")))
    if lang != "en":
        table = {**strings("en"), **table}
    return MappingProxyType(table)


def translate(lang: str, key: str, /, **values) -> str:
    """The string for `key` in `lang`, formatted with `values`; the key itself if nobody wrote it yet."""
    text = strings(lang).get(key, key)
    return text.format(**values) if values else text


LANGUAGE_KEY = "lab:language"  # session_state: this tab's language, shared by every workspace of the tab


def current_language() -> str:
    """The language picked in this browser tab's sidebar; English outside a Streamlit run (tests, scripts)."""
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    if get_script_run_ctx(suppress_warning=True) is None:
        return "en"
    import streamlit as st  # imported here: i18n stays importable without Streamlit (the command line)

    lang = st.session_state.get(LANGUAGE_KEY)  # one lookup: t() comes here for every string it shows
    if lang is None:
        lang = st.session_state[LANGUAGE_KEY] = first_language()
    return lang


def set_language(lang: str) -> None:
    """Switch this tab to `lang` (the sidebar's language switch, or a link naming one)."""
    import streamlit as st

    st.session_state[LANGUAGE_KEY] = lang


def first_language() -> str:
    """The language a new tab starts in: ?lang=, else the cookie, else English."""
    import streamlit as st

    from lab_ui.frame import url_state

    for candidate in (url_state.get("lang"), st.context.cookies.get(url_state.COOKIE)):
        if candidate in LANGUAGES:
            return candidate
    return "en"


def t(text: str, /, **values) -> str:
    """`text` (the English string, which is also the key) in the current tab's language, formatted with `values`
    (positional-only, so a value may itself be called `text`, as a goal's missing text is)."""
    return translate(current_language(), text, **values)


def number(value: float, digits: int | None = None) -> str:
    """A figure as the current tab's language writes it (1,360 in English, 12 345 in Russian and Polish)."""
    return number_text(value, current_language(), digits)


def money(amount: float, digits: int) -> str:
    """Dollars as the current tab's language writes the number ($0.0035 in English, $0,0035 in Polish)."""
    return money_text(amount, current_language(), digits)


def money_md(amount: float, digits: int) -> str:
    """money() for Markdown: the $ escaped, since two of them in one text would be typeset as LaTeX maths."""
    return "\\" + money(amount, digits)


def mark(text: str) -> str:
    """Mark a string for the tables without translating it yet (module constants); the caller passes it to t()."""
    return text
