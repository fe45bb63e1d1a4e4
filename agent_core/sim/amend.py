"""A follow-up that corrects or narrows the request before it: 'Sorry, not Sydney - I meant Seoul', «ой, не в Сиднее, а
в Сеуле» swap the value named again for the new one; 'Just Tokyo', «только первый», 'tylko ten drugi' keep one of the
values the request listed (by name or by place); 'I meant todo.md' names another file in the same folder. The
request is read again as amended: what was already answered is reused, only what changed is called."""

from __future__ import annotations

import re

from agent_core.sim import picking
from agent_core.sim.text import entities
from agent_core.sim.text import language as lx

KINDS = ("city", "state", "file", "id", "email", "url", "repo")
_UNITS = re.compile(r"(?i)(?:\b(?:in|по|w|в)\s+)?\b(?:fahrenheit\w*|celsius|фаренгейт\w*|цельси\w*|celsjusz\w*)")


def amended(request: str, reply: str) -> str | None:
    """The request as the reply corrects or narrows it, with the units the reply asks for; None when it does neither."""
    for kind in KINDS:
        old = entities.of_kind(request, kind)
        if not old:
            continue
        changed = _changed(request, reply, kind, old)
        if changed is not None:
            units = _UNITS.search(reply)
            if units:
                changed = f"{_UNITS.sub('', changed)} {units.group()}"
            return changed
    if _narrows(reply) and not any(entities.of_kind(reply, kind) for kind in KINDS):
        # 'Only the bugs.', «только баги»: the same request with one more filter, read as one sentence
        return f"{request.strip().rstrip('.!?')} {reply.strip().rstrip('.!?')}"
    return None


def _changed(request: str, reply: str, kind: str, old: list[entities.Entity]) -> str | None:
    said = entities.of_kind(reply, kind)
    known = {lx.fold(str(e.value)) for e in old}
    again = [e for e in said if lx.fold(str(e.value)) in known]
    new = [e for e in said if lx.fold(str(e.value)) not in known]
    if len(again) == 1 and len(new) == 1:  # 'not Sydney - Seoul': the one named again gives way to the new one
        return _put(request, [e for e in old if lx.fold(str(e.value)) == lx.fold(str(again[0].value))], new[0].text)
    if _narrows(reply) and len(old) >= 2:
        kept = again[0].text if len(again) == 1 and not new else _by_place(reply, old)
        return _put(request, old, kept) if kept else None
    if kind == "file" and len(new) == 1 and len(old) == 1 and "/" not in new[0].text and not again:
        folder = str(old[0].value).rsplit("/", 1)[0] if "/" in str(old[0].value) else ""
        return _put(request, old, f"{folder}/{new[0].text}" if folder else new[0].text)  # 'I meant todo.md'
    return None


def _narrows(reply: str) -> bool:
    return bool(lx.hits(lx.words(reply), [f"={w}" for w in lx.load("picking")["only"]]))


def _by_place(reply: str, old: list[entities.Entity]) -> str | None:
    """«только первый», 'tylko ten drugi': the value at that place of the request's list."""
    places = picking.ordinals()
    index = next((places[w] for w in lx.words(reply) if w in places), None)
    return old[index].text if index is not None and -len(old) <= index < len(old) else None


def _put(request: str, spans: list[entities.Entity], value: str) -> str:
    for span in sorted(spans, key=lambda e: e.start, reverse=True):
        request = request[: span.start] + value + request[span.end :]
    return request
