"""What the system prompt forbids: a request for a change its rules rule out ("DO NOT make any DML statements
(INSERT, UPDATE, DELETE, DROP etc.) to the database") is declined in the user's language, naming the rule, with no
call made (BEHAVIOUR.md, "Replies without tools")."""

from __future__ import annotations

import re
from functools import lru_cache

from agent_core.sim.draft import Draft
from agent_core.sim.draft import text_block as _text
from agent_core.sim.mood import asked_actions
from agent_core.sim.text import language as lx
from agent_core.sim.text.language import say
from agent_core.sim.text.reader import View

_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
RULE_QUOTE = 100  # a rule this long is quoted whole; a longer one up to a word near here


@lru_cache(maxsize=256)
def _rules(system: str) -> tuple[tuple[frozenset[str], str], ...]:
    """(the changes it forbids, the sentence) for each sentence of the system prompt that forbids a change."""
    table = lx.lexicon()["forbidding"]
    actions = lx.lexicon()["actions"]
    skip = set(table["skip"])
    found = []
    for sentence in _SENTENCE.split(system):
        tokens = lx.words(sentence)
        cut = lx.first_hit(tokens, table["markers"])
        if cut is None:
            continue
        ruled = set(tokens[cut:]) - skip
        changes = frozenset(a for a in table["actions"] if ruled & set(actions[a]["names"]))
        if changes:
            found.append((changes, sentence.strip()))
    return tuple(found)


def forbidding(view: View) -> str | None:
    """The system prompt's sentence that forbids the change the question asks for, if one does."""
    if not view.system or not view.question:
        return None
    asked = asked_actions(view.question)
    return next((sentence for changes, sentence in _rules(view.system) if changes & asked), None)


def decline(view: View, rule: str) -> Draft:
    """'I can't do that: my instructions rule it out (“DO NOT make any DML statements …”).'"""
    shown = rule.rstrip(".")
    if len(shown) > RULE_QUOTE:
        shown = shown[:RULE_QUOTE].rsplit(" ", 1)[0].rstrip(" ,;(") + "…"
    view.notes.append(f"The system prompt forbids this (“{rule}”); I decline and say why.")
    return Draft(
        [_text(say("forbidden", view.lang, rule=lx.quote(shown, view.lang)))],
        "end_turn",
        reasoning=" ".join(view.notes),
    )
