"""What a question and a tool definition mean to the simulated model: shared concepts, shared words, and the score."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache, lru_cache

from agent_core.sim.text import heads, keeping, opposites
from agent_core.sim.text import language as lx

# Points of the meaning score (BEHAVIOUR.md, "Choosing a tool").
NAME_POINTS, NAME_MAX = 2, 4
DESCRIPTION_MAX = 3
WORD_MAX = 3
AGAINST = -3
CONFLICT = -4
RELATED = 2
_QUOTED = re.compile(r'"[^"]*"|“[^”]*”|„[^”]*”|«[^»]*»|`[^`]*`')
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


@dataclass(frozen=True)
class _ConceptIndex:
    """The synonym table compiled for lookup by stem."""

    by_stem: dict[str, frozenset[str]]
    by_start: dict[str, tuple[tuple[str, str], ...]]  # 4-letter start -> (stem, concept) for longer words
    phrases: tuple[tuple[tuple[str, ...], str], ...]
    forms: dict[tuple[tuple[str, ...], str], tuple[str | None, ...]]  # a phrase's words to be said as written ('=')
    exclusive: tuple[frozenset[str], ...]
    related: dict[str, tuple[str, ...]]  # a question's concept -> tool concepts that serve it ("count" -> database)


@cache
def _index() -> _ConceptIndex:
    data = lx.load("concepts")
    by_stem: dict[str, set[str]] = {}
    by_start: dict[str, list[tuple[str, str]]] = {}
    phrases, forms = [], {}
    for concept, items in data["concepts"].items():
        for item in items:
            stems = tuple(_key_stem(t) for t in lx.words(item))
            if len(stems) > 1:
                phrases.append((stems, concept))
                if "=" in item:  # 'pokaż =commity': the plural as written, so 'pokaż commit b2c3d4e' is one commit
                    forms[(stems, concept)] = tuple(w[1:] if w.startswith("=") else None for w in item.split())
            elif stems:
                by_stem.setdefault(stems[0], set()).add(concept)
                if len(stems[0]) >= 4:
                    by_start.setdefault(stems[0][:4], []).append((stems[0], concept))
    return _ConceptIndex(
        {k: frozenset(v) for k, v in by_stem.items()},
        {k: tuple(v) for k, v in by_start.items()},
        tuple(phrases),
        forms,
        tuple(frozenset(group) for group in data["exclusive"]),
        {k: tuple(v) for k, v in data["related"].items() if not k.startswith("_")},
    )


def _key_stem(word: str) -> str:
    # "note" would stem to "not"; a stem under 4 letters is too short to stand for its word.
    short = lx.stem(word)
    return short if len(short) >= 4 or len(word) <= 3 else word


def _stems(text: str) -> tuple[str, ...]:
    return tuple(_key_stem(t) for t in lx.words(_CAMEL.sub(" ", text)))


_OPEN_STATE = re.compile(
    r"(?:\b(?:are|is|still|currently|remain|stay)|\w['’]s)\s+open\b|\bopen\s+(?=(?:issue|ticket|bug|order|pull request|pr|task|item)s?\b)",
    re.I,
)


# 'Open an issue', 'open a new pull request': a request to create one, not to open a file to read it.
_OPEN_NEW = re.compile(
    r"\bopen\s+(?=(?:a|an|new)\s+(?!(?:file|document|folder|directory|tab|window|link|url|page|log)s?\b))", re.I
)


# Russian and Polish say the state with an adjective ('открытые баги', 'otwarte zgłoszenia'), the request with a verb.
_OPEN_ADJECTIVE = re.compile(r"\b(?:открыт(?:ые|ых|ая|ой|ое|ую|ым|ыми)|otwart(?:e|ych|a|ą|ym|ymi|y))\b", re.I)


def as_state(text: str) -> str:
    """'are open' as the state it is ('are opened'), so it reads as no request to open a file; 'open an issue' as
    the request to create one it is."""
    folded = text.lower()
    if "open" in folded:
        text = _OPEN_STATE.sub(lambda m: m.group().lower().replace("open", "unresolved"), text)
        text = _OPEN_NEW.sub("create ", text)
    text = as_request(text)
    if "открыт" in folded or "otwart" in folded:
        text = _OPEN_ADJECTIVE.sub("unresolved", text)
    return text


_TITLE = re.compile(r'"[^"]+"|“[^”]+”|„[^”]+”|«[^»]+»')
_NAMED = re.compile(r"\d|\b\w+\.\w{1,5}\b")


def _opening_at(tokens: list[str]) -> int | None:
    """Where the clause's own verb 'open' stands: first, or after a polite opener ('please', 'можешь')."""
    lead = 0
    openers = set(lx.lexicon()["polite_openers"])
    while lead < len(tokens) and tokens[lead] in openers:
        lead += 1
    verbs = lx.lexicon()["opening_verbs"]["words"]
    return lead if lead < len(tokens) and lx.hits(tokens[lead : lead + 1], verbs) else None


def as_request(text: str) -> str:
    """'открой issue «Медленный поиск»' as the request to create it that it is (opens_new)."""
    if not opens_new(text):
        return text
    at = _opening_at(lx.words(text)) or 0
    verb = next(m for i, m in enumerate(re.finditer(r"\w+", text)) if i == at)
    return f"{text[: verb.start()]}create{text[verb.end() :]}"


@lx.text_cache
def opens_new(text: str) -> bool:
    """'открой issue в octo-org/webshop «Медленный поиск»', 'otwórz zgłoszenie „…”': a clause that starts by opening a
    thing it gives a new title in quotes, with no number or file naming one already there, asks to make it (English
    says 'open an issue')."""
    if _TITLE.search(text) is None or _opening_at(lx.words(text)) is None:
        return False
    plain = _TITLE.sub(" ", text)
    return _NAMED.search(re.sub(r"[\w.-]+/[\w.-]+", " ", plain)) is None


@lx.text_cache
def concepts(text: str) -> frozenset[str]:
    """The concepts a text uses (its words through the stemmer and the synonym table). 'Which issues are open' is a
    state, not a request to open something."""
    text = as_state(text)
    index, stems = _index(), _stems(text)
    found: set[str] = set()
    for s in set(stems):
        found.update(index.by_stem.get(s, ()))
        found.update(_started(index, s))
    found.update(concept for concept, _ in _phrase_hits(text))
    tokens = lx.words(text)
    return frozenset(heads.apply(text, opposites.apply(tokens, found, _word_concepts), _word_concepts))


@lx.text_cache
def _phrase_hits(text: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The concepts' phrases the text says, each with the words that say it. A number inside the phrase is its
    count, not a word of it: 'the last 2 commits' says 'last commits', 'ostatnie 3 commity' 'ostatnie commity'."""
    tokens = lx.words(_CAMEL.sub(" ", text))
    stems = [_key_stem(t) for t in tokens]
    counted = [i for i, t in enumerate(tokens) if not t.isdigit()]
    orders = [list(range(len(tokens)))] + ([counted] if len(counted) < len(tokens) else [])
    out, index = [], _index()
    for order in orders:
        seq = tuple(stems[i] for i in order)
        firsts = set(seq)
        for phrase, concept in index.phrases:
            if phrase[0] not in firsts:
                continue
            n, forms = len(phrase), index.forms.get((phrase, concept), ())
            for j in (j for j, s in enumerate(seq) if s == phrase[0] and seq[j : j + n] == phrase):
                said = [tokens[i] for i in order[j : j + n]]
                if all(f is None or f == w for f, w in zip(forms, said, strict=False)):
                    out.append((concept, tuple(tokens[order[j] : order[j + n - 1] + 1])))
    return tuple(out)


@lru_cache(maxsize=4096)
def _word_concepts(word: str) -> frozenset[str]:
    """The concepts of one word (no phrases)."""
    index, s = _index(), _key_stem(word)
    return index.by_stem.get(s, frozenset()) | set(_started(index, s))


@cache
def _stop_stems() -> frozenset[str]:
    return frozenset(_key_stem(w) for w in lx.word_set("stopwords"))


def _started(index: _ConceptIndex, s: str) -> set[str]:
    """The concepts of the longer words a stem starts or is started by. Not of a stop word's: 'меня' (me) starts
    'менял' (changed), yet asks of no change."""
    if s in _stop_stems():
        return set()
    return {c for k, c in index.by_start.get(s[:4], ()) if lx.stems_match(s, k)}


def kin(found: frozenset[str]) -> frozenset[str]:
    """Concepts with their kin ('customer' and 'user' name the same person to a tool; concepts.json 'kin')."""
    out = set(found)
    for group in lx.load("concepts").get("kin", []):
        if out & set(group):
            out |= set(group)
    return frozenset(out)


@lx.text_cache
def _phrase_words(text: str, claimed: frozenset[str]) -> frozenset[str]:
    """Stems of the words a concept's phrase of the text uses, of concepts the tool does not claim: 'last' of 'when
    did I last touch it' is said of the change ('modified'), no word that a tool's 'the last N lines' shares."""
    return frozenset(lx.stem(t) for concept, said in _phrase_hits(text) if concept not in claimed for t in said)


@lx.text_cache
def content_stems(text: str) -> frozenset[str]:
    """Stems of the words that carry meaning (no stop words, no one-letter words)."""
    stop = lx.word_set("stopwords")
    return frozenset(lx.stem(w) for w in lx.words(text) if w not in stop and len(w) > 1 and not w.isdigit())


@dataclass(frozen=True)
class Profile:
    """A tool definition as the brain reads it: concepts and word stems of its name, description and parameters."""

    name: frozenset[str]
    described: frozenset[str]  # concepts the description claims (outside 'do not use it for ...')
    against: frozenset[str]  # concepts of the 'do not use it for ...' part
    params: frozenset[str]
    words: frozenset[str]  # stems of the description (quoted examples included)
    param_words: frozenset[str]  # stems of parameter names and descriptions
    against_words: frozenset[str]
    name_text: str


@lru_cache(maxsize=512)
def profile(tool_json: str) -> Profile:
    """Read a tool (canonical JSON) once; every turn of a run reuses it."""
    tool = json.loads(tool_json)
    name = re.sub(r"[_\-.]+", " ", _CAMEL.sub(" ", str(tool.get("name", ""))))
    pos, neg = [], []
    for sentence in re.split(r"[.;]\s+|\n", str(tool.get("description") or "")):
        tokens = lx.words(sentence)
        cut = lx.first_hit(tokens, lx.lexicon()["negations"])
        if cut is None:
            pos.append(sentence)
            continue
        # The sentence's words up to the negation still argue for the tool; the rest argues against it.
        pos.append(" ".join(tokens[:cut]))
        neg.append(" ".join(tokens[cut:]))
    params = []
    for pname, prop in ((tool.get("input_schema") or {}).get("properties") or {}).items():
        params.append(re.sub(r"[_\-]+", " ", _CAMEL.sub(" ", str(pname))))
        if isinstance(prop, dict):
            params.append(str(prop.get("description", "")))
            params += [str(v) for v in prop.get("enum") or []]
    positive, negative, param_text = " ".join(pos), " ".join(neg), " ".join(params)
    return Profile(
        name=concepts(name),
        described=concepts(_QUOTED.sub(" ", positive)),
        against=concepts(_QUOTED.sub(" ", negative)),
        params=concepts(_QUOTED.sub(" ", param_text)),
        words=content_stems(positive),
        param_words=content_stems(param_text),
        against_words=content_stems(negative),
        name_text=name,
    )


@dataclass(frozen=True)
class Fit:
    """How well a question's clause fits one tool, and why (for the thinking block)."""

    points: int
    shared: tuple[str, ...]


def _shared_words(mine: frozenset[str], theirs: frozenset[str]) -> list[str]:
    return sorted(w for w in mine if any(lx.stems_match(w, t) for t in theirs))


def fit(clause: str, tool_json: str) -> Fit:
    """The meaning part of a tool's score for a clause (BEHAVIOUR.md, 'Choosing a tool'). A tool that shares only
    what the thing asked is for ('the best playlist for a party': a party theme tool) does not serve the thing."""
    found = _fit(clause, tool_json)
    if found.points > 0:
        thing = asked_thing(clause)
        if thing and _fit(thing, tool_json).points <= 0:
            return Fit(0, ())
    return found


@lx.text_cache
def asked_thing(clause: str) -> str:
    """The thing a clause asks for, when it names one before its purpose: 'playlist' of 'Give me the best playlist
    for a party', 'плейлист' of 'Подбери плейлист для вечеринки'; '' when nothing is said for a purpose or the
    words before it name no thing ('Search for party music')."""
    table = lx.lexicon()["purpose_words"]
    tokens = lx.words(clause)
    cut = lx.first_hit(tokens, table["for"])
    if not cut:
        return ""
    stop = lx.word_set("stopwords")
    kept = [t for t in tokens[:cut] if t not in stop and len(t) > 2 and not lx.hits([t], table["skip"])]
    return " ".join(kept)


_QUOTED = re.compile(r'"[^"]*"|“[^”]*”|„[^”]*”|«[^»]*»|`[^`]*`')
_EXTENSION = re.compile(r"(?<=\w)\.[A-Za-z][A-Za-z0-9]{0,5}\b")


@lx.text_cache
def _kept_fact_actions(clause: str) -> frozenset[str]:
    """The actions only a fact to keep says ('Remember that Acme has opened an office': 'opened' reads nothing):
    the fact is what is written, not what is asked."""
    fact = keeping.fact_of(clause)
    if fact == clause:
        return frozenset()
    actions = frozenset().union(*_index().exclusive)
    return (concepts(fact) - concepts(keeping.request_head(clause))) & actions


@lx.text_cache
def _fit(clause: str, tool_json: str) -> Fit:
    tool, asked = profile(tool_json), concepts(_QUOTED.sub(" ", clause))  # a quoted title asks nothing itself
    asked -= _kept_fact_actions(clause)
    if any(w in lx.load("entities")["known_files"] for w in lx.words(clause)):
        asked |= {"file"}  # 'Покажи README': a well-known file named by its bare word asks for that file
    clause = _EXTENSION.sub(" ", clause)  # a file's type is no word of the request: 'config.json' asks for no JSON
    named = asked & tool.name
    described = asked & tool.described
    against = asked & (tool.against - tool.described)  # "weather, but not forecasts" still claims the weather
    # Words of the synonym table already counted as concepts; the rest ("employees", "Apple") count on their own.
    phrased = _phrase_words(clause, tool.described | tool.name)
    words = [w for w in _shared_words(content_stems(clause), tool.words) if not concepts(w) and w not in phrased]
    against_words = _shared_words(content_stems(clause), tool.against_words - tool.words)
    if against or (against_words and not described):
        return Fit(AGAINST, tuple(sorted(against)) + tuple(against_words))
    conflict = 0
    for group in _index().exclusive:
        mine, theirs = asked & group, tool.name & group
        if theirs and mine and not (mine & theirs):
            conflict += CONFLICT  # multiply(a, b) is not for "1234 plus 5678"
    related = {r for c in asked for r in _index().related.get(c, ())} & (tool.name | tool.described)
    if not described and not words and not related:
        # The description says nothing about it: a name alone ("get_weather") does not count.
        return Fit(conflict, ())
    points = (
        conflict
        + RELATED * len(related)
        + min(NAME_MAX, NAME_POINTS * len(named))
        + min(DESCRIPTION_MAX, len(described))
    )
    by_params = [w for w in _shared_words(content_stems(clause), tool.param_words) if w not in words]
    points += bool((asked & tool.params) - named - described or by_params)
    points += min(WORD_MAX, len(words))
    return Fit(points, tuple(sorted(named | described)) + tuple(words))
