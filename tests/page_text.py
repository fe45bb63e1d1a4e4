"""The words an AppTest page shows, as tests/english.py's browser walk reads them: one string per block of visible
text, with code, raw JSON, tables of data, charts, HTML of the app's own and the model's words left out.

The browser reads the rendered page; here the same blocks come from each element's message: Markdown split into
its paragraphs, list items, headings and table cells, code spans, fenced code and outside links replaced by "¦" (as
the browser walk replaces what it skips), labels, options a person sees, metrics, tab and expander titles."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from typing import Any

from english import english_in
from streamlit.testing.v1 import AppTest

SKIP = "¦"
# Whole elements the walk leaves out: code, raw JSON, data tables (stDataFrame), charts, HTML the app writes itself.
_SKIPPED = {
    "Code",
    "Json",
    "Dataframe",
    "Html",
    "Exception",
    "Latex",
    "Divider",
    "Space",
    "Image",
    "Help",
}
_FENCE = re.compile(r"^(\s*)(`{3,}|~{3,}).*?^\1\2[^\n]*$", re.M | re.S)
_MODEL_WORDS = re.compile(r"<div data-model-words>.*?</div>", re.S)  # lab_ui.frame.untrusted.model_words_md
_LAB_CODE = re.compile(
    r"<div class=\"lab-code\"[^>]*>.*?</div>\s*$", re.S
)  # lab_ui.playground.loop_code: the code panel
_SKIPPED_TAGS = re.compile(r"<(pre|code|script|style|svg|textarea)\b.*?</\1>", re.S | re.I)
_TAG = re.compile(r"</?[a-zA-Z][^>]*>")
_CODE_SPAN = re.compile(r"(`+)(?!`).*?(?<!`)\1(?!`)", re.S)
_IMAGE = re.compile(r"!\[[^\]]*\]\([^)]*\)")
_LINK = re.compile(r"\[([^\]]*)\]\(\s*<?([^)\s>]*)>?[^)]*\)")
_AUTOLINK = re.compile(r"<https?://[^>]+>")
_DIRECTIVE = re.compile(r":[a-z]+(?:-[a-z]+)*\[([^\]]*)\]")  # :red[text], :violet-badge[text]
_ICON = re.compile(r":material/[a-z0-9_]+:")
_EMPHASIS = re.compile(r"\*\*|\*|~~")
_BLOCK_START = re.compile(r"^\s*(?:#{1,6}\s+|>\s?|[-*+]\s+|\d+[.)]\s+)")


def _inline(text: str) -> str:
    text = _CODE_SPAN.sub(f" {SKIP} ", text)
    text = _IMAGE.sub(f" {SKIP} ", text)
    text = _AUTOLINK.sub(f" {SKIP} ", text)
    # A link to an outside document: its title is the document's own name (the browser walk leaves it out too).
    text = _LINK.sub(lambda m: f" {SKIP} " if m.group(2).startswith(("http://", "https://")) else m.group(1), text)
    text = _DIRECTIVE.sub(r"\1", _ICON.sub(" ", text))
    text = _EMPHASIS.sub("", text)
    text = re.sub(r"\\([\\`*_{}\[\]()#+\-.!|>~])", r"\1", text)  # Markdown escapes
    return html.unescape(text)


def markdown_blocks(source: str) -> list[str]:
    """The blocks a Markdown text renders to: paragraphs (their lines joined), headings, list items, quotes, cells."""
    source = _MODEL_WORDS.sub(f"\n\n{SKIP}\n\n", source)
    source = _LAB_CODE.sub(f"\n\n{SKIP}\n\n", source)
    source = _FENCE.sub(f"\n\n{SKIP}\n\n", source)
    source = _SKIPPED_TAGS.sub(f" {SKIP} ", source)
    source = _TAG.sub("\n\n", source)  # the app's HTML wraps blocks (a div), never words inside a sentence
    blocks: list[str] = []
    paragraph: list[str] = []  # its lines as written: a code span or a link may run over a line break

    def close() -> None:
        if paragraph:
            blocks.append(_inline(" ".join(paragraph)))
            paragraph.clear()

    for line in source.split("\n"):
        stripped = line.strip()
        if not stripped:
            close()
        elif stripped.startswith("|") and stripped.endswith("|"):  # a table row: each cell is a block
            close()
            cells = [c.strip() for c in re.split(r"(?<!\\)\|", stripped[1:-1])]
            if not all(re.fullmatch(r":?-{2,}:?", c) for c in cells if c):
                blocks.extend(_inline(c.replace("\\|", "|")) for c in cells)
        elif _BLOCK_START.match(line):
            close()
            paragraph.append(_BLOCK_START.sub("", line).strip())
            if stripped.startswith("#"):
                close()
        else:
            paragraph.append(stripped.rstrip("\\"))
    close()
    return [b for b in (" ".join(b.split()) for b in blocks) if b.replace(SKIP, "").strip()]


def _options(proto: Any) -> list[str]:
    return [getattr(o, "content", o) for o in getattr(proto, "options", [])]


def element_blocks(node: Any) -> list[str]:
    """The blocks of text one element of the tree shows (its children are walked separately)."""
    kind = type(node).__name__
    proto = getattr(node, "proto", None)
    if kind in _SKIPPED or proto is None:
        return []
    if kind in {"Markdown", "Caption", "Title", "Header", "Subheader", "Error", "Warning", "Info", "Success"}:
        return markdown_blocks(proto.body)
    if kind == "Text":
        return [proto.body]
    if kind == "Toast":
        return markdown_blocks(proto.body)
    if kind == "Metric":
        return [b for b in (proto.label, proto.body, proto.delta) if b]
    if kind == "Progress":
        return markdown_blocks(proto.text)
    if kind in {"Expander", "Status", "Tab"}:
        return markdown_blocks(node.label)
    if kind == "Table":
        frame = node.value
        return [str(c) for c in frame.columns] + [str(v) for v in frame.to_numpy().ravel().tolist()]
    label = markdown_blocks(proto.label) if getattr(proto, "label", "") else []
    if kind in {"Radio", "ButtonGroup"}:  # every option is on the page
        return label + [b for o in _options(proto) for b in markdown_blocks(o)]
    if kind in {"Selectbox", "SelectSlider", "Multiselect"}:  # the chosen options (the list opens on a click)
        return label + [b for shown in _chosen(node) for b in markdown_blocks(shown)]
    return label


def _chosen(node: Any) -> list[str]:
    """What a select box, select slider or multiselect shows as chosen, read from its message: the value the script
    set, else its default (AppTest's own `value` would format it outside the script, where `t()` knows no language)."""
    proto = node.proto
    options = list(proto.options)
    if type(node).__name__ == "SelectSlider":
        picks = list(proto.value if proto.set_value else proto.default)
        return [options[int(i)] for i in picks if 0 <= int(i) < len(options)]
    if proto.set_value:
        chosen = list(proto.raw_values) if hasattr(proto, "raw_values") else [proto.raw_value]
        return [c for c in chosen if c]
    defaults = (
        list(proto.default) if hasattr(proto, "raw_values") else ([proto.default] if proto.HasField("default") else [])
    )
    shown = [options[i] for i in defaults if 0 <= i < len(options)]
    return shown or ([proto.placeholder] if proto.placeholder else [])


def blocks(at: AppTest) -> Iterator[str]:
    """Every block of text the page shows: the main area, the sidebar, dialogs (AppTest's whole tree)."""

    def walk(node: Any) -> Iterator[str]:
        yield from element_blocks(node)
        for child in (getattr(node, "children", None) or {}).values():
            yield from walk(child)

    yield from walk(at._tree)


def english_on(at: AppTest) -> list[str]:
    """The blocks of the page that hold English, each as 'phrase ← block' (as english.english_on_page)."""
    found = []
    for block in blocks(at):
        phrase = english_in(block)
        if phrase:
            found.append(f"{phrase!r} ← {block[:160]!r}")
    return found
