"""UI names inside prose: `{ui:Next phase}` in a text file becomes the catalogue's label for it, so a tour or a
lesson names a button exactly as the button reads in the learner's language."""

from __future__ import annotations

import re

from lab_ui.words.i18n import t, translate

UI_NAME = re.compile(r"\{ui:([^{}]+)\}")


def fill(text: str) -> str:
    """Every `{ui:English label}` replaced by that label in the current language."""
    return UI_NAME.sub(lambda m: t(m.group(1)), text)


def fill_in(lang: str, text: str) -> str:
    """The same, in `lang` (outside a page run: the tests, a printed cheat sheet)."""
    return UI_NAME.sub(lambda m: translate(lang, m.group(1)), text)
