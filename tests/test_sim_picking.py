"""A follow-up that picks an item the model listed: 'the second one' acts on that item, its words the argument."""

from __future__ import annotations

import copy
import json

from agent_core.model import SimSettings
from agent_core.sim import picking
from agent_core.sim.brain import think
from tests.ticket_tools import CLOSE_TICKET, LIST_TICKETS

LISTED = {
    "tickets": [
        {"number": 7, "title": "Printer queue stuck", "status": "open"},
        {"number": 9, "title": "VPN drops every hour", "status": "open"},
        {"number": 12, "title": "Password reset mail missing", "status": "open"},
    ]
}


def _after_listing(follow_up: str) -> list[dict]:
    """The reply to a follow-up, after a first turn that listed the tickets of acme/helpdesk."""
    messages = [
        {"role": "user", "content": "Which tickets are open in acme/helpdesk?"},
        {
            "role": "assistant",
            "content": [
                {"type": "tool_use", "id": "t1", "name": "list_tickets", "input": {"owner": "acme", "repo": "helpdesk"}}
            ],
        },
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": json.dumps(LISTED)}]},
        {"role": "assistant", "content": "Three are open: 7 Printer queue stuck, 9 VPN drops every hour, 12 ..."},
        {"role": "user", "content": follow_up},
    ]
    body = {
        "model": "claude-sonnet-4-6",
        "max_tokens": 512,
        "tools": [LIST_TICKETS, CLOSE_TICKET],
        "messages": messages,
    }
    draft = think(copy.deepcopy(body), SimSettings())
    return [b for b in draft.content if b["type"] == "tool_use"]


def test_a_place_in_the_list_picks_that_item_in_each_language() -> None:
    for follow_up, number in (
        ("Close the second one.", 9),
        ("закрой последний", 12),
        ("zamknij ten pierwszy", 7),
        ("the one about VPN, close it", 9),
    ):
        calls = _after_listing(follow_up)
        assert [c["name"] for c in calls] == ["close_ticket"], follow_up
        assert calls[0]["input"] == {"owner": "acme", "repo": "helpdesk", "ticket_number": number}, follow_up


def test_items_of_a_folder_listing_are_full_paths_under_the_listed_folder() -> None:
    items = picking.items_of("[DIR] old\n[FILE] a.txt\n[FILE] b.md", {"path": "/srv/box"})
    assert [i.value for i in items] == ["/srv/box/old", "/srv/box/a.txt", "/srv/box/b.md"]


def test_items_of_a_log_are_its_hashes() -> None:
    log = "Commit: 'aaaa1111bbbb'\nAuthor: Ola\nMessage: 'one'\n\nCommit: 'cccc2222dddd'\nAuthor: Ola\nMessage: 'two'"
    assert [i.name for i in picking.items_of(log, {})] == ["commit aaaa1111bbbb", "commit cccc2222dddd"]


def test_a_count_after_last_picks_nothing() -> None:
    items = picking.items_of("[FILE] a.txt\n[FILE] b.md", {"path": "/srv/box"})
    assert picking.pick("show the last 10 lines", items) is None
    assert picking.pick("otwórz drugi", items) == (items[1], "drugi")


def test_the_older_or_newer_one_picks_by_the_dates_the_items_carry() -> None:
    log = (
        "Commit: 'aaaa1111bbbb'\nAuthor: Ola\nDate: 2026-11-30 18:00:00\nMessage: 'two'\n\n"
        "Commit: 'cccc2222dddd'\nAuthor: Ola\nDate: 2026-11-29 09:00:00\nMessage: 'one'"
    )
    items = picking.items_of(log, {})
    for reply, value in (
        ("what did the older one change", "cccc2222dddd"),
        ("а что поменял более ранний?", "cccc2222dddd"),
        ("co zmienił ten nowszy", "aaaa1111bbbb"),
    ):
        found = picking.pick(reply, items)
        assert found is not None and found[0].value == value, reply
