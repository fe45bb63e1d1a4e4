"""Runs as files: versioned JSON export/import, a runnable SDK script, and one turn in OpenAI's format."""

from __future__ import annotations

import base64
import itertools
import json
import math
import textwrap
import uuid
from dataclasses import fields, is_dataclass
from pathlib import Path
from typing import Any

import jsonschema

from agent_core.model import SCHEMA_VERSION, Run, UnknownValue, migrate_run
from agent_core.secrets import env_secrets, redact_headers, scrub_bytes, scrub_secrets

SCHEMA_PATH = Path(__file__).parents[1] / "data" / "run.schema.json"
# Limits on an imported file (documented in the README, "What the app trusts and what it does not").
MAX_IMPORT_BYTES = 20_000_000
OLDEST_READABLE = 1  # run formats from here up are migrated on import (agent_core.model.migrate_run)
MAX_DEPTH = 100  # a run nests about 10 levels; tool inputs a few more
MAX_INTEGER = 2**53  # the largest whole number JSON viewers (JavaScript) and SQLite both hold exactly
MIN_TIMESTAMP, MAX_TIMESTAMP = 0.0, 253_402_300_799.0  # 1970-01-01 .. 9999-12-31 23:59:59 UTC
_MAX_REPORTED_ERRORS = 3
_MAX_MESSAGE_CHARS = 200


class RunImportError(ValueError):
    """A file that is not a run this app can read; the message says why in plain words."""


# -- JSON ---------------------------------------------------------------------------------
def export_json(run: Run) -> bytes:
    """The run in the versioned JSON format (pretty, UTF-8), with anything key-shaped scrubbed."""
    return dumps({"schema_version": SCHEMA_VERSION, "run": run}, indent=2).encode("utf-8")


def dumps(value: Any, indent: int | None = None) -> str:
    """JSON text of a run or any part of it, in Run.to_dict()'s encoding, with secrets scrubbed.

    The one JSON encoder for anything that leaves memory (database, exports, the CLI's --json): key-shaped
    strings and the environment's key, in any form or piece, never reach a file."""
    # The C encoder calls _encode_object only for dataclasses and bytes, and the scrub is one pass over the
    # text: far cheaper than asdict() plus a walk per string (the store calls this on every click).
    return scrub_secrets(
        json.dumps(
            value,
            default=_encode_object,
            indent=indent,
            ensure_ascii=False,
            allow_nan=False,
            separators=None if indent else (",", ":"),
        ),
        env_secrets(),
    )


def _encode_object(value: Any) -> Any:
    if is_dataclass(value) and not isinstance(value, type):
        data = {f.name: getattr(value, f.name) for f in fields(value)}
        for name in data:
            if name.endswith("_headers") and isinstance(data[name], dict):
                data[name] = redact_headers(data[name])
        return data
    if isinstance(value, bytes):
        try:
            return {"text": value.decode("utf-8")}  # scrubbed with the rest of the text
        except UnicodeDecodeError:
            return {"base64": base64.b64encode(scrub_bytes(value)).decode("ascii")}
    raise TypeError(f"{type(value).__name__} cannot be saved in a run")


def import_json(data: bytes | str, max_bytes: int = MAX_IMPORT_BYTES, keep_id: bool = False) -> Run:
    """Read an exported run; raises RunImportError (only) with a clear message for anything unreadable."""
    document = _parse(data, max_bytes)
    _check_shape_limits(document)
    _check_text(document)
    document = _migrated(document)
    _validate(document)
    try:
        run = Run.from_dict(document)
    except UnknownValue as exc:
        raise RunImportError(str(exc)) from None
    except Exception as exc:  # the schema passed, so any failure here is a mismatch worth one clear message
        raise RunImportError(f"The file looks like a run but could not be loaded: {type(exc).__name__}: {exc}") from exc
    _check_times(run)
    if not keep_id:
        run.id = uuid.uuid4().hex[:12]  # importing twice must not overwrite the first copy
    return run


def _check_shape_limits(document: Any) -> None:
    """Nesting depth and whole numbers within the documented limits (the parser already refused 1e999 and NaN)."""
    stack: list[tuple[Any, int]] = [(document, 1)]
    while stack:
        value, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise RunImportError(f"The file is nested more than {MAX_DEPTH} levels deep; a run is not.")
        if isinstance(value, dict):
            stack.extend((v, depth + 1) for v in value.values())
        elif isinstance(value, list):
            stack.extend((v, depth + 1) for v in value)
        elif isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_INTEGER:
            raise RunImportError(f"The file holds the number {str(value)[:30]}…, larger than any a run records.")


def _check_times(run: Run) -> None:
    """Dates a calendar can show: anything else is refused here, not on a page later (names the app does not know
    were refused on load: agent_core.model.known)."""
    times = [("run.created_at", run.created_at)]
    times += [(f"run.turns[{i}].started_at", turn.started_at) for i, turn in enumerate(run.turns)]
    for where, stamp in times:
        if not MIN_TIMESTAMP <= stamp <= MAX_TIMESTAMP:
            raise RunImportError(
                f"{where} is {stamp!r}, not a date between 1970 and 9999 (seconds since 1970-01-01 UTC)."
            )


def _check_text(document: Any) -> None:
    """JSON may escape a lone surrogate (\\ud83d); such text can be neither shown nor saved, so refuse it here."""
    try:
        json.dumps(document, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError as exc:
        raise RunImportError(
            "The file holds a lone surrogate (half of an emoji, written as an escape like "
            f"\\ud83d) at character {exc.start} of its text; such text cannot be saved."
        ) from None


def _parse(data: bytes | str, max_bytes: int) -> Any:
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise RunImportError(f"Expected the file's bytes, got {type(data).__name__}.")
    data = bytes(data)
    if len(data) > max_bytes:
        raise RunImportError(
            f"The file is {len(data) / 1e6:.1f} MB; runs larger than {max_bytes / 1e6:.1f} MB are not imported."
        )
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise RunImportError(
            f"The file is not UTF-8 text (byte {exc.start} cannot be decoded); a run export is a JSON file."
        ) from None
    try:
        return json.loads(text, parse_constant=_reject_constant, parse_float=_finite_float)
    except json.JSONDecodeError as exc:
        raise RunImportError(
            f"The file is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}."
        ) from None
    except RecursionError:
        raise RunImportError("The file is not a run: its JSON is nested too deeply.") from None
    except ValueError as exc:  # e.g. NaN, or an integer with thousands of digits
        raise RunImportError(f"The file is not valid JSON for a run: {exc}.") from None


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):  # 1e999 parses as infinity, which can be neither shown nor saved
        raise ValueError(f"the number {text[:30]} is too large to be a number a run records")
    return value


def _check_version(document: Any) -> None:
    if not isinstance(document, dict):
        kind = {list: "an array", str: "a string", bool: "a boolean", type(None): "null"}.get(
            type(document), "a number"
        )
        raise RunImportError(f"The file holds {kind}, not a run export (an object with schema_version and run).")
    if "schema_version" not in document:
        raise RunImportError("The file has no schema_version: it is not an Agent Loop Lab run export.")
    version = document["schema_version"]
    if not isinstance(version, int) or isinstance(version, bool):
        raise RunImportError(f"schema_version must be a whole number, not {version!r}.")
    if version > SCHEMA_VERSION:
        raise RunImportError(
            f"The file uses run format v{version}, written by a newer Agent Loop Lab; "
            f"this app reads v{SCHEMA_VERSION}. Update the app to open it."
        )
    if version < OLDEST_READABLE:
        raise RunImportError(f"The file uses the old run format v{version}; this app reads v{SCHEMA_VERSION}.")


def _migrated(document: Any) -> dict[str, Any]:
    """The document in the current run format: an older version's run is migrated before it is validated."""
    _check_version(document)
    current: dict[str, Any] = document  # _check_version saw an object
    version = current["schema_version"]
    if version == SCHEMA_VERSION:
        return current
    run = document.get("run")
    return {
        **document,
        "schema_version": SCHEMA_VERSION,
        **({"run": migrate_run(run, version)} if isinstance(run, dict) else {}),
    }


def _validate(document: dict[str, Any]) -> None:
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    validator = jsonschema.Draft202012Validator(schema)
    try:
        errors = list(itertools.islice(validator.iter_errors(document), _MAX_REPORTED_ERRORS + 1))
    except RecursionError:
        raise RunImportError("The file is not a run: its JSON is nested too deeply.") from None
    if not errors:
        return
    lines = [
        f"{json_path(e.absolute_path)}: {textwrap.shorten(e.message, _MAX_MESSAGE_CHARS, placeholder=' …')}"
        for e in errors[:_MAX_REPORTED_ERRORS]
    ]
    more = " (and more)" if len(errors) > _MAX_REPORTED_ERRORS else ""
    raise RunImportError("The file does not match the run format: " + "; ".join(lines) + more)


def json_path(parts: Any) -> str:
    """['run', 'turns', 2, 'usage'] -> 'run.turns[2].usage' (the top level is shown as '(top level)')."""
    out = ""
    for part in parts:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(top level)"
