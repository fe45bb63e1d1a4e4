"""What the simulated model understands of text: languages, keywords, clauses, values, replies."""

from __future__ import annotations

import difflib
import json
import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache, wraps
from pathlib import Path
from typing import Any, TypeVar

DATA = Path(__file__).parent.parent / "data"
# The brain reads every earlier text again on every turn, so its readings of texts are cached, in this many
# entries per function; longer texts are read afresh, so a few huge files cannot fill the memory.
TEXT_CACHE_SIZE = 2048
TEXT_CACHE_LIMIT = 10_000
# A real model bounds its attention, and so does this one: of a longer text it reads the start and the end
# closely (together under TEXT_CACHE_LIMIT, so the reading is cached); see BEHAVIOUR.md, "Huge inputs".
ATTENTION_HEAD = 6_000
ATTENTION_TAIL = 2_000

_WORD = re.compile(r"[^\W_]+")
_CYRILLIC = re.compile(r"[а-яё]", re.IGNORECASE)
_LATIN = re.compile(r"[a-z]", re.IGNORECASE)
_POLISH_LETTERS = re.compile(r"[ąćęłńśźż]", re.IGNORECASE)
_SENTENCES = re.compile(r"[?!;\n]+|\.(?=\s|$)|,\s+")
PATH = re.compile(r"(?<![\w/.~-])((?:~?/)?(?:[\w-]+/)*[\w-]+\.[A-Za-z][A-Za-z0-9]{1,5})(?![\w])")
# What is not prose when deciding the language: code, URLs, file names, snake_case and camelCase names.
_NOT_PROSE = re.compile(
    r"```.*?```|`[^`\n]*`|https?://\S+|" + PATH.pattern + r"|\b\w*_\w*\b|\b[a-z]+[A-Z]\w*\b"
    r"|(?<![\w/])~?(?:/[\w.-]+)+/?|\b[\w.-]+/[\w.-]+\b|\S+@\S+",  # folders, owner/repo slugs, e-mails
    re.S,
)
_LETTER = re.compile(r"[^\W\d_]")
_NEIGHBOUR = 40  # characters either side of a conjunction that hold the words it joins
_TICKER = re.compile(r"\b[A-Z]{2,5}\b")
_NOT_TICKERS = {"OK", "AI", "API", "USA", "NYC", "EUR", "USD", "PLN", "CET", "UTC", "JSON", "HTTP", "URL", "IGNORE"}


_Result = TypeVar("_Result")


def text_cache(fn: Callable[..., _Result]) -> Callable[..., _Result]:
    """lru_cache for a pure function whose first argument is a text; texts over TEXT_CACHE_LIMIT skip it."""
    cached = lru_cache(maxsize=TEXT_CACHE_SIZE)(fn)

    @wraps(fn)
    def call(text: str, *args: Any) -> _Result:
        return cached(text, *args) if len(text) <= TEXT_CACHE_LIMIT else fn(text, *args)

    @wraps(fn)
    def call_one(text: str) -> _Result:
        # Most of these read the text alone and run hundreds of times a turn: no argument tuple to pack and unpack.
        return cached(text) if len(text) <= TEXT_CACHE_LIMIT else fn(text)

    wrapper = call_one if fn.__code__.co_argcount == 1 and not fn.__code__.co_flags & 0x0C else call
    wrapper.cache_clear = cached.cache_clear  # type: ignore[attr-defined]
    return wrapper


def attend(text: str) -> str:
    """The part of a text the model reads closely: all of it, or for a huge text its start and its end."""
    if len(text) <= ATTENTION_HEAD + ATTENTION_TAIL:
        return text
    head, tail = text[:ATTENTION_HEAD], text[-ATTENTION_TAIL:]
    # Cut at spaces, so no half word ("Osl") is read as a word of its own.
    head = head[: max(head.rfind(" "), head.rfind("\n"), ATTENTION_HEAD // 2)]
    tail = tail[min((i for i in (tail.find(" "), tail.find("\n")) if i >= 0), default=0) :]
    return f"{head}\n…\n{tail.lstrip()}"


@cache
def load(name: str) -> dict[str, Any]:
    """One data file from agent_core/sim/data, parsed once."""
    data: dict[str, Any] = json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))
    return data


@text_cache
def fold(text: str) -> str:
    """Lower case without accents, so 'Łódź', 'lodz' and 'ЁЛКА'/'елка' compare equal."""
    if text.isascii():
        return text.lower()  # NFKD leaves ASCII alone; the slow path costs ~1 µs a character
    text = unicodedata.normalize("NFKD", text.lower().replace("ł", "l"))
    # Test each distinct character once, not every character: texts repeat the few letters they use.
    marks = [ord(ch) for ch in set(text) if unicodedata.combining(ch)]
    return text.translate(dict.fromkeys(marks)) if marks else text


def words(text: str) -> list[str]:
    """Folded word tokens (letters and digits; punctuation and apostrophes split words)."""
    return list(_words(text))


@text_cache
def _words(text: str) -> tuple[str, ...]:
    # A tuple, so no caller can change what the next caller gets; the same texts come back every turn.
    return tuple(_WORD.findall(fold(text)))


# A light stemmer for the three languages: the longest of these endings goes, if 3 letters stay. It only has to
# be consistent: "логах" and "лог", "orders" and "order", "zamówienia" and "zamówienie" come down to one stem.
_ENDINGS = tuple(
    sorted(
        {
            *"ami ach owi ego emu ych ich ing ed es ow om em ie ym im s y i a o u e".split(),
            *"иями ями ами иях ого его ому ему ыми ими ах ях ов ев еи ои ии ыи ая яя ое ее ые ие ом ем ам ям ую юю ть"
            " ся а я о е ы и у ю ь".split(),
        },
        key=len,
        reverse=True,
    )
)


@lru_cache(maxsize=8192)
def stem(token: str) -> str:
    """A folded word without its inflection ending (see _ENDINGS); short words stay whole."""
    if len(token) <= 3:
        return token
    for ending in _ENDINGS:
        if token.endswith(ending) and len(token) - len(ending) >= 3:
            return token[: -len(ending)]
    return token


def stems_match(a: str, b: str) -> bool:
    """Two stems mean the same word: equal, or one (of 4+ letters) starts the other and the data tells them
    apart in no way (see _apart)."""
    if a == b:
        return True
    short, long = (a, b) if len(a) <= len(b) else (b, a)
    return len(short) >= 4 and long.startswith(short) and not _apart(short, long)


@cache
def _meanings() -> dict[str, frozenset[str]]:
    """Each one-word entry of the synonym table (concepts.json), as written and by its stem: the concepts it names."""
    found: dict[str, set[str]] = {}
    for concept, items in load("concepts")["concepts"].items():
        for item in items:
            said = words(item)
            if len(said) == 1:
                for form in {said[0], stem(said[0])}:
                    found.setdefault(form, set()).add(concept)
    return {k: frozenset(v) for k, v in found.items()}


@lru_cache(maxsize=4096)
def _apart(short: str, long: str) -> bool:
    """A word that starts a longer one is no form of it when the synonym table gives the longer one a meaning the
    shorter lacks, the shorter being a stop word or a word of other concepts: 'check' is not 'checkout' (switch),
    'konto' (user) not 'kontakt' (contact), 'logi' (logs) not 'login'. Inflections ('отмен', 'отменяет') and words
    the table leaves out keep matching."""
    table = _meanings()
    theirs = table.get(long) or table.get(stem(long))
    if not theirs:
        return False
    mine = table.get(short) or table.get(stem(short))
    if mine is None:
        return short in word_set("stopwords") or short in _stop_stems()
    return not mine & theirs


@cache
def _stop_stems() -> frozenset[str]:
    return frozenset(stem(w) for w in word_set("stopwords"))


@dataclass(frozen=True)
class Keyword:
    """A keyword or phrase from the word lists, ready to match folded tokens."""

    text: str
    tokens: tuple[str, ...]
    exact: bool


def _token_hit(token: str, key: str, exact: bool) -> bool:
    return token == key or (not exact and len(key) >= 4 and token.startswith(key) and not _apart(key, token))


@cache
def keywords(items: tuple[str, ...]) -> tuple[Keyword, ...]:
    """Compile a word list: '=word' matches whole words only, see lexicon.json."""
    out = []
    for item in items:
        exact = item.startswith("=")
        tokens = tuple(words(item.lstrip("=")))
        if tokens:
            out.append(Keyword(item.lstrip("="), tokens, exact))
    return tuple(out)


def _at(tokens: Sequence[str], start: int, key: Keyword) -> bool:
    window = tokens[start : start + len(key.tokens)]
    return len(window) == len(key.tokens) and all(
        _token_hit(t, k, key.exact) for t, k in zip(window, key.tokens, strict=False)
    )


@dataclass(frozen=True)
class _Index:
    """A compiled word list, looked up from the text's side: a text has far fewer words than a list has keys."""

    texts: tuple[str, ...]
    whole: dict[str, tuple[int, ...]]  # one-word keys by the word itself
    loose: dict[str, tuple[int, ...]]  # one-word keys that are not exact, by their stem ('лог' finds 'логах')
    starts: dict[str, tuple[tuple[int, str], ...]]  # one-word keys that also match longer words, by first 4 letters
    phrases: tuple[tuple[int, Keyword], ...]
    # The first 3 letters of every key's first word: a token that starts otherwise can hit no key (a word, its stem
    # or a longer word all share them), so most words of a text are dropped at once.
    prefixes: frozenset[str]


@lru_cache(maxsize=1024)
def _index(items: tuple[str, ...]) -> _Index:
    whole: dict[str, list[int]] = {}
    loose: dict[str, list[int]] = {}
    starts: dict[str, list[tuple[int, str]]] = {}
    phrases = []
    compiled = keywords(items)
    for i, key in enumerate(compiled):
        word = key.tokens[0]
        if len(key.tokens) > 1:
            phrases.append((i, key))
            continue
        whole.setdefault(word, []).append(i)
        if not key.exact:
            loose.setdefault(stem(word), []).append(i)
        if not key.exact and len(word) >= 4:
            starts.setdefault(word[:4], []).append((i, word))
    return _Index(
        tuple(k.text for k in compiled),
        {k: tuple(v) for k, v in whole.items()},
        {k: tuple(v) for k, v in loose.items()},
        {k: tuple(v) for k, v in starts.items()},
        tuple(phrases),
        frozenset(key.tokens[0][:3] for key in compiled),
    )


HITS_CACHE_TOKENS = 2_000  # token lists up to this long have their hits cached (the same texts come every turn)


def hits(tokens: list[str] | tuple[str, ...], items: list[str] | tuple[str, ...]) -> list[str]:
    """The distinct keywords of a word list found in a token list (phrases as consecutive words), in list order."""
    said = tuple(tokens)
    if len(said) > HITS_CACHE_TOKENS:
        return list(_hits(said, tuple(items)))
    return list(_cached_hits(said, tuple(items)))  # a new list: a caller may change its copy


@lru_cache(maxsize=8192)
def _cached_hits(tokens: tuple[str, ...], items: tuple[str, ...]) -> tuple[str, ...]:
    return _hits(tokens, items)


def _hits(tokens: tuple[str, ...], items: tuple[str, ...]) -> tuple[str, ...]:
    index = _index(items)
    unique = {t for t in tokens if t[:3] in index.prefixes}
    if not unique:
        return ()
    found: set[int] = set()
    for token in unique:
        found.update(index.whole.get(token, ()))
        found.update(index.loose.get(stem(token), ()))
        found.update(
            i for i, word in index.starts.get(token[:4], ()) if token.startswith(word) and not _apart(word, token)
        )
    if index.phrases:
        prefixes = {t[:4] for t in unique}  # a cheap first filter: most phrases share no 4-letter start with the text
        for i, key in index.phrases:
            first = key.tokens[0]
            if first[:4] in prefixes and any(
                _token_hit(t, first, key.exact) and _at(tokens, n, key) for n, t in enumerate(tokens)
            ):
                found.add(i)
    return tuple(index.texts[i] for i in sorted(found))


def first_hit(tokens: list[str], items: list[str]) -> int | None:
    """Position of the earliest keyword of a word list in a token list."""
    found = [i for key in keywords(tuple(items)) for i in range(len(tokens)) if _at(tokens, i, key)]
    return min(found, default=None)


def lexicon() -> dict[str, Any]:
    """The word lists (intents, slots, stop words, ...)."""
    return load("lexicon")


@text_cache  # the question and the earlier turns, read again on every turn
def detect_language(text: str) -> str:
    """en, ru or pl, by alphabet, Polish letters and Polish function words; names and code do not count."""
    prose = _NOT_PROSE.sub(" ", text)
    prose = prose if _LETTER.search(prose) else text
    cyrillic, latin = len(_CYRILLIC.findall(prose)), len(_LATIN.findall(prose))
    # Nobody writes Russian words into an English question; English names do go into Russian ones ("у Project
    # Falcon"), so a good share of Cyrillic is enough.
    if cyrillic and cyrillic >= 0.4 * (cyrillic + latin):
        return "ru"
    tokens = words(prose)
    polish = len(hits(tokens, lexicon()["polish_markers"]))
    english = len(hits(tokens, lexicon()["english_markers"]))
    # The function words decide; Polish letters only break a tie ("Łódź?"), since "in Łódź" is still English.
    return "pl" if polish > english or (polish == english and _POLISH_LETTERS.search(prose)) else "en"


@cache
def number_words() -> tuple[dict[str, int], dict[str, int]]:
    """Number words ('two', 'шестнадцать', 'dwa') and scale words ('hundred', 'тысяча'), folded, with values."""
    data = load("numbers")
    return {fold(k): v for k, v in data["values"].items()}, {fold(k): v for k, v in data["scales"].items()}


def _is_number_word(token: str) -> bool:
    values, scales = number_words()
    return token.isdigit() or token in values or token in scales


@cache
def _conjunctions() -> re.Pattern[str]:
    conj = sorted(lexicon()["conjunctions"], key=len, reverse=True)
    # Lower-case 'i' only: the Polish 'and', not the English 'I'.
    return re.compile(r"\s+(?:(?i:" + "|".join(re.escape(c) for c in conj if c != "i") + r")|i)\s+")


def split_clauses(text: str) -> list[str]:
    """Sentences, then parts joined by 'and'-like words; never split 'sum of 3 and 4'."""
    return list(_split_clauses(text))


_EMAIL_END = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+\s*,?\s*$")
_EMAIL_START = re.compile(r"\s*[\w.+-]+@[\w-]+(?:\.[\w-]+)+")


@text_cache
def _split_clauses(text: str) -> tuple[str, ...]:
    pattern = _conjunctions()
    english = "i" in text.split() and detect_language(text) == "en"  # 'do i have ...' typed in lower case: I
    clauses = []
    for sentence in _SENTENCES.split(text):
        start = 0
        for match in pattern.finditer(sentence):
            if english and match.group().strip() == "i":
                continue
            # Only the words touching the conjunction matter; reading all of each side made long sentences quadratic.
            left = _WORD.findall(sentence[max(0, match.start() - _NEIGHBOUR) : match.start()])
            right = _WORD.findall(sentence[match.end() : match.end() + _NEIGHBOUR])
            if left and right and _is_number_word(fold(left[-1])) and _is_number_word(fold(right[0])):
                continue
            if left and right and any(fold(w) in word_set("pair_words") for w in left[-3:-1]):
                continue  # 'the difference between UTC and GMT': one pair, not two requests
            if _EMAIL_END.search(sentence[: match.start()]) and _EMAIL_START.match(sentence[match.end() :]):
                continue  # 'an email to ilan@example.com and katia@example.com saying hi': one request, two recipients
            clauses.append(sentence[start : match.start()])
            start = match.end()
        clauses.append(sentence[start:])
    return tuple(c.strip() for c in clauses if c.strip())


def content_words(text: str) -> list[str]:
    """Words that carry meaning (not stop words), in their original spelling and order ('Python 3.14': one word)."""
    stop, found = word_set("stopwords"), re.findall(r"(?<![\d.])\d+(?:\.\d+)+(?![\d.])|[^\W_]+", text)
    return [w for w in found if fold(w) not in stop and len(w) > 1]


def query_drop(tokens: list[str]) -> frozenset[str]:
    """The words a search query leaves out: 'search', 'find', and 'web' or 'internet' where a verb searches it
    ('Search the web for ...'); with no such verb the internet is what is asked about ('есть ли на борту интернет')."""
    searches = any(stem(t) in word_set("search_verbs") or t in word_set("search_verbs") for t in tokens)
    return word_set("query_drop") if searches else word_set("query_drop") - word_set("query_media")


@cache
def word_set(name: str) -> frozenset[str]:
    """A lexicon word list as a set of folded words."""
    return frozenset(words(" ".join(lexicon()[name])))


# ---- other values in text --------------------------------------------------------------------------
WEB = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+|\bhttps?://\S+|\bwww\.\S+")
_DOMAINS = {"com", "org", "net", "io", "ru", "pl", "de", "uk", "edu", "gov", "dev", "ai", "co", "app", "info"}


_WEB_OR_PATH = re.compile(WEB.pattern + "|" + PATH.pattern)  # web addresses first: no path is read inside one


def extract_paths(text: str) -> list[str]:
    """File names with an extension, in order: 'app.log', 'docs/notes.txt' (not the gmail.com of an e-mail)."""
    return list(dict.fromkeys(m.group(1) for m in _WEB_OR_PATH.finditer(text) if _is_path(m.group(1))))


@text_cache
def paths_as_files(text: str) -> str:
    """Each file name read as 'file' (as extract_paths finds them): '/srv/lists/home.md' asks no listing, nor does
    a folder said beside it ('changelog.md in my projects folder': where the file lies)."""
    read = _WEB_OR_PATH.sub(lambda m: " file " if _is_path(m.group(1)) else m.group(), text)
    return _folder_words().sub(" ", read) if read != text else read


@cache
def _folder_words() -> re.Pattern[str]:
    said = lexicon()["folder_words"]["words"]
    alts = "|".join(re.escape(w.rstrip("*")) + (r"\w*" if w.endswith("*") else "") for w in said)
    return re.compile(rf"(?<![\w/.-])(?:{alts})(?![\w/.-])", re.I)


def _is_path(found: str | None) -> bool:
    return found is not None and (found.rsplit(".", 1)[-1].lower() not in _DOMAINS or "/" in found)


def extract_ticker(text: str) -> str | None:
    """A stock ticker: a word of 2-5 capital letters that is not a common abbreviation."""
    return next((t for t in _TICKER.findall(text) if t not in _NOT_TICKERS), None)


def closest(value: str, options: list[str]) -> str | None:
    """The option most like value (for 'Available files: ...' lists), if any is reasonably close."""
    scored = [(difflib.SequenceMatcher(None, fold(value), fold(o)).ratio(), o) for o in options if o]
    best = max(scored, default=(0.0, None))
    return best[1] if best[0] >= 0.5 else None


# ---- what the model says ----------------------------------------------------------------------------


def say(key: str, lang: str, **values: object) -> str:
    """A reply template from phrases.json ('task.weather'), filled in, in the given language."""
    node = load("phrases")
    for part in key.split("."):
        node = node[part]
    template: str = node.get(lang) or node["en"]
    return template.format(**values)


def quote(text: str, lang: str) -> str:
    """Quotation marks the way each language writes them."""
    return say("quote", lang, x=text)


def join_list(items: list[str], lang: str) -> str:
    """'a, b and c' in the given language."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {say('and', lang)} " + items[-1]
