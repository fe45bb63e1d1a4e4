"""The loop as a learner would write it (~25 lines, Python or TypeScript), with a phase's lines lit, Python Tutor style."""

from __future__ import annotations

import html
import re
from functools import lru_cache
from pathlib import Path

from lab_ui.words.i18n import translate

# A line's phases are @tags at its very end, after the comment mark (so "@anthropic-ai/sdk" is not a tag).
_TAGS = re.compile(r"(?:\s+@\w+)+\s*$")
_EMPTY_COMMENT = re.compile(r"\s+(#|//)\s*$")
# A line's comment: two spaces, the mark, a space, then prose (the sources put no comment mark inside a string).
_COMMENT = re.compile(r"(?P<code>.*?)(?P<mark>\s{2,}(?:#|//)\s)(?P<prose>\S.*)$")
_DATA = Path(__file__).parent / "data"
# The same loop in each language, tagged line by line with the same phases.
SOURCES = {"python": _DATA / "loop_code.py.txt", "typescript": _DATA / "loop_code.ts.txt"}
LANGUAGE_NAMES = {"python": "Python", "typescript": "TypeScript"}


@lru_cache(maxsize=len(SOURCES))
def lines(language: str = "python") -> tuple[tuple[str, frozenset[str]], ...]:
    """Each code line with the phases it belongs to (tags are stripped from the shown text)."""
    out = []
    for raw in SOURCES[language].read_text(encoding="utf-8").splitlines():
        found = _TAGS.search(raw)
        tags = frozenset(re.findall(r"@(\w+)", found.group(0))) if found else frozenset()
        text = raw[: found.start()] if found else raw.rstrip()
        out.append((_EMPTY_COMMENT.sub("", text), tags))
    return tuple(out)


# How a stopped run left the loop, as the lines to light: a final stop_reason breaks out and prints; a stop_reason
# the code does not know raises; a guard of the program's (the steps, tokens, cost, a timeout) ends it without
# either (the for loop's range is the one guard in these lines).
FINAL_EXIT, UNKNOWN_EXIT, GUARD_EXIT = "done", "unknown_stop", "out_of_steps"


def exit_tag(stop_kind: str | None, final_kinds: frozenset[str]) -> str:
    """The tag of the lines a run that stopped with `stop_kind` ran last (None: it finished without a stop)."""
    if stop_kind is None or stop_kind in final_kinds:
        return FINAL_EXIT
    return UNKNOWN_EXIT if stop_kind == "unknown_stop_reason" else GUARD_EXIT


def comments() -> frozenset[str]:
    """Every comment of both sources, in English: the catalogue translates each (locales/loopcode/)."""
    found = (_COMMENT.match(text) for language in SOURCES for text, _ in lines(language))
    return frozenset(match["prose"] for match in found if match)


def _shown(text: str, lang: str) -> str:
    """The line with its comment in the learner's language (the code itself stays as the SDK spells it)."""
    match = _COMMENT.match(text)
    if match is None or lang == "en":
        return text
    return match["code"] + match["mark"] + translate(lang, match["prose"])


def plain_code(language: str = "python") -> str:
    return "\n".join(text for text, _ in lines(language))


def render_html(done: str | None, upcoming: str | None, language: str = "python", lang: str = "en") -> str:
    """HTML of the loop with `done` lines highlighted and an arrow on the `upcoming` phase's first line, its
    comments in `lang`."""
    rows, arrow_drawn = [], False
    for number, (text, tags) in enumerate(lines(language), 1):
        classes = "lab-line"
        if done in tags:
            classes += " lab-done"
        marker = "&nbsp;"
        if upcoming in tags and not arrow_drawn:
            marker, arrow_drawn = "➜", True
            classes += " lab-next"
        rows.append(
            f'<div class="{classes}"><span class="lab-no">{number:>2}</span>'
            f'<span class="lab-arrow">{marker}</span><span>{html.escape(_shown(text, lang)) or "&nbsp;"}</span></div>'
        )
    # A scrolling region the keyboard can reach (tabindex) and a screen reader can name.
    label = html.escape(LANGUAGE_NAMES[language], quote=True)
    return f'<div class="lab-code" tabindex="0" role="region" aria-label="{label}">' + "".join(rows) + "</div>"


CSS = """
<style>
.lab-code {font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 0.74rem; line-height: 1.4;
  background: #0f172a; color: #e2e8f0; border-radius: 8px; padding: 8px 0; overflow-x: auto;}
.lab-line {white-space: pre; padding: 0 10px;}
.lab-no {color: #94a3b8; margin-right: 6px;}
.lab-arrow {color: #22c55e; display: inline-block; width: 1.2em;}
.lab-done {background: #854d0e; color: #fefce8;}
.lab-done .lab-no {color: #fde68a;}
.lab-next {outline: 1px dashed #22c55e;}
.lab-code:focus-visible {outline: 3px solid #60a5fa; outline-offset: 2px;}
</style>
"""
