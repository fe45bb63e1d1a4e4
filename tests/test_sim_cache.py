"""Prompt caching in the simulated model follows the docs: a cache keyed by the prefix up to each breakpoint.

Counts checked against the prompt-caching page's definitions: cache_read_input_tokens is the prefix found in the
cache, cache_creation_input_tokens what the request wrote after it (split by TTL), input_tokens the rest, and the
three add up to the whole input; prefixes under the model's minimum are never cached; entries expire."""

from __future__ import annotations

import anthropic
import httpx2
import pytest

from agent_core import lineup
from agent_core.cost import tokens
from agent_core.model import SimSettings
from agent_core.sim import SimHandler, SimTransport
from agent_core.sim.cache import PromptCache, breakpoints, marked, owner_of, positions

MODEL = "claude-sonnet-5-5"
WEATHER = {
    "name": "get_weather",
    "description": "Current weather in a city. Use it for any weather question.",
    "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
}
# Long enough to pass Sonnet 5.5's minimum cacheable length on its own.
REFERENCE = "You answer questions about the weather. Reference: city codes and their regions follow. " + (
    "OSL Oslo Norway; WAW Warsaw Poland; CAI Cairo Egypt; LIS Lisbon Portugal. " * 70
)


class Clock:
    """A clock the test moves by hand, so TTLs are checked without waiting."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def sim():
    clock = Clock()
    handler = SimHandler(SimSettings())
    handler.cache = PromptCache(clock=clock)

    def client(key: str = "learner-key") -> anthropic.Anthropic:
        transport = httpx2.Client(transport=SimTransport(handler.settings, handler))
        return anthropic.Anthropic(api_key=key, base_url="http://sim.invalid", http_client=transport, max_retries=0)

    return client, clock


def whole(body: dict) -> int:
    return tokens.count_request(body)


def _usage(u) -> tuple[int, int, int]:
    return u.input_tokens, u.cache_creation_input_tokens, u.cache_read_input_tokens


def _append(messages: list, reply, result: str = "4°C, light rain") -> None:
    messages.append({"role": "assistant", "content": [b.to_dict() for b in reply.content]})
    calls = [b for b in reply.content if b.type == "tool_use"]
    messages.append(
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": c.id, "content": result} for c in calls]}
        if calls
        else {"role": "user", "content": "Thanks. And in Warsaw?"}
    )


def test_three_turn_conversation_with_automatic_caching(sim):
    """Top-level cache_control: turn 1 writes everything, each later turn reads what the one before wrote and
    writes only what is new (the docs' multi-turn example)."""
    client, _ = sim
    c = client()
    messages: list = [{"role": "user", "content": "What's the weather in Oslo?"}]
    kwargs = dict(model=MODEL, max_tokens=400, system=REFERENCE, tools=[WEATHER], cache_control={"type": "ephemeral"})
    seen = []
    for _ in range(3):
        body = {**kwargs, "messages": list(messages)}
        reply = c.messages.create(messages=messages, **kwargs)
        seen.append((whole(body), _usage(reply.usage)))
        _append(messages, reply)
    (t1, u1), (t2, u2), (t3, u3) = seen
    assert u1 == (0, t1, 0)  # nothing cached yet: the whole prompt up to the last block is written
    assert u2 == (0, t2 - t1, t1)  # turn 1's prompt is read; the new turn is written
    assert u3 == (0, t3 - t2, t2)
    assert all(sum(u) == t for t, u in seen)


def test_explicit_breakpoints_read_the_static_prefix_and_bill_the_rest_as_input(sim):
    client, _ = sim
    c = client()
    system = [{"type": "text", "text": REFERENCE, "cache_control": {"type": "ephemeral"}}]
    kwargs = dict(model=MODEL, max_tokens=400, system=system, tools=[WEATHER])
    prefix = whole({"model": MODEL, "tools": [WEATHER], "system": system})
    messages: list = [{"role": "user", "content": "What's the weather in Oslo?"}]
    first = c.messages.create(messages=messages, **kwargs)
    assert first.usage.cache_creation.ephemeral_5m_input_tokens == prefix
    assert _usage(first.usage) == (whole({**kwargs, "messages": messages}) - prefix, prefix, 0)
    _append(messages, first)
    second = c.messages.create(messages=messages, **kwargs)
    assert _usage(second.usage) == (whole({**kwargs, "messages": messages}) - prefix, 0, prefix)


def test_repeating_a_call_reads_instead_of_writing_again(sim):
    client, _ = sim
    c = client()
    kwargs = dict(model=MODEL, max_tokens=200, system=REFERENCE, cache_control={"type": "ephemeral"})
    messages = [{"role": "user", "content": "Hello!"}]
    total = whole({**kwargs, "messages": messages})
    assert _usage(c.messages.create(messages=messages, **kwargs).usage) == (0, total, 0)
    assert _usage(c.messages.create(messages=messages, **kwargs).usage) == (0, 0, total)


def test_a_prefix_never_written_is_not_read(sim):
    """The old sim 'read' on turn 2 whatever turn 1 sent; a cache only holds what was written."""
    client, _ = sim
    c = client()
    system = [{"type": "text", "text": REFERENCE, "cache_control": {"type": "ephemeral"}}]
    history = [
        {"role": "user", "content": "Hello!"},
        {"role": "assistant", "content": "Hi! How can I help?"},
        {"role": "user", "content": "Tell me about Oslo."},
    ]
    usage = c.messages.create(model=MODEL, max_tokens=200, system=system, messages=history).usage
    assert usage.cache_read_input_tokens == 0 and usage.cache_creation_input_tokens > 0


def test_a_prefix_under_the_minimum_is_not_cached(sim):
    client, _ = sim
    c = client()
    system = [{"type": "text", "text": "You are terse.", "cache_control": {"type": "ephemeral"}}]
    for _ in range(2):
        usage = c.messages.create(
            model=MODEL, max_tokens=100, system=system, messages=[{"role": "user", "content": "Hi"}]
        )
        assert (usage.usage.cache_creation_input_tokens, usage.usage.cache_read_input_tokens) == (0, 0)
    assert lineup.find(MODEL).min_cache_tokens == 1024  # models.json, from the docs (dated and sourced there)


def test_minimum_is_per_model(sim):
    """A prefix of ~1,300 tokens caches on Sonnet 5.5 (1,024) but not on Haiku 4.5 (4,096)."""
    client, _ = sim
    c = client()
    kwargs = dict(max_tokens=100, system=REFERENCE, messages=[{"role": "user", "content": "Hi"}])
    auto = {"type": "ephemeral"}
    sonnet = c.messages.create(model=MODEL, cache_control=auto, **kwargs).usage
    haiku = c.messages.create(model="claude-haiku-4-5", cache_control=auto, **kwargs).usage
    assert sonnet.cache_creation_input_tokens > 1024
    assert haiku.cache_creation_input_tokens == 0 and haiku.input_tokens > 1024


def test_ttl_five_minutes_refreshed_by_each_read_and_one_hour(sim):
    client, clock = sim
    c = client()
    messages = [{"role": "user", "content": "Hi"}]

    def call(ttl: str | None = None):
        mark = {"type": "ephemeral", **({"ttl": ttl} if ttl else {})}
        system = [{"type": "text", "text": REFERENCE, "cache_control": mark}]
        return c.messages.create(model=MODEL, max_tokens=100, system=system, messages=messages).usage

    assert call().cache_creation_input_tokens > 0
    clock.now += 299
    assert call().cache_read_input_tokens > 0  # within 5 minutes: read, and the read refreshes it
    clock.now += 299
    assert call().cache_read_input_tokens > 0
    clock.now += 301
    assert call().cache_read_input_tokens == 0  # expired: written again
    hour = call("1h")
    assert hour.cache_read_input_tokens > 0  # the same prefix: the 1h request reads the 5m entry written just now
    other = [{"type": "text", "text": REFERENCE + " Extra.", "cache_control": {"type": "ephemeral", "ttl": "1h"}}]
    written = c.messages.create(model=MODEL, max_tokens=100, system=other, messages=messages).usage
    assert (
        written.cache_creation.ephemeral_1h_input_tokens > 0 and written.cache_creation.ephemeral_5m_input_tokens == 0
    )
    clock.now += 3000
    again = c.messages.create(model=MODEL, max_tokens=100, system=other, messages=messages).usage
    assert again.cache_read_input_tokens == written.cache_creation_input_tokens


def test_changing_a_tool_misses_but_changing_tool_choice_keeps_tools_and_system(sim):
    client, _ = sim
    c = client()
    system = [{"type": "text", "text": REFERENCE, "cache_control": {"type": "ephemeral"}}]
    messages = [{"role": "user", "content": "What's the weather in Oslo?"}]
    base = dict(model=MODEL, max_tokens=200, system=system, messages=messages)
    c.messages.create(tools=[WEATHER], **base)
    assert c.messages.create(tools=[WEATHER], tool_choice={"type": "none"}, **base).usage.cache_read_input_tokens > 0
    edited = {**WEATHER, "description": "Weather now."}
    assert c.messages.create(tools=[edited], **base).usage.cache_read_input_tokens == 0


def test_caches_are_per_credential(sim):
    """Two learners on one server never read each other's cache (the key is hashed, never kept)."""
    client, _ = sim
    kwargs = dict(model=MODEL, max_tokens=100, system=REFERENCE, cache_control={"type": "ephemeral"})
    messages = [{"role": "user", "content": "Hi"}]
    client("key-of-anna").messages.create(messages=messages, **kwargs)
    assert client("key-of-boris").messages.create(messages=messages, **kwargs).usage.cache_read_input_tokens == 0
    assert "key-of-anna" not in owner_of({"x-api-key": "key-of-anna"})


def test_streaming_reports_the_same_counts(sim):
    client, _ = sim
    c = client()
    kwargs = dict(model=MODEL, max_tokens=100, system=REFERENCE, cache_control={"type": "ephemeral"})
    messages = [{"role": "user", "content": "Hi"}]
    c.messages.create(messages=messages, **kwargs)
    with c.messages.stream(messages=messages, **kwargs) as stream:
        final = stream.get_final_message()
    assert final.usage.cache_read_input_tokens == whole({**kwargs, "messages": messages})


@pytest.mark.parametrize(
    ("mark", "message"),
    [({"type": "persistent"}, "cache_control.type"), ({"type": "ephemeral", "ttl": "10m"}, "cache_control.ttl")],
)
def test_bad_cache_control_is_a_400(sim, mark, message):
    client, _ = sim
    with pytest.raises(anthropic.BadRequestError, match=message):
        client().messages.create(
            model=MODEL, max_tokens=100, cache_control=mark, messages=[{"role": "user", "content": "Hi"}]
        )


def test_a_failed_request_writes_nothing(sim):
    client, _ = sim
    c = client()
    system = [{"type": "text", "text": REFERENCE, "cache_control": {"type": "ephemeral"}}]
    orphan = {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_none", "content": "x"}]}
    with pytest.raises(anthropic.BadRequestError, match="tool_use_id"):
        c.messages.create(model=MODEL, max_tokens=100, system=system, messages=[orphan])
    good = c.messages.create(model=MODEL, max_tokens=100, system=system, messages=[{"role": "user", "content": "Hi"}])
    assert good.usage.cache_read_input_tokens == 0 and good.usage.cache_creation_input_tokens > 0


def test_the_quick_breakpoint_check_agrees_with_the_full_reading():
    # settle() skips hashing the prompt when marked() finds no breakpoint: it must find every one positions() does.
    mark = {"type": "ephemeral"}
    text = {"type": "text", "text": "hi"}
    bodies = [
        {"messages": [{"role": "user", "content": "hi"}]},
        {"messages": [{"role": "user", "content": [text]}], "cache_control": mark},
        {"tools": [{"name": "t", "cache_control": mark}], "messages": [{"role": "user", "content": "hi"}]},
        {"system": [{**text, "cache_control": mark}], "messages": [{"role": "user", "content": "hi"}]},
        {"system": "be brief", "messages": [{"role": "user", "content": [text, {**text, "cache_control": mark}]}]},
        {"messages": [{"role": "user", "content": [{**text, "cache_control": "ephemeral"}]}]},  # not a dict: no mark
    ]
    for body in bodies:
        assert marked(body) == bool(breakpoints(body, positions(body, "owner"))), body
