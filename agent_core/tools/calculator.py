"""A bounded arithmetic evaluator: its own tokenizer and recursive-descent parser, never eval()."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from decimal import Context, Decimal
from fractions import Fraction

MAX_LENGTH = 500
MAX_DEPTH = 50
MAX_EXPONENT = 10_000
# About 1000 decimal digits: bigger exact numbers are refused before they are computed.
MAX_BITS = 3322
SIGNIFICANT_DIGITS = 12
EXACT_DECIMALS = 20
_TOO_BIG = "the result would need more than about 1000 digits; this calculator refuses it."

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
            raise CalculationError(
                f"unexpected character {expression[at]!r} at position {at + 1}. "
                "Use numbers, + - * / % ^ ( ) and sqrt, abs, round, floor, ceil, pi, e."
            )
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
            raise CalculationError("the result is not a number (undefined operation).")
        if math.isinf(value):
            raise CalculationError("the result is too large to represent.")
        return value
    if _too_big(value):
        raise CalculationError(_TOO_BIG)
    return value


def _as_float(value: Number) -> float:
    try:
        return float(value)
    except OverflowError:
        raise CalculationError("a number is too large to combine with a decimal approximation.") from None


def _binary(op: str, left: Number, right: Number) -> Number:
    """Apply + - * / % exactly when both sides are exact, in floating point otherwise."""
    if isinstance(left, float) or isinstance(right, float):
        left, right = _as_float(left), _as_float(right)
    if op in "/%" and right == 0:
        raise CalculationError("division by zero." if op == "/" else "modulo by zero.")
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
        raise CalculationError(f"the exponent is larger than {MAX_EXPONENT}; this calculator refuses it.")
    b, x = _as_float(base), _as_float(exponent)
    if b < 0 and not x.is_integer():
        raise CalculationError("a negative number to a fractional power is not a real number.")
    if b == 0 and x < 0:
        raise CalculationError("division by zero (zero to a negative power).")
    try:
        return _check(math.pow(b, x))
    except OverflowError:
        raise CalculationError("the result is too large to represent.") from None


def _int_power(base: Fraction, n: int) -> Fraction:
    if base == 0:
        if n < 0:
            raise CalculationError("division by zero (zero to a negative power).")
        return Fraction(1 if n == 0 else 0)
    if base in (1, -1):
        return base ** (n % 2)
    if abs(n) > MAX_EXPONENT:
        raise CalculationError(f"the exponent {n} is larger than {MAX_EXPONENT}; this calculator refuses it.")
    bits = abs(n) * max(math.log2(abs(base.numerator)), math.log2(base.denominator))
    if bits > MAX_BITS:
        raise CalculationError(_TOO_BIG)
    return base**n


def _sqrt(value: Number) -> Number:
    if value < 0:
        raise CalculationError("the square root of a negative number is not a real number.")
    if isinstance(value, Fraction):
        num, den = math.isqrt(value.numerator), math.isqrt(value.denominator)
        if num * num == value.numerator and den * den == value.denominator:
            return Fraction(num, den)  # perfect squares stay exact: sqrt(16) is 4, not 4.0
    return _check(math.sqrt(_as_float(value)))


def _round(value: Number, places: Number | None = None) -> Number:
    digits = Fraction(0) if places is None else places
    if not (isinstance(digits, Fraction) and digits.denominator == 1 and 0 <= digits <= 15):
        raise CalculationError("round(x, n) needs a whole number of places n from 0 to 15.")
    exact = Fraction(value) if isinstance(value, float) else value
    scale = Fraction(10) ** int(digits)
    # Half away from zero, as taught in school (Python's round() would give round(2.5) = 2).
    magnitude = math.floor(abs(exact) * scale + Fraction(1, 2))
    result = Fraction(magnitude if exact >= 0 else -magnitude) / scale
    return float(result) if isinstance(value, float) and digits else result


def _call(name: str, args: list[Number]) -> Number:
    expected = {"round": (1, 2)}.get(name, (1, 1))
    if not expected[0] <= len(args) <= expected[1]:
        want = "1 or 2 arguments" if expected[1] == 2 else "1 argument"
        raise CalculationError(f"{name}() takes {want}, got {len(args)}.")
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
            raise CalculationError(f"the expression nests more than {MAX_DEPTH} levels deep; simplify it.")

    def fail(self, expected: str) -> CalculationError:
        tok = self.tok
        found = "the end of the expression" if tok.kind == "end" else f"{tok.text!r} at position {tok.pos + 1}"
        hint = ""
        if tok.text == "," and self.depth == 0:
            hint = " Use '.' for decimals, e.g. 3.5."
        elif self.i and self.tokens[self.i - 1].text == "%":
            hint = " '%' means remainder here; for a percentage write e.g. 20/100*x."
        return CalculationError(f"expected {expected} but found {found}.{hint}")

    def parse(self) -> Number:
        value = self.expr()
        if self.tok.kind != "end":
            raise self.fail("an operator")
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
                raise self.fail("')'")
            self.depth -= 1
            return value
        raise self.fail("a number, a function or '('")

    def name(self) -> Number:
        tok = self.advance()
        lowered = tok.text.lower()
        if lowered in CONSTANTS:
            return CONSTANTS[lowered]
        if lowered not in FUNCTIONS:
            raise CalculationError(
                f"unknown name {tok.text!r} at position {tok.pos + 1}. Only the functions "
                f"{', '.join(FUNCTIONS)} and the constants pi and e are allowed."
            )
        if not self.take("("):
            raise self.fail(f"'(' after {tok.text}")
        self.deeper()
        args = [self.expr()]
        while self.take(","):
            args.append(self.expr())
        if not self.take(")"):
            raise self.fail("')' or ','")
        self.depth -= 1
        return _check(_call(lowered, args))


def _number(text: str) -> Number:
    mantissa, _, exponent = text.lower().partition("e")
    if exponent and abs(int(exponent)) > 1000:
        raise CalculationError(f"the number {text} is too large or too small; exponents up to 1000 are allowed.")
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
        raise CalculationError('the expression must be a string, e.g. "2 + 2".')
    if len(expression) > MAX_LENGTH:
        raise CalculationError(f"the expression is {len(expression)} characters long; the limit is {MAX_LENGTH}.")
    text = expression.translate(_UNICODE_OPS)
    if not text.strip():
        raise CalculationError('the expression is empty; give something like "2 + 2".')
    return _Parser(tokenize(text)).parse()


def calculate(expression: str) -> str:
    """The formatted result of an arithmetic expression (CalculationError when it cannot be computed)."""
    return format_number(evaluate(expression))
