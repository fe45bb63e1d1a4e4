"""Replies that are not the plan's: a refusal of a harmful request, and the pause and continuation of a server tool's
turn (BEHAVIOUR.md, "refusal and pause_turn")."""

from __future__ import annotations

from agent_core.sim import reply
from agent_core.sim.draft import Draft
from agent_core.sim.draft import text_block as _text
from agent_core.sim.text import language as lx
from agent_core.sim.text.language import say
from agent_core.sim.text.reader import Need, View
from agent_core.sim.text.results import short

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
