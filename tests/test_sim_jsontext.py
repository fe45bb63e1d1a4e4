"""The encoders built once write json.dumps' exact text, so ids, keys and token counts are unchanged."""

from __future__ import annotations

import json

import pytest

from agent_core import jsontext

VALUES = [
    {"b": 1, "a": [1.5, -0.0, 1e300, 2**70, None, True], "é": 'x\n"ł\u2028'},
    "plain text",
    float("nan"),
    [],
    {},
    {1: "int key", "2": {"nested": ["a", {"z": 0, "y": 1}]}},
]


@pytest.mark.parametrize("sort_keys", [True, False])
@pytest.mark.parametrize("separators", [(", ", ": "), (",", ":")])
def test_same_text_as_json_dumps(sort_keys: bool, separators: tuple[str, str]) -> None:
    dumps = jsontext.encoder(sort_keys=sort_keys, separators=separators)
    for value in VALUES:
        if sort_keys and isinstance(value, dict) and 1 in value:
            continue  # mixed key types cannot be sorted: both raise, checked below
        assert dumps(value) == json.dumps(value, ensure_ascii=False, sort_keys=sort_keys, separators=separators)


def test_same_errors_as_json_dumps() -> None:
    with pytest.raises(TypeError):
        jsontext.encoder()({"a": {1, 2}})
    with pytest.raises(TypeError):
        jsontext.encoder(sort_keys=True)({1: "a", "b": 2})
