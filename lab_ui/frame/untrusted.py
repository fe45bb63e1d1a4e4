"""Untrusted text (model replies, tool names, inputs and outputs, error bodies, imported fields) made safe for Markdown.

Streamlit renders Markdown: an image there is fetched by the browser the moment it is drawn, which turns any
text a model, a tool, an upstream or a shared file controls into a request to a URL it chose. Every such text
goes through md() (or code_span()) before it reaches st.markdown, st.info, st.error and friends: images and
raw HTML come out as visible characters, links stay visible and are only followed if the learner clicks.
"""

from __future__ import annotations

import re
from typing import Any

# "![" starts an image (inline or by reference); escaping the bracket leaves a plain "!" and visible text.
_IMAGE = re.compile(r"!(?=\[)")
_MAX_CELL = 200


_LINE_BREAK = re.compile(r"(?<=[^\n])\n(?=[^\n])")


def md(text: Any) -> str:
    """Untrusted text for Markdown: no image, no raw HTML, nothing that loads; links only as text to read."""
    value = str(text if text is not None else "")
    value = value.replace("\\", "\\\\")  # so a backslash in the text cannot undo the escapes below
    value = value.replace("&", "&amp;")  # an entity in the text shows as written
    value = value.replace("<", "&lt;").replace(">", "&gt;")  # raw HTML and autolinks show as text
    value = value.replace("[", "\\[")  # no link or image syntax at all: a URL is shown, never fetched
    return _IMAGE.sub("\\!", value)


def md_cell(text: Any) -> str:
    """md() for one cell of a Markdown table: one line, no column break, bounded."""
    value = " ".join(str(text if text is not None else "").split())
    if len(value) > _MAX_CELL:
        value = value[: _MAX_CELL - 1] + "…"
    return md(value).replace("|", "\\|")


def code_span(text: Any) -> str:
    """Untrusted text as one inline code span: a fence longer than any backtick run inside, so it cannot break out."""
    value = " ".join(str(text if text is not None else "").split()) or " "
    longest = max((len(run) for run in re.findall(r"`+", value)), default=0)
    fence = "`" * (longest + 1)
    return f"{fence} {value} {fence}"


def model_words_md(text: Any) -> str:
    """A model's own words as safe Markdown, marked as data in the page (tests/english.py leaves them out of the
    language walk: a model answers in the language of its task and of the files it read, not the UI's)."""
    # A line break the model wrote stays one (Markdown would join the lines: 'forecast) 2^16 = 65536').
    kept = _LINE_BREAK.sub("  \n", md(text))
    return f"<div data-model-words>\n\n{kept}\n\n</div>"
