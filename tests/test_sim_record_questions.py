"""Two questions about the same records in one sentence: each record is read once, with the option its own clause
asks ('who opened': the details), and the other question is told from the fields read ('how many comments')."""

from __future__ import annotations

import copy
import json

from agent_core.model import SimSettings
from agent_core.sim.brain import think

READ = {
    "name": "ticket_read",
    "description": "Gets information about one support ticket of a repository.",
    "input_schema": {
        "type": "object",
        "properties": {
            "method": {
                "type": "string",
                "description": "'get' the details or 'get_replies'",
                "enum": ["get", "get_replies"],
            },
            "owner": {"type": "string", "description": "Repository owner"},
            "repo": {"type": "string", "description": "Repository name"},
            "ticket_number": {"type": "number", "description": "The number of the ticket"},
        },
        "required": ["method", "owner", "repo", "ticket_number"],
    },
}
QUESTIONS = {
    "en": "Who opened tickets 7 and 9 in acme/helpdesk and how many comments do they have?",
    "pl": "Kto założył zgłoszenia 7 i 9 w acme/helpdesk i ile mają komentarzy?",
}
RECORDS = {
    7: {"number": 7, "title": "Printer queue stuck", "user": "marta-k", "comments": 4},
    9: {"number": 9, "title": "VPN drops every hour", "user": "jan-w", "comments": 2},
}


def _reply(messages: list[dict]) -> list[dict]:
    body = {"model": "claude-sonnet-4-6", "max_tokens": 512, "tools": [READ], "messages": messages}
    return think(copy.deepcopy(body), SimSettings()).content


def test_each_record_is_read_for_its_details_and_the_count_is_told_from_them() -> None:
    for lang, question in QUESTIONS.items():
        messages: list[dict] = [{"role": "user", "content": question}]
        uses = [{**b, "id": f"t{i}"} for i, b in enumerate(_reply(messages)) if b["type"] == "tool_use"]
        assert [(u["input"]["method"], u["input"]["ticket_number"]) for u in uses] == [("get", 7), ("get", 9)], lang
        messages.append({"role": "assistant", "content": uses})
        results = [
            {"type": "tool_result", "tool_use_id": u["id"], "content": json.dumps(RECORDS[u["input"]["ticket_number"]])}
            for u in uses
        ]
        messages.append({"role": "user", "content": results})
        text = " ".join(b["text"] for b in _reply(messages) if b["type"] == "text")
        for told in ("marta-k", "jan-w", "4", "2"):
            assert told in text, (lang, text)
        assert "offline" not in text.lower(), (lang, text)  # no 'I have no tool' for the count
