"""The active key is scrubbed in the forms an upstream can echo it in beyond the plain ones: base64 (at any
alignment, standard and URL-safe, line-wrapped), with whitespace between its characters, as \\u escapes in a raw
JSON body, and split in two halves, whatever the key's length."""

from __future__ import annotations

import base64
import json
import secrets

import pytest

from agent_core.secrets import REDACTED, scrub_bytes, scrub_secrets


def canary(tail_bytes: int = 16) -> str:
    return "sk-ant-api03-" + secrets.token_hex(tail_bytes)


def leaked(key: str, text: str) -> bool:
    """Any 8 consecutive characters of the key's secret part, or of its base64, left in the text (squeezed)."""
    tail = key.removeprefix("sk-ant-api03-")
    flat = "".join(text.split())
    pieces = [tail[i : i + 8] for i in range(len(tail) - 7)]
    for offset in range(3):
        encoded = base64.b64encode(key.encode()[offset:]).decode()[4:-4]
        pieces += [encoded[i : i + 12] for i in range(len(encoded) - 11)]
    return any(p in flat or p in json.loads(json.dumps(flat)) for p in pieces) or _unescaped_hit(tail, text)


def _unescaped_hit(tail: str, text: str) -> bool:
    try:
        decoded = json.loads(f'"{text}"')
    except ValueError:
        return False
    flat = "".join(decoded.split())
    return any(tail[i : i + 8] in flat for i in range(len(tail) - 7))


def echoes(key: str) -> dict[str, str]:
    raw = key.encode()
    half = len(key) // 2
    return {
        "base64": base64.b64encode(raw).decode(),
        "base64 after one byte": base64.b64encode(b"x" + raw).decode(),
        "base64 after two bytes": base64.b64encode(b"xy" + raw + b"z").decode(),
        "url-safe base64": base64.urlsafe_b64encode(b"?" + raw).decode(),
        "base64, line-wrapped": "\n".join(
            base64.b64encode(b"Bearer " + raw)[i : i + 20].decode() for i in range(0, 80, 20)
        ),
        "space-separated": " ".join(key),
        "groups of four": " ".join(key[i : i + 4] for i in range(0, len(key), 4)),
        "newlines and tabs": "\n\t".join(key[i : i + 5] for i in range(0, len(key), 5)),
        "\\u escapes": "".join(f"\\u{ord(c):04x}" for c in key),
        "\\U-case escapes": "".join(f"\\u{ord(c):04X}" for c in key),
        "half escaped": key[:half] + "".join(f"\\u{ord(c):04x}" for c in key[half:]),
        "two halves": f"first {key[:half]} and then {key[half:]}",
        "two halves, reversed": f"{key[half:]} ... {key[:half]}",
    }


@pytest.mark.parametrize("tail_bytes", [12, 16, 48])  # 24-, 32- and 96-character secrets
@pytest.mark.parametrize("form", list(echoes("sk-ant-api03-x" * 3)))
def test_every_echoed_form_of_the_key_is_scrubbed(form, tail_bytes):
    key = canary(tail_bytes)
    text = f'{{"error": {{"message": "you sent {echoes(key)[form]} here"}}}}'
    out = scrub_secrets(text, [key])
    assert not leaked(key, out), out
    assert REDACTED in out and out.startswith('{"error": {"message": "you sent ')
    assert not leaked(key, scrub_bytes(text.encode(), [key]).decode("latin-1"))


def test_ordinary_text_around_the_forms_is_left_as_it_was():
    key = canary()
    text = 'a pretty JSON body:\n{\n  "city": "Oslo",\n  "note": "\\u00e9t\\u00e9"\n}\n'
    assert scrub_secrets(text, [key]) == text
    assert scrub_secrets(text + " ".join(key), [key]) == text + REDACTED


@pytest.mark.parametrize("form", ["base64 after two bytes", "groups of four", "\\u escapes", "two halves"])
def test_a_large_body_is_scrubbed_the_same_way(form):
    # From 64 KB on, bodies are searched in one RE2 pass (agent_core.secrets.SCAN_FROM): the same forms are caught.
    key = canary()
    filler = json.dumps({"content": "word " * 40_000})
    text = filler + echoes(key)[form] + filler
    out = scrub_secrets(text, [key])
    assert not leaked(key, out) and REDACTED in out and out.startswith(filler) and out.endswith(filler)
