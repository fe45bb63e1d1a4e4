"""json.dumps' exact text from an encoder built once: the sim serialises tool inputs and schemas many times a turn."""

from __future__ import annotations

import json
from collections.abc import Callable
from json import encoder as _std
from typing import Any


def encoder(*, sort_keys: bool = False, separators: tuple[str, str] = (", ", ": ")) -> Callable[[Any], str]:
    """json.dumps(value, ensure_ascii=False, sort_keys=..., separators=...) as a function.

    JSONEncoder.encode builds a C encoder on every call, which costs three times the encoding of a small input;
    this one is built once. It skips only the check for circular references (the values are parsed JSON and
    dicts built from it, which cannot hold themselves), so no state is shared between calls or threads."""
    std = json.JSONEncoder(ensure_ascii=False, sort_keys=sort_keys, separators=separators)
    make = getattr(_std, "c_make_encoder", None)  # not in the stubs: CPython's C accelerator
    if make is None:  # a Python without the C accelerator: the standard path
        return std.encode
    item_sep, key_sep = separators
    encode = make(None, std.default, _std.encode_basestring, None, key_sep, item_sep, sort_keys, False, True)

    def dumps(value: Any) -> str:
        return "".join(encode(value, 0))

    return dumps
