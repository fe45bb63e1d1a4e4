"""The body split into its tools' and messages' texts gives what json.loads and the full walks give, request after
request, whatever the formatting (sim/wire.py)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from agent_core.cost import tokens
from agent_core.model import SimSettings
from agent_core.sim import brain, cache, handler, validate, wire

SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(-(10**20), 10**20), st.floats(allow_nan=False), st.text(max_size=8)
)
JSON = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=12,
)
BLOCKS = st.one_of(
    st.builds(lambda t: {"type": "text", "text": t}, st.text(max_size=12)),
    st.builds(lambda i: {"type": "tool_use", "id": "toolu_1", "name": "f", "input": i}, JSON),
    st.builds(lambda c: {"type": "tool_result", "tool_use_id": "toolu_1", "content": c}, st.text(max_size=12) | JSON),
    st.builds(lambda t: {"type": "thinking", "thinking": t, "signature": "s"}, st.text(max_size=8)),
    st.builds(lambda c: {"type": "image", "cache_control": c}, JSON),
    JSON,
)
MESSAGES = st.builds(
    lambda role, content: {"role": role, "content": content},
    st.sampled_from(["user", "assistant", "system"]),
    st.text(max_size=12) | st.lists(BLOCKS, max_size=3) | BLOCKS,
)
TOOLS = st.one_of(st.builds(lambda n, s: {"name": n, "input_schema": s}, st.text(max_size=6), JSON), JSON)
BODIES = st.fixed_dictionaries(
    {"model": st.text(max_size=6)},
    optional={
        "tools": st.lists(TOOLS, max_size=3),
        "messages": st.lists(MESSAGES, max_size=4),
        "system": JSON,
        "stream": st.booleans(),
    },
)
# How clients write JSON: compact, the default, indented, and pretty with a space before each comma.
FORMATS = st.sampled_from(
    [
        {"separators": (",", ":")},
        {},
        {"indent": 2},
        {"ensure_ascii": False, "separators": (" , ", " : "), "indent": "\t"},
    ]
)


def _full_walk_within(value: object, limit: int) -> bool:
    return wire.depth_within(value, None, limit)


@hsettings(max_examples=400, deadline=None)
@given(BODIES, FORMATS)
def test_the_split_body_is_what_json_loads_reads_and_its_facts_are_the_full_walks(body, how):
    text = " \n" + json.dumps(body, **how) + "\n "
    value, parts = wire.loads(text)
    assert value == json.loads(text)  # parts may be None (content no message has): the full paths then
    plain = {k: v for k, v in value.items() if k != "stream"}
    assert wire.canonical(value, parts) == wire.CANONICAL(plain) == handler.canonical(value)
    assert tokens.count_request(value, **wire.costs(value, parts)) == tokens.count_request(value)
    assert wire.tool_keys(value, parts) == (tuple(wire.SORTED(t) for t in value["tools"]) if "tools" in value else None)
    for limit in (2, 3, 5, 64):
        assert wire.depth_within(value, parts, limit) == _full_walk_within(value, limit)
    inputs = wire.input_keys(value, parts)
    if inputs is not None:  # each tool_use input dict -> its sorted JSON, as the brain's call_key writes it
        blocks = [b for m in value["messages"] if isinstance(m["content"], list) for b in m["content"]]
        calls = [b["input"] for b in blocks if isinstance(b, dict) and b.get("type") == "tool_use"]
        assert inputs == {id(i): wire.SORTED(i) for i in calls if isinstance(i, dict)}
    unmarked = wire.messages_unmarked(value, parts)  # no message's blocks looked at for cache breakpoints
    assert cache.marked(value, unmarked) == cache.marked(value)
    assert validate.cache_marked(value, unmarked) == validate.cache_marked(value)


@hsettings(max_examples=200, deadline=None)
@given(BODIES)
def test_a_body_changed_after_reading_leaves_the_next_reading_as_sent(body):
    text = json.dumps(body)
    first, parts = wire.loads(text)
    for key in wire.SPLIT:
        for element in first.get(key, []):
            if isinstance(element, dict):
                element["content"] = "changed by the brain"  # what a caller might do to its own copy
        first.get(key, []).append({"role": "user", "content": "added"})
    assert wire.canonical(first, parts) == wire.CANONICAL({k: v for k, v in first.items() if k != "stream"})
    again, parts = wire.loads(text)
    assert wire.canonical(again, parts) == handler.canonical(json.loads(text))


@pytest.mark.parametrize(
    "text",
    [
        '{"messages": [{"role": "user"}], "messages": 3}',  # a later duplicate key wins
        '{"tools": 1, "tools": [{"name": "f"}]}',
        '{"messages": [1, 2,], "model": "m"}',  # bad JSON: json.loads' error
        '{"model": "m"} {"model": "n"}',
        '{"model": "m", "messages": [{"a": NaN}]}',
        '[{"model": "m"}]',
        '"model"',
        "{}",
        "",
        '{"messages": [' + "[" * 70 + "]" * 70 + "]}",  # deeper than the limit: refused by the depth check
        '{"messages": [' + "[" * 100_000 + "]" * 100_000 + "]}",  # beyond json's own recursion limit
    ],
)
def test_odd_bodies_read_as_json_loads_reads_them(text):
    try:
        expected: object = json.loads(text)
    except (ValueError, RecursionError) as exc:
        expected = exc
    try:
        value, parts = wire.loads(text)
    except (ValueError, RecursionError) as exc:
        assert type(exc) is type(expected) and str(exc) == str(expected)
        return
    assert value == expected or value != value  # NaN is not equal to itself
    assert wire.depth_within(value, parts, handler.MAX_JSON_DEPTH) == _full_walk_within(value, handler.MAX_JSON_DEPTH)
    if isinstance(value, dict) and parts is not None:
        assert wire.canonical(value, parts) == handler.canonical(value)


def test_the_brain_given_the_servers_tool_keys_drafts_the_same_reply():
    tools = [
        {"name": "get_weather", "description": "Weather for a city.", "input_schema": {"type": "object"}},
        {"type": "web_search_20250305", "name": "web_search"},
        {
            "name": "calculate",
            "description": "Evaluate arithmetic.",
            "input_schema": {"type": "object", "properties": {"expression": {"type": "string"}}},
        },
    ]
    call = {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Oslo", "days": 2}}
    result = {"type": "tool_result", "tool_use_id": "toolu_1", "content": "Oslo: 4°C"}
    messages = [
        {"role": "user", "content": "Weather in Oslo and Rome, and what is 2+3*4?"},
        {"role": "assistant", "content": [{"type": "text", "text": "Checking."}, call]},
        {"role": "user", "content": [result]},
    ]
    text = json.dumps({"model": "m", "tools": tools, "messages": messages})
    body, parts = wire.loads(text)
    keys, inputs = wire.tool_keys(body, parts), wire.input_keys(body, parts)
    assert keys is not None and inputs
    settings = SimSettings()
    given = brain.think(body, settings, tool_keys=keys, input_keys=inputs)
    assert given == brain.think(json.loads(text), settings)
