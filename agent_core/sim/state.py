"""Conversation state: a short reply ('yes', 'celsius', 'the second one', „tak”) answers the question the model asked,
so it is read together with the request it belongs to; and a system prompt that asks to confirm an action first
("Before cancelling an order, ... ask them to confirm") makes the model ask before it acts."""

from __future__ import annotations

import re

from agent_core.sim.text import entities, language
from agent_core.sim.text import language as lx
from agent_core.sim.text.reader import View
from agent_core.sim.text.results import text_of

MAX_REPLY_WORDS = 8  # a longer message is a request of its own
_CONFIRM = re.compile(
    r"(?:before|prior to)\s+([\w\s,]{2,80}?),?\s+(?:[^.,]{0,80}?)(?:ask|get)\s+(?:them|the user|the customer|for)?\s*"
    r"(?:to\s+)?confirm|перед\s+тем\s+как\s+([\w\s]{2,40}?)[,.]?\s[^.]{0,80}?подтвер|zanim\s+([\w\s]{2,40}?)[,.]?\s[^.]{0,80}?potwierd",
    re.I,
)


def resolve(view: View) -> None:
    """Read a short reply to the model's question together with the request it answers."""
    if view.q_index < 2 or len(lx.content_words(view.question)) > MAX_REPLY_WORDS:
        return
    if _picks_listed(view) or _amends(view):
        return
    asked = _assistant_text(view)
    if "?" not in asked and not _only_values(view.question):
        return  # "celsius" after an answer still asks the same again, another way
    request = _request_before(view)
    if not request:
        return
    from agent_core.sim.mood import asked_actions

    view.dictated = _dictated(view.question, asked)
    said = set() if view.dictated else asked_actions(view.question)
    if said and not said & asked_actions(request):
        view.reply, view.asked = view.question, asked
        return  # "Yes, please cancel it": a request of its own; the conversation before it gives its values
    # "Zapisz notatkę: ..." / "Nazwij ją spotkanie.txt i zapisz w /a": the same change, with the values it lacked
    view.reply = view.question
    view.asked = asked
    picked = _picked(view.question, asked)
    lang = language.detect_language(f"{request}\n{view.question}")  # "Numer potwierdzenia to ZK4W9T" is Polish there
    view.question = f"{_replaced(request, view.question)}\n{picked or view.question}"
    view.lang = lang
    view.notes.append(f"“{view.reply}” answers my question (“{asked[:80]}”), so I read it with “{request[:80]}”.")


def _picks_listed(view: View) -> bool:
    """'The second one', 'ten o Safari': the reply picks an item a tool listed in the turn before."""
    from agent_core.sim import picking  # picking reads results the way gist tells them

    items = picking.earlier_items(view.messages, view.q_index)
    found = picking.pick(view.question, items) if items else None
    request = _request_before(view) if found else ""
    if found is None or not request:
        return False
    said, view.asked = view.question, _assistant_text(view)
    view.lang = language.detect_language(f"{request}\n{view.question}")
    view.question = picking.retell(request, view.question, *found, pending="?" in view.asked)
    view.reply = view.question  # its values are read from the reply as retold: 'ten pierwszy' is no number ten
    view.notes.append(f"“{said}” picks {found[0].name} of the list before, so I read: “{view.question[:80]}”.")
    return True


def _amends(view: View) -> bool:
    """'Sorry, not Sydney - I meant Seoul', 'только первый', 'I meant todo.md': the request before, read again as the
    reply corrects or narrows it (sim/amend.py); the reply's own values are no further request."""
    from agent_core.sim import amend  # amend reads lists the way picking does, which reads this module's View

    request = _request_before(view)
    fixed = amend.amended(request, view.question) if request else None
    if not fixed:
        return False
    said = view.question
    view.lang = language.detect_language(f"{request}\n{said}")
    view.question = fixed
    view.notes.append(f"“{said}” corrects or narrows what I was asked, so I read: “{fixed[:80]}”.")
    return True


_LABEL = re.compile(r"^\s*([^\W\d_][^\W\d_ ]*(?:\s+[^\W\d_]+){0,2})\s*[:—–]\s*(?=\S)")


def _dictated(reply: str, asked: str) -> str:
    """'Message: Fix login redirect' after 'What should the message say?': the reply names the thing asked for (or a
    part of a message: 'Comment:', 'Текст:') and gives it after a colon, so what follows is the value, not a task
    ('Fix' asks for no edit) and no other argument (the '2.5' of 'Comment: fix planned for 2.5')."""
    label = _LABEL.match(reply)
    if not label:
        return ""
    named = {lx.stem(w) for w in lx.words(asked) if len(w) > 3}
    words = [w for w in lx.words(label.group(1)) if len(w) > 3]
    parts = [lx.fold(p) for p in (*lx.lexicon()["body_words"], *lx.lexicon()["message_part_labels"])]
    if any(lx.stems_match(lx.stem(w), n) for w in words for n in named) or any(
        w.startswith(p) for w in words for p in parts if len(p) > 3
    ):
        return reply[label.end() :].strip()
    return ""


def _only_values(text: str) -> bool:
    from agent_core.sim.text.clauses import intent_hits, only_values  # reader reads clauses the same way

    if only_values(text):
        return True
    if len(lx.content_words(text)) == 1:
        return not entities.yes_no(text) and not intent_hits(text)  # 'а погода там какая?' asks for more
    cities = entities.of_kind(text, "city")  # 'a w nowym jorku?': a city of two words is still one value
    rest = text
    for city in reversed(cities):
        rest = rest[: city.start] + " " + rest[city.end :]
    return bool(cities) and not lx.content_words(rest)


def _replaced(request: str, reply: str) -> str:
    """The request with what the reply changes taken out: 'And in London?' after a question on Tokyo asks about
    London only; 'celsius' after 'in fahrenheit' asks in celsius."""
    new_cities = entities.of_kind(reply, "city")
    if new_cities:
        for old in reversed(entities.of_kind(request, "city")):
            request = request[: old.start] + new_cities[0].text + request[old.end :]
    units = ("fahrenheit", "celsius", "фаренгейт", "цельси", "fahrenheita", "celsjusz")
    if lx.hits(lx.words(reply), list(units)):
        request = re.sub(
            r"(?i)\b(?:in|по|w|в)?\s*(?:fahrenheit|celsius|фаренгейт\w*|цельси\w*|celsjusz\w*)\b", "", request
        )
    return request


def _assistant_text(view: View) -> str:
    message = view.messages[view.q_index - 1]
    return text_of(message.get("content")).strip() if message.get("role") == "assistant" else ""


MAX_CHAIN = 3  # replies read back to the request they all answer


def _request_before(view: View) -> str:
    """The request the reply answers, with the replies already given to it: after "I'd like to change my seat." /
    "My confirmation number is LL0EZ6.", "12C, please." still changes the seat, with that confirmation number."""
    found: list[str] = []
    for message in reversed(view.messages[: view.q_index - 1]):
        if message.get("role") != "user":
            continue
        text = text_of(message.get("content")).strip()
        if not text:
            continue
        found.append(lx.attend(text))
        if len(found) >= MAX_CHAIN or not _gives_values(text):
            break
    return "\n".join(reversed(found))


def _gives_values(text: str) -> bool:
    """A message that only gives values ('My confirmation number is LL0EZ6.', 'Номер брони — QX7P2M'), no task."""
    from agent_core.sim.text.reader import _states_a_value, intent_hits  # reader reads clauses the same way

    words = lx.content_words(text)
    if len(words) > MAX_REPLY_WORDS or "?" in text:
        return False
    return _states_a_value(text) or _only_values(text) or bool(entities.of_kind(text, "id")) and not intent_hits(text)


def _picked(reply: str, asked: str) -> str:
    """'the second one' picks the second of the options the question listed (its lines or IDs)."""
    from agent_core.sim.picking import ordinals  # the same words pick from a list the model wrote

    tokens = lx.words(reply)
    index = next((ordinals()[t] for t in tokens if t in ordinals()), None)
    if index is None:
        return ""
    items = [line.strip(" -•*") for line in asked.splitlines() if re.match(r"\s*(?:[-•*]|\d+[.)])\s+", line)]
    if not items:
        items = [str(e.value) for e in entities.of_kind(asked, "id", "number")]
    if not items or index >= len(items):
        return ""
    return f"{reply} ({items[index]})"


def needs_confirmation(view: View, action: str, clause: str = "") -> bool:
    """The system prompt asks to confirm this action first, and the user has not said yes to it yet. A tool that
    only says it writes (issue_write) does what its clause asks: 'Close issue 44' closes, which is to confirm."""
    if not action or not view.system:
        return False
    from agent_core.sim.mood import asked_actions

    wanted: set[str] = set()
    for match in _CONFIRM.finditer(view.system):
        phrase = next(g for g in match.groups() if g)
        wanted |= asked_actions(phrase)
    if action not in wanted and not (action == "write" and asked_actions(clause) & wanted):
        return False
    return not (view.reply and entities.yes_no(view.reply) is True)
