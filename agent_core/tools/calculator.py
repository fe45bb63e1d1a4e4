"""A bounded arithmetic evaluator: its own tokenizer and recursive-descent parser, never eval()."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from decimal import Context, Decimal
from fractions import Fraction

from agent_core.tools.texts import Said, error, said

MAX_LENGTH = 500
MAX_DEPTH = 50
MAX_EXPONENT = 10_000
# About 1000 decimal digits: bigger exact numbers are refused before they are computed.
MAX_BITS = 3322
SIGNIFICANT_DIGITS = 12
EXACT_DECIMALS = 20
Number = Fraction | float

_TOKEN = re.compile(
    r"\s*(?:(?P<num>(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)|(?P<name>[A-Za-z_]\w*)|(?P<op>\*\*|[-+*/%^(),]))"
)
_UNICODE_OPS = str.maketrans({"×": "*", "÷": "/", "−": "-", "–": "-"})
CONSTANTS = {"pi": math.pi, "e": math.e}
FUNCTIONS = ("sqrt", "abs", "round", "floor", "ceil")


class CalculationError(ValueError):
    """The expression cannot be evaluated; the message says why and how to fix it."""


@dataclass
class Token:
    """One lexical unit with its position in the expression (for error messages)."""

    kind: str  # num | name | op | end
    text: str
    pos: int


def tokenize(expression: str) -> list[Token]:
    """Split an expression into numbers, names and operators; anything else is an error."""
    tokens, pos = [], 0
    while pos < len(expression):
        match = _TOKEN.match(expression, pos)
        if not match or match.end() == pos:
            rest = expression[pos:].strip()
            if not rest:
                break
            at = len(expression) - len(expression[pos:].lstrip())
            raise error(CalculationError, "calc.unexpected_char", char=repr(expression[at]), position=at + 1)
        kind = match.lastgroup or "op"
        tokens.append(Token(kind, match.group(kind), match.start(kind)))
        pos = match.end()
    tokens.append(Token("end", "", len(expression)))
    return tokens


def _too_big(value: Fraction) -> bool:
    return max(abs(value.numerator).bit_length(), value.denominator.bit_length()) > MAX_BITS


def _check(value: Number) -> Number:
    """Refuse results that are infinite, undefined or beyond the size limit."""
    if isinstance(value, float):
        if math.isnan(value):
            raise error(CalculationError, "calc.nan")
        if math.isinf(value):
            raise error(CalculationError, "calc.too_large")
        return value
    if _too_big(value):
        raise error(CalculationError, "calc.too_big")
    return value


def _as_float(value: Number) -> float:
    try:
        return float(value)
    except OverflowError:
        raise error(CalculationError, "calc.mixed") from None


def _binary(op: str, left: Number, right: Number) -> Number:
    """Apply + - * / % exactly when both sides are exact, in floating point otherwise."""
    if isinstance(left, float) or isinstance(right, float):
        left, right = _as_float(left), _as_float(right)
    if op in "/%" and right == 0:
        raise error(CalculationError, "calc.div_zero" if op == "/" else "calc.mod_zero")
    if op == "+":
        return _check(left + right)
    if op == "-":
        return _check(left - right)
    if op == "*":
        return _check(left * right)
    if op == "/":
        return _check(left / right)
    return _check(left % right)


def _power(base: Number, exponent: Number) -> Number:
    """base ^ exponent, refusing sizes beyond the limits BEFORE computing anything."""
    if isinstance(exponent, Fraction) and exponent.denominator == 1 and isinstance(base, Fraction):
        return _int_power(base, exponent.numerator)
    if abs(_as_float(exponent)) > MAX_EXPONENT and abs(_as_float(base)) not in (0.0, 1.0):
        raise error(CalculationError, "calc.exponent_limit", limit=MAX_EXPONENT)
    b, x = _as_float(base), _as_float(exponent)
    if b < 0 and not x.is_integer():
        raise error(CalculationError, "calc.negative_fraction_power")
    if b == 0 and x < 0:
        raise error(CalculationError, "calc.zero_negative_power")
    try:
        return _check(math.pow(b, x))
    except OverflowError:
        raise error(CalculationError, "calc.too_large") from None


def _int_power(base: Fraction, n: int) -> Fraction:
    if base == 0:
        if n < 0:
            raise error(CalculationError, "calc.zero_negative_power")
        return Fraction(1 if n == 0 else 0)
    if base in (1, -1):
        return base ** (n % 2)
    if abs(n) > MAX_EXPONENT:
        raise error(CalculationError, "calc.exponent_n_limit", n=n, limit=MAX_EXPONENT)
    bits = abs(n) * max(math.log2(abs(base.numerator)), math.log2(base.denominator))
    if bits > MAX_BITS:
        raise error(CalculationError, "calc.too_big")
    return base**n


def _sqrt(value: Number) -> Number:
    if value < 0:
        raise error(CalculationError, "calc.sqrt_negative")
    if isinstance(value, Fraction):
        num, den = math.isqrt(value.numerator), math.isqrt(value.denominator)
        if num * num == value.numerator and den * den == value.denominator:
            return Fraction(num, den)  # perfect squares stay exact: sqrt(16) is 4, not 4.0
    return _check(math.sqrt(_as_float(value)))


def _round(value: Number, places: Number | None = None) -> Number:
    digits = Fraction(0) if places is None else places
    if not (isinstance(digits, Fraction) and digits.denominator == 1 and 0 <= digits <= 15):
        raise error(CalculationError, "calc.round_places")
    exact = Fraction(value) if isinstance(value, float) else value
    scale = Fraction(10) ** int(digits)
    # Half away from zero, as taught in school (Python's round() would give round(2.5) = 2).
    magnitude = math.floor(abs(exact) * scale + Fraction(1, 2))
    result = Fraction(magnitude if exact >= 0 else -magnitude) / scale
    return float(result) if isinstance(value, float) and digits else result


def _call(name: str, args: list[Number]) -> Number:
    expected = {"round": (1, 2)}.get(name, (1, 1))
    if not expected[0] <= len(args) <= expected[1]:
        want = said("calc.one_or_two_arguments" if expected[1] == 2 else "calc.one_argument")
        raise error(CalculationError, "calc.arguments", name=name, want=want, got=len(args))
    value = args[0]
    if name == "sqrt":
        return _sqrt(value)
    if name == "abs":
        return math.fabs(value) if isinstance(value, float) else abs(value)
    if name == "round":
        return _round(value, args[1] if len(args) > 1 else None)
    exact = Fraction(value) if isinstance(value, float) else value
    return Fraction(math.floor(exact) if name == "floor" else math.ceil(exact))


class _Parser:
    """Recursive descent: expr -> term (+|- term)*; term -> unary (*|/|% unary)*; unary -> -unary | power."""

    def __init__(self, tokens: list[Token]) -> None:
        self.tokens, self.i, self.depth = tokens, 0, 0

    @property
    def tok(self) -> Token:
        return self.tokens[self.i]

    def take(self, text: str | None = None) -> Token | None:
        if self.tok.kind != "end" and (text is None or self.tok.text == text):
            self.i += 1
            return self.tokens[self.i - 1]
        return None

    def advance(self) -> Token:
        """Consume the current token, which the caller has seen is not the end."""
        self.i += 1
        return self.tokens[self.i - 1]

    def deeper(self) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise error(CalculationError, "calc.too_deep", limit=MAX_DEPTH)

    def fail(self, expected: Said) -> CalculationError:
        tok = self.tok
        found = (
            said("calc.end") if tok.kind == "end" else said("calc.token_at", token=repr(tok.text), position=tok.pos + 1)
        )
        hint = said("calc.no_hint")
        if tok.text == "," and self.depth == 0:
            hint = said("calc.hint_decimal")
        elif self.i and self.tokens[self.i - 1].text == "%":
            hint = said("calc.hint_percent")
        return error(CalculationError, "calc.expected", expected=expected, found=found, hint=hint)

    def parse(self) -> Number:
        value = self.expr()
        if self.tok.kind != "end":
            raise self.fail(said("calc.an_operator"))
        return value

    def expr(self) -> Number:
        value = self.term()
        while self.tok.text in ("+", "-") and self.tok.kind == "op":
            op = self.advance().text
            value = _binary(op, value, self.term())
        return value

    def term(self) -> Number:
        value = self.unary()
        while self.tok.text in ("*", "/", "%") and self.tok.kind == "op":
            op = self.advance().text
            value = _binary(op, value, self.unary())
        return value

    def unary(self) -> Number:
        if self.tok.kind == "op" and self.tok.text in ("-", "+"):
            op = self.advance().text
            self.deeper()
            value = self.unary()
            self.depth -= 1
            return -value if op == "-" else value
        return self.power()

    def power(self) -> Number:
        base = self.primary()
        if self.tok.kind == "op" and self.tok.text in ("^", "**"):
            self.take()
            self.deeper()
            exponent = self.unary()  # right-associative: 2^3^2 is 2^(3^2); 2^-1 is allowed
            self.depth -= 1
            return _power(base, exponent)
        return base

    def primary(self) -> Number:
        tok = self.tok
        if tok.kind == "num":
            self.take()
            return _number(tok.text)
        if tok.kind == "name":
            return self.name()
        if self.take("("):
            self.deeper()
            value = self.expr()
            if not self.take(")"):
                raise self.fail(said("calc.close_paren"))
            self.depth -= 1
            return value
        raise self.fail(said("calc.operand"))

    def name(self) -> Number:
        tok = self.advance()
        lowered = tok.text.lower()
        if lowered in CONSTANTS:
            return CONSTANTS[lowered]
        if lowered not in FUNCTIONS:
            raise error(
                CalculationError,
                "calc.unknown_name",
                name=repr(tok.text),
                position=tok.pos + 1,
                functions=", ".join(FUNCTIONS),
            )
        if not self.take("("):
            raise self.fail(said("calc.open_paren_after", name=tok.text))
        self.deeper()
        args = [self.expr()]
        while self.take(","):
            args.append(self.expr())
        if not self.take(")"):
            raise self.fail(said("calc.close_or_comma"))
        self.depth -= 1
        return _check(_call(lowered, args))


def _number(text: str) -> Number:
    mantissa, _, exponent = text.lower().partition("e")
    if exponent and abs(int(exponent)) > 1000:
        raise error(CalculationError, "calc.number_range", text=text)
    return _check(Fraction(mantissa) * Fraction(10) ** int(exponent or 0))


def format_number(value: Number) -> str:
    """Whole numbers exactly; short exact decimals as they are; the rest to 12 significant digits."""
    if isinstance(value, float):
        if value.is_integer() and abs(value) < 1e15:
            return str(int(value))
        return format(value, f".{SIGNIFICANT_DIGITS}g")
    num, den = value.numerator, value.denominator
    if den == 1:
        return str(num)
    places = max(_multiplicity(den, 2), _multiplicity(den, 5))
    if places <= EXACT_DECIMALS and 10**places % den == 0:
        # Terminating decimal: print it exactly (0.1 + 0.2 is 0.3 here, not 0.30000000000000004).
        digits = str(abs(num) * (10**places // den)).rjust(places + 1, "0")
        return f"{'-' if num < 0 else ''}{digits[:-places]}.{digits[-places:]}"
    return _plain(Context(prec=SIGNIFICANT_DIGITS).divide(Decimal(num), Decimal(den)))


def _multiplicity(n: int, p: int) -> int:
    count = 0
    while n % p == 0:
        n //= p
        count += 1
    return count


def _plain(value: Decimal) -> str:
    exponent = value.adjusted()
    if -7 <= exponent < SIGNIFICANT_DIGITS:
        text = format(value, "f")
        return text.rstrip("0").rstrip(".") if "." in text else text
    return format(value.normalize(), "e").replace("e+", "e")


def evaluate(expression: str) -> Number:
    """The value of an arithmetic expression, or CalculationError saying what is wrong."""
    if not isinstance(expression, str):
        raise error(CalculationError, "calc.not_string")
    if len(expression) > MAX_LENGTH:
        raise error(CalculationError, "calc.too_long", length=len(expression), limit=MAX_LENGTH)
    text = expression.translate(_UNICODE_OPS)
    if not text.strip():
        raise error(CalculationError, "calc.empty")
    return _Parser(tokenize(text)).parse()


def calculate(expression: str) -> str:
    """The formatted result of an arithmetic expression (CalculationError when it cannot be computed)."""
    return format_number(evaluate(expression))
