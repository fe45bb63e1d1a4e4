"""A listing made for an earlier failed read is found in one pass over the history, however long it is."""

from __future__ import annotations

from agent_core.sim import relist
from agent_core.sim.text.results import Attempt


def _read(path: str, status: str = "error", output: str = "") -> Attempt:
    return Attempt("get_file_contents", {"owner": "o", "path": path}, output or f"404 Not Found: {path}", status)


def test_the_listing_after_a_failed_read_is_marked() -> None:
    failed = _read("docs/DEPLOY.md")
    listing = _read("docs", "ok", '[{"name": "deploy.md"}]')
    other = _read("src", "ok", '[{"name": "main.py"}]')
    assert relist.missing(failed) == ("path", "docs/DEPLOY.md")
    assert relist.listings([other, failed, listing, other]) == [False, False, True, False]
    assert relist.listings([listing, failed]) == [False, False]  # a listing before the failure is not for it


def test_a_result_told_by_its_shape_is_read_once() -> None:
    from agent_core.sim import told

    told._gist.cache_clear()
    out = " M README.md\n?? notes/\n"
    first = told._gist(out, "What changed?", "en", "")
    assert told._gist(out, "What changed?", "en", "") == first  # the same reading, from the cache
    assert isinstance(first, tuple) and isinstance(first[0], bool)  # immutable: no caller can change the next one's


def test_the_dictated_part_is_found_as_before() -> None:
    from agent_core.sim.text import values

    clause = "Save a note that says: Meeting moved to Friday"
    assert values.request_part(clause) == values.request_part(clause) == "Save a note "
    assert values.body(clause) == "Meeting moved to Friday"
    assert values.continues_message("send it saying that I'll be late")
    assert not values.continues_message("What's the weather in Oslo?")


def test_keyword_hits_are_a_fresh_list_each_time() -> None:
    from agent_core.sim.text import language as lx

    tokens = lx.words("What's the weather in Oslo?")
    first = lx.hits(tokens, ["weather", "forecast"])
    first.append("changed by a caller")
    assert lx.hits(tokens, ["weather", "forecast"]) == ["weather"]  # the cached reading is not the caller's list
    assert lx.hits(tuple(tokens), ("weather",)) == ["weather"]
