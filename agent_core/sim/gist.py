"""The gist of a long text result, as a model tells it: the entries of a listing, the errors of a log, the record of
key: value lines, or the sentences that answer the question, never the whole text pasted back."""

from __future__ import annotations

import csv
import re
from collections import Counter

from agent_core.sim import aggregate, phrasing, prose, retell
from agent_core.sim.text import facts, meaning
from agent_core.sim.text import language as lx
from agent_core.sim.text.language import say

LONG = 120  # a result this long is told, not pasted (a reader notices a copied paragraph)
PIECE = 90  # at most this much of one sentence is quoted
MAX_ITEMS = 15
# '* main' in a list of branches marks the current one; it is an entry like the others
ENTRY = re.compile(r"^\s*(?:\*\s+)?(?:\[(FILE|DIR|F|D)\]\s*|[-d][rwx-]{9}\s+.*\s)?([\w.@~/-]+?)(/)?\s*$", re.I)
_MARKED = re.compile(r"^\s*\*\s+([\w.@~/-]+)\s*$", re.M)
_FOUND = re.compile(r"^\s*/[\w.~-]+(?:/[\w.~-]+)+\s*$")
_LEVEL = re.compile(r"\b(ERROR|CRITICAL|FATAL|WARN(?:ING)?|INFO|DEBUG)\b")
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
_TITLE = re.compile(r"\A\s*#{1,3}\s+(.+)")
# A search hit as a search tool writes it: '[title](url)' on its own line, its snippet on the next; one sentence
_HIT = re.compile(r"^\[([^\]\n]{1,120})\]\(\S+?\)[ \t]*\n(?=[ \t]*\S)", re.M)


def listing(out: str) -> tuple[list[str], list[str]] | None:
    """(files, folders) when most lines of the text are entries of a folder listing ('Allowed directories:' above them
    is its heading, no entry)."""
    lines = [line for line in out.splitlines() if line.strip()]
    if len(lines) == 1 and _FOUND.match(lines[0]):
        return [lines[0].strip()], []  # a search's one hit, as a full path: an entry found, not a text
    if len(lines) >= 2 and lines[0].rstrip().endswith(":") and " " in lines[0].strip():
        lines = lines[1:]
        only = ENTRY.match(lines[0]) if len(lines) == 1 and "/" in lines[0] else None
        if only:
            return [], [only.group(2)]  # one folder under its heading
    if len(lines) < 2:
        return None
    files: list[str] = []
    folders: list[str] = []
    for line in lines:
        match = ENTRY.match(line)
        if not match:
            continue
        name = match.group(2)
        is_dir = (match.group(1) or "").upper() in ("DIR", "D") or bool(match.group(3))
        (folders if is_dir else files).append(name)
    return (files, folders) if len(files) + len(folders) >= 0.6 * len(lines) else None


def tell(question: str, lang: str, out: str, where: str = "") -> str | None:
    """A short telling of a long text, or None when it is short enough to quote."""
    entries = listing(out)
    if entries:
        files, folders = entries
        names = [code(n, lang) for n in [*(f"{d}/" for d in folders), *files]]
        shown = ", ".join(names[:MAX_ITEMS]) + (", …" if len(names) > MAX_ITEMS else "")
        entries_said = say(
            "gist.listing" if len(names) != 1 else "gist.listing_one", lang, where=where, n=len(names), items=shown
        )
        marked = _MARKED.findall(out)  # git branch's '* main': the branch checked out, which 'which branch' asks
        if len(marked) == 1:
            return entries_said + say("gist.marked", lang, name=code(marked[0], lang))
        return entries_said
    if len(" ".join(out.split())) < LONG:
        return None
    told = changes(lang, out, where) or records(question, lang, out, where)
    if told:
        return told
    log = log_lines(lang, out, where)
    if log:
        return log
    record = facts.read(out)
    lines = [line for line in out.splitlines() if line.strip()]
    if record and len(record) >= 0.6 * len(lines):
        return "; ".join(f"{f.key}: {_piece(str(f.value))}" for f in record[:MAX_ITEMS]) + "."
    return _sentences(question, lang, out, where)


_TASK = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+\[([ xX])\]\s+(.+?)\s*$")


def checklist(lang: str, out: str, where: str = "") -> str | None:
    """'4 tasks in todo.md: 3 open ("Fix the login bug", ...) and 1 done (...)' for a Markdown task list ('- [ ] ...',
    '- [x] ...'), whose items a reader counts and names; None for other text."""
    lines = [line for line in out.splitlines() if line.strip() and not _TITLE.match(line)]
    tasks = [m for m in (_TASK.match(line) for line in lines) if m]
    if len(tasks) < 2 or len(tasks) < 0.6 * len(lines):
        return None
    open_ = [literal(_piece(m.group(2)), lang) for m in tasks if m.group(1) == " "]
    done = [literal(_piece(m.group(2)), lang) for m in tasks if m.group(1) != " "]
    return say(
        "gist.tasks",
        lang,
        where=where,
        n=len(tasks),
        k=len(open_),
        open=", ".join(open_[:MAX_ITEMS]) or "—",
        m=len(done),
        done=", ".join(done[:MAX_ITEMS]) or "—",
    )


_STAMP = re.compile(r"\b(\d{1,2}:\d{2}(?::\d{2})?)\b")
_WORST = re.compile(r"\b(?:ERROR|CRITICAL|FATAL)\b")


def log_lines(lang: str, out: str, where: str = "") -> str | None:
    """'The log: 10 lines (09:11:00 to 09:20:00), by level INFO 8, ERROR 2; errors: 09:14:00 "Database timeout", ...':
    a log told by its span, its levels and its errors (or one line for an example), never pasted."""
    levels = Counter(m.group(1).upper().replace("WARNING", "WARN") for m in _LEVEL.finditer(out))
    if sum(levels.values()) < 3:
        return None
    counts = ", ".join(f"{code(level, lang)} {n}" for level, n in levels.most_common())
    lines = [line.strip() for line in out.splitlines() if _LEVEL.search(line)]
    stamps = [m.group(1) for m in (_STAMP.search(line) for line in lines) if m]
    span = say("gist.span", lang, first=stamps[0], last=stamps[-1]) if len(stamps) >= 2 else ""
    errors = []
    for line in (line for line in lines if _WORST.search(line)):
        stamp = _STAMP.search(line)
        message = literal(_piece(_WORST.split(line, 1)[-1].strip(" :-")), lang)
        errors.append(f"{stamp.group(1)} {message}" if stamp else message)
    if errors:
        tail = say("gist.log_errors", lang, errors=", ".join(errors[:MAX_ITEMS]))
    else:
        example = _LEVEL.split(lines[0], 1)[-1].strip(" :-") or lines[0]  # the message, after its time and level
        tail = say("gist.log_example", lang, example=literal(_piece(example), lang))
    return say("gist.log", lang, where=where, n=len(lines), span=span, counts=counts, tail=tail)


def _number(text: str) -> float | None:
    try:
        return float(text.replace(" ", ""))
    except ValueError:
        return None


def table(question: str, lang: str, out: str, where: str = "") -> str | None:
    """A CSV table asked for a total or for its top row: 'Сумма «sales» (`data.csv`): 358 (120 + 95 + 143).',
    'Gdańsk has the most sales in data.csv: 143.'; None for other text or other questions (the table is told as it
    came)."""
    rows = [r for r in csv.reader(out.strip().splitlines()) if r]
    if len(rows) < 3 or len(rows[0]) < 2 or any(len(r) != len(rows[0]) for r in rows):
        return None
    header, body = [h.strip() for h in rows[0]], rows[1:]
    numeric = [i for i in range(len(header)) if all(_number(r[i]) is not None for r in body)]
    if not numeric or len(numeric) == len(header):
        return None
    tokens = lx.words(question)
    asked = [i for i in numeric if prose.asks_about(question, header[i])]
    column = (asked or numeric)[-1]
    values = [_number(r[column]) or 0.0 for r in body]
    name = code(header[column], lang)  # a column's name is the table's own word, as a file's name is
    ask = aggregate.asked(question)
    least = ask is not None and ask.op == "min"  # 'меньше всего' asks the smallest, not the total its 'всего' names
    if least or lx.hits(tokens, lx.lexicon()["most_words"]):
        labels = [i for i in range(len(header)) if i not in numeric and not re.fullmatch(r"[\d\-/:. T]+", body[0][i])]
        labels.sort(key=lambda i: len({r[i] for r in body}) < len(body))  # a column that tells the rows apart
        top = (min if least else max)(range(len(body)), key=lambda k: values[k])
        label = body[top][labels[0]] if labels else body[top][0]
        key = "gist.table_least" if least else "gist.table_most"
        return say(key, lang, where=where, label=code(label, lang), column=name, value=body[top][column])
    if lx.hits(tokens, lx.lexicon()["total_words"]):
        total = sum(values)
        shown = f"{total:g}" if total != int(total) else str(int(total))
        parts = " + ".join(r[column].strip() for r in body[:MAX_ITEMS]) + (" + …" if len(body) > MAX_ITEMS else "")
        return say("gist.table_total", lang, where=where, column=name, total=shown, parts=parts)
    return None


def literal(text: str, lang: str) -> str:
    """A line of a file or a page (a task, a log's message, a heading, a sentence) in an answer: quoted in English
    and when it is no English; in Russian and Polish said whole when the vocabulary knows every word, else shown as
    code, its own words as they came (as an error's exact text is): English prose in quotes half-translates."""
    if lang == "en" or not retell.english(text, strict=True):
        return lx.quote(text, lang)
    rendered = phrasing.render(text, lang)
    return rendered.rstrip(".") if rendered else "`" + text.replace("`", "'") + "`"


def code(name: str, lang: str) -> str:
    """A file's, a branch's or a record's own words as code in a Russian or Polish answer: they are names, not
    words of the answer's language, and are written as they came."""
    return name if lang == "en" else f"`{name}`"


def _piece(text: str) -> str:
    text = " ".join(text.split())
    if len(text) <= PIECE:
        return text
    cut = text[:PIECE].rsplit(" ", 1)[0]
    # Cut where a clause ends, as a reader retelling would ('…, wiatr 4 m/s'), not inside a parenthesis or
    # mid-clause ('(dane demonstracyjne, nie…'); only a cut inside a clause is marked as one.
    if cut.count("(") > cut.count(")"):
        return cut[: cut.rfind("(")].rstrip(" ,;:")
    if ", " in cut[PIECE // 2 :]:
        return cut[: cut.rfind(", ")]
    return cut + "…"


def _sentences(question: str, lang: str, out: str, where: str) -> str:
    """The sentences that share most with the question (and with what the text is about), each cut short."""
    title = _TITLE.match(out)
    # Table rows are cells, not sentences: a reader tells a table by its heading and the prose around it.
    prose = "\n".join(line for line in out.splitlines() if not line.lstrip().startswith("|"))
    text = _HIT.sub(r"\1: ", re.sub(r"^#+\s*", "", prose, flags=re.M))
    sentences = [s.strip() for s in _SENTENCE.split(text) if len(s.strip()) > 3][:200]
    if title:
        # A document's heading says what it is, so it is told first, whatever the question shares with it.
        sentences = [s for s in sentences if s != title.group(1).strip()]
    if not sentences:
        return _piece(out)
    asked = meaning.content_stems(question) - meaning.content_stems(where)
    counts = Counter(w for s in sentences for w in meaning.content_stems(s))
    common = {w for w, _ in counts.most_common(8)}

    def score(item: tuple[int, str]) -> tuple[int, int, int]:
        index, sentence = item
        mine = meaning.content_stems(sentence)
        return (len(mine & asked), len(mine & common), -index)

    best = sorted(enumerate(sentences), key=score, reverse=True)[: 1 if title else 2]
    chosen = ([_piece(title.group(1))] if title else []) + [_piece(s) for _, s in sorted(best)]
    if lang == "en":
        quoted = (chosen[0] + ": " + " ".join(chosen[1:])) if title and len(chosen) > 1 else " ".join(chosen)
    else:
        # In Russian or Polish the English text is quoted only in short pieces (a title, a clause) and what it is
        # about is said in the user's words: its commonest terms the vocabulary knows ('loop' -> 'цикл').
        quoted = " — ".join(literal(_clause(c), lang) for c in chosen)
        terms = _terms(out, lang)
        if terms:
            quoted += ". " + say("gist.topics", lang, terms=", ".join(terms))
    return say("gist.text", lang, where=where, text=quoted)


QUOTE_PIECE = 60  # a quote this short is a name or a line; a longer one is pasted text


def _clause(text: str) -> str:
    """The first clause of a sentence, short enough to quote: 'An agent is a model called in a loop'."""
    first = re.split(r"(?<=\w)[:;,]\s|\s[—–-]\s", text)[0].strip()
    if len(first) <= QUOTE_PIECE:
        return first
    return first[: QUOTE_PIECE - 1].rsplit(" ", 1)[0] + "…"


def _terms(out: str, lang: str, most: int = 3) -> list[str]:
    """The terms a text is most about that the vocabulary (answers.json 'terms') says in the user's language; a
    term of the heading counts twice."""
    table = lx.load("answers")["terms"]
    stems = {lx.stem(k): k for k in table if not k.startswith("_")}
    title = _TITLE.match(out)
    counts: Counter[str] = Counter()
    for word in lx.words(out) + (lx.words(title.group(1)) if title else []):
        key = stems.get(lx.stem(word))
        if key:
            counts[key] += 1
    return [table[k][lang] for k, n in counts.most_common(most) if n >= 2]


# A working tree's status and a diff name the files changed: '\tmodified:   app/main.py', 'diff --git a/x b/x'. git
# indents a status line; an unindented 'modified: Sat Nov 28 …' is a field of a record (a file's info), not a change.
_CHANGED = re.compile(
    r"^(?:\s+(?:modified|new file|deleted|renamed|both modified|typechange):\s+(.+?)|diff --git a/(\S+) b/\S+)\s*$"
)
_UNTRACKED = re.compile(r"^Untracked files:\s*$")


def changes(lang: str, out: str, where: str = "") -> str | None:
    """'Changed: README.md, app/main.py. Not tracked yet: notes/.' for a status or a diff, whose lines are
    mostly hints and hunks: the files are what a reader tells."""
    changed: list[str] = []
    untracked: list[str] = []
    listing_untracked = False
    edits: dict[str, list[list[str]]] = {}  # a diff's removed and added lines, by file
    for line in out.splitlines():
        match = _CHANGED.match(line)
        if match:
            name = (match.group(1) or match.group(2)).split(" -> ")[-1]
            changed += [name] if name not in changed else []
            listing_untracked = False
            edits.setdefault(name, [[], []])
        elif changed and changed[-1] in edits and line[:1] in "-+" and line[:3] not in ("---", "+++"):
            edits[changed[-1]][line[:1] == "+"].append(line[1:].strip())
        elif _UNTRACKED.match(line):
            listing_untracked = True
        elif listing_untracked and line[:1] == "\t" and not line.strip().startswith("("):
            untracked.append(line.strip())
        elif listing_untracked and not line.strip().startswith("("):
            listing_untracked = False
    if not changed:
        # 'Staged changes:' and nothing under it: the list it heads is empty, which is the answer
        return say("gist.nothing", lang, where=where) if re.fullmatch(r"[A-Z][\w ]{2,40}:", out.strip()) else None
    files = ", ".join(code(c, lang) + _edit(edits.get(c)) for c in changed[:MAX_ITEMS])
    told = say("gist.changes", lang, where=where, files=files)
    return told + (
        " " + say("gist.untracked", lang, files=", ".join(code(u, lang) for u in untracked[:MAX_ITEMS]))
        if untracked
        else ""
    )


MAX_EDIT = 60  # a changed line longer than this is not repeated: the file's name says enough


def _edit(lines: list[list[str]] | None) -> str:
    """' (`0.22` → `0.23`)': what a diff changed in a file, when it is one short line for another."""
    if not lines or len(lines[0]) != 1 or len(lines[1]) != 1 or max(len(lines[0][0]), len(lines[1][0])) > MAX_EDIT:
        return ""
    return f" (`{lines[0][0]}` → `{lines[1][0]}`)" if lines[0][0] and lines[1][0] else ""


_FIELD = re.compile(r"^([A-Z][\w ]{0,20}):\s*(.*)$")
HASH = re.compile(r"^'?[0-9a-f]{7,40}'?$")
_PERSON = re.compile(r"^<[\w.]+\s+\"(.+)\">$|^(.+?)\s*<[^<>@\s]+@[^<>\s]+>$")


def field_blocks(out: str) -> list[list[tuple[str, str]]]:
    """A log's 'Commit: …' / 'Author: …' lines as blocks of (field, value), in order: a block starts at each line
    whose field is the first one's; lines with no value are left out."""
    found: list[list[tuple[str, str]]] = []
    for line in out.splitlines():
        match = _FIELD.match(line.strip())
        if match and match.group(2).strip():
            if not found or match.group(1) == found[0][0][0]:
                found.append([])
            found[-1].append((match.group(1), match.group(2).strip()))
    return found


def records(question: str, lang: str, out: str, where: str = "") -> str | None:
    """A log of records ('Commit: …', 'Author: …', 'Message: …' blocks) told one line a record by what it says and
    who wrote it, and who has the most when that is asked; None for other text."""
    blocks = [{key: _plain(value) for key, value in block} for block in field_blocks(out)]
    first = next(iter(blocks[0]), "") if blocks else ""  # the field each record starts with
    if (
        not blocks
        or sum(len(b) >= 3 for b in blocks) < min(2, len(blocks))
        or (len(blocks) == 1 and not _one(blocks[0]))
    ):
        return None
    rows = []
    people: Counter[str] = Counter()
    mine = _person_records(question, lang, blocks)
    if mine:
        return mine
    for block in blocks:
        said = [v for k, v in block.items() if k != first and not HASH.match(v)]
        person = next((v for v in block.values() if v in _people(block)), "")
        people.update([person] if person else [])
        text = max((v for v in said if v != person and not re.match(r"^\d{4}-\d\d-\d\d", v)), key=len, default="")
        date = next((v[:10] for v in said if re.match(r"^\d{4}-\d\d-\d\d", v)), "")
        extra = ", ".join(x for x in (code(person, lang) if person else "", date) if x)
        shown = (lx.quote(text, lang) if lang == "en" else code(text, lang)) if text else block.get(first, "")
        if first.lower() in ("name", "title") and text and text != block[first]:
            shown = f"{block[first]}: {shown}"  # a place or a page is told by its name: 'Pizzeria Da Michele: ...'
        if person and date and text:  # '“Fix login redirect loop” by Marek Wiśniewski on 2026-11-30'
            rows.append("- " + say("gist.by", lang, text=shown, who=code(person, lang), date=date))
        else:
            rows.append(f"- {shown}" + (f" ({extra})" if extra else ""))
    if people and lx.hits(lx.words(question), lx.lexicon()["most_words"]):
        # 'Who made the most commits?' is answered by the count, not by the log
        who, k = people.most_common(1)[0]
        return say("gist.most", lang, who=code(who, lang), k=k, n=len(blocks))
    head = "gist.records" if len(blocks) > 1 else "gist.records_one"
    return say(head, lang, where=where, n=len(blocks)) + "\n" + "\n".join(rows[:MAX_ITEMS])


def _person_records(question: str, lang: str, blocks: list[dict[str, str]]) -> str | None:
    """'How many commits has Ann Kowalska made, and what was her most recent one?': the records of the person the
    question names, counted, and the newest of them (a log lists the newest first)."""
    folded = lx.fold(question)
    theirs = [b for b in blocks for p in _people(b) if len(p) > 3 and lx.fold(p) in folded]
    if not theirs or len(theirs) == len(blocks):
        return None
    first, who = theirs[0], next(p for p in _people(theirs[0]) if lx.fold(p) in folded)
    said = [v for k, v in first.items() if not HASH.match(v) and v != who]
    date = next((v[:10] for v in said if re.match(r"^\d{4}-\d\d-\d\d", v)), "")
    text = max((v for v in said if not re.match(r"^\d{4}-\d\d-\d\d", v)), key=len, default="")
    shown = lx.quote(text, lang) if lang == "en" else code(text, lang)
    return say("gist.person_records", lang, who=code(who, lang), k=len(theirs), n=len(blocks), text=shown, date=date)


def _one(block: dict[str, str]) -> bool:
    """A log of one record is still a log when the record has an id (a hash) and a person (its author): a history
    filtered to a single commit; other 'Key: value' text (a weather report) is not one."""
    return any(HASH.match(v) for v in block.values()) and bool(_people(block))


def _people(block: dict[str, str]) -> set[str]:
    return {block[k] for k in block if k.lower() in ("author", "committer", "user", "by", "owner", "creator")}


def _plain(value: str) -> str:
    """'<git.Actor "Ann <ann@x.com>">' -> 'Ann'; "'Fix login\\n'" -> 'Fix login': the value a reader sees."""
    for _ in range(2):
        match = _PERSON.match(value)
        if match:
            value = (match.group(1) or match.group(2)).strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        value = value[1:-1].replace("\\n", " ").strip()
    return value
