"""What a clause's pronoun or dropped object points back at: the thing an earlier clause or an earlier turn named."""

from __future__ import annotations

import re
from functools import cache

from agent_core.sim.text import entities, gazetteer
from agent_core.sim.text import language as lx
from agent_core.sim.text.clauses import _QUOTES

# The kinds of value a thing is named by ('issue 43 in octo-org/webshop', '/home/ann/notes.txt').
KINDS = ("number", "id", "repo", "file", "directory", "url", "email")
NOUN_WORDS = 2  # words before the first value that name the thing ('задача номер 8', 'issue 43')
_LABELLED_QUOTE = re.compile(rf"(?:[^\W\d_]+\s+)?(?:{_QUOTES.pattern})")
_WORD = re.compile(r"[^\W\d_][\w-]*")


def resolve(clauses: tuple[str, ...], turns: tuple[str, ...], lang: str) -> tuple[str, ...]:
    """Each clause that acts on something named before ('..., then close it', 'Закрой её', 'i następnie zamknij')
    with the thing written where it points: the latest earlier clause of the question that names one, else the
    latest earlier user turn. The tool is then chosen, and filled, for the thing itself."""
    out: list[str] = []
    for clause in clauses:
        out.append(_resolved(clause, out[::-1], turns, lang))
    return tuple(out)


def _resolved(clause: str, here: list[str], turns: tuple[str, ...], lang: str) -> str:
    pointer = _pointer(clause, lang)
    acts = _acts(clause) or bool(lx.hits(lx.words(clause)[:3], _words_of("request_verbs")))
    if pointer is None and not (acts and _bare(clause)) or gazetteer.places(clause):
        return clause
    if pointer is None and here and _tells(clause):
        return clause  # '... and tell me the uptime': a fact asked of what the clause before reads, no new thing
    if here and _finds(here[0]):
        return clause  # 'Find the CSV file and read it': 'it' is what the search finds, which the chain passes on
    if pointer is not None and _set_phrase(clause, pointer):
        return clause  # 'commit it' (an action's own phrase in the lexicon): what is staged, no value to write in
    if pointer is not None and not acts and here:
        return clause  # '..., and who wrote its score?' asks of the clause before: the reader joins them
    sources = [*here, *(c for t in turns for c in reversed(lx.split_clauses(t)) if not _finds(c))]
    source, referent = next(((c, r) for c in sources if (r := referent_of(c))), ("", ""))
    if not referent or _names_own(clause, referent) or _made(source, referent):
        return clause
    if pointer is None:
        return f"{clause.rstrip(' .!?')} {referent}"
    # The pronoun stays ('from it' still says a result is passed on, sim/chain.py); the thing follows it
    return f"{clause[: pointer[1]]} ({referent}){clause[pointer[1] :]}"


def referent_of(text: str) -> str:
    """The words of a clause that name its thing: its values and the noun before them ('Show me issue 43 in
    octo-org/webshop' -> 'issue 43 in octo-org/webshop'); quoted text and its label are what is written, no thing."""
    plain = _LABELLED_QUOTE.sub(lambda m: " " * len(m.group()), text)
    found = [e for e in entities.find(plain) if e.kind in KINDS]
    if not found:
        return ""
    first = len(found) - 1  # '/r, stage README.md': a verb between two values starts another thing
    while first and all(map(_noun_or_stop, _WORD.findall(plain[found[first - 1].end : found[first].start]))):
        first -= 1
    start = found[first].start
    # a number needs its noun ('issue 43'); a path or a repository names its thing by itself
    for _ in range(NOUN_WORDS if found[first].kind in ("number", "id") else 0):
        before = list(_WORD.finditer(plain[:start].rstrip()))
        if not before or before[-1].end() != len(plain[:start].rstrip()) or not _noun(before[-1].group()):
            break
        start = before[-1].start()
    return plain[start : found[-1].end].strip().rstrip(".,;:!?")


def _noun(word: str) -> bool:
    """A word that can name the thing: not a stop word, not a verb a request or an action opens with."""
    folded = lx.fold(word)
    if folded in lx.word_set("stopwords") or len(folded) < 2:
        return False
    return not lx.hits([folded], _verbs())


@cache
def _verbs() -> tuple[str, ...]:
    """What a request opens with: its verbs, the search verbs, the actions' words and the intents' keywords."""
    lexicon = lx.lexicon()
    intents = [w for words in lexicon["intents"].values() for w in words]
    return (*lexicon["request_verbs"], *lexicon["search_verbs"], *_action_words(), *intents)


def _noun_or_stop(word: str) -> bool:
    return _noun(word) or lx.fold(word) in lx.word_set("stopwords")


def _pointer(clause: str, lang: str) -> tuple[int, int] | None:
    """Where the clause's pronoun for an earlier thing stands, if it has one."""
    pronouns = _pronouns(lang)
    for match in _WORD.finditer(clause):
        if lx.fold(match.group()) in pronouns:
            return match.start(), match.end()
    return None


@cache
def _pronouns(lang: str) -> frozenset[str]:
    return frozenset(lx.fold(w.lstrip("=")) for w in lx.lexicon()["referring_pronouns"].get(lang, []))


@cache
def _action_words() -> tuple[str, ...]:
    return tuple(w for k, v in lx.lexicon()["actions"].items() if not k.startswith("_") for w in v["words"])


def _set_phrase(clause: str, pointer: tuple[int, int]) -> bool:
    pronoun = lx.fold(clause[pointer[0] : pointer[1]])
    return any(pronoun in lx.words(h) for h in lx.hits(lx.words(clause), _action_words()) if " " in h)


def _acts(clause: str) -> bool:
    """The clause asks for a change ('close', 'закрой', 'przenieś'): a goal of its own."""
    return bool(lx.hits(lx.words(clause), _action_words()))


def _bare(clause: str) -> bool:
    """'а потом закрой', 'i następnie zamknij': an action with nothing to act on (the object is dropped)."""
    drop = lx.word_set("conjunctions") | lx.word_set("stopwords")
    rest = [w for w in lx.words(clause) if w not in drop and not lx.hits([w], _action_words())]
    return len(rest) <= 1 and not re.search(r"\d|/|\.\w", clause)  # 'please', 'now' may stay


def _tells(clause: str) -> bool:
    """'tell me the uptime', 'powiedz, jaki jest uptime': a telling verb and what to tell, no value of its own."""
    tokens = lx.words(clause)
    drop = lx.word_set("conjunctions") | lx.word_set("stopwords")
    told = lx.hits(tokens[:3], _words_of("telling_verbs"))
    rest = [t for t in tokens if t not in drop and not lx.hits([t], _words_of("telling_verbs"))]
    return bool(told) and bool(rest) and not re.search(r"\d|/|\.\w", clause)


def _finds(clause: str) -> bool:
    """A clause that searches or lists: what a later clause points at is in its result ('Find the CSV file and read
    it'), not in its words."""
    return bool(lx.hits(lx.words(clause), _finding()))


@cache
def _finding() -> tuple[str, ...]:
    return (*lx.lexicon()["search_verbs"], *lx.lexicon()["intents"]["list"])


@cache
def _words_of(name: str) -> tuple[str, ...]:
    return tuple(lx.lexicon()[name])


def _made(source: str, referent: str) -> bool:
    """'create a branch fix/x ..., then open a pull request from it': the thing is what the clause makes, which the
    chain passes on from the call's result (sim/chain.py); 'Add a comment to issue 42, then close it' acts on 42."""
    tokens = lx.words(source)
    made = {w for h in lx.hits(tokens, lx.lexicon()["actions"]["create"]["words"]) for w in lx.words(h)}
    stop = lx.word_set("stopwords")
    after = [t for i, t in enumerate(tokens) if i and tokens[i - 1] in made and t not in stop][:1]
    after += [t for i, t in enumerate(tokens) if i > 1 and tokens[i - 2] in made and tokens[i - 1] in stop][:1]
    at = source.find(referent)
    named = lx.words(source[:at])[-1:] if at > 0 else []  # 'a branch fix/x': the noun just before the value
    return bool(set(after) & {*lx.words(referent), *named})


def _names_own(clause: str, referent: str) -> bool:
    """The clause already names the referent's values ('close issue 43 ...'): nothing to write in."""
    own = {str(e.value) for e in entities.find(clause) if e.kind in KINDS}
    return bool(own) and {str(e.value) for e in entities.find(referent) if e.kind in KINDS} <= own
