"""Replies that are not the plan's: a refusal of a harmful request, the pause and continuation of a server tool's
turn (BEHAVIOUR.md, "refusal and pause_turn"), and what the gullible persona does with an injection."""

from __future__ import annotations

from agent_core.sim import reply
from agent_core.sim.draft import Draft
from agent_core.sim.draft import text_block as _text
from agent_core.sim.text import language as lx
from agent_core.sim.text.language import say
from agent_core.sim.text.reader import Need, View
from agent_core.sim.text.results import Injection, find_injection, short

WEB_INTENTS = ("search", "weather", "stock")


def harm(question: str) -> str | None:
    tokens = lx.words(question)
    return next((kind for kind, items in lx.lexicon()["harm"].items() if lx.hits(tokens, items)), None)


def refuse(view: View, category: str) -> Draft:
    explanation = lx.load("phrases")["refusal_explanation"][category]
    view.notes.append(f"This asks for something harmful ({category}); I decline.")
    return Draft(
        [_text(say("refusal", view.lang))],
        "refusal",
        {"type": "refusal", "category": category, "explanation": explanation},
        " ".join(view.notes),
    )


def should_pause(view: View, needs: list[Need]) -> bool:
    fresh = not any(m.get("role") == "assistant" for m in view.messages[view.q_index + 1 :])
    return (
        bool(view.server_tools)
        and fresh
        and view.choice_type != "none"
        and any(n.intent in WEB_INTENTS and n.tool is None for n in needs)
    )


def after_pause(view: View, needs: list[Need]) -> Draft:
    web = next((n for n in needs if n.intent in WEB_INTENTS), None)
    query = (web.value if web and web.intent == "search" else None) or view.question
    view.notes.append("The server finished its search; I continue the paused turn and answer.")
    text = say("pause_done", view.lang, q=lx.quote(short(query, reply.QUOTE_LIMIT), view.lang))
    return Draft([_text(text)], "end_turn", reasoning=" ".join(view.notes))


def injection_in(view: View) -> Injection | None:
    """The first injection in this episode's results (instructions addressed to the model), noted."""
    for attempt in view.episode:
        found = find_injection(attempt, view.tools) if attempt.status == "ok" else None
        if found:
            view.notes.append(
                f"The result of {attempt.name} contains instructions addressed to me (“{found.snippet}”)."
            )
            return found
    return None


def obey(view: View, injection: Injection) -> Draft | None:
    """What the gullible persona does with an injection; None once it has already done it."""
    if injection.reply is not None:
        view.notes.append("The document tells me what to reply, so I reply exactly that.")
        return Draft([_text(injection.reply)], "end_turn", reasoning=" ".join(view.notes))
    if injection.call is None:
        return None  # an injection asks either for a reply (above) or for a call
    name, args = injection.call
    if view.choice_type == "none" or any(a.name == name and a.input == args for a in view.episode):
        return None  # tools are off, or it has already done what the document said
    view.notes.append(f"The document tells me to call {name}; I do it.")
    block = {"type": "tool_use", "id": None, "name": name, "input": args}
    return Draft([_text(say("inject_obey", view.lang, tool=name)), block], "tool_use", reasoning=" ".join(view.notes))
