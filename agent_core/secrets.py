"""One redaction helper for everything that leaves memory: captured exchanges, the runs DB, exports and scripts.

Two nets. By shape: anything that looks like a key (sk-ant-…, sk-…, a long bearer token) is scrubbed everywhere.
By value: a known secret (the active key) is scrubbed in every form an upstream might echo it in: as it is,
JSON-escaped, URL-encoded, base64-encoded (at any alignment, standard or URL-safe), with whitespace between its
characters, written as \\u escapes, and any piece of it FRAGMENT or more characters long (a key split in two, or
cut off; half its secret part for a key shorter than 2 * FRAGMENT, so either half of a short key is a piece).
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
MIN_FRAGMENT = 8  # the shortest piece scrubbed, for a short secret (half of its secret part, at least this)
SCAN_FROM = 64 * 1024  # characters from which a text is searched in one RE2 pass instead of piece by piece
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
    """The ways a secret can be echoed back: as it is, JSON-escaped, URL-encoded (both styles), base64."""
    forms = [secret, json.dumps(secret)[1:-1], json.dumps(secret, ensure_ascii=False)[1:-1]]
    forms += [urllib.parse.quote(secret, safe=""), urllib.parse.quote_plus(secret, safe="")]
    return tuple(dict.fromkeys(forms + base64_forms(secret)))


def base64_forms(secret: str) -> list[str]:
    """The base64 characters the secret becomes wherever it sits in an encoded stream: base64 codes 3 bytes at a
    time from the stream's start, so the secret's own whole groups start at one of 3 offsets into it."""
    raw, forms = secret.encode("utf-8"), []
    for offset in range(3):
        whole = (len(raw) - offset) // 3 * 3
        if whole >= 3:
            chunk = raw[offset : offset + whole]
            forms += [base64.b64encode(chunk).decode("ascii"), base64.urlsafe_b64encode(chunk).decode("ascii")]
    return forms


def _fragment(form: str) -> tuple[int, int]:
    """Where the secret part of a form starts (after its public prefix) and the piece length scrubbed in it."""
    prefix = _PUBLIC_PREFIX.match(form)
    start = prefix.end() if prefix else 0
    return start, min(FRAGMENT, max(MIN_FRAGMENT, (len(form) - start) // 2))


def _fragment_spans(text: str, form: str) -> list[tuple[int, int]]:
    """Spans of text that share a fragment's length or more of consecutive characters with form (outside its
    public prefix). Every such span holds one whole anchor window (half a fragment), so only those are searched."""
    start, length = _fragment(form)
    anchor_len = length // 2
    spans: list[tuple[int, int]] = []
    for k in range(start, len(form) - anchor_len + 1, anchor_len):
        anchor = form[k : k + anchor_len]
        i = text.find(anchor)
        while i >= 0:
            spans += _grown(text, i, form, k, anchor_len, start, length)
            i = text.find(anchor, i + 1)
    return spans


def _grown(text: str, i: int, form: str, k: int, width: int, start: int, length: int) -> list[tuple[int, int]]:
    """text[i:i+width] is form[k:k+width]: the whole run the two share around it (never into the form's public
    prefix, which ends at `start`), as a span if it is at least `length` long."""
    left = 0
    while i - left > 0 and k - left > start and text[i - left - 1] == form[k - left - 1]:
        left += 1
    right = width
    while i + right < len(text) and k + right < len(form) and text[i + right] == form[k + right]:
        right += 1
    return [(i - left, i + right)] if left + right >= length else []


def _form_spans(text: str, forms: Iterable[str]) -> list[tuple[int, int]]:
    forms = tuple(forms)
    if len(text) >= SCAN_FROM:
        return _scanned_spans(text, forms)
    spans: list[tuple[int, int]] = []
    for form in forms:
        i = text.find(form)
        while i >= 0:
            spans.append((i, i + len(form)))
            i = text.find(form, i + 1)
        if len(form) >= 2 * MIN_FRAGMENT:
            spans += _fragment_spans(text, form)
    return spans


def _scanned_spans(text: str, forms: tuple[str, ...]) -> list[tuple[int, int]]:
    """_form_spans for a large text in one pass: every MIN_FRAGMENT-long piece of every form's secret part is one
    alternative of an RE2 program (a DFA: one scan however many pieces), and each hit is grown to its full span.
    Searching for each piece in turn cost a second per 3 MB body once base64 forms joined the plain ones."""
    import re2  # loaded only for large bodies

    pieces: dict[str, list[tuple[str, int]]] = {}
    for form in forms:
        start = _fragment(form)[0] if len(form) >= 2 * MIN_FRAGMENT else 0
        for k in range(start, len(form) - MIN_FRAGMENT + 1):
            pieces.setdefault(form[k : k + MIN_FRAGMENT], []).append((form, k))
    if not pieces:
        return []
    options = re2.Options()
    options.max_mem = 64 << 20
    program = re2.compile("|".join(re.escape(piece) for piece in pieces), options)
    spans: list[tuple[int, int]] = []
    for match in program.finditer(text):
        i = match.start()
        for form, k in pieces[match.group()]:
            start, length = _fragment(form) if len(form) >= 2 * MIN_FRAGMENT else (0, len(form))
            spans += _grown(text, i, form, k, MIN_FRAGMENT, start, length)
    return spans


# What an echo may put between a secret's characters (whitespace) or write in their place (a JSON \\u escape of
# an ASCII character): the text is searched once more with these undone, and a hit is mapped back.
_SPACES = " \t\n\r\f\v\x1c\x1d\x1e\x1f\x85\xa0\u1680\u2028\u2029\u202f\u205f\u3000" + "".join(
    map(chr, range(0x2000, 0x200B))
)
_DROP_SPACES = dict.fromkeys(map(ord, _SPACES))
_SPACE_CLASS = f"[{re.escape(_SPACES)}]"
_NOISE = re.compile(f"{_SPACE_CLASS}+|\\\\u00([0-7][0-9a-fA-F])")


def _squeezed_spans(text: str, known: tuple[str, ...]) -> list[tuple[int, int]]:
    """Spans of text holding a secret (or its base64, or a piece) once whitespace and \\u escapes are undone."""
    squeezed = text.translate(_DROP_SPACES)  # one fast pass; the slow mapping below runs only on a hit
    if "\\u00" in squeezed:  # both undone in one pass, exactly as _origins maps them
        squeezed = _NOISE.sub(lambda m: chr(int(m[1], 16)) if m[1] else "", text)
    if len(squeezed) == len(text):
        return []  # nothing was undone: the plain search saw the same text
    hits = _form_spans(squeezed, [form for secret in known for form in (secret, *base64_forms(secret))])
    if not hits:
        return []
    # Found once noise is undone: find the same characters in the text itself, noise allowed between them.
    spans: list[tuple[int, int]] = []
    for piece in {squeezed[a:b] for a, b in hits}:
        spans += [m.span() for m in _noisy(piece).finditer(text)]
    return spans


def _noisy(piece: str) -> re.Pattern[str]:
    """A pattern for piece with whitespace allowed between its characters, each possibly written as a \\u escape
    (one character class between literals: no nested repetition, so no backtracking blow-up)."""
    chars = [
        f"(?:{re.escape(c)}|\\\\u00(?:{ord(c):02x}|{ord(c):02X}))" if ord(c) < 0x80 else re.escape(c) for c in piece
    ]
    return re.compile(f"{_SPACE_CLASS}*".join(chars))


def _scrub_value(text: str, known: tuple[str, ...]) -> str:
    """Every form of every known secret, and every long fragment of one, replaced by the marker."""
    spans = _form_spans(text, [form for secret in known for form in secret_forms(secret)])
    if known:
        spans += _squeezed_spans(text, known)
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
