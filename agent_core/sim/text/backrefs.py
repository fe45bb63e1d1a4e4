"""Clauses that ask about the clause before them by a pronoun, and the values and actions a clause has of its own."""

from __future__ import annotations

import re
from typing import Any

from agent_core.sim.text.language import WEB, extract_paths, hits, lexicon, text_cache, word_set, words


def refers_back(clause: str) -> bool:
    """A question about what the clause before is about, by a pronoun and with nothing of its own: '..., and who wrote
    its score?', 'Подходит ли она для фейерверка?' (not '..., но не знаю его номер': what the user cannot give)."""
    unknown = "?" not in clause and hits(words(clause), lexicon()["not_known"])
    # '..., и перейди на неё': a request of its own that acts on what the clause before made
    acts = [w for k, v in lexicon()["actions"].items() if not k.startswith("_") for w in v["words"]]
    said = words(clause)
    asks = not set(said[:2]) & word_set("wh_words") and bool(hits(said, acts))  # not "and what did it change?"
    own = unknown or names_own_value(clause) or asks
    return bool(hits(words(clause), lexicon()["back_pronouns"])) and not own


def acts_on_premise(before: str, clause: str, before_asks: bool) -> bool:
    """'Issue 44 ... is the same as issue 42. Close it as a duplicate.': a statement of numbers with no request
    (before_asks: it has an intent) is what the next clause, pointing back at it by a pronoun, acts on."""
    actions = [w for k, v in lexicon()["actions"].items() if not k.startswith("_") for w in v["words"]]
    # 'Show me issue 43 ..., then close it' asks to see it first: a request, no premise
    opens = hits(words(before)[:1], lexicon()["request_verbs"])
    plain = "?" not in before and not before_asks and not hits(words(before), actions) and not opens
    return plain and bool(re.search(r"\d", before)) and bool(hits(words(clause), lexicon()["back_pronouns"]))


@text_cache
def own_part(clause: str) -> str:
    """A clause without the question it carries about what it finds ('Who made the last commit in /r, and what did it
    change?' -> 'Who made the last commit in /r'): the tool is chosen for the first, which the second then asks of."""
    parts = clause.split(", ")
    while len(parts) > 1 and hits(words(parts[-1]), lexicon()["back_pronouns"]):
        said = words(parts[-1])
        if not set(said[:2]) & word_set("wh_words"):
            break
        parts.pop()
    return ", ".join(parts)


def names_own_value(clause: str) -> bool:
    """A number, a name (a capital past the first word), a file, an address or an action of the clause's own ('...
    its price in Paris', '... and email it to bob@example.com', '... and save it')."""
    if re.search(r"\d|(?<!^)(?<![.?!]\s)\b[A-ZА-ЯЁŁŚŻ][\w-]+", clause.strip()) or extract_paths(clause):
        return True
    actions = [w for k, v in lexicon()["actions"].items() if isinstance(v, dict) for w in v.get("words", [])]
    asks = words(clause)[1:2] if words(clause)[:1] in (["and"], ["и"], ["i"], ["a"]) else words(clause)[:1]
    if asks and asks[0] in word_set("wh_words"):
        actions = []  # '..., and what did it change?' asks what was done, it does nothing itself
    return bool(WEB.search(clause)) or bool(hits(words(clause), actions))


def held_by_next(need: Any, after: list[Any], searched: bool) -> bool:
    """'Show me the deploy instructions from x/y, they should be in docs/DEPLOY.md': a search fallen back to (a
    reader Need) is what the file the next clause points to holds, so reading the file serves it. `searched`: the
    clause itself names a search (its intent hits, which clauses counts with this module's pronouns)."""
    if need.intent != "search" or not after or after[0].intent != "file" or not after[0].value:
        return False
    return not searched and says_where(after[0].clause, str(after[0].value))


def says_where(clause: str, path: str) -> bool:
    """'..., they should be in docs/DEPLOY.md': a clause that only says by a pronoun where the thing the clause before
    asks for is, with no request of its own; what that clause asks is the file's, no search of its own."""
    pronouns = lexicon()["back_pronouns"] + lexicon()["keep_requests"]["subjects"]
    acts = [w for k, v in lexicon()["actions"].items() if not k.startswith("_") for w in v["words"]]
    said = words(clause.replace(path, " "))
    return bool(hits(said, pronouns)) and not hits(said, acts) and "?" not in clause
