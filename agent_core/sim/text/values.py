"""Values the simulated model finds in text for a tool's parameters: IDs, e-mails, message parts, money, zones, folders."""

from __future__ import annotations

import re
from fractions import Fraction
from functools import cache

from agent_core.sim.text import gazetteer
from agent_core.sim.text import language as lx

_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_QUOTE = re.compile(
    r"'([^'\n]{1,300})'(?!\w)|\"([^\"\n]{1,300})\"|“([^”\n]{1,300})”|„([^”\n]{1,300})”|«([^»\n]{1,300})»"
)
# An identifier: letters then digits (C1, O2, ORD-1234, INV2024-7), or a number after '#'.
_ID = re.compile(r"(?<![\w@.#/-])(?:#\s?(\d{1,12})|([A-Za-z]{1,5}-?\d{1,12}(?:-\d+)?)(?![\w.]\w))")
_BARE = re.compile(r"(?<![\w.,#-])(\d{3,12})(?![\w.,]\d)")
# Booking codes and seats: 'HG52KD', 'QX7P2M' (capitals and digits mixed), '12C' (a row and a seat letter)
_KEY = r"[A-Z][A-Z0-9]{1,15}-(?=[A-Z0-9]*\d)[A-Z0-9]{1,10}"  # a project's key and a number: 'WEBSHOP-3K', 'PAY-1042'
_CODE = re.compile(rf"(?<![\w@.#/-])((?=[A-Z0-9]*\d)(?=[A-Z0-9]*[A-Z])[A-Z0-9]{{5,8}}|\d{{1,2}}[A-K]|{_KEY})(?![\w-])")
_SEAT = re.compile(r"\d{1,2}[A-K]")
# Numbers as people write them: 1,984,135 (English), 1 984 135 or 1.984.135 (Russian, Polish), 2.5 / 2,5; two
# comma groups or more ('1,984,135') cannot be a decimal comma, so they group thousands in every language (spaces: _THIN_GROUPS).
_GROUPED = {
    "en": re.compile(r"(?<![\d.,])\d{1,3}(?:,\d{3})+(?![\d,]|\.\d)|(?<![\d.,])\d{1,3}(?:\.\d{3}){2,}(?![\d.])"),
    "other": re.compile(r"(?<![\d.,])\d{1,3}(?:(?:\.\d{3})+(?![\d.]|,\d)|(?:,\d{3}){2,}(?![\d,]|\.\d))"),
}
_THIN_GROUPS = re.compile(r"(?<![\d.,])\d{1,3}(?:[  ]\d{3})+(?![\d])")
_NUMBER = re.compile(r"(?<![\w.])-?\d+(?:[.,]\d+)?")
_PATHLIKE = re.compile(r"(?<![\w])(~?/[\w./-]*|\.{1,2}/[\w./-]*|[\w-]+/(?:[\w-]+/?)*)(?![\w])")
_ENDS = " \t\n.?!,;:"


def normalise_numbers(text: str, lang: str) -> str:
    """Digit groups joined ('1,984,135' -> '1984135' in English; '1 984 135', '1.984.135' in every language)."""
    text = _GROUPED["en" if lang == "en" else "other"].sub(lambda m: re.sub(r"[,.  ]", "", m.group()), text)
    return _THIN_GROUPS.sub(lambda m: re.sub(r"[  ]", "", m.group()), text)


def numbers(text: str) -> list[str]:
    """Numbers written with digits, in order, grouping removed and ',' decimals as '.'."""
    plain = normalise_numbers(text, lx.detect_language(text))
    return [n.replace(",", ".") for n in _NUMBER.findall(plain)]


def quoted(text: str) -> list[tuple[int, str]]:
    """Quoted passages with where they start: 'Lunch', "Lunch", “Lunch”, „Lunch”, «Обед»."""
    return [(m.start(), next(g for g in m.groups() if g is not None)) for m in _QUOTE.finditer(text)]


# ---- identifiers ----------------------------------------------------------------------------------


def _ids(text: str) -> list[tuple[int, str]]:
    found = [(m.start(), m.group(1) or m.group(2)) for m in _ID.finditer(text) if not _EMAIL.match(text, m.start())]
    taken = {pos for pos, _ in found}
    found += [(m.start(), m.group(1)) for m in _BARE.finditer(text) if m.start() not in taken]
    spans = [(m.start(), m.end()) for m in (*_ID.finditer(text), *_BARE.finditer(text))]
    found += [
        (m.start(), m.group(1))
        for m in _CODE.finditer(text)
        if not any(s < m.end() and m.start() < e for s, e in spans)
    ]
    return sorted((p, v) for p, v in found if not re.fullmatch(r"[A-Za-z]+", v))


_MARKERS = {"no", "nr", "number", "num", "id", "номер", "numer", "n", "is", "это", "jest", "to"}
_ENTITIES = frozenset({"order", "customer", "product", "booking", "user", "note", "file", "email", "seat"})


def _word_before(text: str, pos: int) -> str | None:
    """The word just before an ID, skipping 'number' / 'no.' / '#'."""
    for word in reversed(lx.words(text[max(0, pos - 40) : pos])[-3:]):
        if word not in _MARKERS:
            return word
    return None


def identifier(
    text: str, param: str, integer: bool = False, skip: tuple[tuple[int, int], ...] = (), labelled: bool = False
) -> str | None:
    """The ID a parameter like order_id wants: after a word for 'order', else starting with O, else a free one
    (labelled: only one after a word for its thing). Nothing inside skip (an e-mail, a phone number, a date) is an ID."""
    entity = [w for w in lx.words(re.sub(r"(?<=[a-z])(?=[A-Z])", " ", param)) if w not in ("id", "ids", "number")]
    found = [(p, v) for p, v in _ids(text) if (not integer or v.isdigit()) and not any(s <= p < e for s, e in skip)]
    if not found:
        return None
    topic = {c for w in entity for c in _concepts(w)}
    free = []
    for pos, value in found:
        before = _word_before(text, pos)
        if before is None:
            free.append(value)
            continue
        if any(lx.stems_match(lx.stem(before), lx.stem(e)) for e in entity) or topic & _concepts(before):
            return value
        if labelled:
            continue
        if _SEAT.fullmatch(value) and "seat" not in topic:
            continue  # 'put me in 14C': a row and a seat letter is a seat, no confirmation number
        if not (_concepts(before) & _ENTITIES):
            free.append(value)  # "cancel O1": nothing says it belongs to something else
    if labelled:
        return None
    initials = {e[0] for e in entity}
    by_letter = [v for _, v in found if v[0].isalpha() and lx.fold(v[0]) in initials]
    return by_letter[0] if by_letter else free[0] if free else None


def _concepts(word: str) -> frozenset[str]:
    from agent_core.sim.text.meaning import concepts  # meaning imports nothing of ours; late import keeps them apart

    return concepts(word)


# ---- parts of a message ---------------------------------------------------------------------------

_SUBJECT = re.compile(
    r"(?:subject(?: line)?|titled|title|тем(?:ой|а|у)|заголов\w*|temat(?:em)?|tytuł(?:em)?)\s*:?\s*", re.I
)
_BODY = re.compile(
    r"(?:\bsaying(?: that)?|\bthat says|\btelling (?:him|her|them)(?: that)?|\bwith the (?:text|message|body)"
    r"|\bbody\s*:?|\bmessage\s*:|\btext\s*:|(?<=comment)\s*:|(?<=reply)\s*:|(?<=write)\s*:|(?<=say)\s*:|(?<=комментарий)\s*:"
    r"|(?<=комментария)\s*:|(?<=текст)\s*:|(?<=напиши)\s*:|(?<=ответь)\s*:|(?<=komentarz)\s*:"
    r"|(?<=komentarza)\s*:|(?<=сообщение)\s*:|(?<=wiadomość)\s*:|(?<=wiadomosc)\s*:|(?<=treść)\s*:|(?<=napisz)\s*:|(?<=odpowiedz)\s*:"
    r"|(?<=\bnote)\s*:|(?<=notatkę)\s*:|(?<=заметку)\s*:|\bremember that"
    r"|(?<!\ba )(?<!\bthe )\bnote that|\bwrite down that"
    r"|(?:с )?текстом|(?:с )?содержанием|сообщи(?:в|те|ть)?,? что|напиши,? что|о том,? что|запомни,? что"
    r"|\bz treścią|\bo treści|\bpisząc,? że|\bże|\bzapamiętaj,? że|\bzanotuj,? że|\bnotatk\w* o treści"
    r"|\bcontaining|\bwith (?:the )?contents?|содержащ\w*|с содержимым|zawierając\w*|z zawartością)\s*:?\s*",
    re.I,
)
_PROGRESSIVE = re.compile(r"\b(?:are|is|am|were|was)\s+(?:\w+\s+){0,2}$", re.I)
_CONTENT = re.compile(r"containing|with (?:the )?contents?|содержащ|с содержимым|zawierając|z zawartością", re.I)
_LEADING_VERB = re.compile(
    r"^(?:please\s+|пожалуйста,?\s+|proszę\s+)?(?:save|add|create|write|store|take|make|jot down|"
    r"сохрани|добавь|создай|запиши|запомни|zapisz|dodaj|utwórz|zanotuj|zapamiętaj)\s+"
    r"(?:(?:a|an|the|new|this|эту|новую|nową|tę)\s+)?(?:note|notatk\w*|заметк\w*|memo|reminder)?\s*"
    r"(?:that|saying|about|:|,|что|о том,? что|że|o)?\s*",
    re.I,
)


def _clean(text: str) -> str:
    return text.strip().strip(_ENDS).strip()


@lx.text_cache
def _body_at(text: str) -> tuple[int, str] | None:
    """Where the words that dictate a message end, and those words: the search runs once per text."""
    match = _BODY.search(text)
    return (match.end(), match.group()) if match else None


def continues_message(clause: str) -> bool:
    """The clause dictates a message ('saying that ...', 'что ...', 'że ...'): what follows is more of it."""
    return _body_at(clause) is not None or bool(quoted(clause))


_LEAD_IN = re.compile(r"^\W*(?:(?:and|with|the|a|its|и|с|со|а|i|z|ze|o|oraz)\s+)*", re.I)


def labels_part(clause: str) -> bool:
    """'... and body 'We move the meeting'', 'и текстом «…»', 'i treści '…'': a clause that only names a part of the
    message before it and quotes it (lexicon message_part_labels) is no request of its own."""
    found = quoted(clause)
    if not found:
        return False
    head = _LEAD_IN.sub("", clause[: found[0][0]]).strip(" :'\"„«“”»").split()
    labels = lx.lexicon()["message_part_labels"]
    return 0 < len(head) <= 2 and lx.fold(head[0]).startswith(tuple(lx.fold(w) for w in labels))


@lx.text_cache  # a search with many lookbehinds, run for every need on every turn
def request_part(clause: str) -> str:
    """The clause without the message it dictates ('Save a note that says: Meeting moved to Friday' -> 'Save a
    note'): what the user asks for, not the words to write."""
    match = _BODY.search(clause)
    if match and _PROGRESSIVE.search(clause[: match.start()]) and match.group().lower().startswith("saying"):
        match = None  # 'What are people saying in the comments?' asks what was said, it dictates nothing
    head = clause[: match.start()] if match else clause
    # '..., please remember that.' dictates nothing: 'that' points back at the fact said before it
    dictated = match is not None and bool(lx.content_words(clause[match.end() :]))
    return head if dictated and lx.content_words(head) else clause


MAX_SUBJECT_WORDS = 6
MAX_TITLE_GAP = 6  # words between a title word and its quoted title: "the title of issue 43 in octo-org/webshop to"


def subject_from(body: str) -> str | None:
    """A subject a writer makes up for a message: its first phrase, a few words ('hi' -> 'Hi',
    'Weather in Paris: 14°C, light rain' -> 'Weather in Paris')."""
    first = re.split(r"[:.!?\n,;]", body.strip(), maxsplit=1)[0].split()
    if not first:
        return None
    text = " ".join(first[:MAX_SUBJECT_WORDS])
    return text[0].upper() + text[1:]


def subject(text: str) -> str | None:
    """A message's subject: the quoted text after 'subject' / 'тема' / 'temat' (or a few words on: 'the title of
    issue 43 to "Dark mode"', 'tytuł zgłoszenia 43 na „Tryb ciemny”'), else the words after it."""
    quotes = quoted(text)
    spans = [(pos, pos + len(value) + 2) for pos, value in quotes]
    matches = [m for m in _SUBJECT.finditer(text) if not any(a <= m.start() < b for a, b in spans)]
    if not matches:
        return None
    match = matches[0]
    for pos, value in quotes:
        if 0 <= pos - match.end() <= 2:
            return value
    for pos, value in quotes:
        between = text[match.end() : pos]
        if pos > match.end() and len(between.split()) <= MAX_TITLE_GAP and not re.search(r"[.;!?\n]\s", between):
            return value
    rest = re.split(r"\s+(?:saying|that|and|и|что|i|że)\b|[,.;!?]", text[match.end() :], maxsplit=1)[0]
    return _clean(rest) or None


def _after_body_word(before: str) -> bool:
    """The words before a quote name a message's text: 'comment', 'комментарий', 'z treścią' (lexicon body_words)."""
    last = lx.words(before)[-1:]
    return bool(last) and any(last[0].startswith(w) for w in lx.lexicon()["body_words"])


def body(text: str, taken: tuple[str, ...] = (), loose: bool = True) -> str | None:
    """A message's or a note's text: after 'saying' / 'что' / 'że', a quoted passage, or (loose: a required text)
    what follows the verb."""
    found = _body_at(text)
    if found:
        end, said = found
        for pos, value in quoted(text):
            if 0 <= pos - end <= 2:
                return value
        if _CONTENT.match(said) and said.rstrip().endswith(":") and text[end:].strip():
            return text[end:].strip()  # "containing: Hello, world!" is a file's content, as written
        rest = _clean(text[end:])
        if rest:
            return rest
    if not loose:
        return None
    spare = [(pos, v) for pos, v in quoted(text) if v not in taken]
    labelled = [v for pos, v in spare if _after_body_word(text[:pos])]
    if spare:
        return labelled[0] if labelled else spare[-1][1]  # 'комментарий «Проверю завтра» в issue «Search ...»'
    rest = _clean(_LEADING_VERB.sub("", text.strip(), count=1))
    return rest if rest and rest != _clean(text) else None


def body_before(text: str, reply: str, taken: tuple[str, ...] = (), loose: bool = True) -> str | None:
    """The message a request dictates, without the user's reply to the model's question read with it ('Save a note
    that says: Meeting moved to Friday.' + 'Call it meeting.txt'): the reply is the message only when the request
    gives none."""
    if reply.strip() and text.rstrip().endswith(reply.strip()):
        found = body(text.rstrip()[: -len(reply.strip())], taken, loose=False)
        if found:
            return found
    return body(text, taken, loose=loose)


# ---- money, companies, zones, folders --------------------------------------------------------------


@cache
def _currency_stems() -> tuple[tuple[str, str], ...]:
    out = []
    for code, names in lx.load("entities")["currencies"].items():
        for name in names:
            out.append((name, code))
    return tuple(out)


def currencies(text: str) -> list[tuple[int, str]]:
    """ISO 4217 codes named in text (US dollars -> USD, евро -> EUR, złotych -> PLN), with where they stand."""
    found: list[tuple[int, str]] = []
    folded = lx.fold(text)
    for name, code in _currency_stems():
        if not name.isalpha():
            found += [(m.start(), code) for m in re.finditer(re.escape(lx.fold(name)), folded)]
            continue
        key = lx.stem(lx.fold(name))
        for m in re.finditer(r"[^\W\d_]+", folded):
            word = m.group()
            if (word == lx.fold(name)) or (len(key) >= 3 and lx.stem(word) == key):
                found.append((m.start(), code))
    out: list[tuple[int, str]] = []
    for pos, code in sorted(found):
        if not out or out[-1][1] != code or pos - out[-1][0] > 12:
            out.append((pos, code))
    return out


def currency_pair(text: str) -> tuple[str | None, str | None]:
    """(from, to): the currency next to the amount is the one converted from, the other the one converted to."""
    named = currencies(text)
    if not named:
        return None, None
    amount = re.search(r"\d", text)
    if amount is None or len(named) == 1:
        return (named[0][1], None) if len(named) == 1 and amount else (named[0][1], named[1][1] if named[1:] else None)
    source = min(named, key=lambda n: abs(n[0] - amount.start()))
    other = next((code for _, code in named if code != source[1]), None)
    return source[1], other


@cache
def _companies() -> tuple[tuple[str, str], ...]:
    pairs = [(lx.fold(name), ticker) for ticker, names in lx.load("entities")["companies"].items() for name in names]
    return tuple(sorted(pairs, key=lambda p: len(p[0]), reverse=True))


def ticker(text: str) -> str | None:
    """A ticker written in capitals (MSFT), else the ticker of a company named in text (Apple -> AAPL)."""
    written = lx.extract_ticker(text)
    if written:
        return written
    words = set(lx.words(text))
    stems = {lx.stem(w) for w in words}
    for name, symbol in _companies():
        parts = lx.words(name)
        if len(parts) == 1 and (parts[0] in words or lx.stem(parts[0]) in stems):
            return symbol
        if len(parts) > 1 and name in lx.fold(text):
            return symbol
    return None


def time_zone(text: str) -> str | None:
    """The IANA zone of the first known city in text ('in Tokyo' -> 'Asia/Tokyo'), or a zone written out."""
    written = re.search(r"\b(?:[A-Z][a-z]+/[A-Z][A-Za-z_]+(?:/[A-Z][A-Za-z_]+)?|UTC|GMT)\b", text)
    if written:
        return written.group()
    zones = lx.load("entities")["zones"]
    return next((zones[c.name] for c in gazetteer.find_cities(text) if c.name in zones), None)


_FOLDER_WORDS = r"(?:folder|directory|dir|папк\w*|каталог\w*|директори\w*|folder\w*|katalog\w*)"
_FOLDER_THEN_NAME = re.compile(
    rf"{_FOLDER_WORDS}\s+(?:(?:named|called|под названием|o nazwie)\s+)?[`'\"“«„]?([\w./~-]+)[`'\"”»]?", re.I
)
_NAME_THEN_FOLDER = re.compile(rf"\b([\w.-]+)\s+{_FOLDER_WORDS}\b", re.I)
_HERE = re.compile(
    r"current (?:folder|directory)|this (?:folder|directory)|текущ\w+ (?:папк|каталог|директор)|"
    r"bieżąc\w+ (?:folder|katalog)|tym (?:folderze|katalogu)",
    re.I,
)
_IN_FOLDER = re.compile(
    rf"{_FOLDER_WORDS}\s+(?:(?:named|called|под названием|o nazwie)\s+)?[`'\"“«„]?([\w.-]+)[`'\"”»]?\s+"
    r"(?:in|inside|under|within|в|во|внутри|w|we|wewnątrz)\s*$",
    re.I,
)
_NOT_FOLDERS = {"the", "a", "this", "that", "my", "which", "what", "current", "в", "w", "home", "each", "every"} | {
    "какой",
    "какая",
    "какие",
    "каким",
    "какую",
    "каких",
    "какой-то",
    "jaki",
    "jakie",
    "jakich",
    "którym",
    "które",
    "który",
}  # "К каким папкам у тебя есть доступ?" names no folder
_PLURAL_FOLDERS = re.compile(
    r"(?:папк(?:ам|ах|ами|и|ок)|каталог(?:ам|ах|ами|и|ов)|folder(?:ów|ach|ami|y|s)|katalog(?:ów|ach|ami|i))\b", re.I
)


def known_file(text: str) -> str | None:
    """'Show me the README': the file a bare well-known name stands for (README.md)."""
    table = lx.load("entities")["known_files"]
    return next((str(table[w]) for w in lx.words(text) if w in table and not w.startswith("_")), None)


def directory(text: str) -> str | None:
    """A folder the text names: a path ('/var/log', 'src/'), 'the docs folder', 'папка docs'; '.' for the current one."""
    path = _PATHLIKE.search(text)
    if path and not lx.extract_paths(path.group()):
        inside = _IN_FOLDER.search(text[: path.start()])  # "папку reports в /home/ann/projects": the new one inside
        name = inside.group(1).strip(".") if inside else ""
        if name and lx.fold(name) not in _NOT_FOLDERS and "/" not in name:
            return f"{path.group().rstrip('/')}/{name}"
        return path.group()
    if _HERE.search(text):
        return "."
    for pattern in (_FOLDER_THEN_NAME, _NAME_THEN_FOLDER):
        for match in pattern.finditer(text):
            if pattern is _FOLDER_THEN_NAME and _PLURAL_FOLDERS.match(match.group()):
                continue  # "Do jakich folderów masz dostęp?": a word after 'folders' is no folder's name
            name = match.group(1).strip(".")
            if name and lx.fold(name) not in _NOT_FOLDERS and lx.fold(name) not in lx.word_set("stopwords"):
                return name
    return None


@cache
def _fractions() -> tuple[frozenset[str], frozenset[str], dict[str, int]]:
    data = lx.load("numbers")["fractions"]
    points, ands = (frozenset(lx.fold(w) for w in data[key]) for key in ("point", "and"))
    return points, ands, {lx.fold(k): v for k, v in data["denominators"].items()}


def decimal(whole: int, gap: str, part: int, after: str) -> tuple[Fraction, bool] | None:
    """A decimal said in words, once its numbers are digits: 98 'point' 6, or 98 'и' 6 'десятых' (the bool: the
    word after the part, its denominator, belongs to the number); None when the words say no decimal."""
    points, ands, denominators = _fractions()
    if lx.fold(gap) in points:
        return Fraction(whole) + Fraction(part, 10 ** len(str(part))), False
    places = denominators.get(lx.fold(after))
    if lx.fold(gap) in ands and places and part < 10**places:
        return Fraction(whole) + Fraction(part, 10**places), True
    return None


def only_place(clause: str) -> bool:
    """'In octo-org/webshop', 'W /home/ann/projects/app': a repository or a folder and nothing else."""
    rest = re.sub(
        r"[\w.-]+/[\w./-]+|/[\w./-]+",
        " ",
        re.sub(r"^\s*(?:in|at|for|в|во|на|w|we|po)?\s*", "", clause, count=1, flags=re.I),
    )
    return rest != clause and not lx.content_words(rest)


def names_file(clause: str) -> bool:
    """'Покажи README': a well-known file named by a bare word is the clause's own object."""
    table = lx.load("entities")["known_files"]
    return any(w in table for w in lx.words(clause))


def asks_when(clause: str) -> bool:
    """'How many errors are in app.log, **and at what times?** / i o której godzinie wystąpiły?': a clause that only
    asks when (lexicon.json 'when_only'), of what the clause before finds (then only 'when_tail' words), no task."""
    said = lx.words(clause)
    return any(
        said[: len(w.split())] == w.split() and set(said[len(w.split()) :]) <= lx.word_set("when_tail")
        for w in lx.lexicon()["when_only"]
    )


def belongs_before(clause: str) -> bool:
    """A clause that only says more of the one before: it asks when that happened (asks_when), or it is a relative
    clause in a case no question opens with ('walizka, **którą zabieram**', 'файл, **которого** нет'; 'relative_words')."""
    said = clause.lower().split()  # not folded: 'którą zabieram' says more of a noun, 'która godzina?' asks
    return asks_when(clause) or any(said[: len(w.split())] == w.split() for w in lx.lexicon()["relative_words"])
