"""A request's mood and a tool's action: what change a clause asks for, and what a tool's definition says it does
(reads, or creates, writes, sends, cancels...). A tool that changes something serves only a clause asking that change."""

from __future__ import annotations

import json
import re
from functools import lru_cache
from typing import Any

from agent_core.sim import kinds
from agent_core.sim.text import language as lx
from agent_core.sim.text import meaning

_QUOTED = re.compile(r'"[^"]*"|“[^”]*”|„[^”]*”|«[^»]*»|`[^`]*`')


ARITHMETIC = frozenset({"add", "subtract", "multiply", "divide", "power", "calculate"})
CHANGE_PENALTY, READ_PENALTY, ACTION_POINTS = -5, -2, 2
UNASKED = -20  # a change nobody asked for: never chosen, whatever words it shares


@lru_cache(maxsize=1024)
def tool_action(key: str) -> str:
    """What a tool does, from its own definition: MCP's readOnlyHint says it reads; else the action of its name's
    first verb (create_branch: create; issue_write: write; get_...: read); else, for a name with no verb, what its
    annotations (destructiveHint, readOnlyHint false) or its description's first verb ('Cancels the order') say."""
    hints = json.loads(key).get("annotations") or {}
    if hints.get("readOnlyHint") is True:
        return "read"
    profile = meaning.profile(key)
    arithmetic = profile.described & ARITHMETIC or (profile.name & ARITHMETIC and len(profile.name_text.split()) == 1)
    if arithmetic and _only_numbers(key):
        return ""  # add(a, b) adds numbers, it creates nothing (add_issue_comment, 'Adds observations' do)
    found = _action_of(profile.name_text.lower().split()) or _action_of(_first_verb(key))
    if found:
        return found
    return "delete" if hints.get("destructiveHint") else "write" if hints.get("readOnlyHint") is False else ""


def _action_of(words: list[str]) -> str:
    actions = {k: v for k, v in lx.lexicon()["actions"].items() if not k.startswith("_")}
    for word in words:
        for action, entry in actions.items():
            if word in entry["names"]:
                return str(action)
    return ""


@lru_cache(maxsize=1024)
def _name_actions(key: str) -> tuple[str, ...]:
    """Every action a changing tool's name says (add_issue_comment: create, send), its first one first."""
    return tuple(
        a for w in meaning.profile(key).name_text.lower().split() if (a := _action_of([w])) not in ("", "read")
    )


def _first_verb(key: str) -> list[str]:
    """A description's first word as a verb stem: 'Cancels' -> cancel, 'Creates' -> create, 'Fetches' -> fetch."""
    first = (lx.words(str(json.loads(key).get("description") or "")) or [""])[0]
    return [first, first[:-1], first[:-2]] if first.endswith("s") else []


def _only_numbers(key: str) -> bool:
    """add(a, b) works out a sum: every input it requires is a number or an expression (add_issue_comment also
    requires an owner and a body, so its 'add' creates something)."""
    schema = json.loads(key).get("input_schema") or {}
    props, required = schema.get("properties") or {}, schema.get("required") or list(schema.get("properties") or {})
    return computes(key) and all(
        isinstance(props.get(n), dict)
        and (
            props[n].get("type") in ("number", "integer") or kinds.kind_of(n, props[n], key) in ("expression", "number")
        )
        for n in required
    )


_WH_WORDS = frozenset(
    "what which who whom whose where when why how что какой какая какие каких какое кто где когда почему зачем как "
    "сколько co jaki jaka jakie jakich który która które kto gdzie kiedy dlaczego jak ile".split()
)


_ORDERED_BY = re.compile(
    r"\b(?:most\s+|least\s+)?(?:recently|last|latest)\s+(?:updated|changed|modified|created)\b"
    r"|\b(?:последн\w*|недавно)\s+(?:обновл|изменен|изменён|создан)\w*|\b(?:ostatnio|najpóźniej)\s+(?:zaktualizowan|zmienion|utworzon)\w*",
    re.I,
)


# a path, a branch or a file name is a name: 'fix/safari-checkout' asks for no checkout
_NAMES = re.compile(r"[\w.~-]*[/_\\][\w./\\~-]*|\b\w+\.\w{1,5}\b")


@lx.text_cache
def asked_actions(clause: str) -> frozenset[str]:
    """The changes a clause asks for ('create a branch', 'запиши', 'usuń'); a question that starts with a question
    word asks for information, not for a change ('What did I change ...?', 'Co napisano w komentarzach?'), and a
    part led by a reading verb names things, not changes ('Pokaż komentarze do zgłoszenia o przycisku checkout')."""
    # what is quoted is text to write, and 'the most recently updated issue' says which, not what to do
    tokens = lx.words(_NAMES.sub(" ", _ORDERED_BY.sub(" ", _QUOTED.sub(" ", clause))))
    if tokens and tokens[0] in _WH_WORDS:
        return frozenset()
    tokens = _past_reading(tokens)
    actions = lx.lexicon()["actions"]
    found = {k for k, v in actions.items() if not k.startswith("_") and v["words"] and lx.hits(tokens, v["words"])}
    by_concept = lx.lexicon()["action_concepts"]  # 'take everything out of the staging area' asks to unstage
    found |= {by_concept[c] for c in meaning.concepts(" ".join(tokens)) if c in by_concept and c[0] != "_"}
    if tokens and tokens[0] in ("email", "mail", "text", "message", "sms", "dm"):
        found.add("send")  # "Email alice@example.org ...": the noun as a verb, at the start
    if not found and meaning.opens_new(clause):
        found.add("create")
    return frozenset(found)


def _past_reading(tokens: list[str]) -> list[str]:
    """The words after the part a reading verb leads ('show ... and then close it' keeps 'close it'); all of them
    when the clause starts otherwise. A polite opener ('please', 'можешь', 'proszę') is skipped first."""
    lead, openers = tokens, lx.lexicon()["polite_openers"]
    while lead and lx.first_hit(lead[:2], openers) == 0:
        lead = lead[2:] if " ".join(lead[:2]) in _two_word(tuple(openers)) else lead[1:]  # all of 'can you'

    if not lead or lx.first_hit(lead[:2], lx.lexicon()["reading_verbs"]) != 0:
        return tokens
    cut = lx.first_hit(lead, lx.lexicon()["conjunctions"])
    return [] if cut is None else lead[cut:]


@lru_cache(maxsize=8)
def _two_word(openers: tuple[str, ...]) -> frozenset[str]:
    return frozenset(" ".join(lx.words(o)) for o in openers if len(lx.words(o)) == 2)


_KIN = {"write": {"update", "create"}, "update": {"write", "move"}, "move": {"update"}, "create": {"write"}}


def _action_points(clause: str, key: str, dedicated: bool = False) -> int:
    """A tool named for a change the clause does not ask for loses; one named for reading loses a little when the
    clause asks for a change, as much as another change when a tool is named for the very change asked (dedicated:
    'commit it' is git_commit's, never git_log's); the tool named for the change asked for gains, a point more when
    the clause says its verb as written ('zrób commit': git_commit, not git_reset)."""
    action, asked = tool_action(key), asked_actions(clause)
    if not action:
        return 0
    if action == "read":
        return (CHANGE_PENALTY if dedicated else READ_PENALTY) if asked else 0
    action = next((a for a in _name_actions(key) if a in asked), action)  # add_issue_comment: 'comment on it'
    if action in asked:
        verbs = set(meaning.profile(key).name_text.lower().split()) & set(lx.words(clause))
        return ACTION_POINTS + bool(verbs & set(lx.lexicon()["actions"][action]["names"]))
    if _KIN.get(action, set()) & asked:
        return ACTION_POINTS
    return CHANGE_PENALTY if asked else UNASKED


@lru_cache(maxsize=1024)
def computes(key: str) -> bool:
    """A tool that can work out a sum takes numbers or an expression (add(a, b), calculate(expression))."""
    props = (json.loads(key).get("input_schema") or {}).get("properties") or {}
    return any(
        isinstance(p, dict)
        and (p.get("type") in ("number", "integer") or kinds.kind_of(name, p, key) in ("expression", "number"))
        for name, p in props.items()
    )


def read_only(tools: list[dict[str, Any]]) -> str | None:
    """The name of a tool whose description says it is read-only, when every tool is (no tool can make a change):
    a change asked is declined, naming it ('query': the MCP Postgres server's read-only SQL)."""
    words = [lx.fold(w) for w in lx.lexicon()["read_only"]["words"]]
    said = [str(t.get("name")) for t in tools if any(w in lx.fold(str(t.get("description") or "")) for w in words)]
    return said[0] if said and len(said) == len(tools) else None
