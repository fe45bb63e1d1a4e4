"""A small support-ticket tracker's tools (our own names, not a public server's) for the sim's follow-up tests."""

from __future__ import annotations

_REPO = {
    "owner": {"type": "string", "description": "Repository owner"},
    "repo": {"type": "string", "description": "Repository name"},
}
_NUMBER = {"ticket_number": {"type": "integer", "description": "The ticket's number"}}


def _tool(name: str, description: str, extra: dict) -> dict:
    props = {**_REPO, **extra}
    return {
        "name": name,
        "description": description,
        "input_schema": {"type": "object", "properties": props, "required": list(props)},
    }


LIST_TICKETS = _tool("list_tickets", "Lists the open support tickets of a repository.", {})
CLOSE_TICKET = _tool("close_ticket", "Closes a support ticket of a repository.", _NUMBER)
COMMENT_TICKET = _tool(
    "add_ticket_comment",
    "Adds a comment to a support ticket of a repository.",
    {**_NUMBER, "body": {"type": "string", "description": "The comment's text"}},
)
