"""A parameter that takes one thing by any of its names: 'Sentry issue ID or URL', 'Project ID or URL-encoded path',
`issue_id_or_url`. The user gives whichever they have, a link, an owner/name path or the bare ID, and a careful model
sends that as written: it neither asks for the one form the user did not give nor searches for the thing first."""

from __future__ import annotations

import re

from agent_core.sim import slots
from agent_core.sim.text import entities, values


def value(text: str, pname: str, taken: tuple[str, ...]) -> str | None:
    """The first form the text gives: a link, then an owner/name path that is no branch's name ('from
    feature/login'), then an ID (values.identifier's rules: the one labelled for the thing first)."""
    urls = [str(e.value) for e in entities.of_kind(text, "url") if str(e.value) not in taken]
    if urls:
        return urls[0].rstrip(".,;")
    branches = slots.branch_mentions(text)
    paths = [str(e.value).rstrip(".") for e in entities.of_kind(text, "repo")]
    paths = [p for p in paths if p not in branches and p not in taken]
    if paths:
        return paths[0]
    skip = slots.typed_spans(text) + tuple((m.start(), m.end()) for t in taken for m in re.finditer(re.escape(t), text))
    return values.identifier(text, pname, skip=skip)
