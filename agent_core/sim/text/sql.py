"""A SELECT written from a question and the table schema a tool's description states, as a model would write it."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Any

from agent_core.sim.text import language as lx

_CREATE = re.compile(r"(?:create\s+table\s+)?[`\"\[]?(\w+)[`\"\]]?\s*\(([^()]*(?:\([^()]*\)[^()]*)*)\)", re.I)
_CONSTRAINTS = {"primary", "foreign", "constraint", "unique", "key", "check", "references", "index"}
_COLUMNS = re.compile(r"(?:table\s+)?`?(\w+)`?\s+(?:table\s+)?(?:with\s+)?columns?\s*:?\s*([\w`, ]+)", re.I)
_TYPES = {"int", "integer", "text", "real", "varchar", "date", "float", "numeric", "decimal", "bool", "boolean"}
_AGGREGATES = {
    "COUNT": ["how many", "number of", "=count", "сколько", "количество", "число", "ile", "ilu", "liczba", "liczbę"],
    "AVG": ["average", "mean", "avg", "средн", "średni", "przeciętn"],
    "SUM": ["total", "sum", "combined", "altogether", "сумм", "всего", "итого", "łączn", "suma", "sumę", "razem"],
    "MAX": [
        "highest",
        "most",
        "maximum",
        "largest",
        "biggest",
        "top",
        "наибольш",
        "максимальн",
        "самая высокая",
        "самый высокий",
        "больше всех",
        "больше всего",
        "чаще всего",
        "najczęściej",
        "najwyższ",
        "największ",
        "najwięcej",
        "maksymaln",
    ],
    "MIN": [
        "lowest",
        "least",
        "minimum",
        "smallest",
        "cheapest",
        "наименьш",
        "минимальн",
        "самая низкая",
        "самый низкий",
        "меньше всех",
        "najniższ",
        "najmniejsz",
        "najmniej",
        "minimaln",
    ],
}
# Words that point to a column with another name: "earns" -> salary, "отдел" -> department.
_COLUMN_WORDS = {
    "salary": [
        "earn",
        "salary",
        "paid",
        "pay",
        "wage",
        "income",
        "зарплат",
        "оклад",
        "получа",
        "зарабатыва",
        "pensj",
        "zarabia",
        "wynagrodzen",
        "zarobk",
    ],
    "price": [
        "price",
        "cost",
        "expensive",
        "cheap",
        "стоит",
        "стоимост",
        "цен",
        "дорог",
        "дешев",
        "cena",
        "cen",
        "kosztuj",
        "drog",
        "tani",
    ],
    "department": ["department", "dept", "отдел", "dział", "dziale", "działu"],
    "name": ["name", "named", "called", "имя", "зовут", "imię", "nazw"],
    "city": ["city", "город", "miasto", "mieście"],
    "country": ["country", "стран", "kraj"],
    "status": ["status", "статус", "stan"],
    "total": ["total", "amount", "сумм", "kwot"],
    "quantity": ["quantity", "stock", "units", "количеств", "ilość", "sztuk"],
    "category": ["category", "категори", "kategori"],
}
_NUMERIC = (
    "salary",
    "price",
    "total",
    "amount",
    "quantity",
    "age",
    "count",
    "cost",
    "score",
    "balance",
    "stock",
    "qty",
)
_CATEGORY = ("department", "category", "status", "type", "team", "city", "country", "region", "name")
_WHO = ["who", "which", "кто", "какой", "какая", "который", "kto", "który", "która", "które"]
_GREATER = re.compile(
    r"(?:over|above|more than|greater than|больше|свыше|выше|более|powyżej|ponad|więcej niż)\s+(\d[\d,. ]*)", re.I
)
_LESS = re.compile(r"(?:under|below|less than|меньше|ниже|менее|poniżej|mniej niż)\s+(\d[\d,. ]*)", re.I)


@dataclass(frozen=True)
class Table:
    """A table the description states: its name and column names."""

    name: str
    columns: tuple[str, ...]


def schema(description: str) -> list[Table]:
    """Tables stated in a description: 'employees(id, name, salary)', 'CREATE TABLE t (a INT, ...)', 'columns: ...'."""
    tables = []
    for pattern in (_CREATE, _COLUMNS):
        for match in pattern.finditer(description):
            cols = [
                c.strip(' `"\t\n[]').split()[0].strip('`"[]') for c in match.group(2).split(",") if c.strip(' `"\t\n')
            ]
            cols = [c for c in cols if re.fullmatch(r"\w+", c) and c.lower() not in _TYPES | _CONSTRAINTS]
            if len(cols) >= 2 and match.group(1).lower() not in ("e", "eg", "table", "columns"):
                tables.append(Table(match.group(1), tuple(cols)))
        if tables:
            break
    return tables


def _mentions(text: str, name: str) -> int | None:
    """Where a table or column name (a word with its stem, or a word for it) appears in text."""
    parts = lx.words(name.replace("_", " "))
    tokens = lx.words(text)
    words = {**_COLUMN_WORDS, **{k: v for k, v in lx.lexicon()["table_words"].items() if not k.startswith("_")}}
    extra: list[str] = next((w for col, w in words.items() if parts and lx.stems_match(lx.stem(parts[-1]), col)), [])
    for i, token in enumerate(tokens):
        if parts and lx.stems_match(lx.stem(token), lx.stem(parts[-1])) and len(parts[-1]) > 2:
            return i
        if extra and lx.hits([token], extra):
            return i
    return None


def _numeric(column: str) -> bool:
    parts = lx.words(re.sub(r"(?<=[a-z])(?=[A-Z])", " ", column).replace("_", " "))
    return any(p in _NUMERIC or p.rstrip("s") in _NUMERIC for p in parts)  # 'Country' holds no count


_BARE_HOW = ["how much", "сколько", "ile"]


def _kind(tokens: list[str]) -> str | None:
    found = [agg for agg, words in _AGGREGATES.items() if lx.hits(tokens, words)]
    if len(found) > 1 and "SUM" in found and not _of_amount(tokens):
        found.remove("SUM")  # 'больше всего клиентов': the most, 'всего' only part of the phrase
    if found[:1] == ["COUNT"] and "SUM" in found and lx.hits(tokens, _BARE_HOW) and _of_amount(tokens):
        return "SUM"  # 'Ile łącznie wyniosła sprzedaż', 'сколько в сумме': how much in all, not how many
    return found[0] if found else None


def _of_amount(tokens: list[str]) -> bool:
    """'Ile łącznie wyniosła sprzedaż' sums an amount; 'Сколько всего альбомов' only counts in all."""
    in_all = lx.lexicon()["sql_in_all"]["words"]
    own = [w for w in _AGGREGATES["SUM"] if not lx.hits([w], in_all)]
    return bool(lx.hits(tokens, lx.lexicon()["sql_amounts"]) or lx.hits(tokens, own))


def _values(text: str, skip: set[str]) -> list[str]:
    quoted = re.findall(r"'([^']+)'|\"([^\"]+)\"|“([^”]+)”|«([^»]+)»|„([^”]+)”", text)
    found = [next(g for g in q if g) for q in quoted]
    sentence_start = True
    for match in re.finditer(r"[^\W\d_][\w-]*|[.?!]", text):
        word = match.group()
        if word in ".?!":
            sentence_start = True
            continue
        if word[0].isupper() and not sentence_start and lx.fold(word) not in skip:
            found.append(word)
        sentence_start = False
    return found


_LENGTH = ("millisecond", "duration", "length", "seconds", "minutes", "runtime", "time")
_LONG_WORDS = ["longest", "shortest", "long", "duration", "длинн", "коротк", "najdłuż", "najkrót", "długoś"]
_GROUP_WORDS = [
    *("which", "what", "who", "какой", "какая", "какие", "какого", "какой", "каких", "кто", "у кого"),
    *("który", "która", "które", "którego", "której", "jaki", "jaka", "jakiego", "kto"),
]


def _joined(question: str, tables: list[Table]) -> str | None:
    """'Which genre on average has the longest tracks?' over Genre and Track: a JOIN on their shared key, grouped
    by the asked-for table's name, the measure chosen by the question's words."""
    named = [t for t in tables if _mentions(question, t.name) is not None]
    if len(named) < 2:
        return None
    tokens = lx.words(question)
    order = sorted(named, key=lambda t: _mentions(question, t.name) or 0)
    group, measured = order[0], order[1]
    # orders(customer_id) points at customers(id): that reference first, else a key column both tables share
    reference = reference_of(measured, group)
    key = next((c for c in measured.columns if c in group.columns and c.lower().endswith("id")), None)
    if key is None and reference is None:
        return None
    names = [c for c in group.columns if c.lower() in ("firstname", "first_name", "lastname", "last_name")]
    label = next((c for c in group.columns if c.lower() in ("name", "title")), None)
    label = label or (", ".join(f"{group.name[0].lower()}.{c}" for c in names)[2:] if names else group.columns[1])
    measure = None
    if lx.hits(tokens, _LONG_WORDS):
        measure = next((c for c in measured.columns if any(w in c.lower() for w in _LENGTH)), None)
    measure = measure or next((c for c in measured.columns if _numeric(c)), None)
    kind = _kind(tokens) or ("AVG" if lx.hits(tokens, ["on average", "average", "средн", "średni"]) else "MAX")
    direction = "ASC" if lx.hits(tokens, ["shortest", "lowest", "least", "fewest", "коротк", "najkrót"]) else "DESC"
    g, m = group.name[0].lower(), measured.name[0].lower() + ("2" if measured.name[0] == group.name[0] else "")
    if kind == "COUNT" or measure is None:
        select, value = f"COUNT({m}.{key})", "n"
    else:
        select, value = f"{'AVG' if kind in ('AVG', 'MAX', 'MIN') else kind}({m}.{measure})", "value"
    on = f"{m}.{reference} = {g}.id" if reference else f"{m}.{key} = {g}.{key}"
    return (
        f"SELECT {g}.{label}, {select} AS {value} FROM {measured.name} {m} JOIN {group.name} {g} "
        f"ON {on} GROUP BY {g}.{label} ORDER BY {value} {direction} LIMIT 1"
    )


def build(question: str, description: str, context: str = "") -> str | None:
    """SELECT ... FROM ... [WHERE ...] for a question, using only tables and columns the description states.
    context: the question before, for a follow-up that names no table ('and their combined total?'): its tables and
    values are this question's, the aggregate is this question's own."""
    tables = schema(description)
    if not tables:
        return None
    own_kind = _kind(lx.words(question))
    question = f"{question} {context}".strip()
    # a filter through a joined table ('jazz tracks') is sql_filter's, tried before this (sql_filter.query)
    joined = _joined(question, tables) if lx.hits(lx.words(question), _GROUP_WORDS) else None
    if joined:
        return joined
    table = min(tables, key=lambda t: (_mentions(question, t.name) is None, tables.index(t)))
    tokens = lx.words(question)
    kind = own_kind or _kind(tokens)
    names = {lx.fold(table.name)} | {lx.fold(c) for c in table.columns}
    mentioned = sorted((p, c) for c in table.columns if (p := _mentions(question, c)) is not None)
    where = []
    values = _values(question, names)
    for value in values[:1]:
        column = next((c for _, c in mentioned if c != "id" and not _numeric(c)), None) or next(
            (c for cat in _CATEGORY for c in table.columns if c.lower() == cat), None
        )
        if column:
            where.append(f"{column} = '{stored(value)}'")
            mentioned = [m for m in mentioned if m[1] != column]
    for pattern, op in ((_GREATER, ">"), (_LESS, "<")):
        match = pattern.search(question)
        numeric = next((c for _, c in mentioned if _numeric(c)), None)
        if match and numeric:
            where.append(f"{numeric} {op} {re.sub(r'[,. ]', '', match.group(1))}")
    where += _measured(question, table) + _in_year(question, table)
    target = next((c for _, c in mentioned if _numeric(c)), None) or next((c for _, c in mentioned), None)
    if kind in ("SUM", "AVG") and (target is None or not _numeric(target)):
        target = next((c for c in table.columns if _numeric(c) and not c.lower().endswith("id")), target)
    grouped = _grouped(tokens, kind, table, [c for _, c in mentioned], where)
    if grouped:
        return grouped
    sql = f"SELECT * FROM {table.name}"
    if kind == "COUNT":
        sql = f"SELECT COUNT(*) FROM {table.name}"
    elif kind in ("MAX", "MIN") and target and lx.hits(tokens, _WHO):
        order = "DESC" if kind == "MAX" else "ASC"
        return f"SELECT * FROM {table.name}" + _where(where) + f" ORDER BY {target} {order} LIMIT 1"
    elif kind and target:
        sql = f"SELECT {kind}({target}) FROM {table.name}"
    return sql + _where(where)


_LONGER = re.compile(
    r"(longer|shorter|longer than|shorter than|длиннее|короче|dłuższ\w*|krótsz\w*)(?:\s+(?:than|niż|чем))?\s+(.{1,40})",
    re.I,
)
_UNITS = {"hour": 3_600_000, "час": 3_600_000, "godzin": 3_600_000, "minut": 60_000, "минут": 60_000}
_UNITS |= {"second": 1000, "секунд": 1000, "sekund": 1000}


def _measured(question: str, table: Table) -> list[str]:
    """'Сколько треков длиннее семи минут?' over Track(Milliseconds): Milliseconds > 420000 (the unit converted)."""
    from agent_core.sim.text import entities  # entities reads numbers in words; it imports nothing of sql

    match = _LONGER.search(question)
    column = next((c for c in table.columns if any(w in c.lower() for w in _LENGTH)), None)
    if not match or column is None:
        return []
    numbers = entities.of_kind(match.group(2), "number")
    if not numbers or not isinstance(numbers[0].value, (int, float)):
        return []
    amount, rest = numbers[0].value, lx.fold(match.group(2)[numbers[0].start :])  # "семи минут": its unit too
    factor = next((f for unit, f in _UNITS.items() if unit in rest), 1)
    if "milli" not in column.lower():
        factor = max(1, factor // 1000) if "second" in column.lower() else 1
    op = "<" if re.match(r"short|коро|krót", match.group(1), re.I) else ">"
    return [f"{column} {op} {int(amount * factor)}"]


def _in_year(question: str, table: Table) -> list[str]:
    """'w 2025 roku' over a table with a date column: that year's rows."""
    year = re.search(r"\b(19\d\d|20\d\d)\b", question)
    column = next((c for c in table.columns if "date" in c.lower()), None)
    return [f"strftime('%Y', {column}) = '{year.group(1)}'"] if year and column else []


def _grouped(tokens: list[str], kind: str | None, table: Table, mentioned: list[str], where: list[str]) -> str | None:
    """'Which country do most of our customers come from?': the rows counted by the category the question names."""
    category = next((c for c in mentioned if not _numeric(c) and not c.lower().endswith(("id", "name"))), None)
    if kind not in ("MAX", "COUNT") or category is None or not lx.hits(tokens, _GROUP_WORDS):
        return None
    if any(_numeric(c) for c in mentioned):
        return None  # 'which employee earns the most' orders by the salary instead
    return (
        f"SELECT {category}, COUNT(*) AS n FROM {table.name}{_where(where)} GROUP BY {category} ORDER BY n DESC LIMIT 1"
    )


def reference_of(events: Table, things: Table) -> str | None:
    """The column of events that points at things: product_id (or ProductId) for products(id, ...)."""
    if not any(c.lower() == "id" for c in things.columns):
        return None
    singular = lx.fold(things.name).rstrip("s")
    return next(
        (c for c in events.columns if lx.fold(c).replace("_", "") in (f"{singular}id", f"{lx.fold(things.name)}id")),
        None,
    )


@cache
def _countries() -> dict[str, str]:
    """A country's forms in three languages -> its English name (knowledge.json 'capitals')."""
    return {lx.fold(f): e["country"]["en"] for e in lx.load("knowledge")["capitals"] for f in e["forms"]}


def stored(value: str) -> str:
    """A value as a database stores it: a country named in Russian or Polish ('z Polski') by its English name."""
    return _countries().get(lx.fold(value), value)


def _where(conditions: list[str]) -> str:
    return " WHERE " + " AND ".join(conditions) if conditions else ""


_SELECT = re.compile(r"^\s*select\s+(.*?)\s+from\s", re.I | re.S)
_AGGREGATE = re.compile(r"^(AVG|SUM|COUNT|MAX|MIN)\s*\(\s*(?:\w+\.)?(\*|\w+)\s*\)", re.I)


def rows_line(inputs: dict[str, Any], rows: list[list[str]], lang: str) -> str:
    """Rows a query returned, told: one row by what each selected column is ('From the database: “Sci Fi &
    Fantasy”, average Milliseconds: 2768891.5.'), several as lines. rows: each value already as the user reads it."""
    query = next((str(v) for v in inputs.values() if isinstance(v, str) and _SELECT.match(v)), "")
    columns = _selected(query)
    if len(rows) != 1 or len(columns) != len(rows[0]):
        lines = ["; ".join(row) for row in rows]
        return "\n".join(f"- {r}" for r in lines) if len(lines) > 1 else f"{lines[0]}."
    items: list[str] = []
    names: list[str] = []
    for column, cell in zip(columns, rows[0], strict=True):
        found = _AGGREGATE.match(column.split(" AS ")[0].split(" as ")[0].strip())
        if found is None:
            names.append(cell)  # a name of the thing itself: 'Leonie', 'Köhler' are one name
            continue
        kind, measured = found.group(1).upper(), found.group(2)
        plain = measured.lower() in ("*", "total", "sum", "amount", "count")  # 'total Total' says it once
        items.append(f"{lx.say(f'sql_rows.{kind}', lang, column='' if plain else measured).strip()}: {cell}")
    named = [lx.quote(" ".join(n.strip('«»„”“"') for n in names), lang)] if names else []
    return lx.say("sql_rows.frame", lang, items=", ".join(named + items))


def aggregated(inputs: dict[str, Any]) -> bool:
    """The call ran a SELECT whose list holds an aggregate (COUNT, SUM, ...): its rows are figures, not records."""
    query = next((str(v) for v in inputs.values() if isinstance(v, str) and _SELECT.match(v)), "")
    return any(_AGGREGATE.match(c.strip()) for c in _selected(query))


def _selected(query: str) -> list[str]:
    """The expressions of a SELECT list, split at its top-level commas."""
    match = _SELECT.match(query)
    if not match:
        return []
    out, depth, part = [], 0, ""
    for char in match.group(1):
        depth += (char == "(") - (char == ")")
        if char == "," and depth == 0:
            out.append(part.strip())
            part = ""
        else:
            part += char
    return [*out, part.strip()] if part.strip() else out
