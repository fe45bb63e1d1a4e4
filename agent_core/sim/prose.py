"""The answer to a question of fact from a result written as prose (an article, an FAQ entry, a search snippet):
the sentence that answers it, and in Russian or Polish the values that sentence holds (names, numbers, ids) told in
the user's words, since an English sentence quoted whole is no answer in another language."""

from __future__ import annotations

import re
from functools import cache, lru_cache

from agent_core.sim.text import arithmetic, values
from agent_core.sim.text import language as lx
from agent_core.sim.text.language import say

LONG_QUOTE = 110  # an English sentence is cut to its clauses below this: a reader notices a copied paragraph
_ABBREVIATIONS = frozenset("jr sr dr mr mrs ms st vs etc no mt prof inc ltd co fig approx".split())
_BREAK = re.compile(r"(?<=[.!?])\s+(?=[\"“«(]?[A-Z0-9])|\n+")
_NAME = r"(?:[A-Z][\w'’-]*\.?|[A-Z]\.)"
_NAMES = re.compile(rf"{_NAME}(?:\s+(?:{_NAME}|de|van|von|da|di|bin|al))*")
_JOINED = re.compile(r"\s*(?:,|\band\b|&)\s*")
_NUMBER = re.compile(r"(?<![\w.])\d[\d,.]*\d(?![\w])|(?<![\w.])\d(?![\w.])")
_IDENT = re.compile(r"(?<![\w@])[A-Za-z][\w.]*(?:[/-][\w.]+)+(?![\w@])")
_QUOTED = re.compile(r"'([^']{2,60})'|\"([^\"]{2,60})\"|“([^”]{2,60})”")
_NOTHING = re.compile(
    r"\bno\b[\w\s-]{0,40}\bfound\b|\bnot found\b|\bno results?\b|\bnothing (?:found|relevant)\b|\bno matching\b"
    r"|\b(?:don't|do not) know the answer\b|\bno (?:data|information|records?)\b",
    re.I,
)
_FUNCTION = re.compile(r"\b(?:the|a|an|is|are|was|were|has|have|by|of|with|for|to|in|on|at|and|we|you|it)\b", re.I)
_VERSIONED = re.compile(rf"{_NAME}(?:\s+{_NAME})*\s+v?\d+(?:\.\d+)+(?![\w.])")  # 'Python 3.15.1' is one value
_DATE = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")
_HEADING = re.compile(r"^\s*#{1,6}\s+(.+?)\s*#*\s*$")
# What a question names but asks nothing about: an address, a file, a place in the document ('the last part of')
_ADDRESS = re.compile(r"https?://\S+|\bwww\.\S+|(?<![\w/])[~.]?/[\w./-]+")
_BREAKS = re.compile(r"https?://\S+|\bwww\.\S+|(?<![\w/])[~.]?/[\w./-]+|[:;,]\s")
_NEGATION = re.compile(r"\b(?:no|not|never|none|without|isn't|aren't|doesn't|don't|cannot|can't)\b", re.I)


@cache
def _table() -> dict[str, list[list[str]]]:
    return lx.load("answers")["prose"]  # type: ignore[no-any-return]


def sentences(text: str) -> list[str]:
    """The sentences of a text; 'Carlos Sainz Jr. won' and 'Dr. Nikola Tesla' stay whole."""
    out: list[str] = []
    start = 0
    for match in _BREAK.finditer(text):
        before = text[start : match.start()]
        last = re.findall(r"(\w+)\.$", before)
        if match.group().strip(" ") and last and (last[0].lower() in _ABBREVIATIONS or len(last[0]) == 1):
            continue
        out.append(before)
        start = match.end()
    out.append(text[start:])
    return [" ".join(s.split()) for s in out if len(s.strip()) > 3]


def kind(question: str) -> str:
    """What the question asks for: who, count, when, where, yesno, which, or '' (no question of fact)."""
    tokens = lx.words(question)
    head = tokens[:4]
    for name, forms in _table()["kinds"]:
        if lx.hits(head if name != "yesno" else tokens[:2], forms.split("|")):
            return name
    return ""


def asking(question: str) -> str:
    """The part of a request that asks a question of fact: the whole question when it opens with a question word, else
    from the first question word on ('Przeczytaj <url> i powiedz, ile tur zaleca jako limit' -> 'ile tur zaleca jako
    limit', 'Sprawdź na <url> jaka jest najnowsza wersja' -> 'jaka jest najnowsza wersja')."""
    if kind(question):
        return question
    for part in _BREAKS.split(question):
        for clause in lx.split_clauses(part):
            if kind(clause) not in ("", "yesno") and clause.strip() in question:
                return question[question.index(clause.strip()) :]
    return question


def _words_of(text: str) -> set[str]:
    return {lx.stem(w) for w in lx.words(text) if len(w) > 2} - {lx.stem(w) for w in lx.word_set("stopwords")}


@lru_cache(maxsize=256)  # read for every sentence of a text weighed against the question
def _asked(question: str) -> tuple[tuple[int, frozenset[str]], ...]:
    """The question's content words, each with its English forms ('музыку' -> music, score) and a weight: the
    word right after the question word is what is asked ('Who **won** ...', 'Кто **написал** ...'), or the words after
    'about' ('What does it say **about stopping the loop**?'); the topic's names and numbers (in every sentence of an
    article about it), an address and a place in the document ('the last part of', 'до конца') tell least or nothing."""
    question = _ADDRESS.sub(" ", question)
    for part in lx.lexicon()["document_parts"]:
        question = re.sub(rf"(?<!\w){re.escape(part)}(?!\w)", " ", question, flags=re.I)
    tokens = re.split(r"\s+", question)
    at = next((i for i, t in enumerate(tokens) if i > 1 and lx.fold(t) in lx.word_set("about_words")), None)
    out = []
    first = True
    folded_tokens = lx.words(question)
    # 'Сколько в самолёте мест ...': a word after 'в', 'in', 'w' says where, not what is asked
    places = lx.word_set("place_prepositions")
    setting = {b for a, b in zip(folded_tokens, folded_tokens[1:], strict=False) if a in places}
    for index, token in enumerate(tokens):
        for word in lx.content_words(token):
            folded = lx.fold(word)
            if len(folded) < 3 or lx.hits([folded], _kind_words()):
                continue
            forms = {lx.stem(folded)} | {lx.stem(w) for w in english_forms(folded) if len(w) > 2}
            topic = word[:1].isupper() or word[:1].isdigit() or folded in setting
            if at is not None and index < at:
                out.append((1, frozenset(forms)))  # the frame of the question, not what it asks
                continue
            out.append((5 if first and not topic else 1 if topic else 2, frozenset(forms)))
            first = first and folded in setting
    return tuple(out)


def english_forms(folded: str) -> list[str]:
    """The English words the glossary gives for a (folded) Russian or Polish word: 'мест' -> seat, seats."""
    return [w for said, english in _glossary() if lx.hits([folded], said) for w in english]


@cache
def _glossary() -> tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]:
    return tuple((tuple(said.split("|")), tuple(english.split("|"))) for said, english in _table()["glossary"])


def asks_about(question: str, word: str) -> bool:
    """Whether the question asks about a word of a result (a table's column 'sales' for 'сколько продаж'), in any of
    the three languages (the glossary)."""
    stems = {lx.stem(w) for w in lx.words(word.replace("_", " ")) if len(w) > 2}
    return any(lx.stems_match(s, f) for _, forms in _asked(question) for f in forms for s in stems)


@cache
def _kind_words() -> tuple[str, ...]:
    return tuple(form for _, forms in _table()["kinds"] for form in forms.split("|"))


def _score(sentence: str, asked: tuple[tuple[int, frozenset[str]], ...]) -> int:
    mine = _words_of(sentence)
    return sum(weight for weight, forms in asked if any(lx.stems_match(w, f) for w in mine for f in forms))


def _sections(text: str) -> list[tuple[str, str]]:
    """The sentences of a text, each with the heading it stands under ('## 7. Stopping the loop'); headings are no
    sentences of their own."""
    out: list[tuple[str, str]] = []
    heading = ""
    for line in text.splitlines():
        titled = _HEADING.match(line)
        if titled:
            heading = titled.group(1)
            continue
        out += [(heading, s) for s in sentences(line)]
    return out[:200]


def best(question: str, text: str) -> str | None:
    """The sentence of a text that answers the question best: the words it shares with the question (in any
    language, weighted), then one holding the kind of value asked for (a name for 'who'), then the first. When a
    heading shares more with the question than any sentence does, the answer is the start of its section."""
    asked = _asked(question)
    asks = kind(question)
    items = _sections(text)
    if not items:
        return None
    direct = [_score(sentence, asked) for _, sentence in items]
    headed = [_score(heading, asked) if heading else 0 for heading, _ in items]
    if max(headed) > max(direct):
        top = max(headed)
        return next(sentence for (_, sentence), h in zip(items, headed, strict=True) if h == top)

    def score(index: int) -> tuple[int, int, int]:
        return (direct[index], int(bool(_values(items[index][1], asks, question))), -index)

    chosen = max(range(len(items)), key=score)
    return items[chosen][1] if direct[chosen] else None


def _names(sentence: str, question: str) -> list[str]:
    """Names in the sentence the question does not already name, in groups: 'Trent Reznor and Atticus Ross'."""
    known = {w for word in lx.words(question) for w in (word, *lx.words(" ".join(english_forms(word))))}
    groups: list[list[str]] = [[]]
    position = 0
    for match in _NAMES.finditer(sentence):
        name = match.group().rstrip(".") if not match.group().endswith(("Jr.", "Sr.")) else match.group()
        glue = sentence[position : match.start()]
        if groups[-1] and not _JOINED.fullmatch(glue):
            groups.append([])
        position = match.end()
        first = match.start() == 0 or sentence[: match.start()].rstrip().endswith((".", ":"))
        named = lx.words(name)
        dated = named[0] in lx.load("entities")["months"]  # '(February 11, 2024)' is when, not who
        if (first and len(name.split()) == 1) or dated or 2 * sum(w in known for w in named) > len(named):
            continue  # 'The', 'It' open a sentence; the question's own names ('Super Bowl LVIII') are no answer
        groups[-1].append(name)
    return next((g for g in groups if g), [])


def _values(sentence: str, asks: str, question: str) -> list[str]:
    if asks == "who":
        return _names(sentence, question)
    if asks == "count":
        return _numbers(arithmetic.words_to_digits(sentence), question)  # 'ten is a sensible default' -> 10
    found = [next(g for g in m.groups() if g) for m in _QUOTED.finditer(sentence)]
    found += [m.group() for m in (*_VERSIONED.finditer(sentence), *_DATE.finditer(sentence))]
    found += [m.group() for m in _IDENT.finditer(sentence) if not re.fullmatch(r"[\d,./-]+", m.group())]
    found += [n for n in _names(sentence, question) if not any(n in f for f in found)]
    found += [n for n in _NUMBER.findall(sentence) if not any(n in f for f in found)]
    return list(dict.fromkeys(found))[:4]


def _numbers(sentence: str, question: str) -> list[str]:
    """The number next to the words the question asks about ('22 business class seats' for 'мест бизнес-класса')."""
    asked = {f for _, forms in _asked(question) for f in forms}
    tokens = list(re.finditer(r"[\w.,-]+", sentence))
    best_hit, chosen = -1, ""
    for i, token in enumerate(tokens):
        if not _NUMBER.fullmatch(token.group().rstrip(".,")):
            continue
        near = tokens[i + 1 : i + 4]
        hit = sum(2 if any(lx.stems_match(lx.stem(lx.fold(t.group())), a) for a in asked) else 0 for t in near)
        hit += sum(1 for t in tokens[max(0, i - 2) : i] if lx.stem(lx.fold(t.group())) in asked)
        if hit > best_hit:
            best_hit, chosen = hit, token.group().rstrip(".,")
    return [chosen] if chosen else []


def clipped(sentence: str) -> str:
    """A sentence cut at a clause so that no long stretch of the result is copied."""
    if len(sentence) <= LONG_QUOTE:
        return sentence
    parts = re.split(r"(?<=[;,])\s+", sentence)
    out = parts[0]
    for part in parts[1:]:
        if len(out) + len(part) + 1 > LONG_QUOTE:
            break
        out += " " + part
    out = out.rstrip(",;")
    return out if len(out) <= LONG_QUOTE else out[: LONG_QUOTE - 1].rsplit(" ", 1)[0] + "…"


def is_prose(text: str) -> bool:
    """Words in sentences, not a record's values: 'A cyberpunk-style party inspired by ...'."""
    return bool(_FUNCTION.search(text)) and len(re.findall(r"[A-Za-z]{2,}", text)) >= 4


def nothing(out: str) -> bool:
    """A short result that says nothing was found ('No Wikipedia article found.', "I don't know the answer")."""
    return len(out) < 200 and bool(_NOTHING.search(out))


def _topic(clause: str) -> str:
    text = re.sub(r"[«»„”“\"?]", "", clause).strip(" .!")
    text = text[:1].lower() + text[1:]
    return text if len(text) <= 80 else text[:79].rsplit(" ", 1)[0] + "…"


def answer(question: str, lang: str, out: str) -> str | None:
    """The answer to a question of fact from a prose result, or None when it is no such question or text; a
    question of two parts ('Who stars in it, and who wrote its score?') gets each part's answer."""
    if nothing(out):
        return None if lang == "en" else say("prose.nothing", lang, q=_topic(question))
    if not re.search(r"[A-Za-z]{3,}\s+[A-Za-z]{2,}", out):
        return None
    question = asking(question)
    parts = [p for p in lx.split_clauses(question) if kind(p) and not values.belongs_before(p)]  # 'walizka, którą'
    told = [_part(p, lang, out) for p in (parts if len(parts) > 1 else [question])]
    lines = list(dict.fromkeys(t for t in told if t))
    if lang == "en" and len(lines) == 1 and len(" ".join(out.split())) <= LONG_QUOTE and len(sentences(out)) == 1:
        return None  # a one-sentence result is quoted as it came
    return "\n".join(lines) if lines and len(lines) == len(told) else None


def _part(question: str, lang: str, out: str) -> str | None:
    asks = kind(question)
    if not asks:
        return None
    sentence = best(question, out)
    if sentence is None or not _FUNCTION.search(sentence):
        return None  # 'Order 12345: Desk lamp x1, status: Delivered' is a record, told as one elsewhere
    if lang == "en":
        return clipped(sentence)
    found = _values(sentence, asks, question) or _values(_continued(out, sentence), asks, question)
    if asks == "count" and {f for _, forms in _asked(question) for f in forms} & set(_table()["measures"]):
        more = [*found, *_values(_continued(out, sentence), asks, question)]  # 'ile może ważyć': '50 pounds', not 'one'
        found = [v for v in more if with_unit(v, out, lang) != v] or found
    if not found:
        return None
    found = [with_unit(v, out, lang) for v in found]
    yes = ""
    if asks == "yesno":
        yes = say("prose.no" if _NEGATION.search(sentence) else "prose.yes", lang) + " "
    return yes + say("prose.answer", lang, q=_topic(question), values=lx.join_list(found, lang))


_PRONOUN = re.compile(r"^(?:It|They|This|These|That|He|She|Its|Their)\b")


def _continued(text: str, sentence: str) -> str:
    """The sentence after the one chosen when it goes on about the same thing ('You may bring one bag. It must be
    under 50 pounds ...'): its values answer the question the first one only opens."""
    items = sentences(text)
    at = items.index(sentence) if sentence in items else -1
    following = items[at + 1] if 0 <= at < len(items) - 1 else ""
    return following if _PRONOUN.match(following) else ""


def with_unit(found: str, text: str, lang: str) -> str:
    """'50 pounds' -> '50 фунтов', '14 days' -> '14 dni': a number with the unit after it, in the user's words."""
    unit = re.search(rf"(?<![\w.]){re.escape(found)}\s+([A-Za-z]+)", text)
    if not unit or not re.fullmatch(r"\d+(?:\.\d+)?", found):
        return found
    forms = next((f[lang] for names, f in _units() if unit.group(1).lower() in names.split("|")), None)
    return f"{found} {plural(found, forms.split('|'), lang)}" if forms else found


@cache
def _units() -> tuple[tuple[str, dict[str, str]], ...]:
    return tuple((names, forms) for names, forms in lx.load("answers")["prose"]["units"])


def plural(number: str, forms: list[str], lang: str) -> str:
    """The form of a noun after a number: one, few or many (1 день, 2 дня, 5 дней; 1 dzień, 2 dni, 5 dni)."""
    if "." in number:
        return forms[1]
    n = int(number)
    if n % 100 in (11, 12, 13, 14):
        return forms[2]
    if n % 10 == 1 and (lang == "ru" or n == 1):
        return forms[0]
    return forms[1] if n % 10 in (2, 3, 4) else forms[2]
