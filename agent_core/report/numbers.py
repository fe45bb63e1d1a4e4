"""Numbers as a reader of each language writes them: 12,345 in English, 12 345 and 0,5 in Russian and Polish."""

from __future__ import annotations


def number_text(value: float, lang: str, digits: int | None = None) -> str:
    """1234 -> "1,234" in English; 12345 -> "12 345" and 0.5 -> "0,5" in Russian and Polish (a four-digit whole
    number keeps no space there, as their style guides write it)."""
    if digits:
        text = f"{value:,.{digits}f}"
        return text if lang == "en" else text.replace(",", "\u00a0").replace(".", ",")
    if isinstance(value, float) and not value.is_integer():
        text = repr(value)
        return text if lang == "en" else text.replace(".", ",")
    whole = int(value)
    if lang == "en":
        return f"{whole:,}"
    return f"{whole:,}".replace(",", "\u00a0") if abs(whole) >= 10_000 else str(whole)


def money_text(amount: float, lang: str, digits: int) -> str:
    """US dollars with the reader's decimal mark: "$0.0035" in English, "$0,0035" in Russian and Polish (the
    amount is in dollars in every language, so the sign stays; only the way the number is written changes)."""
    return "$" + number_text(amount, lang, digits)
