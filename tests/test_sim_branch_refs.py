"""A git 'ref' parameter (the branch, tag or commit to start from or read at) takes the branch the user names, and a
new thing's acknowledgement that only sends back the name it was given says that name (helper h6, issue 23)."""

from __future__ import annotations

import json

from test_sim_planner import loop, string, tool

PROJECT = string("The project's ID or owner/name path")
START = tool(
    "start_branch",
    "Starts a new branch in a project",
    {
        "project_id": PROJECT,
        "branch_name": string("Name for the new branch"),
        "ref": string("Branch or tag it starts at"),
    },
    ["project_id", "branch_name"],
)
READ = tool(
    "read_blob",
    "Shows one file of a project",
    {
        "project_id": PROJECT,
        "file_path": string("The file's path"),
        "ref": string("Branch, tag or commit to show it at"),
    },
    ["project_id", "file_path"],
)


def _echo(name: str, args: dict) -> tuple[str, bool]:
    if name == "start_branch":
        return json.dumps(
            {"name": args["branch_name"], "commit": {"id": "0a1b2c3d4e5f", "web_url": "https://x/c/0a1b"}}
        ), False
    return "version: 2", False


def test_the_branch_a_new_one_starts_from_fills_ref_and_the_answer_names_the_new_branch():
    calls, answer, _ = loop("Utwórz gałąź release/2.0 od develop w projekcie nordbyte/site", [READ, START], _echo)
    assert calls == [("start_branch", {"project_id": "nordbyte/site", "branch_name": "release/2.0", "ref": "develop"})]
    assert "release/2.0" in answer and ": ." not in answer  # a record of nested fields still says its own values


def test_a_creation_acknowledged_by_the_name_it_was_given_says_that_name():
    tag = tool(
        "create_tag",
        "Create a tag in a project",
        {"project_id": PROJECT, "tag_name": string("The tag"), "ref": string("Branch or commit the tag starts at")},
        ["project_id", "tag_name"],
    )

    def run(name: str, args: dict) -> tuple[str, bool]:
        return json.dumps({"name": args["tag_name"], "commit": {"id": "0a1b2c3d4e5f"}}), False

    calls, answer, _ = loop("Create the tag v2.0 in nordbyte/site from main", [tag], run)
    assert calls == [("create_tag", {"project_id": "nordbyte/site", "tag_name": "v2.0", "ref": "main"})]
    assert "`v2.0`" in answer


def test_the_branch_a_file_is_read_at_fills_ref_only_when_a_branch_is_named():
    calls, _, _ = loop("Show me conf/app.toml on the staging branch of nordbyte/site", [START, READ], _echo)
    assert calls[0][1].get("ref") == "staging"
    calls, _, _ = loop("Show me conf/app.toml in nordbyte/site", [START, READ], _echo)
    assert "ref" not in calls[0][1]
