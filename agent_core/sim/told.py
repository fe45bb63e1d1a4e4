"""Answers told from results written as text, in the user's language: the errors of a log when those are asked,
key: value lines as a record, a short confirmation as the action done, a short text as it came."""

from __future__ import annotations

import re

from agent_core.sim import acks, gist, phrasing, prose, retell
from agent_core.sim.compose import MAX_RECORDS, QUOTE_LIMIT, record_line, subject
from agent_core.sim.text import facts, gazetteer, meaning
from agent_core.sim.text import language as lx
from agent_core.sim.text.language import say
from agent_core.sim.text.reader import Need, View
from agent_core.sim.weather import CLOCK, weather_line
from agent_core.sim.words import capitalised, label, translate

_TITLED = re.compile(r"^((?:[A-Z][\w'’]*(?:-[A-Z]?[\w'’]+)*)(?:\s+[A-Z][\w'’-]*){1,5}):\s+(.{20,})$")
_LOG_LINE = re.compile(r"^.*\b(ERROR|CRITICAL|FATAL|ERR|EXCEPTION|Exception|Traceback)\b.*$", re.M)


_STATUS_KEYS = {"status", "ok", "success", "result_status"}


def unwrapped(out: str) -> str:
    """A result that wraps one sentence in a status envelope ({"status": "success", "report": "The weather in ...
    is sunny"}, as ADK's tools return) is that sentence: the status is no fact of the answer."""
    data = facts.parse(out)
    if not isinstance(data, dict) or not _STATUS_KEYS & set(data):
        return out
    rest = [v for k, v in data.items() if k not in _STATUS_KEYS]
    if len(rest) == 1 and isinstance(rest[0], str) and " " in rest[0].strip():
        return rest[0].strip()
    return out


_DATE_TIME = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})")


def clock_line(view: View, need: Need, out: str) -> str | None:
    """A clock's short text result ('The current time in New York is 2026-12-01 05:00:00 EST-0500') told by its
    time and day, in the user's words: 'В Нью-Йорке сейчас 05:00 (вторник).'"""
    own = need.tool or {}  # workflow mode: data the program gathered, no tool
    tool = f"{own.get('name', '')} {own.get('description') or ''}".replace("_", " ")
    clock = need.intent == "time" or "time" in meaning.concepts(tool)
    found = _DATE_TIME.search(out) if clock and len(out) < 2 * QUOTE_LIMIT else None
    if found is None:
        return None
    import datetime

    day = datetime.date(int(found[1]), int(found[2]), int(found[3])).strftime("%A")
    sent = [str(v) for v in (need.outcome.input or {}).values() if isinstance(v, str)]
    city = next((v for v in sent if gazetteer.lookup(v) is not None), None)
    where = gazetteer.where(city, view.lang) if city else ""
    text = say("compose.time_now", view.lang, where=where, time=f"{found[4]}:{found[5]}", day=translate(day, view.lang))
    return capitalised(text.strip())


def from_text(view: View, need: Need, out: str) -> str | None:
    """A sentence for a plain-text result: the errors of a log when those are asked, key: value lines as a
    record, a short confirmation as the action done; None for the caller's own wording."""
    clock = clock_line(view, need, out)
    if clock:
        return clock
    errors = log_errors(view, out, need)
    if errors:
        return errors
    verb = acks.verb(need)
    refusal = acks.refused(verb, subject(view, need), out, view.lang) if verb else None
    if refusal:
        return refusal
    if told_done(view, need, out):
        done = capitalised(
            say("compose.done_verb", view.lang, said=acks.done_said(str(verb), subject(view, need), view.lang))
        )
        plain = lx.fold(out).strip(" .!") in acks.SUCCESS
        if plain:
            return done
        sent = need.outcome.input
        if len(out.strip()) > _QUOTED_DONE:
            # 'Updated seat to 3A for confirmation number QX7P2M' quoted whole would be an English sentence in a
            # Russian answer: what it confirms is told by the values it repeats ('QX7P2M: обновлено (место 3A).')
            repeated = [f"{label(k, view.lang)} {v}" for k, v in sent.items() if _repeats(v, out, done)]
            repeated += [f"`{h}`" for h in dict.fromkeys(_HEX_ID.findall(out)) if h not in str(sent)][:1]
            return f"{done.rstrip('.')} ({', '.join(repeated)})." if repeated else done
        # the tool's own words stay beside the user's, as for a translated value: they are what came over the wire;
        # in Russian or Polish as a gloss right after the words that say it ('убраны из индекса («All staged ...»)')
        done = done if view.lang == "en" else done.rstrip(".")
        return say("compose.confirmed", view.lang, done=done, out=lx.quote(out.strip(), view.lang))
    where = where_sent(view, need)
    told, read = _gist(out, view.question, view.lang, where)
    if told:
        return read
    lines = facts.read(out)
    rows = [line for line in out.splitlines() if line.strip()]
    if len(lines) >= 2 and len(lines) >= 0.6 * len(rows) and len(out) < 2000:
        record = {f.key: f.value for f in lines}
        weather = weather_line(view, need, record)
        return weather or record_line(view, need, record)
    if need.intent not in _NOT_FACTS or _asked_of_read(view, need):
        answered = prose.answer(question_of(view, need), view.lang, out)
        if answered:
            return answered
    return gist.tell(view.question, view.lang, out, where)


@lx.text_cache
def _gist(out: str, question: str, lang: str, where: str) -> tuple[bool, str | None]:
    """(True, the sentence) when the result's shape tells it, else (False, None). Read once per result: a long
    run's answer quotes the same results turn after turn."""
    # a status or a diff is told by its files, a log of records one line a record (gist.py)
    read = (
        gist.changes(lang, out, where)
        or gist.records(question, lang, out, where)
        or gist.checklist(lang, out, where)
        or gist.table(question, lang, out, where)
    )
    if read:
        return True, read
    if gist.listing(out):
        return True, gist.tell(question, lang, out, where)
    return False, None


_NOT_FACTS = ("weather", "file", "list", "time", "delete", "arithmetic", "derived", "stock")


def _asked_of_read(view: View, need: Need) -> bool:
    """'Przeczytaj <url> do końca i powiedz, ile tur zaleca jako limit': a question of fact asked of a text read, in
    a clause of its own (not 'What's in notes.txt?', which asks for the text itself)."""
    if need.intent != "file":
        return False
    question = question_of(view, need)
    asked = prose.asking(question)
    return asked != question and need.clause.strip() not in asked


def question_of(view: View, need: Need) -> str:
    """The question a result answers: the sentence of the user's question that holds the need's clause, or the
    clause alone when that sentence asks two things ('Who stars in it, and who wrote its score?')."""
    clause = need.clause.strip()
    sentences = [s for s in re.split(r"(?<=[?!.])\s+", view.question) if s.strip()]
    sentence = next((s for s in sentences if clause and clause[:20] in s), view.question)
    others = [c for c in lx.split_clauses(sentence) if c.strip() != clause and prose.kind(c)]
    return clause if others and prose.kind(clause) else sentence


# an id the action made ('committed with hash 7c6b5a4…'): the one value of a confirmation a reader needs next
_HEX_ID = re.compile(r"\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\b")
_QUOTED_DONE = 40  # a confirmation this long is told by its values, not quoted


def _repeats(value: object, out: str, done: str) -> bool:
    text = str(value)
    return isinstance(value, (str, int, float)) and 0 < len(text) <= 40 and text in out and text not in done


def told_done(view: View, need: Need, out: str) -> bool:
    """Whether a result is a confirmation the answer tells as the action done (from_text): in Russian and Polish
    'Cancelled the order' is said in the user's words; in English the tool's sentence is quoted, but a bare
    'True' or 'OK' is not."""
    verb = acks.verb(need)
    return (
        bool(verb)
        and acks.confirms(str(verb), out)
        and (view.lang != "en" or lx.fold(out).strip(" .!") in acks.SUCCESS)
    )


def where_sent(view: View, need: Need) -> str:
    """' in /home/ann/app' for a result about a path, a URL or a file the call named."""
    sent = need.outcome.input if need.result else need.args
    place = next((str(v) for v in sent.values() if isinstance(v, str) and re.search(r"[/\\.]", v)), "")
    if not place:
        return ""
    return {"ru": f" (`{place}`)", "pl": f" (`{place}`)"}.get(view.lang, f" in {place}")


def log_errors(view: View, out: str, need: Need | None = None) -> str | None:
    """'The log has 2 errors: 12:01:17 Database connection refused; ...' for a question about errors, and its
    warnings for a question about warnings ('Есть ли предупреждения в логах?'), each kind asked told in turn."""
    tokens = lx.words(view.question)
    asked = [kind for kind, words in _LEVEL_WORDS if lx.hits(tokens, lx.lexicon()[words])]
    if not asked:
        return None  # a log read for itself is told by its span and levels (gist.log_lines), its errors too
    sent = need.outcome.input if need and need.result else {}
    path = next((str(v) for v in sent.values() if isinstance(v, str) and lx.extract_paths(v)), "")
    told = [_level_lines(view, out, kind, path) for kind in asked]
    return "\n".join(t for t in told if t) or None


_LEVEL_WORDS = (("errors", "failure_words"), ("warnings", "warning_words"))
_LEVEL_LINES = {"errors": _LOG_LINE, "warnings": re.compile(r"^.*\b(WARN|WARNING)\b.*$", re.M)}
_LEVEL_HEAD = re.compile(r"^.*?\b(ERROR|CRITICAL|FATAL|ERR|EXCEPTION|WARNING|WARN)\b[:\s-]*")


def _level_lines(view: View, out: str, kind: str, path: str) -> str | None:
    found = [m.group().strip() for m in _LEVEL_LINES[kind].finditer(out)]
    if not found:
        return None
    items = []
    for line in found[:MAX_RECORDS]:
        clock = CLOCK.search(line)
        message = _LEVEL_HEAD.sub("", line).strip() or line
        message = gist.literal(message, view.lang) if view.lang != "en" else message  # the log's words, as they came
        items.append(f"{clock.group(1)} {message}" if clock else message)
    head = say(f"compose.log_{kind}", view.lang, n=len(found), path=f" {path}" if path else "")
    return head + "\n" + "\n".join(f"- {i}" for i in items)


def short_file(view: View, path: str, out: str) -> str | None:
    """A short file of one sentence read to be told ('Read notes.txt and tell me what it says'), in a sentence: in
    English what it says; in Russian or Polish an English note by what it names, its values whole ('четверг, 15:00,
    комната 4B'), never pasted. None when the question asks to see it as it is ('покажи notes.txt'), or for a text
    of other shape (lines of a list, code): the caller shows it in a code block."""
    lines = [line.strip() for line in out.splitlines() if line.strip()]
    if len(lines) != 1 or len(lines[0].split()) < 3 or re.search(r"[{}<>=;`|]|^\s*[-*#]", lines[0]):
        return None
    if lx.hits(lx.words(view.question), lx.lexicon()["verbatim_verbs"]):
        return None
    text, where = lines[0], gist.code(path, view.lang)
    if view.lang == "en" or not retell.english(text):
        shown = text if view.lang == "en" else lx.quote(text.rstrip("."), view.lang) + "."
        return say("result.file_says", view.lang, path=where, text=shown)
    rendered = phrasing.render(text, view.lang)
    if rendered:
        return say("result.file_says", view.lang, path=where, text=capitalised(rendered.rstrip(".")) + ".")
    said = retell.items(text, view.lang)
    return say("result.file_told", view.lang, path=where, items=", ".join(said)) if said else None


def gloss(lang: str, out: str) -> str:
    """After a short English file quoted whole in a Russian or Polish answer, what it says in the user's words
    ('Buy milk' -> 'молоко'): the quote keeps the file's own words, the gloss lets the reader follow them."""
    if lang == "en" or not retell.english(out):
        return ""
    rendered = phrasing.render(out, lang)
    if rendered:
        return "\n" + capitalised(rendered.rstrip(".")) + "."
    # a term spelt as in English ('bank' in Polish) would read as a word left untranslated: the quote has it
    own = {w.casefold() for w in re.findall(r"[A-Za-z]+", out)}
    said = [item for item in retell.items(out, lang) if item.casefold() not in own]
    return "\n" + capitalised(say("retell.told", lang, items=", ".join(said))) + "." if said else ""


def short_text(view: View, need: Need, out: str) -> str:
    """A short result told as it came, in the user's language where its words are known."""
    text = " ".join(out.split())
    if len(text) > QUOTE_LIMIT:
        text = text[: QUOTE_LIMIT - 1] + "…"
    shown = translate(text, view.lang)
    titled = _TITLED.match(text) if view.lang != "en" and shown == text else None
    if titled and prose.is_prose(titled.group(2)):
        # 'Neo-Gotham Night: A cyberpunk-style party ...': the name it gives is the answer; its English description
        # quoted whole would make the Polish answer an English one
        return say("result.titled", view.lang, title=titled.group(1))
    if view.lang != "en" and shown == text and re.search(r"[A-Za-z]{3,}(?:\s+[A-Za-z]{3,}){1,}", shown):
        shown = lx.quote(shown, view.lang)
    elif view.lang != "en" and shown != text and not phrasing.render(text, view.lang):
        shown = f"{shown} ({lx.quote(text, view.lang)})"
    head = subject(view, need)
    return f"{head}: {shown}" if head else shown
