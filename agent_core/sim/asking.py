"""Clarifying questions that name what the user knows: 'Could you give me the order number, or your e-mail address,
phone number or username so I can look it up?', never a schema field ('To use get_user I need “key”')."""

from __future__ import annotations

from typing import Any

from agent_core.sim import chain, kinds, slots
from agent_core.sim.args import key_in_view
from agent_core.sim.text import language as lx
from agent_core.sim.text.language import say
from agent_core.sim.text.reader import Need, View

# What each kind of value is to the user, per language.
_KNOWN = {
    "email": {"en": "your e-mail address", "ru": "ваш адрес электронной почты", "pl": "twój adres e-mail"},
    "phone": {"en": "your phone number", "ru": "ваш номер телефона", "pl": "twój numer telefonu"},
    "named": {"en": "your username", "ru": "ваш логин", "pl": "twój login"},
    "person": {"en": "the name", "ru": "имя", "pl": "imię i nazwisko"},
    "city": {"en": "the city", "ru": "город", "pl": "miasto"},
    "date": {"en": "the date", "ru": "дату", "pl": "datę"},
    "time": {"en": "the time", "ru": "время", "pl": "godzinę"},
    "url": {"en": "the link", "ru": "ссылку", "pl": "link"},
    "path": {"en": "the file's name", "ru": "имя файла", "pl": "nazwę pliku"},
    "directory": {"en": "the folder", "ru": "папку", "pl": "folder"},
}
# The same values when they are someone else's: send_email's 'to' is "The recipient's email address".
_RECIPIENT = {
    "email": {
        "en": "the recipient's e-mail address",
        "ru": "адрес электронной почты получателя",
        "pl": "adres e-mail odbiorcy",
    },
    "phone": {"en": "the recipient's phone number", "ru": "номер телефона получателя", "pl": "numer telefonu odbiorcy"},
}
_NUMBER_OF = {
    "order": {"en": "the order number", "ru": "номер заказа", "pl": "numer zamówienia"},
    "customer": {"en": "your customer number", "ru": "номер клиента", "pl": "numer klienta"},
    "user": {"en": "your user ID", "ru": "ваш ID пользователя", "pl": "twój identyfikator użytkownika"},
    "booking": {"en": "the booking number", "ru": "номер бронирования", "pl": "numer rezerwacji"},
    "reservation": {"en": "the reservation number", "ru": "номер бронирования", "pl": "numer rezerwacji"},
    "confirmation": {"en": "the confirmation number", "ru": "номер подтверждения", "pl": "numer potwierdzenia"},
    "issue": {"en": "the issue number", "ru": "номер задачи", "pl": "numer zgłoszenia"},
    "invoice": {"en": "the invoice number", "ru": "номер счёта", "pl": "numer faktury"},
    "ticket": {"en": "the ticket number", "ru": "номер заявки", "pl": "numer zgłoszenia"},
    "account": {"en": "the account number", "ru": "номер счёта", "pl": "numer konta"},
    "seat": {"en": "the seat you would like", "ru": "какое место вы хотите", "pl": "numer wybranego miejsca"},
}
# How many of a thing a count parameter wants (num_days, number_of_results), asked as the user says it.
_HOW_MANY = {
    "day": {"en": "the number of days", "ru": "на сколько дней", "pl": "liczbę dni"},
    "result": {"en": "how many results you want", "ru": "сколько результатов нужно", "pl": "liczbę wyników"},
    "guest": {"en": "the number of guests", "ru": "количество гостей", "pl": "liczbę gości"},
    "people": {"en": "the number of people", "ru": "количество человек", "pl": "liczbę osób"},
    "night": {"en": "the number of nights", "ru": "количество ночей", "pl": "liczbę nocy"},
    "item": {"en": "how many items", "ru": "сколько штук", "pl": "liczbę sztuk"},
}
_OPTION = {
    "email": _KNOWN["email"],
    "phone": _KNOWN["phone"],
    "named": _KNOWN["named"],
    "person": {"en": "your name", "ru": "ваше имя", "pl": "twoje imię"},
    "id": {"en": "your ID", "ru": "ваш ID", "pl": "twój identyfikator"},
    "city": _KNOWN["city"],
    "url": _KNOWN["url"],
}


def _what(view: View, tool: dict[str, Any], pname: str) -> list[str]:
    """What the user may know for one parameter: 'the order number'; for get_user's value: its options."""
    key = key_in_view(view, tool)
    selector = kinds.selector(key)
    if selector and pname in selector.values():
        return [_OPTION[k][view.lang] for _, k in kinds.selector_options(key) if k in _OPTION]
    props = (tool.get("input_schema") or {}).get("properties") or {}
    prop = props.get(pname) if isinstance(props.get(pname), dict) else {}
    kind = kinds.kind_of(pname, prop or {}, key)
    if kind in ("id", "id_number", None):
        for word in slots.entity_words(pname):
            found = _NUMBER_OF.get(lx.stem(word)) or _NUMBER_OF.get(word)
            if found:
                return [found[view.lang]]
    if kind in _RECIPIENT and _for_recipient(pname, prop or {}):
        return [_RECIPIENT[kind][view.lang]]
    if kind in _KNOWN:
        return [_KNOWN[kind][view.lang]]
    if kind == "number" or (prop or {}).get("type") in ("integer", "number"):
        for word in slots.entity_words(pname):
            found = _HOW_MANY.get(lx.stem(word)) or _HOW_MANY.get(word)
            if found:
                return [found[view.lang]]
    return []


def _for_recipient(pname: str, prop: dict[str, Any]) -> bool:
    """The value is the person written to, not the user: 'to', 'recipient', "The recipient's email address"."""
    words = lx.words(f"{pname.replace('_', ' ')} {prop.get('description', '')}")
    return bool(lx.hits(words, lx.lexicon()["recipient_words"]))


def question(view: View, need: Need) -> str | None:
    """The clarifying question for a need that lacks what the user must say, or None to use the plain phrases."""
    tool = need.tool_def
    lacking = chain.lacking(need)
    first: list[str] = []
    for pname in lacking:
        first += _what(view, tool, pname)
    others: list[str] = []
    for producer in chain.promising(view, need):
        for pname in chain.lacking(producer):
            others += [w for w in _what(view, producer.tool_def, pname) if w not in first]
    if others and _said_unknown(view, lacking):
        first = []  # "... but I don't know the order ID": ask only for what can find it
    if not first and not others:
        return None
    if not others and need.missing and need.missing[0] in lx.load("phrases")["ask"]:
        return None  # its own question says it best: 'Which city should I check the weather for?'
    if first and others:
        return say("ask.or_lookup", view.lang, first=lx.join_list(first, view.lang), others=_or(others, view.lang))
    return say("ask.known_any", view.lang, what=_or(first or others, view.lang))


def _said_unknown(view: View, params: list[str]) -> bool:
    """The user said they do not know the thing a parameter identifies ('не знаю его номер', 'I don't know the
    order ID'): a word for a number, or for the thing, in the clause that says so."""
    from agent_core.sim.text.reader import _not_known  # the reader drops that clause as no task of its own

    wanted = {"id", "number", "номер", "numer", "код", "kod", *(w for p in params for w in slots.entity_words(p))}
    for clause in lx.split_clauses(view.question):
        if _not_known(clause) and lx.hits(lx.words(clause), sorted(wanted)):
            return True
    return False


def _or(items: list[str], lang: str) -> str:
    items = list(dict.fromkeys(items))
    if len(items) <= 1:
        return "".join(items)
    word = {"en": "or", "ru": "или", "pl": "lub"}[lang]
    return ", ".join(items[:-1]) + f" {word} " + items[-1]
