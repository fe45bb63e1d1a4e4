"""How the simulated model reads a request: the history, what the question needs, which tool and which arguments."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from agent_core.model import SimSettings
from agent_core.sim.text import arithmetic, backrefs, gazetteer, referents, story
from agent_core.sim.text import language as lx
from agent_core.sim.text.clauses import TAIL_CLAUSES, _clauses
from agent_core.sim.text.clauses import intent_hits as intent_hits  # read by choice, spread and state from here
from agent_core.sim.text.results import SORTED_JSON, Attempt, Injection, attempts_in, noted_calls, text_of

THRESHOLD = 3  # a tool is used from this score on (see BEHAVIOUR.md, "Choosing a tool")
# Bounds on the work one reply does, whatever the input (BEHAVIOUR.md, "Huge inputs").
MAX_NEEDS = 20
TAIL_NEEDS = 5  # of MAX_NEEDS, kept for the end of a long question (see text/clauses.py)
MAX_QUERY_WORDS = 12
SHORT_FOLLOW_UP = 4  # words: a longer message has words enough to tell its language
EARLIER_MESSAGES = 12  # of a long conversation, the latest messages are read for a follow-up's values
LANG_NAMES = {"en": "English", "ru": "Russian", "pl": "Polish"}
_QUOTED = re.compile(r'"[^"]*"|“[^”]*”|„[^”]*”|«[^»]*»|`[^`]*`')


@dataclass
class Need:
    """One thing the question asks for, and how the brain serves it."""

    intent: str
    clause: str
    value: str | None = None
    derived: tuple[int, int] | None = None  # indexes of the two weather needs a difference is computed from
    tool: dict[str, Any] | None = None
    score: int = 0
    args: dict[str, Any] = field(default_factory=dict)
    missing: list[str] = field(default_factory=list)
    attempts: list[Attempt] = field(default_factory=list)
    result: Attempt | None = None
    state: str = ""  # done, call, ask, wait, gave_up, no_tool, skip, twin
    call: dict[str, Any] | None = None
    say_before: str = ""
    twin: Need | None = None  # an earlier need that makes the very same call; this one follows it
    main_param: str = ""  # the tool's parameter that carries the need's value (a city, a path), if it has one
    feeds: Need | None = None  # the need whose missing argument this call is made to find (customer -> order id)
    after: Need | None = None  # the need whose result gave this call its argument (a follow-up call)
    waits_for: Need | None = None  # '..., then open a pull request from it': the need whose call comes first
    context: str = ""  # the system prompt's sentences that name the chosen tool for this need
    final: str = ""  # the value of an expression worked out with operation tools (sim/sums.py)
    # One of several values a clause gives ("в Денвере и в Майами"): its arguments are looked for in it first.
    focus: str = ""
    # 'then close it': the clause acts on a thing named before, written into it; its optional values are its own
    pointed: bool = False

    @property
    def tool_def(self) -> dict[str, Any]:
        """The chosen tool's definition, where the caller has already seen that a tool was chosen."""
        assert self.tool is not None, "no tool was chosen for this need"
        return self.tool

    @property
    def outcome(self) -> Attempt:
        """The call that answered this need, where the caller has already seen that one did."""
        assert self.result is not None, "no call has answered this need"
        return self.result


@dataclass
class View:
    """The request as the model reads it."""

    system: str
    tools: list[dict[str, Any]]
    server_tools: list[dict[str, Any]]
    choice: dict[str, Any]
    messages: list[dict[str, Any]]
    question: str
    lang: str
    persona: str
    episode: list[Attempt]
    history: dict[str, Attempt]
    continuing: bool
    q_index: int = 0
    notes: list[str] = field(default_factory=list)
    earlier: tuple[str, ...] = ()  # texts of the conversation before the question, the latest first
    said_before: tuple[str, ...] = ()  # of those, what the user wrote (the model's own answers are no instruction)
    fed: list[Attempt] = field(default_factory=list)  # results of the calls made to find the current need's input
    reply: str = ""  # a short answer to the model's own question, read with the request it answers (sim/state.py)
    asked: str = ""  # the question the model asked that the reply answers
    dictated: str = ""  # the reply is the one text asked for ("Comment: fix planned for 2.5"): that text alone
    note: str = ""  # a simulator note for the UI (knowledge.NOTE when it had to say it knows nothing)
    injection: Injection | None = None  # instructions found in a tool result
    tool_keys: list[str] = field(default_factory=list)  # each tool as canonical JSON, the key of the score caches
    bar: int = THRESHOLD  # the score a tool needs to be used (lower when a forced reply must act: sim/output.py)

    @property
    def choice_type(self) -> str:
        kind: str = self.choice.get("type", "auto")
        return kind


# ---- reading the request ---------------------------------------------------------------------------


def read(
    body: dict[str, Any],
    settings: SimSettings,
    tool_keys: tuple[str, ...] | None = None,
    input_keys: dict[int, str] | None = None,
) -> View:
    """What a model sees: system prompt, tools, tool_choice and the messages, split into question and episode
    (tool_keys: each tool's _tool_key, in the body's order; input_keys: id of a tool_use input -> its sorted JSON;
    both when the server has made them already)."""
    messages = body.get("messages") or []
    q_index = _question_index(messages)
    question, noted = noted_calls(text_of(messages[q_index].get("content")) if messages else "")
    question = lx.attend(question)
    system = body.get("system") or ""
    tools = body.get("tools") or []
    custom = [t for t in tools if t.get("type") in (None, "custom")]
    if tool_keys is None or len(tool_keys) != len(tools):
        keys = [_tool_key(t) for t in custom]
    else:
        keys = [k for t, k in zip(tools, tool_keys, strict=True) if t.get("type") in (None, "custom")]
    history = {a.key: a for a in attempts_in(messages[:q_index], input_keys) if a.status == "ok"}
    return View(
        system=lx.attend(system if isinstance(system, str) else text_of(system)),
        tools=custom,
        tool_keys=[_shared(k) for k in keys],
        server_tools=[t for t in tools if t.get("type") not in (None, "custom")],
        choice=body.get("tool_choice") or {"type": "auto"},
        messages=messages,
        question=question,
        lang=_language(question, messages[:q_index]),
        persona=settings.persona,
        episode=noted + attempts_in(messages[q_index + 1 :], input_keys),
        history=history,
        continuing=bool(messages) and messages[-1].get("role") == "assistant",
        q_index=q_index,
        earlier=_earlier(messages[:q_index]),
        said_before=_earlier([m for m in messages[:q_index] if m.get("role") == "user" and not _results(m)]),
    )


_SIGNS = re.compile(r"[а-яёąćęłńśźż]", re.I)


def _language(question: str, before: list[dict[str, Any]]) -> str:
    """The question's language; a follow-up with no sign of one ('Zamknij je.') keeps the user's earlier turn's."""
    lang, tokens = lx.detect_language(question), lx.words(question)
    if lang != "en" or not before or len(tokens) > SHORT_FOLLOW_UP or _SIGNS.search(question):
        return lang
    if lx.hits(tokens, _markers()):
        return lang
    said = (text_of(m.get("content")).strip() for m in reversed(before) if m.get("role") == "user" and not _results(m))
    earlier = next((t for t in said if t), "")
    return lx.detect_language(earlier) if earlier else lang


@cache
def _markers() -> tuple[str, ...]:
    return (*lx.lexicon()["polish_markers"], *lx.lexicon()["english_markers"])


def _earlier(messages: list[dict[str, Any]]) -> tuple[str, ...]:
    """The texts of the conversation before the question, the latest first (a follow-up's values are there)."""
    out = []
    for message in reversed(messages[-EARLIER_MESSAGES:]):
        text = text_of(message.get("content")).strip()
        if text:
            out.append(lx.attend(text))
    return tuple(out)


def _turns(view: View) -> tuple[str, ...]:
    """The user's earlier turns, the latest first, then the model's latest answer: what a follow-up points at."""
    said: dict[str, list[str]] = {"user": [], "assistant": []}
    for message in reversed(view.messages[: view.q_index]):
        if _results(message):
            continue  # results are read by the calls that need them, not as what the user named
        text = text_of(message.get("content")).strip()
        if text and message.get("role") in said:
            said[message["role"]].append(lx.attend(text))
    users, model = said["user"][:2], said["assistant"][:1]
    # "Yes, please cancel it" after "Shall I cancel order 47652?": 'it' is what the model's own question named
    return (*model, *users) if model and "?" in model[0] else (*users, *model)


def _results(message: dict[str, Any]) -> bool:
    content = message.get("content")
    return isinstance(content, list) and any(isinstance(b, dict) and b.get("type") == "tool_result" for b in content)


def _question_index(messages: list[dict[str, Any]]) -> int:
    """The last user message with text that is not tool results: the question being answered (0 if none)."""
    for i in range(len(messages) - 1, -1, -1):
        message = messages[i]
        if message.get("role") != "user":
            continue
        content = message.get("content")
        if isinstance(content, list) and any(isinstance(b, dict) and b.get("type") == "tool_result" for b in content):
            # Most user turns of a long run are tool results; text after them is the user's next turn (a framework
            # that answers its output tool's call and the user's next message together).
            last = content[-1] if content else None
            if not (isinstance(last, dict) and last.get("type") == "text" and str(last.get("text", "")).strip()):
                continue
        if text_of(content).strip():
            return i
    return 0


# ---- understanding the question ---------------------------------------------------------------------


def _values(intent: str, clause: str) -> list[str | None]:
    found: list[str | None] = []
    if intent == "weather":
        found += gazetteer.places(clause)
        return found or [None]
    if intent in ("file", "delete"):
        found += lx.extract_paths(clause)
        return found or [None]
    if intent == "arithmetic":
        return [arithmetic.extract_expression(clause)]
    if intent == "stock":
        return [lx.extract_ticker(clause)]
    if intent in ("memory", "search"):
        return [_query(clause, intent)]
    return [None]


def _segments(clause: str, found: list[str | None]) -> dict[str, str]:
    """Each value's own part of a clause that gives several: "alerts in California or in Washington state" ->
    'California or in ', 'Washington state'; the words after a value belong to it (a state, not the city)."""
    starts = {name: start for start, name in reversed(gazetteer.mentions(clause))}
    folded = lx.fold(clause)
    at = {v: starts.get(v, folded.find(lx.fold(v))) for v in found if v}
    order = sorted((s, v) for v, s in at.items() if s >= 0)
    ends = [s for s, _ in order[1:]] + [len(clause)]
    return {v: clause[s:e].strip() or v for (s, v), e in zip(order, ends, strict=True)} | {
        v: v for v, s in at.items() if s < 0
    }


def _query(clause: str, intent: str) -> str | None:
    tokens = lx.words(clause)
    for entry in lx.lexicon()["memory_queries"] if intent == "memory" else []:
        if lx.hits(tokens, entry["match"]):
            query: str = entry["query"]
            return query
    drop = lx.query_drop(tokens)
    kept = [w for w in lx.content_words(clause) if lx.fold(w) not in drop]
    return " ".join(kept[:MAX_QUERY_WORDS]) or None


def _is_chat(clause: str) -> bool:
    """A greeting, thanks or 'how are you': short, and not a word inside a name ('octocat/hello-world')."""
    if len(lx.content_words(clause)) > 4:
        return False
    plain = re.sub(r"[\w.-]+/[\w.-]+|\S*\w-\w\S*", " ", clause)
    tokens = lx.words(plain)
    chat = [items for items in lx.lexicon()["chat"].values() if lx.hits(tokens, items)]
    if not chat:
        return False
    said = {lx.fold(w) for items in chat for phrase in items for w in phrase.split()}
    rest = [w for w in lx.content_words(plain) if not any(lx.fold(w).startswith(s) for s in said)]
    return len(rest) < 2  # 'Hi! Which orders do I have with you?' greets and asks


def _earlier_intent(view: View) -> str | None:
    """What the previous question was about, so "and in Paris?" can follow "weather in Oslo?"."""
    earlier = [
        m for m in view.messages[: view.q_index] if m.get("role") == "user" and text_of(m.get("content")).strip()
    ]
    found = intent_hits(lx.attend(text_of(earlier[-1].get("content")))) if earlier else {}
    order = list(lx.lexicon()["intents"])
    return max(found, key=lambda k: (found[k], -order.index(k))) if found else None


def understand(view: View) -> list[Need]:
    """The question as a list of needs: one per clause and value, plus comparisons and chains."""
    worded = story.expression(view.question)  # a word problem is one sum, whatever its sentences say
    needs: list[Need] = [Need("arithmetic", view.question, worded)] if worded else []
    previous = _earlier_intent(view)
    said = () if worded else _clauses(view.question)
    clauses = referents.resolve(said, _turns(view), view.lang) if said else ()
    pointed = {c for c in clauses if c not in said}  # 'commit it' -> 'commit README.md': a goal of its own
    tail_from = len(clauses) - TAIL_CLAUSES
    has_place = None
    reply = set(_clauses(view.reply)) if view.reply else set()
    for index, clause in enumerate(clauses):
        room = MAX_NEEDS - (0 if index >= tail_from else TAIL_NEEDS) - len(needs)
        if clause in reply and needs:
            continue  # the user's answer to the model's question gives values to the request, no task of its own
        intent = _clause_intent(view, clause, previous) if room > 0 else None
        if intent is None:
            continue
        found = _values(intent, clause)[:room]
        if intent == "arithmetic" and found == [None] and needs and needs[-1].intent == "arithmetic":
            found = [arithmetic.on_result(clause, needs[-1].value) or None]  # '..., then divide the result by 4'
            if found[0]:
                needs.pop()
        # places only: two paths of one clause are usually one call's two roles (move_file's source and destination)
        focus = _segments(clause, found) if len(found) > 1 and intent == "weather" else {}
        for value in found:
            if clause in pointed or not any(n.intent == intent and n.value == value for n in needs):
                needs.append(
                    Need(intent, clause, value, focus=focus.get(value, "") if value else "", pointed=clause in pointed)
                )
        if intent == "weather" and "memory" in intent_hits(clause):
            has_place = (
                bool(gazetteer.places(view.question) or gazetteer.places(view.system))
                if has_place is None
                else has_place
            )
            memory = _query(clause, "memory") or "home city"
            if not has_place and not any(n.intent == "memory" and n.value == memory for n in needs):
                needs.insert(len(needs) - 1, Need("memory", clause, memory))
        previous = intent
    valued = {n.intent for n in needs if n.value}
    # "Oblicz, ile to jest 9^9^9": a clause that only names what another clause asks with a value adds nothing.
    needs = [n for n in needs if n.value or n.intent not in valued]
    needs = [
        n
        for i, n in enumerate(needs)
        if not backrefs.held_by_next(n, needs[i + 1 : i + 2], "search" in intent_hits(n.clause))
    ]
    _add_comparison(view, needs)
    view.notes.append(
        f"The user writes in {LANG_NAMES[view.lang]}; needs: "
        + (", ".join(f"{n.intent}({n.value or ''})" for n in needs) or "none")
        + "."
    )
    return needs


def _tool_key(tool: dict[str, Any]) -> str:
    return SORTED_JSON(tool)


@lx.text_cache
def _shared(key: str) -> str:
    # The first-seen copy of an equal tool key (each request has its own): the caches keep one string, hashed once.
    return key


_STATEMENT = re.compile(
    r"^\s*(?:and\s+|и\s+|i\s+|a\s+)?(?:my|mine|мой|моя|моё|мое|мои|mój|moja|moje|i am|i'm|меня зовут|nazywam się)\b",
    re.I,
)
_HANDLE = re.compile(r"(?<![\w@.])[a-z][a-z0-9]*_[a-z0-9_]+(?![\w@])", re.I)


def _yes_no_only(clause: str) -> bool:
    """'Yes', 'Да, отменяйте', 'Tak': an answer to a question, no request of its own."""
    from agent_core.sim.text import entities  # entities reads cities and numbers, which this module also uses

    return entities.yes_no(clause) is not None and len(lx.content_words(clause)) <= 3


def _states_a_value(clause: str) -> bool:
    """'My email is john@gmail.com', 'Мой телефон 555-123-4567': the user gives a value, not a task."""
    if "?" in clause or not _STATEMENT.match(clause):
        return False
    from agent_core.sim.text import entities  # entities reads cities and numbers, which this module also uses

    found = entities.of_kind(clause, "email", "phone", "id", "url", "file", "number", "person", "repo")
    return bool(found) or bool(_HANDLE.search(clause))  # 'мой логин ivan_petrov': a handle is a value too


def _not_known(clause: str) -> bool:
    """'... but I don't know the order ID', 'ale nie pamiętam jego numeru': what the user cannot give, no task."""
    return "?" not in clause and bool(lx.hits(lx.words(clause), lx.lexicon()["not_known"]))


def _clause_intent(view: View, clause: str, previous: str | None) -> str | None:
    if (
        _states_a_value(clause)
        or _not_known(clause)
        or (view.reply and clause.strip() == view.reply.strip() and _yes_no_only(clause))
    ):
        return None
    found = intent_hits(clause)
    order = list(lx.lexicon()["intents"])
    intent = max(found, key=lambda k: (found[k], -order.index(k))) if found else None
    if intent is None and _is_chat(clause):
        return None  # '..., plain words please': how to answer, not another thing to look up
    if intent is None and previous and _values(previous, clause) != [None]:
        intent = previous  # "weather in Oslo and Paris": the second clause inherits
    if intent is None and previous == "arithmetic" and arithmetic.on_result(clause, "0"):
        intent = previous  # '..., then add 8': a command on the result of the sum before
    if intent is None and not _is_chat(clause):
        words = lx.content_words(clause)
        if len(words) >= 2 or (words and ("?" in view.question or len(lx.words(clause)) >= 3)):
            intent = "search"
    return intent


def _add_comparison(view: View, needs: list[Need]) -> None:
    """Differences: of the hours of two places' clocks, of two places' weather, of two periods of one forecast."""
    from agent_core.sim.text import entities  # entities reads cities and numbers, which this module also uses

    words, comparison, zones = lx.words(view.question), lx.lexicon()["comparison"], lx.load("entities")["zones"]
    for index, need in enumerate(needs):  # 'На сколько часов Москва опережает Лондон?': the time in each place
        places = [e for e in entities.of_kind(need.clause, "city") if e.value in zones] if need.intent == "time" else []
        if len(places) >= 2 and places[0].value != places[1].value and lx.hits(words, comparison["time_gap"]):
            cut = places[1].start  # each call from its own place, then the hours between them
            needs[index : index + 1] = [
                Need("time", need.clause, None, focus=f) for f in (need.clause[:cut], need.clause[cut:])
            ]
            needs.append(Need("arithmetic", need.clause, None, derived=(index, index + 1)))
            return
    weather = [i for i, n in enumerate(needs) if n.intent == "weather" and n.value]
    if not weather or not any(lx.hits(words, comparison[k]) for k in ("forward", "reverse", "which")):
        return
    if len(weather) == 1 and lx.hits(words, comparison["forward"] + comparison["reverse"]):
        # 'How much colder than today will it get tonight?': two periods of the one forecast (sim/compare.py)
        needs.append(Need("arithmetic", view.question, None, derived=(weather[0], weather[0])))
    if len(weather) < 2:
        return
    first, second = weather[0], weather[1]
    if lx.hits(words, comparison["reverse"]):
        first, second = second, first
    needs.append(Need("arithmetic", view.question, None, derived=(first, second)))
