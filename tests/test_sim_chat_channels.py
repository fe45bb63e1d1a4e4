"""A chat channel named as '#name' is found by listing the channels, then read by the id of the one of that name
(helper h2, issue 23): a Discord-like API here, not the Slack server the held-out cases use."""

from __future__ import annotations

import json

from test_sim_planner import loop, string, tool

from agent_core.sim import slots

LIST_ROOMS = tool(
    "list_guild_channels",
    "Lists the text channels of the guild",
    {"page": string("Page token")},
    [],
)
READ_ROOM = tool(
    "read_channel_messages",
    "Reads the newest messages of a text channel",
    {"channel_id": string("Snowflake of the channel"), "limit": {"type": "integer", "description": "How many"}},
    ["channel_id"],
)
ROOMS = {
    "channels": [{"id": "8001", "name": "general"}, {"id": "8002", "name": "help"}, {"id": "8003", "name": "memes"}]
}


def test_a_hash_named_channel_is_listed_then_read_by_the_id_of_that_name():
    def run(name: str, args: dict) -> tuple[str, bool]:
        if name == "list_guild_channels":
            return json.dumps(ROOMS), False
        if args.get("channel_id") == "8002":
            return json.dumps({"messages": [{"author": "kai", "content": "How do I reset my token?"}]}), False
        return json.dumps({"error": "unknown channel"}), True

    calls, answer, _ = loop("what was posted in #help recently?", [READ_ROOM, LIST_ROOMS], run)
    assert [n for n, _ in calls] == ["list_guild_channels", "read_channel_messages"]
    assert calls[1][1]["channel_id"] == "8002"  # the channel named help, not the first one listed
    assert "reset my token" in answer


def test_a_channel_the_user_gives_by_id_is_read_directly_in_polish():
    def run(name: str, args: dict) -> tuple[str, bool]:
        return json.dumps({"messages": [{"author": "ola", "content": "Hej"}]}), False

    calls, _, _ = loop("pokaż ostatnie wiadomości z kanału 8003", [LIST_ROOMS, READ_ROOM], run)
    assert calls[0][0] == "read_channel_messages" and calls[0][1]["channel_id"] == "8003"


def test_a_tool_named_for_a_thing_no_concept_knows_is_about_it():
    assert slots.about_entity("channel_id", LIST_ROOMS)
    assert slots.about_entity("gizmo_id", tool("list_gizmos", "Lists everything in stock", {}, []))
    assert not slots.about_entity("gizmo_id", tool("list_users", "Lists the users", {}, []))


LIST_MEMBERS = tool("list_members", "Lists the club's members with their ids", {"page": string("Page token")}, [])
MEMBER_PROFILE = tool(
    "get_member_profile", "Gets one member's full profile", {"member_id": string("The member's id")}, ["member_id"]
)


def test_a_profile_of_a_person_named_is_fetched_by_the_id_the_listing_gives_that_name():
    members = {"members": [{"id": "M1", "real_name": "Ola Nowak"}, {"id": "M2", "real_name": "Piotr Zając"}]}

    def run(name: str, args: dict) -> tuple[str, bool]:
        if name == "list_members":
            return json.dumps(members), False
        profile = {"real_name": "Piotr Zając", "title": "Treasurer", "email": "piotr@example.com"}
        return json.dumps({"ok": True, "profile": profile} if args == {"member_id": "M2"} else {"ok": False}), False

    calls, _, _ = loop("open the profile of Piotr Zając, what is his title?", [LIST_MEMBERS, MEMBER_PROFILE], run)
    # the profile tool is the one asked for; the listing only finds the id of the member of that name
    assert calls == [("list_members", {}), ("get_member_profile", {"member_id": "M2"})]
