"""How the simulated model cuts a question into clauses and which intents each clause's words name."""

from __future__ import annotations

import re

from agent_core.sim.text import arithmetic, backrefs, clock, gazetteer, keeping, meaning, values
from agent_core.sim.text import language as lx

# Bounds on the work one reply does, whatever the input (BEHAVIOUR.md, "Huge inputs").
MAX_CLAUSES = 100
# Of those, kept for the end of a long question, where the request often stands after pasted text.
TAIL_CLAUSES = 25


def intent_hits(text: str) -> dict[str, int]:
    """Keyword hits per intent in a piece of the request (arithmetic and file names count too)."""
    return dict(_intent_hits(text))


_QUOTES = re.compile(
    r"(?<!\w)'[^'\n]{2,300}'(?!\w)|\"[^\"\n]{2,300}\"|“[^”\n]{2,300}”|„[^”\n]{2,300}[”\"]|«[^»\n]{2,300}»"
)


@lx.text_cache
def _intent_hits(text: str) -> dict[str, int]:
    # Cached: the question and earlier questions are read again on every turn; intent_hits hands out copies.
    text = keeping.request_head(text)  # 'Remember that Acme has opened ...': the fact asks nothing
    # Words and sums inside quotes are text to keep ('Save the line "Q4 sales up 12%"', "commit with the message
    # 'Update README'"), not what is asked, unless the quote is all there is
    # 'открой issue «Медленный поиск»' opens a new issue: the title it gives says so, so it is read before it goes
    unquoted = _QUOTES.sub(" ", meaning.as_state(text) if meaning.opens_new(text) else text)
    asked = unquoted if lx.words(unquoted) else text
    tokens = lx.words(meaning.as_state(lx.paths_as_files(asked)))
    found = {name: len(lx.hits(tokens, kws)) for name, kws in lx.lexicon()["intents"].items()}
    expression = arithmetic.extract_expression(unquoted if unquoted.strip() else text)
    found["arithmetic"] += 2 if expression else 0
    if found["arithmetic"] and not expression and clock.times(unquoted):
        # 'what time is that', 'Сколько будет в Нью-Йорке, когда в Москве 18.45': of a time of day, no sum
        found["time"], found["arithmetic"] = found["time"] + found["arithmetic"], 0
    if lx.extract_paths(text):  # a file name backs the verb next to it: "delete notes.txt" stays a delete
        found["delete" if found["delete"] else "file"] += 1
    return {name: n for name, n in found.items() if n}


@lx.text_cache  # the same question comes back every turn; a tuple, so no caller changes the next one's
def _clauses(question: str) -> tuple[str, ...]:
    """The clauses read for needs: all of them, or of a huge question the first ones and the last ones."""
    parts = lx.split_clauses(_without_schema(question))
    # 'Когда менялся /a/data.csv? ...' asks when: a question of its own, no 'when ...,' clause of the next one
    asked = {c for c in parts if re.search(re.escape(c) + r"\s*\?", question)}
    clauses = tuple(_joined(parts, asked))
    return clauses if len(clauses) <= MAX_CLAUSES else clauses[: MAX_CLAUSES - TAIL_CLAUSES] + clauses[-TAIL_CLAUSES:]


_DEFINED = r"[^\W\d]\w*\s*\(\s*[^\W\d]\w*(?:\s+\w+)*(?:\s*,\s*[^\W\d]\w*(?:\s+\w+)*)+\s*\)"


def _schema_pattern() -> str:
    labels = "|".join(re.escape(w) for w in lx.lexicon()["table_labels"])
    return rf"(?i)\b(?:{labels})\w*\s*:?\s*{_DEFINED}(?:\s*(?:,|;|\band\b|\bи\b|\bi\b|\boraz\b)\s*{_DEFINED})*\.?"


def _without_schema(question: str) -> str:
    """'..., tables: products(id, name, price) and sales(id, ...)': the schema the user states is what the SQL is
    written from (sim/slots.py schema_text), not a request of its own; its commas cut no clauses."""
    return re.sub(_schema_pattern(), " ", question) if "(" in question else question


@lx.text_cache
def stated_schema(text: str) -> str:
    """The table schema a text states after a label ('Tables: products(id, name, price) and sales(...)'), or ''
    ('DML statements (INSERT, UPDATE, ...)' in a system prompt states none)."""
    return " ".join(m.group() for m in re.finditer(_schema_pattern(), text)) if "(" in text else ""


_REGION = re.compile(r"^\s*[A-ZА-ЯЁŁŚŻŹĆŃÓ][\w'-]+(?:\s+[A-ZА-ЯЁŁŚŻŹĆŃÓ][\w'-]+)?\s*[?.!]?\s*$")
_REGION_LEAD = re.compile(r"^\s*[A-ZА-ЯЁŁŚŻŹĆŃÓ][\w'-]+\s+[a-zа-яёąćęłńóśźż]")  # 'Scotland over the next few days'
_REPORTED = re.compile(r"^\s*(?:что|że|iż)\s[^?]*$", re.I)  # "Dopisz do Ann, że ...": what is to be written
_SUBORDINATE = re.compile(r"^\s*(?:if|when|once|whenever|если|когда|jeśli|jezeli|jeżeli|gdy|kiedy)\b", re.I)
_ONLY_VALUES = re.compile(r"^\s*(?:in|at|for|в|во|на|w|we|po|na)?\s*", re.I)
_SNAKE_ID = re.compile(r"\b[^\W\d_]+(?:_[^\W_]+)*_\d+\b")  # sara_doe_496, omar_khan_2363
_UNIT_WORDS = ("celsius", "fahrenheit", "цельси", "фаренгейт", "celsjusz", "fahrenheit", "metric", "imperial")


def only_values(clause: str) -> bool:
    """'France', 'in Fahrenheit', 'по Цельсию', '1965', ', Piotr': a clause only giving the one before a value."""
    ids = _SNAKE_ID.findall(clause)
    if len(ids) == 1 and "?" not in clause and not intent_hits(clause):
        # '... ? my user id is mei_ahmed_5058': an id written as one word, with its label
        return len(lx.content_words(_SNAKE_ID.sub(" ", clause))) <= 3
    words = lx.content_words(clause)
    if not words or len(words) > 3 or "?" in clause:
        return False
    if re.search(r"\b(1[5-9]\d\d|20\d\d)\b", clause) and len(words) <= 3 and not intent_hits(clause):
        return True
    if len(words) <= 3 and re.search(r"\b[A-Z0-9]*\d[A-Z0-9]*[A-Z][A-Z0-9]*\b", clause) and not intent_hits(clause):
        return True  # '..., confirmation number HG52KD': a code with its label gives the sentence a value
    if len(lx.words(clause)) <= 3 and len(re.findall(r"\d{3,}", clause)) == 1 and not intent_hits(clause):
        return True  # '..., индекс 75203', '..., kod pocztowy 32100': a number with its label
    rest = _ONLY_VALUES.sub("", clause)
    known = gazetteer.places(rest) or lx.hits(lx.words(rest), [*_UNIT_WORDS, *lx.load("knowledge")["first_names"]])
    return bool(known) and len(lx.content_words(rest)) <= 2


def _joined(clauses: list[str], asked: set[str] | frozenset[str] = frozenset()) -> list[str]:
    """A lone verb before a comma belongs to what follows: "Отмени, пожалуйста, мой заказ O1", "Запомни, что ...";
    so do an 'if/when' clause ("If it's 4 PM in New York, ...") and one that only says where ("In /a/README.md, ...");
    a clause that only gives a value ("..., in Fahrenheit"), a region ("Paris, France") or what is said (", że ...")
    joins the one before."""
    out: list[str] = []
    carry = ""
    for index, clause in enumerate(clauses):
        clause = f"{carry} {clause}".strip() if carry else clause
        bare = len(lx.content_words(clause)) <= 1 and len(lx.words(clause)) <= 2 and not re.search(r"\d", clause)
        lone = bare and not gazetteer.places(clause) and not lx.extract_paths(clause) and not values.names_file(clause)
        if index + 1 < len(clauses) and (
            lone or _SUBORDINATE.match(clause) and clause not in asked or _sets_a_time(clause, clauses[index + 1])
        ):
            carry = clause
            continue
        carry = ""
        if not out and index + 1 < len(clauses) and values.only_place(clause):
            carry = clause  # 'In octo-org/webshop, create a branch ...': where the request acts, said first
            continue
        if out and (
            only_values(clause)
            or values.belongs_before(clause)  # '..., and at what times?', '..., którą zabieram'
            or _of_place(out[-1], clause)
            or _names_the_ask(out[-1], clause)
            or _REPORTED.match(clause)
            or values.labels_part(clause)
            or _another_path(out[-1], clause)
            or _another_value(out[-1], clause)
            or _premise_after(out[-1], clause)
            or keeping.asks_to_keep(clause)
            and "?" not in out[-1]
            and not keeping.asks_to_keep(out[-1])
            or backrefs.refers_back(clause)
            and not intent_hits(clause)
            or backrefs.acts_on_premise(out[-1], clause, bool(intent_hits(out[-1])))
            or (_REGION.match(clause) or _REGION_LEAD.match(clause) and not intent_hits(clause))
            and not gazetteer.find_cities(clause.split()[0])
            and gazetteer.places(out[-1])
        ):
            out[-1] = f"{out[-1]}, {clause}"
            continue
        out.append(clause)
    return out + ([carry] if carry else [])


def _of_place(before: str, clause: str) -> bool:
    """'Какая погода там, где я сейчас нахожусь?': a clause of where after a word for a place says which place."""
    words, table = lx.words(before), lx.lexicon()["place_relative"]
    said = clause.lower().split()
    return (
        bool(words) and words[-1] in table["place"] and any(said[: len(w.split())] == w.split() for w in table["where"])
    )


def _names_the_ask(before: str, clause: str) -> bool:
    """'Jak jest dziś w Paryżu, ciepło?': a word or two that only name what is asked, after a clause that names
    nothing to do, are that clause's request."""
    return (
        len(lx.words(clause)) <= 2
        and not re.search(r"\d", clause)
        and bool(intent_hits(clause))
        and not intent_hits(before)
    )


def _another_path(before: str, clause: str) -> bool:
    """'How large are /a/ideas.txt and /a/budget.xlsx?': a clause that is only another file for the clause before
    asks the same of it (each file gets that clause's call, not one chosen for a bare path)."""
    paths = lx.extract_paths(clause)
    # nothing else, not even 'then': 'Read app.log, then notes.txt' reads one file after the other
    rest = lx.words(re.sub("|".join(map(re.escape, paths)), " ", clause)) if paths else ["-"]
    return not rest and bool(lx.extract_paths(before)) and not intent_hits(clause).keys() - {"file"}


_VALUE_KINDS = ("id", "email", "url", "phone", "repo")


def _another_value(before: str, clause: str) -> bool:
    """'the emails of customers C1 and C2', 'szczegóły zamówień O1 oraz O2': a clause that is only another value of a
    kind the clause before names is more of that clause (one call per value, spread.siblings), not a request with
    a tool of its own chosen for a bare value."""
    from agent_core.sim.text import entities  # entities reads cities and numbers, which this module also uses

    found = entities.of_kind(clause, *_VALUE_KINDS)
    if not found or intent_hits(clause):
        return False
    rest = clause
    for e in reversed(found):
        rest = rest[: e.start] + " " + rest[e.end :]
    if lx.content_words(rest):
        return False
    kinds = {e.kind for e in found}
    return any(e.kind in kinds for e in entities.of_kind(before, *_VALUE_KINDS))


def _sets_a_time(clause: str, following: str) -> bool:
    """'Jest wpół do ósmej wieczorem w Tokio. Która to godzina w Warszawie?': a time stated for a place is the
    premise of the question after it, as an 'if' clause is."""
    from agent_core.sim.text import entities  # entities reads cities and numbers, which this module also uses

    return not intent_hits(clause) and bool(intent_hits(following)) and bool(entities.of_kind(clause, "time"))


def _premise_after(before: str, clause: str) -> bool:
    """'Która godzina będzie w Tokio, gdy w Warszawie jest 16.30?': an 'if/when' clause after the question that
    states a time and asks nothing is its premise, as it is when it comes first."""
    from agent_core.sim.text import entities  # entities reads cities and numbers, which this module also uses

    return (
        bool(_SUBORDINATE.match(clause))
        and not intent_hits(clause).keys() - {"arithmetic"}
        and bool(entities.of_kind(clause, "time"))
        and bool(intent_hits(before))
    )


def own_part(question: str, clause: str) -> str:
    """The question without its other clauses that ask a question of their own (a question word first, a '?'
    after): in 'Kto założył zgłoszenia 43 i 44 ... i ile mają komentarzy?' the count is the last clause's, no option
    of the first clause's call."""
    wh = set(lx.lexicon()["wh_words"])
    for other in _clauses(question):
        words = lx.words(other)
        asks = bool(words) and words[0] in wh and re.search(re.escape(other) + r"\s*\?", question) is not None
        if other not in clause and asks:
            question = question.replace(other, " ")
    return question
