"""The simulated model's fast paths give what the slow ones give: the one-pass history check, the body's text."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from agent_core.sim import request, validate
from agent_core.sim.handler import _str
from agent_core.sim.validate import sign_thinking

IDS = ["toolu_a", "toolu_b", "bad id"]
TEXT = {"type": "text", "text": "Hi."}
BLOCKS = st.one_of(
    st.sampled_from(IDS).map(lambda i: {"type": "tool_use", "id": i, "name": "f", "input": {}}),
    st.sampled_from(IDS).map(lambda i: {"type": "tool_result", "tool_use_id": i, "content": "ok"}),
    st.sampled_from([TEXT, TEXT, {"type": "text", "text": ""}, {"type": 3}, "not a block"]),
    st.sampled_from([sign_thinking("Hmm.", 0), "forged"]).map(
        lambda s: {"type": "thinking", "thinking": "Hmm.", "signature": s}
    ),
)
MESSAGES = st.builds(
    lambda role, content: {"role": role, "content": content},
    st.sampled_from(["user", "assistant"] * 3 + ["system", "robot"]),
    st.one_of(st.lists(BLOCKS, min_size=1, max_size=2), st.sampled_from(["Hello.", ""])),
)


def _full_check_passes(messages: list) -> bool:
    plain = validate._plainly_valid
    validate._plainly_valid = lambda *args: False  # the checks that name each error, on their own
    try:
        validate._check_messages(messages, 0)
        return True
    except validate.InvalidRequest:
        return False
    finally:
        validate._plainly_valid = plain


def _loop(rounds: list[list[str]]) -> list:
    """A tool loop: the question, then for each round an assistant message calling these ids and their results."""
    messages: list = [{"role": "user", "content": "Weather?"}]
    for ids in rounds:
        calls = [{"type": "tool_use", "id": i, "name": "f", "input": {}} for i in ids]
        messages.append({"role": "assistant", "content": [{"type": "text", "text": "Checking."}, *calls]})
        if ids:
            results = [{"type": "tool_result", "tool_use_id": i, "content": "ok"} for i in ids]
            messages.append({"role": "user", "content": results})
    return messages


EDITS = st.tuples(st.sampled_from(["drop", "copy", "insert", "replace", "flip"]), st.integers(0, 7), MESSAGES)


def _edit(messages: list, how: str, at: int, message: dict) -> None:
    at = min(at, len(messages) - 1)
    if how == "drop" and len(messages) > 1:
        del messages[at]
    elif how in ("copy", "insert"):
        messages.insert(at, dict(messages[at]) if how == "copy" else message)
    elif how == "replace":
        messages[at] = message
    elif how == "flip":
        messages[at] = {**messages[at], "role": "user" if messages[at]["role"] == "assistant" else "assistant"}


@hsettings(max_examples=500, deadline=None)
@given(
    st.lists(st.lists(st.sampled_from(IDS), min_size=1, max_size=2, unique=True), max_size=3),
    st.lists(EDITS, min_size=1, max_size=2),
)
def test_the_one_pass_check_accepts_nothing_the_full_checks_refuse(rounds, edits):
    messages = _loop(rounds)  # a loop (ids may repeat across rounds) with a message or two dropped, copied, changed
    for how, at, message in edits:
        _edit(messages, how, at, message)
    if validate._plainly_valid(messages, 0, ""):
        assert _full_check_passes(messages)


def test_the_one_pass_check_accepts_a_tool_loop_with_thinking():
    call = {"type": "tool_use", "id": "toolu_a", "name": "f", "input": {}}
    thought = {"type": "thinking", "thinking": "Hmm.", "signature": sign_thinking("Hmm.", 0)}
    messages = [
        {"role": "user", "content": "Weather?"},
        {"role": "assistant", "content": [thought, {"type": "text", "text": "Checking."}, call]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_a", "content": "4°C"}]},
        {"role": "assistant", "content": "Four degrees."},
    ]
    assert validate._plainly_valid(messages, 0, "") and _full_check_passes(messages)


def _call(*ids: str) -> dict:
    return {
        "role": "assistant",
        "content": [TEXT, *({"type": "tool_use", "id": i, "name": "f", "input": {}} for i in ids)],
    }


def _results(*ids: str, lead: list | None = None) -> dict:
    return {"role": "user", "content": [*(lead or []), *({"type": "tool_result", "tool_use_id": i} for i in ids)]}


ASK = {"role": "user", "content": "Weather?"}
BROKEN = {
    "a call left unanswered": [ASK, _call("toolu_a", "toolu_b"), _results("toolu_a")],
    "text before the results": [ASK, _call("toolu_a"), _results("toolu_a", lead=[TEXT])],
    "an empty text block": [ASK, {"role": "assistant", "content": [{"type": "text", "text": ""}]}, ASK],
    "a result in the assistant's reply": [ASK, {"role": "assistant", "content": [{"type": "tool_result"}]}],
    "a result nobody asked for": [ASK, _call("toolu_a"), _results("toolu_b")],
    "an id used twice": [ASK, _call("toolu_a"), _results("toolu_a"), _call("toolu_a"), _results("toolu_a")],
    "an id off the pattern": [ASK, _call("bad id"), _results("bad id")],
    "the assistant first": [_call("toolu_a"), _results("toolu_a")],
    "the assistant twice after a call": [ASK, _call("toolu_a"), {"role": "assistant", "content": "Done."}],
    "a forged thinking block": [ASK, {"role": "assistant", "content": [{"type": "thinking", "thinking": "Hm."}]}],
    "a block without a type": [ASK, {"role": "assistant", "content": [{"text": "Hi."}]}],
}


@pytest.mark.parametrize("broken", BROKEN.values(), ids=list(BROKEN))
def test_each_broken_rule_leaves_the_one_pass_check_to_the_full_checks(broken):
    assert not validate._plainly_valid(broken, 0, "") and not _full_check_passes(broken)


@hsettings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(b"ab'\"\\ \n\t\x7f~\x00\xc3\xa9{}"), max_size=12).map(bytes))
def test_a_body_is_hashed_as_its_repr(raw):
    assert _str(raw) == str(raw)


def test_a_json_body_is_hashed_as_its_repr():
    raw = b'{"content": "It\'s 4\\u00b0C \\\\ wet", "x": []}'
    assert _str(raw) == str(raw) and _str(7) == "7"


REMINDER = "<system-reminder>Be brief.</system-reminder>"
USER_CONTENT = st.one_of(
    st.sampled_from(["Hi.", "  ", "", REMINDER, f"Hi. {REMINDER}", None]),
    st.lists(st.sampled_from([TEXT, {"type": "text", "text": REMINDER}, {"type": "image"}, "x"]), max_size=2),
)
TURNS = st.lists(
    st.one_of(
        st.builds(lambda c: {"role": "user", "content": c}, USER_CONTENT),
        st.just({"role": "assistant", "content": "Ok."}),
        st.just({"role": "system", "content": "Be brief."}),
        st.just("not a message"),
    ),
    max_size=4,
)


@hsettings(max_examples=300, deadline=None)
@given(TURNS)
def test_the_brain_reads_a_plain_history_as_sent(messages):
    body = {"model": "m", "messages": messages}
    if request._as_is(messages):
        as_is = request._as_is
        request._as_is = lambda messages: False  # the full reading, on its own
        try:
            assert request.for_brain(body) is body
        finally:
            request._as_is = as_is
