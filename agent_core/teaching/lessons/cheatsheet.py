"""The printable one-page cheat sheet per language: lessons/cheatsheet/<lang>.html plus the glossary, as one HTML page."""

from __future__ import annotations

import html
from pathlib import Path

from agent_core.teaching.lessons.glossary import load_glossary
from agent_core.teaching.lessons.scenario import LANGUAGES

# Print-friendly: one A4 page, black on white, small type, no page breaks inside a section.
STYLE = """
@page { size: A4; margin: 10mm; }
body { font: 9pt/1.25 system-ui, sans-serif; color: #000; background: #fff; max-width: 190mm; margin: auto; }
h1 { font-size: 14pt; margin: 0 0 4pt; } h2 { font-size: 11pt; margin: 6pt 0 2pt; }
pre { font-size: 8pt; background: #f4f4f4; padding: 4pt; white-space: pre-wrap; margin: 0; }
table { border-collapse: collapse; width: 100%; font-size: 8.5pt; }
td, th { border: 1px solid #999; padding: 1pt 3pt; text-align: left; vertical-align: top; }
td:first-child { font-family: monospace; } ul { margin: 0; padding-left: 14pt; } p { margin: 2pt 0; }
section { break-inside: avoid; } dl { margin: 0; } dt { font-weight: bold; display: inline; } dd { display: inline; margin: 0; }
dd::after { content: ""; display: block; }
@media print { a { color: #000; text-decoration: none; } }
"""


def cheat_sheet_html(lang: str, root: Path) -> str:
    """The whole printable page in one language (root is the lessons folder)."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}")
    body = (root / "cheatsheet" / f"{lang}.html").read_text(encoding="utf-8")
    terms = load_glossary(root / "glossary.json")
    glossary = (
        "<dl>"
        + "".join(f"<dt>{html.escape(t.term[lang])}:</dt> <dd>{html.escape(t.definition[lang])}</dd>" for t in terms)
        + "</dl>"
    )
    title = body.split("<h1>", 1)[1].split("</h1>", 1)[0] if "<h1>" in body else "Cheat sheet"
    return (
        f'<!DOCTYPE html>\n<html lang="{lang}"><head><meta charset="utf-8"><title>{title}</title>'
        f"<style>{STYLE}</style></head><body>\n{body.replace('<!-- glossary -->', glossary)}</body></html>\n"
    )
