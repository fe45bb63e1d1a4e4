"""Arithmetic in words as the simulated model reads it: numbers and operator phrases to an expression; mental sums."""

from __future__ import annotations

import re
from collections.abc import Callable
from fractions import Fraction
from functools import cache

from agent_core.sim.text import clock
from agent_core.sim.text.language import detect_language, fold, load, number_words, text_cache
from agent_core.sim.text.values import decimal, normalise_numbers

MAX_EXPONENT = 1000  # mental arithmetic refuses bigger powers, like any sane calculator
_ARITH = re.compile(r"\d+(?:[.,]\d+)?|\*\*|[-+*/^()×÷%]|[^\W\d_]+")
_DATES = re.compile(r"\b\d{4}-\d{1,2}-\d{1,2}\b|\b\d{1,2}:\d{2}(?::\d{2})?\b")  # dates and times are not sums
_THOUSANDS = re.compile(r"[1-9]\d{0,2}(?: ?\d{3})* \d{3}")
_CALC = re.compile(r"\d+(?:\.\d+)?|\*\*|[-+*/^()]")


_N = r"(-?\d+(?:[.,]\d+)?)"


@cache
def _verbs() -> tuple[tuple[re.Pattern[str], str], ...]:
    items = [(k, v) for k, v in load("numbers")["verbs"].items() if not k.startswith("_")]
    return tuple((re.compile(r"(?<!\w)" + k.replace("N", _N), re.I), v) for k, v in items)


def _rewrite_verbs(text: str) -> str:
    """'Multiply 12 by 34' -> '12 * 34', 'subtract 5 from 20' -> '20 - 5': the operands in the order meant."""
    for pattern, template in _verbs():
        text = pattern.sub(_operands_into(template), text)
    return text


def _operands_into(template: str) -> Callable[[re.Match[str]], str]:
    """A re.sub replacement that puts a match's two operands into the template ({1} and {2})."""
    return lambda m: template.format(None, m.group(1), m.group(2))


@cache
def _operator_phrases() -> list[tuple[tuple[str, ...], str]]:
    # Longest first, so "to the power of" wins over "power".
    phrases = [
        (tuple(_ARITH.findall(fold(p))), symbol) for symbol, items in load("numbers")["phrases"].items() for p in items
    ]
    return sorted(phrases, key=lambda p: len(p[0]), reverse=True)


def _merge_number_words(tokens: list[str]) -> list[str]:
    values, scales = number_words()
    out, total, current, inside = [], 0, 0, False
    for token in tokens + [""]:
        if token in values or (token in scales and inside):
            if token in values:
                current += values[token]
            elif scales[token] == 100:
                current = (current or 1) * 100
            else:
                total, current = total + (current or 1) * scales[token], 0
            inside = True
            continue
        if inside:
            out.append(str(total + current))
            total, current, inside = 0, 0, False
        if token:
            out.append(token)
    return out


def _symbols(tokens: list[str]) -> list[str]:
    """Replace operator phrases by symbols; words that are not arithmetic stay as they are (as 'w:word')."""
    phrases = _operator_phrases()
    out: list[str] = []
    i = 0
    while i < len(tokens):
        for phrase, symbol in phrases:
            if tuple(tokens[i : i + len(phrase)]) == phrase:
                if symbol == "OF" and (not out or out[-1] != "PCT"):
                    continue
                out.append(symbol)
                i += len(phrase)
                break
        else:
            token = tokens[i]
            out.append({"**": "^", "×": "*", "÷": "/", "%": "PCT"}.get(token, token))
            i += 1
    return out


def _is_num(item: str) -> bool:
    return bool(re.fullmatch(r"\d+(?:[.,]\d+)?", item))


def _runs(items: list[str]) -> list[list[str]]:
    runs: list[list[str]] = []
    current: list[str] = []
    for k, item in enumerate(items):
        if item == "*" and k and not _is_num(items[k - 1]) and items[k - 1] not in (")", "^2", "^3", "PCT"):
            item = "x"  # 'x' only means times between numbers
        arithmetic = _is_num(item) or item in ("+", "-", "*", "/", "^", "^2", "^3", "SQRT", "PCT", "OF", "(", ")")
        if arithmetic and _is_num(item) and current and _is_num(current[-1]):
            if _THOUSANDS.fullmatch(current[-1] + " " + item):
                current[-1] += item  # "1 000", as Polish and Russian write thousands
                continue
            runs.append(current)  # two numbers with nothing between them ("/api/orders/55120 200 22 ms") are no sum
            current = [item]
        elif arithmetic:
            current.append(item)
        elif current:
            runs.append(current)
            current = []
    return runs + ([current] if current else [])


def _render(run: list[str]) -> str:
    while run and run[0] in ("+", "*", "/", "^", "^2", "^3", "PCT", "OF", ")"):
        run = run[1:]
    while run and run[-1] in ("+", "-", "*", "/", "^", "SQRT", "OF", "("):
        run = run[:-1]
    out, roots, depth = [], [], 0
    for k, item in enumerate(run):
        if item == "SQRT":
            roots.append(depth)
            continue
        if item == "PCT":
            out.append("/100*" if k + 1 < len(run) and run[k + 1] == "OF" else "/100")
            continue
        if item == "OF":
            continue
        depth += {"(": 1, ")": -1}.get(item, 0)
        out.append(item.replace(",", "."))
        if (_is_num(item) or item == ")") and roots and roots[-1] == depth:
            roots.pop()
            out.append("^0.5")
    return "".join(out)


_NOT_SUMS = ("phone", "email", "url", "date", "time", "file", "directory", "repo")


def _not_sums(text: str) -> str:
    """The text with phone numbers, e-mails, dates and times blanked: 555-123-4567 is no subtraction."""
    if not re.search(r"\d[-./:]\d|@|\d\s*[ap]\.?m\b", text, re.I):
        return text
    from agent_core.sim.text import entities  # entities reads numbers through values, as this module does

    spans = [(e.start, e.end) for e in entities.of_kind(text, *_NOT_SUMS)]
    for start, end in sorted(spans, reverse=True):
        text = text[:start] + " " * (end - start) + text[end:]
    return text


# 'Сложи, пожалуйста, 3200 и 815': the verb's pattern reads its numbers right after it
_POLITE = re.compile(r",?\s*\b(?:please|пожалуйста|proszę)\b\s*,?", re.I)
_WORD_RUN = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*(?:\s+[^\W\d_]+(?:-[^\W\d_]+)*)*")


def words_to_digits(text: str) -> str:
    """Numbers written in words as digits, so the verbs' patterns see them: 'seventeen plus twenty-five' -> '17 plus
    25', 'от тысячи двухсот пятидесяти' -> 'от 1250', 'do osiemdziesięciu trzech' -> 'do 83'."""
    values, scales = number_words()

    def run(match: re.Match[str]) -> str:
        out: list[str] = []
        number: tuple[int, int] | None = None
        last: int | None = None  # the last value word of the group being read
        words = match.group().split()
        for index, word in enumerate(words):
            parts = [fold(p) for p in word.split("-")]
            following = fold(words[index + 1]) if index + 1 < len(words) else ""
            if fold(word) == "and" and number is not None and last is not None and last >= 100:
                if values.get(following, 100) < 100:
                    continue  # 'one hundred and five'
            if not all(p in values or p in scales for p in parts):
                if number is not None:
                    out.append(str(sum(number)))
                number, last = None, None
                out.append(word)
                continue
            if number is not None and parts[0] in values and not _continues(last, values[parts[0]]):
                out.append(str(sum(number)))  # 'пятидесяти триста': a second number starts
                number, last = None, None
            for part in parts:
                number = _add_word(number, part, values, scales)
                last = values[part] if part in values else (None if scales[part] > 100 else 100)
        if number is not None:
            out.append(str(sum(number)))
        return " ".join(out)

    return _SPOKEN_DECIMAL.sub(_decimal_digits, _WORD_RUN.sub(run, text))


_SPOKEN_DECIMAL = re.compile(r"(?<![\d.,])(\d+)\s+([^\W\d_]+)\s+(\d+)(?:\s+([^\W\d_]+))?")


def _decimal_digits(match: re.Match[str]) -> str:
    found = decimal(int(match[1]), match[2], int(match[3]), match[4] or "")
    if found is None:
        return match.group()
    value, whole_match = found
    tail = "" if whole_match or match[4] is None else " " + match[4]
    return format_number(value) + tail


@cache
def _ordinal_powers() -> tuple[tuple[re.Pattern[str], ...], tuple[tuple[str, int], ...]]:
    data = load("numbers")["ordinal_powers"]
    stems = {form: v for k, v in data["ordinals"].items() for form in (k, fold(k))}
    ordered = tuple(sorted(stems.items(), key=lambda item: len(item[0]), reverse=True))
    ordinal = "(" + "|".join(re.escape(k) for k, _ in ordered) + r")\w*"
    patterns = tuple(
        re.compile(r"(?<!\w)" + p.replace("N", r"(\d+(?:[.,]\d+)?)").replace("ORD", ordinal), re.I)
        for p in data["patterns"]
    )
    return patterns, ordered


def _ordinal_power(match: re.Match[str]) -> str:
    said = match[2].lower()
    exponent = next(v for stem, v in _ordinal_powers()[1] if said.startswith(stem) or fold(said).startswith(stem))
    return f"{match[1]}^{exponent}"


def ordinal_powers(text: str) -> str:
    """'2 to the tenth power', '2 в десятой степени', '2 do potęgi dziesiątej' -> '2^10' (numbers already digits)."""
    for pattern in _ordinal_powers()[0]:
        text = pattern.sub(_ordinal_power, text)
    return text


def _continues(last: int | None, value: int) -> bool:
    """Whether a value word goes on the number being read: hundreds, then tens or teens, then units."""
    if last is None:
        return True
    if last >= 100:
        return value < 100
    return 20 <= last <= 90 and last % 10 == 0 and value < 10


def _add_word(
    number: tuple[int, int] | None, word: str, values: dict[str, int], scales: dict[str, int]
) -> tuple[int, int]:
    """(total so far, the group being read) after one more number word."""
    total, current = number or (0, 0)
    if word in values:
        return total, current + values[word]
    if scales[word] == 100:
        return total, (current or 1) * 100
    return total + (current or 1) * scales[word], 0


@text_cache
def extract_expression(text: str) -> str | None:
    """Arithmetic stated in words or symbols, as an expression with + - * / ^ ( ); None if there is none."""
    for _, start, end in reversed(clock.dotted_times(text)):
        text = text[:start] + " " + text[end:]  # '16.30' said as a time is no sum either
    text = _DATES.sub(" ", _not_sums(text))
    text = _POLITE.sub(" ", words_to_digits(normalise_numbers(text, detect_language(text))))
    text = _rewrite_verbs(ordinal_powers(text))
    items = _symbols(_merge_number_words(_ARITH.findall(fold(text))))
    best = None
    for run in _runs(items):
        numbers = sum(1 for item in run if _is_num(item))
        operators = sum(1 for item in run if not _is_num(item) and item not in ("(", ")"))
        if numbers and operators and (numbers >= 2 or any(i in run for i in ("SQRT", "^2", "^3", "PCT"))):
            if best is None or numbers > best[0]:
                best = (numbers, _render(run))
    return best[1] if best and best[1] else None


_RESULT = 987654321  # a number no question holds, standing for 'the result' while a clause is read


def on_result(clause: str, previous: str | None) -> str | None:
    """'then divide the result by 4' after '120+80': '(120+80)/4'; None when the clause names no earlier result."""
    if not previous:
        return None
    words = "|".join(re.escape(w) for w in sorted(load("numbers")["result_words"], key=len, reverse=True))
    marked, n = re.subn(rf"(?<!\w)(?:{words})(?!\w)", str(_RESULT), clause, count=1, flags=re.I)
    found = extract_expression(marked) if n else None
    if found is None or str(_RESULT) not in found:
        found = _onward(clause)  # 'then add 8', 'и прибавь 15': the command's other operand is the result
    if found is None or str(_RESULT) not in found:
        return None
    return found.replace(str(_RESULT), f"({previous})")


@cache
def _onward_commands() -> tuple[tuple[re.Pattern[str], str], ...]:
    items = [(k, v) for k, v in load("numbers")["onward"].items() if not k.startswith("_")]
    return tuple((re.compile(r"(?<!\w)" + k.replace("N", _N) + r"(?![\d.,])", re.I), v) for k, v in items)


def _onward(clause: str) -> str | None:
    """A command with one number of its own ('divide by 5'), as that operation on the result before: 'R/5'."""
    text = words_to_digits(normalise_numbers(clause, detect_language(clause)))
    if len(re.findall(r"\d+(?:[.,]\d+)?", text)) != 1:
        return None  # 'add 3 and 4' is a sum of its own
    for pattern, template in _onward_commands():
        match = pattern.search(text)
        if match:
            number = match.group(1).replace(",", ".")
            return template.replace("R", str(_RESULT)).format(None, number).replace(" ", "")
    return None


def evaluate(expression: str) -> str | None:
    """Mental arithmetic with its own small parser (never eval); None when it cannot be done."""
    tokens = _CALC.findall(expression.replace(" ", ""))
    if "".join(tokens) != expression.replace(" ", ""):
        return None
    try:
        value, rest = _sum(tokens)
        return None if rest else format_number(value)
    except (ValueError, TypeError, ZeroDivisionError, OverflowError, IndexError):
        return None


def _sum(tokens: list[str]) -> tuple[Fraction | float, list[str]]:
    value, tokens = _product(tokens)
    while tokens and tokens[0] in "+-":
        right, rest = _product(tokens[1:])
        value, tokens = (value + right if tokens[0] == "+" else value - right), rest
    return value, tokens


def _product(tokens: list[str]) -> tuple[Fraction | float, list[str]]:
    value, tokens = _unary(tokens)
    while tokens and tokens[0] in "*/":
        right, rest = _unary(tokens[1:])
        value, tokens = (value * right if tokens[0] == "*" else value / right), rest
    return value, tokens


def _unary(tokens: list[str]) -> tuple[Fraction | float, list[str]]:
    if tokens[0] == "-":
        value, rest = _unary(tokens[1:])
        return -value, rest
    base, rest = _atom(tokens)
    if rest and rest[0] in ("^", "**"):
        power, rest = _unary(rest[1:])
        if power > MAX_EXPONENT or power < -MAX_EXPONENT:
            raise ValueError("exponent too large")
        if isinstance(power, Fraction) and power.denominator == 1:
            return base ** int(power), rest
        return float(base) ** float(power), rest
    return base, rest


def _atom(tokens: list[str]) -> tuple[Fraction | float, list[str]]:
    if tokens[0] == "(":
        value, rest = _sum(tokens[1:])
        if not rest or rest[0] != ")":
            raise ValueError("unbalanced parentheses")
        return value, rest[1:]
    return Fraction(tokens[0]), tokens[1:]


def format_number(value: Fraction | float) -> str:
    """Whole numbers exactly, others to 12 significant digits."""
    if isinstance(value, complex):
        raise ValueError("not a real number")
    if isinstance(value, Fraction) and value.denominator == 1:
        return str(value.numerator)
    number = float(value)
    return str(int(number)) if number.is_integer() and abs(number) < 1e15 else f"{number:.12g}"


def tidy_expression(expression: str) -> str:
    """The repairs a model makes after a calculator complains: x -> *, comma decimals, no '=', balanced ()."""
    text = re.sub(r"(?<=\d)\s*[x×]\s*(?=\d)", "*", expression).replace("÷", "/").replace("**", "^")
    text = re.sub(r"(?<=\d),(?=\d)", ".", text).replace("=", "").replace("?", "").strip()
    text = text + ")" * max(0, text.count("(") - text.count(")"))
    return text
