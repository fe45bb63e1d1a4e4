"""One redaction helper for everything that leaves memory: captured exchanges, the runs DB, exports and scripts."""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Iterable, Mapping
from typing import Any

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


def scrub_secrets(text: str, secrets: Iterable[str] = ()) -> str:
    """Replace every key-shaped substring, and every known secret given, with a marker."""
    for secret in _known(secrets):
        text = text.replace(secret, REDACTED)
    # Every match contains one of these; the quick test saves a regex pass over large clean bodies.
    if "sk-" not in text and "earer " not in text:
        return text
    return SECRET_PATTERN.sub(REDACTED, text)


def scrub_bytes(data: bytes, secrets: Iterable[str] = ()) -> bytes:
    """scrub_secrets for raw bodies, without assuming they are UTF-8."""
    marker = REDACTED.encode("ascii")
    for secret in _known(secrets):
        data = data.replace(secret.encode("utf-8"), marker)
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
