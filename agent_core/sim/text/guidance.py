"""What the system prompt says about the tools: a sentence that names a tool ties it to the words around it.

"The logs are in app.log; use read_file to read them" makes read_file the tool for "any errors in the logs?", even
when read_file's own description says nothing of logs (BEHAVIOUR.md, "The system prompt")."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from agent_core.sim.text import language as lx
from agent_core.sim.text import meaning

POINTS = 3  # the system prompt naming a tool for the question's words is reason enough to use it (= THRESHOLD)
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")


@dataclass(frozen=True)
class Link:
    """Why the system prompt ties a tool to a clause: the sentences that name it and the words they share."""

    window: str
    shared: tuple[str, ...]


@lru_cache(maxsize=256)
def windows(system: str, name: str) -> tuple[str, ...]:
    """The system prompt's sentences that name the tool, each with the sentence before it, which often says what
    the tool is for ("Logs are in app.log. Read them with read_file.")."""
    if not name or name.lower() not in system.lower():
        return ()
    sentences = [s for s in _SENTENCE.split(system) if s.strip()]
    named = re.compile(rf"(?<![\w-]){re.escape(name)}(?![\w-])", re.IGNORECASE)
    return tuple(" ".join(sentences[max(0, i - 1) : i + 1]) for i, s in enumerate(sentences) if named.search(s))


@lx.text_cache
def link(clause: str, system: str, name: str) -> Link | None:
    """The system prompt's tie between a tool and a clause, if a sentence naming the tool shares its meaning."""
    mine = meaning.content_stems(clause)
    for window in windows(system, name):
        text = re.sub(rf"(?<![\w-]){re.escape(name)}(?![\w-])", " ", window, flags=re.IGNORECASE)
        theirs = meaning.content_stems(text)
        shared = sorted(w for w in mine if any(lx.stems_match(w, t) for t in theirs))
        shared += sorted(meaning.concepts(clause) & meaning.concepts(text))
        if shared:
            return Link(window, tuple(dict.fromkeys(shared)))
    return None


CALLED_POINTS = 30  # the user calling a tool by its name outweighs every other reason, as a model obeys 'use X'


@lx.text_cache
def called(clause: str, name: str) -> bool:
    """The user calls the tool by its name: 'вызови annotatedMessage', 'check top_song' (a name written as code:
    with '_', a capital inside or a digit), or a plain-word name with a word that calls a tool ('use add', 'через
    echo', 'the echo tool'), in quotes or backticks, or opening the clause as its verb ('echo back ping')."""
    if len(name) < 3:
        return False
    found = re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", clause, flags=0 if name.islower() else re.I)
    if found is None:
        return False
    if re.search(r"_|\d|[a-z][A-Z]", name):
        return True
    words = lx.lexicon()["tool_call_words"]
    skip = lx.word_set("stopwords") | set(lx.lexicon()["conjunctions"])  # 'and also echo back ping' opens with it
    before = [w for w in lx.words(clause[: found.start()]) if w not in skip]
    after = lx.words(clause[found.end() :])
    quoted = clause[found.start() - 1 : found.start()] in ("`", "'", '"', "«", "“", "„")
    return (
        quoted or not before or bool(lx.hits(before[-2:], words["before"])) or bool(lx.hits(after[:1], words["after"]))
    )
