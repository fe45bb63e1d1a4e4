"""What the system prompt tells the model to do on every turn. pydantic-ai's dice game ('You're a dice game, you
should roll the die and see if the number you get back matches the user's guess ... Use the player's name in the
response'): a user turn that asks nothing of its own ('My guess is 4') is answered by calling each tool without
parameters that a sentence of the system prompt names, in one reply; the answer of a guessing game sets the number
drawn against the user's guess and addresses the player by the name a tool gave."""

from __future__ import annotations

import re
from typing import Any

from agent_core.sim.choice import choose
from agent_core.sim.mood import asked_actions
from agent_core.sim.text import entities, meaning
from agent_core.sim.text import language as lx
from agent_core.sim.text.language import say
from agent_core.sim.text.reader import Need, View, _is_chat

MAX_SENTENCES = 20  # of a long system prompt, its first sentences are read for standing tasks
_CONDITIONAL = re.compile(r"\b(?:if|when|whenever|only|unless|если|когда|только|jeśli|jeżeli|gdy|kiedy|tylko)\b", re.I)
_NUMBER = re.compile(r"\s*-?\d+(?:\.\d+)?\s*")


def described(view: View) -> str | None:
    """'How many sides does the die have?' answered from a tool's own description ('Roll a six-sided die'): six."""
    tokens = lx.words(view.question)
    asks = lx.hits(tokens[:4], lx.lexicon()["how_many"])
    if not asks or not view.tools:
        return None
    after = next((i for i, t in enumerate(tokens) if lx.hits([t], asks)), 0) + len(lx.words(asks[0]))
    noun = next((t for t in tokens[after:] if t not in lx.word_set("stopwords")), None)
    values = lx.number_words()[0]
    for tool in view.tools if noun else []:
        text = str(tool.get("description") or "")
        for m in re.finditer(r"(\d+|[^\W\d_]+)[- ]([^\W\d_]+)", text):
            number = m[1] if m[1].isdigit() else values.get(lx.fold(m[1]))
            if number is not None and lx.stems_match(lx.stem(lx.fold(m[2])), lx.stem(str(noun))):
                return say("know.described", view.lang, n=number, tool=tool.get("name"), text=lx.quote(text, view.lang))
    return None


def needs(view: View, found: list[Need], structured: bool = False) -> list[Need]:
    """The needs of the user's turn, or, when it asks no tool for anything, the standing tasks of the system prompt
    (not under a framework's output tool: there the system prompt describes the structured answer)."""
    if described(view) is not None:
        view.notes.append("A tool's own description answers this, so no call is needed.")
        return []
    courtesy = [] if structured or view.choice_type == "none" else _courtesy(view, found)
    if courtesy:
        return courtesy
    if structured or not view.system or not view.tools or view.choice_type == "none" or _is_chat(view.question):
        return found
    for need in found:
        if _tool_for(view, Need(need.intent, need.clause, need.value)) is not None:
            return found  # the turn asks for something of its own
        if asked_actions(need.clause):
            return found  # a change no tool makes ('change the order's status' with a read-only query): said so
    tasks: list[Need] = []
    for clause in lx.split_clauses(view.system)[:MAX_SENTENCES]:
        if _CONDITIONAL.search(clause) or lx.hits(lx.words(clause), lx.lexicon()["standing_not"]):
            continue  # 'when the user asks ...', 'do not ...': no task for every turn
        trial = Need("search", clause)
        _tool_for(view, trial)
        schema = (trial.tool or {}).get("input_schema") or {}
        if trial.tool is None or schema.get("required") or any(t.tool is trial.tool for t in tasks):
            continue
        tasks.append(trial)
    if tasks:
        view.notes.append(
            "The turn asks no tool for anything; the system prompt's standing task calls "
            + ", ".join(str(t.tool_def.get("name")) for t in tasks)
            + "."
        )
    return [Need("search", t.clause) for t in tasks] or found


_COURTESY = ("greeting", "farewell")


def _courtesy(view: View, found: list[Need]) -> list[Need]:
    """A greeting or a goodbye that asks nothing else ('hi, I'm Ola!', 'Do widzenia!') goes to the tool made for
    that kind of turn (ADK's say_hello / say_goodbye), and only to that one: a goodbye is no greeting."""
    kinds = [k for k in _COURTESY if k in meaning.concepts(view.question)]
    if len(kinds) != 1 or any(n.intent != "search" or kinds[0] not in meaning.concepts(n.clause) for n in found):
        return []  # 'hello, tell me about Paris' asks something besides the greeting
    made = [t for t in view.tools if kinds[0] in meaning.concepts(f"{t.get('name', '')} {t.get('description', '')}")]
    made = [t for t in made if not {*_COURTESY} - {kinds[0]} & meaning.concepts(str(t.get("name", "")))]
    if len(made) != 1:
        return []
    trial = Need("search", view.question)
    return [trial] if _tool_for(view, trial) is made[0] else []


def courteous(view: View, needs: list[Need]) -> str | None:
    """The answer once a greeting or goodbye tool has answered: a greeting in the user's language, by the name the
    call was given ('Cześć, Ola! ...'), since the tool's own English line is no answer in Russian or Polish."""
    done = [n for n in needs if n.state == "done" and n.result is not None and n.tool is not None]
    if len(done) != 1 or len(needs) != 1:
        return None
    said = meaning.concepts(f"{done[0].tool_def.get('name', '')} {done[0].tool_def.get('description', '')}")
    kind = next((k for k in _COURTESY if k in said and k in meaning.concepts(view.question)), None)
    result = done[0].result
    if kind is None or result is None or result.status != "ok":
        return None
    name = next((str(v) for v in result.input.values() if isinstance(v, str) and v.strip()), "")
    return say(f"chat.{kind}_named", view.lang, name=name) if name else say(f"chat.{kind}", view.lang)


def _tool_for(view: View, trial: Need) -> dict[str, Any] | None:
    """The tool a trial need would get, leaving no note in the thinking (only the needs kept are reasoned about)."""
    notes = list(view.notes)
    choose(view, trial)
    view.notes[:] = notes
    return trial.tool


def told(view: View, needs: list[Need]) -> str | None:
    """'Anne, the roll is 4 and your guess was 4: you're a winner!': a number drawn set against the user's guess,
    when the system prompt speaks of a guess; None otherwise."""
    if not lx.hits(lx.words(view.system), lx.lexicon()["guess_words"]):
        return None
    done = [n for n in needs if n.state == "done" and n.result is not None]
    drawn = next((n.outcome.output.strip() for n in done if _NUMBER.fullmatch(n.outcome.output)), None)
    guesses = [e.value for e in entities.of_kind(view.question, "number")]
    if drawn is None or len(guesses) != 1:
        return None
    name = next(
        (
            n.outcome.output.strip()
            for n in done
            if "name" in lx.words(str(n.tool_def.get("name", "")).replace("_", " "))
            and 0 < len(n.outcome.output.strip()) <= 40
            and not _NUMBER.fullmatch(n.outcome.output)
        ),
        "",
    )
    won = float(drawn) == float(guesses[0])
    text = say("game.win" if won else "game.lose", view.lang, result=drawn, guess=guesses[0])
    return f"{name}, {text}" if name else text[:1].upper() + text[1:]
