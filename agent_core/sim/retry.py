"""What the model does after a failing call: the corrected input, the same input once, or giving up."""

from __future__ import annotations

from typing import Any

from agent_core.sim import lookup, relist
from agent_core.sim.failure import code, sort_of
from agent_core.sim.files import folder_made
from agent_core.sim.text import language as lx
from agent_core.sim.text.language import say
from agent_core.sim.text.reader import Need, View
from agent_core.sim.text.results import fix, short

MAX_ATTEMPTS = 3


def retry(view: View, need: Need) -> dict[str, Any] | None:
    """The persona's answer to a failing call: the next input, or None to give up."""
    last = need.attempts[-1]
    name = need.tool.get("name") if need.tool else last.name
    if view.persona == "stubborn":
        need.say_before = say("retry_stubborn", view.lang)
        view.notes.append(f"{name} failed again; I keep trying the same call.")
        return last.input
    if folder_made(view, need):  # the folder the failed write lacked is made now: the same call again
        return last.input
    if len(need.attempts) >= MAX_ATTEMPTS:
        view.notes.append(f"{name} failed {len(need.attempts)} times; I give up on it.")
        return None
    if last.status == "unavailable" and sort_of(last.output) == "no_data":
        view.notes.append(f"{name} has no data for what I asked ({short(last.output)!r}); asking again cannot help.")
        return None
    if last.status == "unavailable":
        need.say_before = say("retry_same", view.lang, tool=name, error=code(short(last.output)))
        view.notes.append(f"{name} says the data is unavailable; that may pass, so I try again.")
        return last.input
    fixed = fix(last.input, last.output, [a.input for a in need.attempts])
    if fixed is not None:
        changed = ", ".join(str(v) for k, v in fixed.items() if last.input.get(k) != v)
        need.say_before = say("retry_fix", view.lang, tool=name, error=code(short(last.output)), value=changed)
        view.notes.append(f"{name} failed with {short(last.output)!r}; the message lets me correct it to {changed}.")
        return fixed
    found = lookup.corrected(view, need) or relist.corrected(view, need)
    if found is not None and found[0] not in [a.input for a in need.attempts]:
        need.say_before = say("retry_fix", view.lang, tool=name, error=code(short(last.output)), value=found[2])
        view.notes.append(f"{name} did not know “{found[1]}”; the lookup found “{found[2]}”, so I call it again.")
        return found[0]
    if len(need.attempts) >= 2 and need.attempts[-2].input == last.input:
        view.notes.append(f"{name} failed twice the same way and the error says nothing I can fix; I give up.")
        return None
    if any(w in last.output.lower() for w in lx.lexicon()["final_errors"]):
        view.notes.append(f"{name} says {short(last.output)!r}: the same call cannot pass, so I do not repeat it.")
        return None
    need.say_before = say("retry_same", view.lang, tool=name, error=code(short(last.output)))
    view.notes.append(f"{name} failed with {short(last.output)!r}: nothing to correct, so I repeat the call once.")
    return last.input
