"""How the simulated model picks a tool for a need (the score) and fills its arguments by each parameter's meaning."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import Any

from agent_core.sim import allowed, chain, kinds, shell, spread, stored, topics, typed_fit
from agent_core.sim.args import fill
from agent_core.sim.mood import CHANGE_PENALTY, _action_points, asked_actions, computes, tool_action
from agent_core.sim.text import backrefs, gazetteer, guidance, meaning, values
from agent_core.sim.text import language as lx
from agent_core.sim.text.names import linked
from agent_core.sim.text.reader import Need, View, _tool_key, _values, intent_hits
from agent_core.sim.text.results import short

FILL_WINDOW = 4  # how far below the best a tool may score and still win by taking more of the clause's values
THRESHOLD = 3  # a tool is used from this score on (see BEHAVIOUR.md, "Choosing a tool")
GENERIC = ("search", "memory")  # intents a question falls back to; a tool chosen by meaning may say better
_QUOTED = re.compile(r'"[^"]*"|“[^”]*”|„[^”]*”|«[^»]*»|`[^`]*`')
# Meanings that say how, not what: a tool that shares only these with a clause is not about it.
# Words that say which, not what ('last', 'first'), tell no tool apart either.
GENERIC_MEANING = frozenset(
    {"search", "look", "find", "get", "retriev", "fetch", "show", "return", "provid", "last", "first", "latest"}
)


@lru_cache(maxsize=256)
def _parts_of(tool_json: str) -> dict[str, list[str]]:
    """A tool's words for the intent boost: name, description (for/against), parameters."""
    tool = json.loads(tool_json)
    name = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", tool.get("name", ""))
    parts: dict[str, list[str]] = {"name": lx.words(name), "pos": [], "neg": [], "params": []}
    for sentence in re.split(r"[.;]\s+|\n", tool.get("description") or ""):
        plain = lx.words(_QUOTED.sub(" ", sentence))
        found = lx.first_hit(plain, lx.lexicon()["negations"])
        cut = len(plain) if found is None else found
        parts["pos"] += plain[:cut]
        parts["neg"] += plain[cut:]
    for pname, prop in ((tool.get("input_schema") or {}).get("properties") or {}).items():
        parts["params"] += lx.words(pname) + lx.words(_QUOTED.sub(" ", str(prop.get("description", ""))))
    return parts


@lru_cache(maxsize=256)
def purpose(tool_json: str) -> str | None:
    """The intent a description talks about most (ties: the earlier intent)."""
    parts = _parts_of(tool_json)
    counts = {k: len(lx.hits(parts["pos"], kws)) for k, kws in lx.lexicon()["intents"].items()}
    best = max(counts, key=lambda k: (counts[k], -list(counts).index(k)))
    return best if counts[best] else None


@lru_cache(maxsize=1024)
def _boost(tool_json: str, intent: str) -> int:
    """The intent part of the score: the description claims (+3) or disclaims (-3) the need's intent, and more."""
    parts, kws = _parts_of(tool_json), lx.lexicon()["intents"].get(intent, [])
    if not kws:
        return 0
    pos, neg = len(lx.hits(parts["pos"], kws)), len(lx.hits(parts["neg"], kws))
    total = 3 if pos > neg else -3 if neg > pos else 0
    total += bool(lx.hits(parts["name"], kws)) + bool(lx.hits(parts["params"], kws))
    return total + (purpose(tool_json) == intent)


def _intent_of(need: Need) -> str:
    # "сколько будет 100 долларов в евро" names arithmetic but holds no sum: the intent boost is not earned.
    return "" if need.intent == "arithmetic" and not need.value and need.derived is None else need.intent


@lx.text_cache
def _ranking(
    clause: str, intent: str, keys: tuple[str, ...], system: str, names: tuple[str, ...]
) -> tuple[tuple[int, int], ...]:
    """Each tool's (score, intent boost) for a clause: intent boost, meaning, and the system prompt naming the tool
    for it (BEHAVIOUR.md, section 2). A tool tied to the clause only by a generic verb ('look up', 'find') loses
    its intent boost when another tool shares what the clause is about: 'look up my orders' is about orders, so
    get_user ('Looks up a user') is no better than any tool, and a dedicated tool beats a web search.
    Cached: every turn of a run asks the same clauses of the same tools again."""
    rows, named = [], False
    distinct = _distinct(clause, keys)
    asked = asked_actions(clause)
    dedicated = any(tool_action(key) in asked for key in keys)  # a tool named for the very change asked
    options = allowed.options_meaning(clause, keys)
    for key, name in zip(keys, names, strict=False):
        boost, fit = _boost(key, intent), meaning.fit(clause, key)
        tie = guidance.link(clause, system, name)
        about = bool(set(fit.shared) - GENERIC_MEANING) or tie is not None
        exact = about and fit.points > 0 and _named_as_written(clause, key)
        acting = _action_points(clause, key, dedicated) if tie is None else 0
        points = boost + fit.points + guidance.POINTS * bool(tie) + 2 * exact + acting + DISTINCT * (key in distinct)
        points += allowed.OPTION_POINTS * allowed.names_an_option(clause, key)
        filters = allowed.names_a_filter(clause, key)
        points += allowed.FILTER_POINTS * filters
        if options and fit.points > 0 and set(fit.shared) <= options:
            points -= fit.points  # 'в стиле супергероев' is the menu's option, not a request for a superhero theme
        rows.append((points, boost, about if intent != "list" else bool(set(fit.shared) - GENERIC_MEANING - {"list"})))
        named = named or exact or filters or (about and bool(meaning.profile(key).name & meaning.concepts(clause)))
    if intent == "search" and named and "search" not in intent_hits(clause):
        # The clause asks for no search, it only fell back to the search intent; a tool named for what it asks
        # about ('commity' -> list_commits, 'most popular model on the Hub' -> get_hub_stats) is dedicated to it,
        # so a search tool earns nothing from the fallback.
        rows = [(points - max(boost, 0), boost, about) for points, boost, about in rows]
    if intent in ("search", "list") and any(about for _, _, about in rows):
        # 'List the commits ...': what is listed decides, so a tool that only lists (git_branch) earns no boost
        rows = [(points - max(boost, 0) * (not about), boost, about) for points, boost, about in rows]
    return tuple((points, boost) for points, boost, _ in rows)


DISTINCT = 2  # a tool alone in sharing something with the clause (BEHAVIOUR.md, "Choosing a tool")


def _distinct(clause: str, keys: tuple[str, ...]) -> frozenset[str]:
    """Of three or more tools, those that alone share a concept or a word with the clause: 'How big is data.csv?'
    shares 'file' with every filesystem tool but 'size' with get_file_info only, which is what tells them apart."""
    if len(keys) < 3:
        return frozenset()
    shared = {key: set(meaning.fit(clause, key).shared) for key in keys}
    shared = {key: items for key, items in shared.items() if meaning.fit(clause, key).points > 0}
    counts: dict[str, int] = {}
    for items in shared.values():
        for item in items:
            counts[item] = counts.get(item, 0) + 1
    return frozenset(key for key, items in shared.items() if any(counts[i] == 1 for i in items - GENERIC_MEANING))


def _named_as_written(clause: str, key: str) -> bool:
    """The tool's name holds a content word of the clause exactly as written: 'my orders' and get_customer_orders
    (a list), 'order 13579' and get_order_by_id (one order); the stemmer alone would not tell them apart."""
    name = set(meaning.profile(key).name_text.lower().split())
    stop = lx.word_set("stopwords")
    return any(w in name for w in lx.words(clause) if len(w) > 2 and w not in stop)


def _serves_more(clause: str, key: str, other: str) -> bool:
    """'The weather over the next few days' asks for a forecast: a reading tool that serves what the clause asks
    is not passed over for one that only fills more (the current weather). Not a converter, whose input is the
    other tool's result, nor a change whose content the clause does not give."""
    extra = set(meaning.fit(clause, key).shared) - set(meaning.fit(clause, other).shared) - GENERIC_MEANING
    return bool(extra) and "convert" not in meaning.profile(key).name and tool_action(key) == "read"


MANY_PENALTY = 3
_MANY = frozenset({"multiple", "many", "several", "batch", "bulk"})


@lru_cache(maxsize=1024)
def _for_many(key: str) -> bool:
    """A tool named for several things at once (read_multiple_files, batch_get_items)."""
    return bool(_MANY & set(lx.words(str(json.loads(key).get("name", "")).replace("_", " "))))


def choose(view: View, need: Need, forced: bool = False) -> None:
    """Pick the best-scoring tool for a need (any score when the choice is forced)."""
    kind = view.choice_type
    keys = view.tool_keys if len(view.tool_keys) == len(view.tools) else [_tool_key(t) for t in view.tools]
    names = tuple(str(t.get("name", "")) for t in view.tools)
    text = lx.paths_as_files(backrefs.own_part(values.request_part(need.clause)))
    if re.search(r"(?<![\w#])#[^\W\d][\w-]*", need.clause):
        text += " channel"  # 'in #deploys': a name written with # is a chat channel's (Slack, Discord, IRC)
    if linked(need.clause) and "relation" not in meaning.concepts(text):
        text += " relation"  # 'Zapisz, że Jan pracuje w Northwind': what is recorded is how two names relate
    text += stored.reported_fact(
        need.clause, text, asked_actions(need.clause)
    )  # 'Zapomnij, że Ann mieszka w Krakowie': a fact goes
    scores = _ranking(text, _intent_of(need), tuple(keys), view.system, names)
    ranked = [
        (points, -i, tool, boost, key)
        for i, ((points, boost), tool, key) in enumerate(zip(scores, view.tools, keys, strict=False))
    ]
    called = [guidance.CALLED_POINTS * guidance.called(need.clause, name) for name in names]  # 'use the X tool'
    ranked = [(r[0] + c, *r[1:]) for r, c in zip(ranked, called, strict=False)]
    typed = typed_fit.credits(view, need, view.tools, keys)  # 'Show commit b2c3d4e5f6': git_show(revision)
    fallback = need.intent == "search" and any(typed) and "search" not in intent_hits(need.clause)
    # a typed value a tool takes says what the clause is about: a search earns nothing from the fallback then
    ranked = [(r[0] + p - fallback * max(r[3], 0), *r[1:]) for r, p in zip(ranked, typed, strict=False)]
    if not asked_actions(need.clause):
        stated = typed_fit.stated_schema(view, keys)  # the tables the user states: a SELECT tool serves the question
        ranked = [(max(r[0] + p, THRESHOLD) if p else r[0], *r[1:]) for r, p in zip(ranked, stated, strict=False)]
    if len(lx.extract_paths(need.clause)) <= 1:
        # read_multiple_files is for several files: one named file goes to the tool that reads one
        ranked = [(r[0] - MANY_PENALTY * _for_many(r[4]), *r[1:]) for r in ranked]
    if kind == "tool":
        ranked = [r for r in ranked if r[2].get("name") == view.choice.get("name")]
    elif need.intent == "arithmetic" and need.value and not forced:
        ranked = [r for r in ranked if computes(r[4])]  # get_time(timezone) shares 'time' with 'times' only
    if not ranked:
        return
    best = max(ranked, key=lambda r: (r[0], r[1]))
    filled = spread.best_filled(view, need, ranked, best, THRESHOLD, FILL_WINDOW, feeder)
    best = best if filled is not best and _serves_more(need.clause, best[4], filled[4]) else filled
    listing = ", ".join(f"{r[2].get('name')}={r[0]}" for r in ranked)
    shell_at = shell.listing_tool(view.tools) if need.intent == "list" and kind != "tool" else None
    if shell_at is not None:  # no list tool, a shell: a model lists the folder with ls (sim/shell.py)
        best = ranked[shell_at]
        view.notes.append(f"No tool lists files, but {best[2].get('name')} runs shell commands: I use ls.")
    need.score = best[0]
    if best[0] >= view.bar or kind == "tool" or forced or shell_at is not None:
        need.tool = best[2]
        why = meaning.fit(need.clause, best[4]).shared
        view.notes.append(
            f"For {need.intent} the best tool is {best[2].get('name')} (scores: {listing}"
            + (f"; shared meaning: {', '.join(why)}" if why else "")
            + ")."
        )
        _note_guidance(view, need, best[2])
        _retarget(view, need, best[3], best[4])
    else:
        view.notes.append(f"For {need.intent} no tool scores {view.bar} or more ({listing}).")
        if not forced and kind != "none" and topics.as_search(need):
            choose(view, need)  # 'How long do we keep logs?' names no file: a question for the search tool


def _note_guidance(view: View, need: Need, tool: dict[str, Any]) -> None:
    tie = guidance.link(need.clause, view.system, str(tool.get("name", "")))
    if tie is not None:
        need.context = tie.window
        view.notes.append(
            f"The system prompt names {tool.get('name')} for this (“{short(tie.window, 80)}”; "
            f"shared: {', '.join(tie.shared)})."
        )


def _retarget(view: View, need: Need, boost: int, key: str) -> None:
    """A tool chosen for its meaning, not the need's intent, says what the need is about (stock, or just 'tool')."""
    if boost > 0 or need.derived is not None or (need.intent not in GENERIC and need.value):
        return
    aim = purpose(key)
    value = _values(aim, need.clause)[0] if aim and aim not in GENERIC else None
    old = need.intent
    need.intent, need.value = (aim, value) if aim and value else ("tool", None)  # a value is only found for an aim
    view.notes.append(
        f"{need.tool_def.get('name')} is chosen for what it does, so I treat this as {need.intent}, not {old}."
    )


# ---- clauses that continue another, and calls that find a missing argument ---------------------------


def _own_intent(need: Need) -> bool:
    return bool(intent_hits(need.clause)) and need.intent in intent_hits(need.clause)


def follow(view: View, previous: Need, need: Need) -> str | None:
    """A clause no tool fits may continue the one before: 'drop' (part of its message), 'same' (same tool). A clause
    that only gives the call before a value it already took is part of it ('..., four results at most'): 'drop'."""
    same = need.tool is not None and previous.tool is not None and need.tool.get("name") == previous.tool.get("name")
    fallback = need.intent in GENERIC and not _own_intent(need)
    if previous.tool is not None and need.tool is not None and (same or fallback):
        # 'na uroczystą, oficjalną kolację': a clause asking nothing that says again a value the call before took
        trial = Need(previous.intent, need.clause, None, tool=previous.tool)
        fill(view, trial, only_clause=True)
        if (trial.missing or not same) and trial.args and all(previous.args.get(k) == v for k, v in trial.args.items()):
            return "drop"
    if previous.tool is None or need.tool is not None or need.derived is not None or _own_intent(need):
        return None
    if _result_tells(view, previous, need):
        return "drop"  # '..., i jak są poważne?': the alerts' severity is in what the call before returned
    schema = (previous.tool.get("input_schema") or {}).get("properties") or {}
    writes = any(
        kinds.kind_of(p, v if isinstance(v, dict) else {}, _tool_key(previous.tool)) == "body"
        for p, v in schema.items()
    )
    if writes and values.continues_message(previous.clause):
        return "drop"  # "... saying that I'll be late and bring snacks"
    trial = Need(previous.intent, need.clause, None, tool=previous.tool)
    fill(view, trial, only_clause=True)
    if "?" not in need.clause and _gives_reason(schema, previous.args, trial.args):
        return "drop"  # '..., it was fixed in 2.4', 'nie planujemy tego robić': why the call before takes its option
    taken = {json.dumps(v, sort_keys=True) for v in previous.args.values()}
    if trial.args and all(json.dumps(v, sort_keys=True) in taken for v in trial.args.values()):
        view.notes.append(f"“{short(need.clause, 60)}” only says what the call before already took.")
        return "drop"  # '..., а коллега сидит в Токио': the call before took Tokyo from it
    if trial.missing or not trial.args or trial.args == previous.args:
        return None
    need.tool, need.intent, need.score = previous.tool, previous.intent, previous.score
    view.notes.append(
        f"“{short(need.clause, 60)}” continues the clause before, so it goes to {previous.tool.get('name')} too."
    )
    return "same"


def _result_tells(view: View, previous: Need, need: Need) -> bool:
    """A clause asking only for something the call before returned as a field of its own (the 'severity' of alerts)."""
    asked = meaning.concepts(need.clause) - GENERIC_MEANING
    name = previous.tool.get("name") if previous.tool else None
    outputs = [a.output for a in view.episode if a.name == name and a.status == "ok"]
    fields = {k.replace("_", " ") for out in outputs for k in _FIELD.findall(out)}
    counted = {k.replace("_", " ") for out in outputs for k in _COUNTED.findall(out)}
    if "count" in asked and asked - {"count"} <= meaning.concepts(" ".join(counted)):
        asked = asked - {"count"}  # 'ile mają komentarzy': the record's "comments": 5 is the count asked
    return bool(asked) and bool(fields) and asked <= meaning.concepts(" ".join(fields))


_FIELD = re.compile(r'"(\w+)"\s*:')
_COUNTED = re.compile(r'"(\w+)"\s*:\s*\d')


def premise(need: Need, needs: list[Need]) -> bool:
    """A clause no tool fits that only sets the scene for another's call ('planning a walk round krakow this
    afternoon, whats it like outside'): every place it names is what another clause's call is about."""
    if need.tool is not None or need.intent not in GENERIC or _own_intent(need) or "?" in need.clause:
        return False
    named = gazetteer.places(need.clause)
    others = [n for n in needs if n is not need and n.tool is not None]
    sent = " ".join(json.dumps([n.args, n.value], ensure_ascii=False) for n in others)
    # a clause asking about a place without naming one ('whats it like outside') takes it from the scene
    placeless = any(lx.lexicon()["main_slot"].get(n.intent) == "city" and not n.value for n in others)
    return bool(named) and (placeless or all(place in sent for place in named))


def _gives_reason(schema: dict[str, Any], before: dict[str, Any], trial: dict[str, Any]) -> bool:
    """A clause whose words choose only options the call before already took (an enum's value by its meaning)."""
    chosen = {k: v for k, v in trial.items() if isinstance(schema.get(k), dict) and schema[k].get("enum")}
    return bool(chosen) and all(before.get(k) == v for k, v in chosen.items())


def feeder(view: View, need: Need) -> Need | None:
    """Another tool that can be called now and whose description promises what need lacks (an order ID)."""
    found = stored.finder(view, need, fill, tool_action)  # the stored notes a removal takes are read first
    if found is not None:
        return found
    schema = need.tool_def.get("input_schema") or {}
    lacking = [p for p in schema.get("required") or [] if p not in need.args]
    if kinds.only_user_knows(need.tool_def, lacking, _tool_key(need.tool_def)):
        return None
    wanted = {lx.stem(w) for p in lacking for w in lx.words(re.sub(r"(?<=[a-z])(?=[A-Z])", " ", p))} - {"id"}
    wanted -= {lx.stem(w) for w in lx.word_set("stopwords")}  # send_email's 'to' is found by no 'to' in a text
    if not wanted or view.choice_type in ("any", "tool"):
        return None

    ids_wanted = any("id" in lx.words(re.sub(r"(?<=[a-z])(?=[A-Z])", " ", p).replace("_", " ")) for p in lacking)

    def promises(tool: dict[str, Any]) -> bool:
        if not ids_wanted and chain.finds_an_id(tool):
            return False  # find_user_id_by_name_zip finds an id, not the email its description tells to try first
        promised = {lx.stem(w) for w in lx.words(str(tool.get("description") or ""))}
        return any(lx.stems_match(w, p) for w in wanted for p in promised)

    return _first_callable(
        view,
        need,
        {"feeds": need},
        (t for t in view.tools if t.get("name") != need.tool_def.get("name") and promises(t) and _finds(need, t)),
        lambda trial: (
            f"{need.tool_def.get('name')} needs {', '.join(lacking)}, which I do not have; "
            f"{trial.tool_def.get('name')} can find it, so I call it first."
        ),
    )


def _finds(need: Need, tool: dict[str, Any]) -> bool:
    """Nothing is created or changed only to find a value (issue_write for the issue a comment goes on), and a tool
    that needs the value itself does not find it (issue_read(issue_number) for the issue_number)."""
    wanted = {p for p in (need.tool_def.get("input_schema") or {}).get("required") or [] if p not in need.args}
    needs_it = wanted & set((tool.get("input_schema") or {}).get("required") or [])
    return not needs_it and tool_action(_tool_key(tool)) in ("read", "", *asked_actions(need.clause))


def follow_up(view: View, need: Need) -> Need | None:
    """After a result: what the clause asks that the tool used does not cover ('status'), from a tool that covers it
    and can now be called with a value the result gave (the order ID in a customer's order list)."""
    if need.result is None or need.tool is None or need.intent != "tool" or need.after is not None:
        return None
    if need.feeds is not None or tool_action(_tool_key(need.tool)) not in ("", "read"):
        return None  # a step of a chain already planned, or a change made: the change was what the clause asked
    used = meaning.profile(_tool_key(need.tool))
    open_ = meaning.concepts(need.clause) - used.name - used.described - used.params - GENERIC_MEANING
    open_ -= _in_result(need.outcome.output)  # 'How many items have I ordered?': the orders listed name their product

    def covers(tool: dict[str, Any]) -> bool:
        other = meaning.profile(_tool_key(tool))
        if _action_points(need.clause, _tool_key(tool)) <= CHANGE_PENALTY:
            return False  # never a change nobody asked for
        return tool.get("name") != need.tool_def.get("name") and bool(open_ & (other.name | other.described))

    def fed(trial: Need) -> bool:  # the call takes a value the result gave, not only the question's ('O2' too)
        out = need.outcome.output
        return any(_token_in(str(v), out) and not _token_in(str(v), view.question) for v in trial.args.values())

    tools = [t for t in view.tools if open_ and covers(t)]
    return _first_callable(
        view,
        need,
        {"after": need},
        tools,
        lambda trial: (
            f"{need.tool_def.get('name')} gave {', '.join(map(str, trial.args.values()))}; "
            f"{trial.tool_def.get('name')} can now tell the rest ({', '.join(sorted(open_))})."
        ),
        fed,
    )


def _in_result(out: str) -> frozenset[str]:
    """The concepts of the fields the result's records already hold."""
    from agent_core.sim.text import facts

    keys = {k for r in facts.records(out) for k in r}
    return meaning.concepts(" ".join(k.replace("_", " ") for k in keys)) if keys else frozenset()


def _token_in(value: str, text: str) -> bool:
    """Whether the value stands in the text as a whole token ('O2' in 'orders: O1, O2'), not inside another word."""
    return bool(value.strip()) and re.search(rf"(?<![\w-]){re.escape(value)}(?![\w-])", text) is not None


def _first_callable(
    view: View,
    need: Need,
    link: dict[str, Need],
    tools: Iterable[dict[str, Any]],
    why: Callable[[Need], str],
    wanted: Callable[[Need], bool] = lambda trial: True,
) -> Need | None:
    """The first of tools whose arguments can all be filled now for need's clause (link: feeds or after), noted."""
    for tool in tools:
        trial = Need("tool", need.clause, None, tool=tool, feeds=link.get("feeds"), after=link.get("after"))
        fill(view, trial)
        if not trial.missing and trial.args and wanted(trial):
            view.notes.append(why(trial))
            return trial
    return None
