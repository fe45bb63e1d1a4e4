"""One redaction helper for everything that leaves memory: captured exchanges, the runs DB, exports and scripts.

Two nets. By shape: anything that looks like a key (sk-ant-…, sk-…, a long bearer token) is scrubbed everywhere.
By value: a known secret (the active key) is scrubbed in every form an upstream might echo it in: as it is,
JSON-escaped, URL-encoded, and any piece of it FRAGMENT or more characters long (a key split in two, or cut off).
A key's public prefix ("sk-ant-api03-", the same for everyone) is not a fragment on its own.
"""

from __future__ import annotations

import base64
import binascii
import dataclasses
import json
import os
import re
import urllib.parse
from collections.abc import Iterable, Mapping
from typing import Any

FRAGMENT = 16  # a run of this many consecutive characters of a known secret is scrubbed wherever it appears
_ANCHOR = FRAGMENT // 2  # every fragment holds one whole anchor window, so only these are searched for
_PUBLIC_PREFIX = re.compile(r"^sk-(?:ant-)?(?:[a-z]+\d*-)?")

REDACTED = "[redacted]"
# Anthropic keys, other "sk-" style provider keys, and bearer tokens. The bearer token must be long,
# so ordinary prose ("the bearer of bad news") is left alone.
SECRET_PATTERN = re.compile(
    r"sk-ant-[A-Za-z0-9_\-]{4,}"
    r"|\bsk-[A-Za-z0-9_\-]{20,}"
    r"|(?<=[Bb]earer )[A-Za-z0-9._~+/\-]{16,}=*"
)
_SECRET_BYTES = re.compile(SECRET_PATTERN.pattern.encode("ascii"))
# Header (or JSON key) names whose string value is a credential whatever it looks like.
SECRET_NAMES = frozenset(
    {
        "authorization",
        "proxy-authorization",
        "x-api-key",
        "api-key",
        "api_key",
        "apikey",
        "cookie",
        "set-cookie",
        "x-goog-api-key",
    }
)


def env_secrets() -> tuple[str, ...]:
    """The key in this process's environment (read each time: it is never kept in a module variable)."""
    return _known([os.environ.get("ANTHROPIC_API_KEY") or ""])


def secret_forms(secret: str) -> tuple[str, ...]:
    """The ways a secret can be echoed back: as it is, JSON-escaped, URL-encoded (both styles)."""
    forms = [secret, json.dumps(secret)[1:-1], json.dumps(secret, ensure_ascii=False)[1:-1]]
    forms += [urllib.parse.quote(secret, safe=""), urllib.parse.quote_plus(secret, safe="")]
    return tuple(dict.fromkeys(forms))


def _fragment_spans(text: str, form: str) -> list[tuple[int, int]]:
    """Spans of text that share FRAGMENT or more consecutive characters with form (outside its public prefix)."""
    prefix = _PUBLIC_PREFIX.match(form)
    start = prefix.end() if prefix else 0
    spans: list[tuple[int, int]] = []
    for k in range(start, len(form) - _ANCHOR + 1, _ANCHOR):
        anchor = form[k : k + _ANCHOR]
        i = text.find(anchor)
        while i >= 0:
            left = 0
            while i - left > 0 and k - left > start and text[i - left - 1] == form[k - left - 1]:
                left += 1
            right = _ANCHOR
            while i + right < len(text) and k + right < len(form) and text[i + right] == form[k + right]:
                right += 1
            if left + right >= FRAGMENT:
                spans.append((i - left, i + right))
            i = text.find(anchor, i + 1)
    return spans


def _scrub_value(text: str, known: tuple[str, ...]) -> str:
    """Every form of every known secret, and every long fragment of one, replaced by the marker."""
    spans: list[tuple[int, int]] = []
    for secret in known:
        for form in secret_forms(secret):
            i = text.find(form)
            while i >= 0:
                spans.append((i, i + len(form)))
                i = text.find(form, i + 1)
            if len(form) >= FRAGMENT:
                spans += _fragment_spans(text, form)
    if not spans:
        return text
    out, at = [], 0
    for begin, end in sorted(spans):
        if end <= at:
            continue
        out.append(text[at:begin] if begin > at else "")
        if begin >= at:
            out.append(REDACTED)
        at = end
    out.append(text[at:])
    return "".join(out)


def scrub_secrets(text: str, secrets: Iterable[str] = ()) -> str:
    """Replace every key-shaped substring, and every known secret given (in any form, or a long piece), with a marker."""
    text = _scrub_value(text, _known(secrets))
    # Every match contains one of these; the quick test saves a regex pass over large clean bodies.
    if "sk-" not in text and "earer " not in text:
        return text
    return SECRET_PATTERN.sub(REDACTED, text)


def scrub_bytes(data: bytes, secrets: Iterable[str] = ()) -> bytes:
    """scrub_secrets for raw bodies, without assuming they are UTF-8."""
    marker = REDACTED.encode("ascii")
    known = tuple(k.encode("utf-8").decode("latin-1") for k in _known(secrets))
    if known:  # latin-1 maps bytes to characters one to one, so the text scrub works on any bytes
        data = _scrub_value(data.decode("latin-1"), known).encode("latin-1")
    # The same quick test as scrub_secrets: every request body of a long run would otherwise cost a regex pass.
    if b"sk-" not in data and b"earer " not in data:
        return data
    return _SECRET_BYTES.sub(marker, data)


def redact_headers(
    headers: Mapping[str, str] | Iterable[tuple[str, str]], secrets: Iterable[str] = ()
) -> dict[str, str]:
    """Headers (a dict or httpx multi_items pairs) with credentials blanked and key-shaped values scrubbed."""
    known = _known(secrets)
    pairs = headers.items() if isinstance(headers, Mapping) else headers
    out: dict[str, str] = {}
    for name, value in pairs:
        clean = REDACTED if name.lower() in SECRET_NAMES else scrub_secrets(str(value), known)
        # A repeated header (set-cookie, via) keeps every value, as HTTP folds them.
        out[name] = f"{out[name]}, {clean}" if name in out else clean
    return out


def scrub_tree(value: Any, secrets: Iterable[str] = ()) -> Any:
    """Scrub a JSON-like tree: strings, bytes, credential-named keys and {"base64": ...} bodies."""
    known = _known(secrets)
    if isinstance(value, str):
        return scrub_secrets(value, known)
    if isinstance(value, bytes):
        return scrub_bytes(value, known)
    if isinstance(value, list):
        return [scrub_tree(v, known) for v in value]
    if isinstance(value, dict):
        if set(value) == {"base64"} and isinstance(value["base64"], str):
            return {"base64": _scrub_base64(value["base64"], known)}
        return {k: _scrub_item(k, v, known) for k, v in value.items()}
    return value


def _known(secrets: Iterable[str]) -> tuple[str, ...]:
    # Very short "secrets" (a placeholder key like "x") would shred ordinary text.
    return tuple(s for s in secrets if s and len(s) >= 8)


def _scrub_item(key: Any, value: Any, known: tuple[str, ...]) -> Any:
    if isinstance(key, str) and key.lower() in SECRET_NAMES and isinstance(value, str):
        return REDACTED
    return scrub_tree(value, known)


def _scrub_base64(encoded: str, known: tuple[str, ...]) -> str:
    # A non-UTF-8 body is stored as base64, which would hide a key from the text scrub.
    try:
        raw = base64.b64decode(encoded, validate=True)
    except (binascii.Error, ValueError):
        return encoded
    return base64.b64encode(scrub_bytes(raw, known)).decode("ascii")


def scrub_record(value: Any, secrets: Iterable[str] = ()) -> Any:
    """Scrub every string of a record: dataclasses are changed in place, other values are returned scrubbed.

    Generic on purpose: whatever fields a record grows (a structured decision, a stop cause), each string of it
    is walked, so no new field can carry a key past this."""
    known = _known(secrets)
    if not known:
        return value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            setattr(value, f.name, scrub_record(getattr(value, f.name), known))
        return value
    if isinstance(value, str):
        return _scrub_value(value, known)
    if isinstance(value, bytes):
        return scrub_bytes(value, known)
    if isinstance(value, list):
        return [scrub_record(v, known) for v in value]
    if isinstance(value, tuple):
        return tuple(scrub_record(v, known) for v in value)
    if isinstance(value, dict):
        return {scrub_record(k, known): scrub_record(v, known) for k, v in value.items()}
    return value
