"""A typed value the question writes (a commit hash, a '#number', a path) credits the tool whose required parameter
it fills: the tool that can take it wins over one that only shares the topic, and a value every tool takes tells
none apart."""

from __future__ import annotations

from test_sim_planner import first_calls, string, tool

NUMBER = {"type": "integer", "description": "Number of the ticket"}
REPO = {"owner": string("Account that owns the project"), "repo": string("Project name")}
TRACKER = [
    tool(
        "list_tickets",
        "Lists the tickets of a project.",
        {**REPO, "state": string("open or closed")},
        ["owner", "repo"],
    ),
    tool("get_ticket", "Gets one ticket of a project.", {**REPO, "ticket_number": NUMBER}),
    tool("list_tags", "Lists the tags of a project.", dict(REPO)),
    tool("get_readme", "Gets the readme of a project.", dict(REPO)),
    tool("find_projects", "Finds projects by name or topic.", {"query": string("Search words")}),
]
VCS = [
    tool("vcs_status", "Shows the working copy's state", {"repo_path": string("Path of the repository")}),
    tool("vcs_history", "Shows the commit history", {"repo_path": string("Path of the repository")}),
    tool("vcs_tags", "Lists the tags", {"repo_path": string("Path of the repository")}),
    tool(
        "vcs_show",
        "Shows one commit's contents",
        {"repo_path": string("Path of the repository"), "revision": string("Commit hash")},
    ),
]


def test_a_hash_number_goes_to_the_tool_whose_required_number_it_fills():
    calls = first_calls("What does #318 in acme/rocket say?", TRACKER)
    assert calls == [("get_ticket", {"owner": "acme", "repo": "rocket", "ticket_number": 318})]


def test_a_hash_number_in_russian_and_polish_too():
    for question in ("покажи тикет #57 в acme/rocket", "pokaż zgłoszenie #57 w acme/rocket"):
        assert first_calls(question, TRACKER) == [
            ("get_ticket", {"owner": "acme", "repo": "rocket", "ticket_number": 57})
        ], question


def test_without_a_number_the_tool_that_needs_one_does_not_win():
    calls = first_calls("Show the open tickets of acme/rocket", TRACKER)
    assert [name for name, _ in calls] == ["list_tickets"]


def test_a_commit_hash_goes_to_the_tool_that_takes_a_revision():
    calls = first_calls("Show commit 9c0ffee1234 in /srv/code/site", VCS)
    assert calls == [("vcs_show", {"repo_path": "/srv/code/site", "revision": "9c0ffee1234"})]


def test_a_path_every_tool_takes_tells_none_apart():
    calls = first_calls("Show the commit history of /srv/code/site", VCS)
    assert calls == [("vcs_history", {"repo_path": "/srv/code/site"})]
