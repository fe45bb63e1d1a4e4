"""The simulated model's words: the sentence before its tool calls and the final answer, in the user's language."""

from __future__ import annotations

import functools
import re
from fractions import Fraction
from typing import Any

from agent_core.sim import (
    args,
    asking,
    browsing,
    compose,
    failure,
    gist,
    knowledge,
    lookup,
    markup,
    pages,
    routine,
    shell,
    told,
    tree,
    weather,
    words,
)
from agent_core.sim.covered import served_elsewhere
from agent_core.sim.mood import asked_actions, read_only
from agent_core.sim.text import arithmetic, facts, gazetteer, values
from agent_core.sim.text import language as lx
from agent_core.sim.text.language import say
from agent_core.sim.text.reader import Need, View
from agent_core.sim.text.results import Attempt, Injection, short

QUOTE_LIMIT = 600
MERGED_TASKS = ("weather", "file", "delete", "stock")


def clip(text: str) -> str:
    text = text.strip()
    return text if len(text) <= QUOTE_LIMIT else text[: QUOTE_LIMIT - 1] + "…"


def _main_value(need: Need) -> str | None:
    if need.value:
        return need.value
    sent = need.call or need.args or (need.result.input if need.result else {})
    return next((v for v in sent.values() if isinstance(v, str)), None)


def _in_city(value: str | None, intent: str, lang: str) -> str:
    """'в Лондоне' for the weather's place, and for a clock's when it is a city (a time zone is not said so)."""
    if not value or intent not in ("weather", "time") or (intent == "time" and gazetteer.lookup(value) is None):
        return ""
    return gazetteer.where(value, lang)


def task_phrase(view: View, need: Need) -> str:
    intent = "derived" if need.derived else need.intent
    value = _main_value(need)
    values = {
        "in_city": _in_city(value, intent, view.lang),
        "expr": value or "",
        "path": value or "",
        "ticker": value or "",
        "q": lx.quote(short(value or view.question, QUOTE_LIMIT), view.lang),
        "tool": (need.tool or {}).get("name", ""),
    }
    key = intent if intent in lx.load("phrases")["task"] else "tool"
    if key == "search" and need.tool is not None and lookup.changes(need.tool):
        key = "tool"  # 'Add to Ann's record that ...' fell back to a search, but add_observations looks nothing up
    return re.sub(r"\s+", " ", say(f"task.{key}", view.lang, **values)).strip()


def task_phrases(view: View, needs: list[Need]) -> list[str]:
    """Task phrases for a preface; needs of one kind share one: 'read app.log, notes.txt and report.md'."""
    groups: dict[str, list[str]] = {}
    for need in needs:
        main = _main_value(need)
        if need.intent in MERGED_TASKS and not need.derived and main:
            groups.setdefault(need.intent, []).append(main)
    out = []
    for need in needs:
        values = groups.get(need.intent, []) if not need.derived and _main_value(need) else []
        if len(values) > 1:
            places = lx.join_list([gazetteer.where(v, view.lang) for v in values], view.lang)
            joined = lx.join_list(values, view.lang)
            out.append(say(f"task.{need.intent}", view.lang, in_city=places, path=joined, ticker=joined))
        else:
            out.append(task_phrase(view, need))
    return list(dict.fromkeys(out))  # a shared phrase appears once


def _disagreement(view: View, need: Need, expr: str, out: str) -> str | None:
    """The tool's number is not what the expression gives: say so instead of passing it on (the ^-as-XOR trap)."""
    mine = arithmetic.evaluate(expr.replace("**", "^"))
    theirs = values.numbers(out)
    if mine is None or len(theirs) != 1 or not re.fullmatch(r"\s*-?[\d.,  ]+\s*", out):
        return None
    if abs(float(theirs[0]) - float(mine)) <= 1e-9 * max(1.0, abs(float(mine))):
        return None
    ints = re.fullmatch(r"(\d+)\^(\d+)", expr)
    hint = say("xor_hint", view.lang) if ints and int(ints[1]) ^ int(ints[2]) == float(theirs[0]) else ""
    return say("disagree", view.lang, tool=need.outcome.name, out=out.strip(), expr=expr, value=mine, hint=hint)


def _result_line(view: View, need: Need, injection: Injection | None) -> str:
    out = need.outcome.output
    if need.intent == "arithmetic" and need.value and not need.derived:
        disagreement = _disagreement(view, need, _result_value(need), out)
        if disagreement:
            return disagreement
    if injection and injection.source is need.result:
        out = out.replace(injection.text, "", 1)
    out = told.unwrapped(out)
    intent = "derived" if need.derived else need.intent
    if intent in ("arithmetic", "derived"):
        out = _as_said(out)
    value = _result_value(need)
    shelled = intent == "list" and shell.command_param(need.tool_def or {}) is not None
    if shelled:
        out = ", ".join(shell.entries(out))  # ls prints a name a line; the answer names them in a row
    data = facts.parse(out) if intent not in ("arithmetic", "derived") else None
    if data is None:
        out = pages.unwrapped(out, need.outcome.input)  # 'Contents of <url>:' restates the call; the page follows
        out = markup.facts(out) or out  # raw HTML told by its title, heading and values, never its tags
    composed = tree.line(data, view.lang, told.where_sent(view, need)) if data is not None else None
    composed = composed or (compose.from_data(view, need, data) if data is not None else None)
    if composed is None and intent not in ("arithmetic", "derived", "list"):
        composed = told.from_text(view, need, out)
    elif (
        composed is None
        and intent == "list"
        and not shelled
        and (gist.listing(out) or gist.records(view.question, view.lang, out) or told.told_done(view, need, out))
    ):
        composed = told.from_text(view, need, out)  # '[FILE] app.log ...', a log's records: told, not pasted
    if composed is None and intent == "file":
        composed = told.short_file(view, value, out)  # one sentence read to be told is told, not pasted
    if composed is not None:
        line = composed
    elif intent in ("tool", "stock", "time", "delete") or intent not in lx.load("phrases")["result"]:
        line = told.short_text(view, need, out)
    else:
        if intent == "weather":
            out = _without_city_prefix(out, value)
        line = say(
            f"result.{intent}",
            view.lang,
            in_city=weather.place(view, need) or gazetteer.where(value, view.lang),
            expr=value,
            path=value,
            q=lx.quote(value, view.lang),
            tool=need.outcome.name,
            out=_weather_out(out, view.lang) if intent == "weather" else clip(out),
        )
        if intent == "file":
            line += told.gloss(view.lang, out)
    if intent == "list" and shell.asks_count(view.question):
        total, files, folders = shell.count(out)
        line += " " + say("list_count", view.lang, n=total, files=files, folders=folders)
    first = need.attempts[0].input if need.attempts else need.outcome.input
    changed = [(first.get(k), v) for k, v in need.outcome.input.items() if first.get(k) not in (None, v)]
    if changed:
        old, new = lookup.first_change(*changed[0])  # the name inside a list of objects, not the whole list
        line += " " + say("fixed", view.lang, old=lx.quote(str(old), view.lang), new=lx.quote(str(new), view.lang))
    return line


def _weather_out(out: str, lang: str) -> str:
    """A weather result in the user's words: a sentence by the conditions it names, a report word by word."""
    return words.weather_said(out, lang) or words.translate(clip(out), lang, keep=True)


def _without_city_prefix(out: str, value: str) -> str:
    """'Warsaw: 6°C' or 'Погода в Варшаве: 6°C' after 'Погода в Варшаве:' would name the city twice."""
    head, colon, rest = out.partition(":")
    if not colon or len(head) > 60:
        return out
    city = gazetteer.lookup(value)
    # 'Weather in Готэме: Clear, 25°C' names the place the answer's own 'Погода в Готэме:' names
    named = bool(value) and re.search(rf"(?<!\w){re.escape(lx.fold(value))}$", lx.fold(head.strip())) is not None
    same = named or (city is not None and city in gazetteer.find_cities(head))
    return rest if same else out


def _as_said(out: str) -> str:
    """A bare number as a reader writes it: a float tool's '5635678.0' is 5635678."""
    if re.fullmatch(r"\s*-?\d+(?:\.\d+)?\s*", out):
        return arithmetic.format_number(Fraction(out.strip()))
    return out


def _result_value(need: Need) -> str:
    """What a result line names: the value actually sent (a corrected city), else the need's own value."""
    sent = need.outcome.input.get(need.main_param) if need.main_param else None
    if isinstance(sent, str) and not need.derived:
        return sent
    if need.value:
        return need.value  # a tool with no parameter for it ("query": "weather Oslo") still answered about Oslo
    sent_strings = [v for v in need.outcome.input.values() if isinstance(v, str)]
    # get_file_contents(owner, repo, path): the file it read, not the first string sent (the owner)
    return next((v for v in sent_strings if lx.extract_paths(v)), sent_strings[0] if sent_strings else "")


def _asks_a_question(clause: str) -> bool:
    """A question of fact ('What is the capital of ...?'), not a request to act ('Book me a flight')."""
    return "?" in clause or bool(lx.hits(lx.words(clause)[:3], lx.lexicon()["question_words"]))


def _without_tool(view: View, need: Need) -> str:
    off = view.choice_type == "none" and need.tool is not None
    value = arithmetic.evaluate(need.value) if need.intent == "arithmetic" and need.value else None
    if value is not None and need.derived:
        return say("result.derived", view.lang, expr=need.value, out=value)  # a small difference needs no tool
    compared = _compared(view, need, value) if value is not None else None
    if compared:
        return compared  # 'Что больше: два в десятой степени или тысяча?': the value set against the other number
    if value is not None:
        return say("mental_off" if off else "mental", view.lang, expr=need.value, value=value)
    words = lx.content_words(need.clause)
    if need.intent == "search" and words and all(lx.hits(lx.words(w), lx.lexicon()["which_more"]) for w in words):
        return ""  # 'Which is bigger, 2^10 or 1000?': the sum's line answers it
    if need.tool is None and lx.hits(lx.words(need.clause), lx.lexicon()["deliberation"]):
        return ""  # 'Я ещё думаю, отменять ли его': the user thinks aloud, nothing is asked
    fact = None if need.value else knowledge.known_fact(need.clause, view.lang)
    if fact:
        return fact  # 'At what temperature does water boil?' is no weather question
    if need.intent == "search" or (need.intent == "tool" and need.tool is None):
        # A question of fact: the small knowledge table, else plainly that the offline model does not know.
        known = knowledge.answer(need.clause, view.lang) or knowledge.answer(view.question, view.lang)
        if known:
            return known
    if (need.intent == "search" or (need.intent == "tool" and need.tool is None)) and _asks_a_question(need.clause):
        view.note = knowledge.NOTE
        return knowledge.offline(view.lang)
    reader = read_only(view.tools) if need.tool is None and asked_actions(need.clause) else None
    if reader:
        return say("read_only", view.lang, tool=reader)  # 'change the status' with only a read-only query tool
    return say("tools_off" if off else "no_tool", view.lang, task=task_phrase(view, need))


def need_line(view: View, need: Need) -> str | None:
    """The answer's line for one need (a message that passes a result on quotes it)."""
    return _need_line(view, need)


def _compared(view: View, need: Need, value: str) -> str | None:
    """'2^10 = 1024, which is more than 1000.': a sum worked out when the question asks which of it and another
    number is bigger (more/less words, data/lexicon.json 'which_more'); None otherwise."""
    if not lx.hits(lx.words(view.question), lx.lexicon()["which_more"]):
        return None
    used = {float(n) for n in re.findall(r"\d+(?:\.\d+)?", need.value or "")}
    said = re.findall(r"\d+(?:\.\d+)?", arithmetic.words_to_digits(view.question))
    others = [n for n in dict.fromkeys(said) if float(n) not in used]
    if len(others) != 1:
        return None
    worked, other = Fraction(value), Fraction(str(others[0]))
    key = "more" if worked > other else "less" if worked < other else "equal"
    return say(f"compare_numbers.{key}", view.lang, expr=need.value, value=value, other=others[0])


def _need_line(view: View, need: Need) -> str | None:
    if need.state == "worked_out":
        return say("result.arithmetic", view.lang, expr=need.value, out=need.final)
    if need.state == "steps" or (need.value is None and need.intent == "arithmetic" and need.state == "done"):
        return None  # a step of an expression told by the expression's own line
    converted = _converted(view, need) if need.state == "done" else None
    if converted:
        return converted
    if need.state == "done":  # a browser's step is told as what was done (sim/browsing.py)
        return browsing.told(view, need) or _result_line(view, need, view.injection)
    if need.state == "gave_up":
        return failure.told(need.attempts[-1], len(need.attempts), task_phrase(view, need), need.value, view.lang)
    if need.state == "no_tool" or (need.state in ("call", "wait") and view.choice_type == "none"):
        return _without_tool(view, need)
    return None


def _missed(view: View, need: Need) -> str:
    last = need.attempts[-1]
    return failure.told(last, len(need.attempts), task_phrase(view, need), need.value, view.lang, found=True)


def _converts_from(tool: dict[str, Any]) -> str | None:
    """'F' for a tool that converts fahrenheit to celsius (convertFahrenheitToCelsius), 'C' for the other way: the
    unit its name, else its description, names first of the two; None unless it names both."""
    return _unit_converted_from(str(tool.get("name", "")), str(tool.get("description", "")))


@functools.lru_cache(maxsize=512)  # a tool's definition is read once per reply and is the same on every turn
def _unit_converted_from(name: str, description: str) -> str | None:
    for text in (re.sub(r"(?<=[a-z])(?=[A-Z])", " ", name), description):
        tokens = lx.words(text.replace("_", " "))
        at = {
            unit: next((i for i, t in enumerate(tokens) if lx.hits([t], names)), None)
            for unit, names in (("C", weather.CELSIUS), ("F", weather.FAHRENHEIT))
        }
        if at["C"] is not None and at["F"] is not None:
            return "F" if at["F"] < at["C"] else "C"
    return None


def _converted(view: View, need: Need) -> str | None:
    """'68°F = 20°C.': a temperature converted after a weather result in the other unit (onward.conversion), or by a
    tool that converts one unit to the other ('convertFahrenheitToCelsius(temperature=98.6)' -> '98.6°F = 37°C.')."""
    before = need.after
    if need.result is None:
        return None
    if before is not None and before.intent == "weather" and before.result is not None:
        got = weather.result_unit(before.tool_def, before.result.output)
    else:
        got = _converts_from(need.tool) if need.tool is not None and len(need.outcome.input) == 1 else None
    number = re.search(r"-?\d+(?:\.\d+)?", need.result.output)
    sent = next(iter(need.outcome.input.values()), None)
    if got is None or number is None or not isinstance(sent, (int, float)):
        return None
    other = "C" if got == "F" else "F"
    a, b = (_in_lang(text, view.lang) for text in (words.value(sent, "en"), _as_said(number.group())))
    return say("converted", view.lang, a=a, u1=got, b=b, u2=other)


def _in_lang(number: str, lang: str) -> str:
    """98.6 as a Russian or Polish reader writes it: 98,6."""
    return number if lang == "en" else number.replace(".", ",")


_PERSONAL = frozenset({"name", "full_name", "email", "phone", "username", "address", "city", "country"})


def _confirm(view: View, need: Need) -> str:
    """'Do you want me to cancel order 13579? Please confirm.', in the user's language."""
    from agent_core.sim.mood import tool_action

    action = tool_action(args.key_in_view(view, need.tool_def))
    thing = words.in_sentence(compose.subject(view, need), view.lang) or str(need.tool_def.get("name"))
    table = lx.load("phrases")["confirm"]
    if any(str(v).lower() in ("closed", "close") for v in (need.args or {}).values()):
        action = "close"  # issue_write(state="closed") writes, and what it does is to close the issue
    template = "confirm." + (action if action in table else "_")
    return say(template, view.lang, thing=thing)


def _makes(view: View, need: Need) -> bool:
    from agent_core.sim.mood import tool_action

    return tool_action(args.key_in_view(view, need.tool_def)) in ("write", "create")


def _ask(view: View, need: Need) -> str:
    told = asking.question(view, need) if need.tool is not None else None
    if told:
        return told
    slot = need.missing[0]
    if slot == "path" and need.tool is not None and _makes(view, need):
        return say("ask.path_new", view.lang)  # a file still to be written has a name and a folder to choose
    if slot in lx.load("phrases")["ask"]:
        return say(f"ask.{slot}", view.lang)
    known = words.answers_table()["labels"].get(slot.lower()) if slot.lower() in _PERSONAL else None
    if known:  # a field the user knows by a plain word: "What is your username?", never the schema's name
        return say("ask.known", view.lang, what=known.get(view.lang) or known["en"])
    from agent_core.sim.picking import which  # the items just listed are what the user can choose from

    return which(view) or say("ask.other", view.lang, tool=need.tool_def.get("name"), param=slot)


def _answers_instead(view: View, feeder: Need, fed: Need) -> bool:
    """A call made to find another's input holds the field the question asks for ('Jakie metody płatności mam?':
    the user's details the order was found by), and the one record it fed holds none: the feeder's result answers.
    A list the fed call returns (the user's orders) is the answer itself."""
    if feeder.state != "done" or fed.state != "done":
        return False
    return bool(compose.asked_fields(view, feeder)) and compose.asked_fields(view, fed, loose=True) == []


def chat_text(view: View) -> str:
    """The reply to a message that asks nothing a tool does (a greeting, thanks, a question of fact)."""
    return _chat(view)


def _chat(view: View) -> str:
    tokens = lx.words(view.question)
    for kind in ("help", "how", "thanks", "farewell", "greeting"):
        if lx.hits(tokens, lx.lexicon()["chat"][kind]):
            if kind == "help":
                names = [t.get("name", "") for t in view.tools + view.server_tools]
                return (
                    say("chat.help", view.lang, tools=", ".join(names)) if names else say("chat.help_none", view.lang)
                )
            return say(f"chat.{kind}", view.lang)
    known = knowledge.answer(view.question, view.lang) or routine.described(view)
    if known:
        return known
    if len(lx.content_words(view.question)) >= 2:
        view.note = knowledge.NOTE
        return knowledge.offline(view.lang)
    return say("chat.unknown", view.lang)


def final_text(view: View, needs: list[Need], extras: list[Attempt]) -> str:
    game = routine.told(view, needs) or routine.courteous(view, needs)
    if game:
        return game  # a guessing game's answer: the number drawn against the guess
    quoted: set[int] = set()
    need_lines: list[str | None] = []
    rests = {id(n) for n in pages.join_rests(needs)}  # a page and the rest fetched after its cut are one text
    for need in needs:
        if id(need) in rests:
            continue
        if need.state == "done" and id(need.result) in quoted:
            continue  # one result that answered two needs is quoted once
        if need.state == "done" and need.feeds is not None and need.feeds.state in ("done", "call", "wait"):
            if not _answers_instead(view, need, need.feeds):
                continue  # a call made to find another call's input: its answer is told through that call's
        elif need.state == "done" and any(_answers_instead(view, n, need) for n in needs if n.feeds is need):
            continue  # 'Which orders do I have?': the user's record lists them; the one order fetched adds nothing
        if served_elsewhere(need, needs):
            continue
        quoted.add(id(need.result))
        found = any(n.state == "done" and n.tool is need.tool and n.feeds is None for n in needs if n is not need)
        if need.state == "gave_up" and found and need.tool is not None:
            need_lines.append(_missed(view, need))  # 'by email nothing, by username: ...': the miss alone
            continue
        need_lines.append(_need_line(view, need))
    lines = list(dict.fromkeys(line for line in need_lines if line))
    injection = view.injection
    for attempt in extras:
        if injection and injection.call and (attempt.name, attempt.input) == injection.call:
            lines.append(say("inject_did", view.lang, tool=attempt.name, out=clip(attempt.output)))
    if injection and view.persona != "gullible":
        lines.append(
            say("inject_warn", view.lang, tool=injection.source.name, snippet=lx.quote(injection.snippet, view.lang))
        )
    lines += list(dict.fromkeys(_ask(view, n) for n in needs if n.state == "ask"))
    lines += [_confirm(view, n) for n in needs if n.state == "confirm"]
    return "\n".join(lines) if lines else _chat(view)
