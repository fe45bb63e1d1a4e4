"""A page fetched as raw HTML read for its facts, as a reader of the source would: its title, its first heading and
each short element named by its class ('<p class="uptime">99.97%</p>' -> 'Uptime: 99.97%'), as key: value lines the
answer tells like any record; never the tags pasted into the answer."""

from __future__ import annotations

import html
import re

_PAGE = re.compile(r"^\s*(?:<!doctype html|<html\b)|<body\b", re.I)
_SKIP = re.compile(r"<(script|style)\b[^>]*>.*?</\1>", re.I | re.S)
_TITLE = re.compile(r"<title[^>]*>(.*?)</title>", re.I | re.S)
_HEADING = re.compile(r"<h[1-3][^>]*>(.*?)</h[1-3]>", re.I | re.S)
_CLASSED = re.compile(r"<(\w+)[^>]*\bclass=[\"']([\w -]+)[\"'][^>]*>([^<]{1,80})</\1>", re.I)
_TEXT = re.compile(r"<(p|li|td|span|div)[^>]*>([^<]{1,200})</\1>", re.I)
_TAG = re.compile(r"<[^>]+>")
SHORT = 80  # an element this short is a value its class names; a longer one is text


def _plain(fragment: str) -> str:
    return " ".join(html.unescape(_TAG.sub(" ", fragment)).split())


def facts(out: str) -> str | None:
    """The page's facts as 'Key: value' lines, or None when the result is no HTML page."""
    if not _PAGE.search(out):
        return None
    body = _SKIP.sub(" ", out)
    lines: list[str] = []
    title = _TITLE.search(body)
    if title and _plain(title.group(1)):
        lines.append(f"Title: {_plain(title.group(1))}")
    heading = next((_plain(h) for h in _HEADING.findall(body) if _plain(h)), "")
    if heading:
        lines.append(f"Headline: {heading}")
    named = set()
    for _, klass, text in _CLASSED.findall(body):
        key = klass.split()[0].replace("-", " ").replace("_", " ").capitalize()
        if _plain(text) and len(_plain(text)) <= SHORT and key not in named:
            named.add(key)
            lines.append(f"{key}: {_plain(text)}")
    if len(lines) < 2:
        texts = [_plain(t) for _, t in _TEXT.findall(body) if _plain(t)]
        lines += [f"Content: {t}" for t in texts[:1]]
    return "\n".join(lines) if lines else None
