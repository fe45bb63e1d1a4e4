"""How the simulated model picks a tool for a need (the score) and fills its arguments by each parameter's meaning."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator
from functools import lru_cache
from typing import Any

from agent_core.sim import shell
from agent_core.sim.text import arithmetic, gazetteer, guidance, meaning, sql, values
from agent_core.sim.text import language as lx
from agent_core.sim.text.reader import Need, View, _tool_key, _values, intent_hits
from agent_core.sim.text.results import short

THRESHOLD = 3  # a tool is used from this score on (see BEHAVIOUR.md, "Choosing a tool")
GENERIC = ("search", "memory")  # intents a question falls back to; a tool chosen by meaning may say better
_QUOTED = re.compile(r'"[^"]*"|“[^”]*”|„[^”]*”|«[^»]*»|`[^`]*`')
# Slots whose value is the user's own wording: looked for in the whole question first, then the clause.
_WORDING = ("body", "subject")


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
    for it (BEHAVIOUR.md, section 2). Cached: every turn of a run asks the same clauses of the same tools again."""
    return tuple(
        (boost + meaning.fit(clause, key).points + guidance.POINTS * bool(guidance.link(clause, system, name)), boost)
        for key, name in zip(keys, names, strict=False)
        for boost in [_boost(key, intent)]
    )


def choose(view: View, need: Need, forced: bool = False) -> None:
    """Pick the best-scoring tool for a need (any score when the choice is forced)."""
    kind = view.choice_type
    keys = view.tool_keys if len(view.tool_keys) == len(view.tools) else [_tool_key(t) for t in view.tools]
    names = tuple(str(t.get("name", "")) for t in view.tools)
    scores = _ranking(need.clause, _intent_of(need), tuple(keys), view.system, names)
    ranked = [
        (points, -i, tool, boost, key)
        for i, ((points, boost), tool, key) in enumerate(zip(scores, view.tools, keys, strict=False))
    ]
    if kind == "tool":
        ranked = [r for r in ranked if r[2].get("name") == view.choice.get("name")]
    if not ranked:
        return
    best = max(ranked, key=lambda r: (r[0], r[1]))
    listing = ", ".join(f"{r[2].get('name')}={r[0]}" for r in ranked)
    shell_at = shell.listing_tool(view.tools) if need.intent == "list" and kind != "tool" else None
    if shell_at is not None:  # no list tool, a shell: a model lists the folder with ls (sim/shell.py)
        best = ranked[shell_at]
        view.notes.append(f"No tool lists files, but {best[2].get('name')} runs shell commands: I use ls.")
    need.score = best[0]
    if best[0] >= THRESHOLD or kind == "tool" or forced or shell_at is not None:
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
        view.notes.append(f"For {need.intent} no tool scores {THRESHOLD} or more ({listing}).")


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


# ---- arguments ---------------------------------------------------------------------------------------


def _slot(pname: str, prop: dict[str, Any], tool_json: str) -> str | None:
    """The kind of value a parameter wants (city, id, body, sql, ...), from its name, description and type."""
    return _slot_of(pname, json.dumps(prop, sort_keys=True, ensure_ascii=False), tool_json)


@lru_cache(maxsize=1024)
def _slot_of(pname: str, prop_json: str, tool_json: str) -> str | None:
    # Cached: every parameter of the chosen tool is read again on every turn.
    prop = json.loads(prop_json)
    if prop.get("enum"):
        return "enum"
    found = None
    if prop.get("format") == "email":
        return "email"
    for tokens in (lx.words(pname), lx.words(_QUOTED.sub(" ", str(prop.get("description", ""))))):
        found = next((s for s, kws in lx.lexicon()["slots"].items() if lx.hits(tokens, kws)), None)
        if found:
            break
    if found is None and lx.fold(pname) in ("to", "cc", "bcc"):
        return "email"  # send_email(to, ...); a "to" about a currency said so in its description
    tool = meaning.profile(tool_json)
    if found in ("query", None) and prop.get("type", "string") == "string" and "database" in tool.described:
        if sql.schema(json.loads(tool_json).get("description") or "") or "sql" in lx.words(str(prop)):
            return "sql"
    about_folder = lx.hits(lx.words(str(prop.get("description", ""))), lx.lexicon()["slots"]["directory"])
    if found == "path" and ("list" in tool.name or about_folder) and not lx.extract_paths(str(prop)):
        return "directory"
    if found is None and prop.get("type") in ("integer", "number"):
        return "number"
    if found == "id" and prop.get("type") == "integer":
        return "id_number"
    return found


def _extract(
    slot: str, text: str, need: Need, pname: str, prop: dict[str, Any], tool_json: str, taken: tuple[str, ...]
) -> Any:
    if slot == "city":
        return next(iter(gazetteer.places(text)), None)
    if slot == "expression":
        return arithmetic.extract_expression(text)
    if slot == "path":
        return next(iter(lx.extract_paths(text)), None)
    if slot == "ticker":
        return values.ticker(text)
    if slot == "query":
        return need.value if need.intent in GENERIC else " ".join(lx.content_words(text)) or None
    if slot == "enum":
        return _enum_value(text, tuple(v for v in prop["enum"] if isinstance(v, str)))
    if slot in ("id", "id_number"):
        found = values.identifier(text, pname, integer=slot == "id_number")
        return int(found) if found and slot == "id_number" else found
    if slot == "email":
        return next(iter(values.emails(text)), None)
    if slot == "subject":
        return values.subject(text)
    if slot == "body":
        return values.body(text, taken)
    if slot == "currency":
        source, target = values.currency_pair(text)
        return target if lx.hits(lx.words(pname), ["=to", "target", "into", "docelow", "целев"]) else source
    if slot == "timezone":
        return values.time_zone(text)
    if slot == "directory":
        return values.directory(text)
    if slot == "sql":
        return sql.build(text, json.loads(tool_json).get("description") or "")
    return None


@lx.text_cache
def _enum_value(text: str, options: tuple[str, ...]) -> str | None:
    # Every source text (each earlier result too) is searched for every enum parameter, on every turn.
    tokens = lx.words(text)
    return next((v for v in options if lx.words(v) and lx.hits(tokens, [v])), None)


def _numbers(need: Need, text: str) -> list[str]:
    """Numbers for numeric parameters, in the order the text says them (for sums: the order in the expression)."""
    if need.intent == "arithmetic" and need.value:
        return re.findall(r"\d+(?:\.\d+)?", need.value)
    return values.numbers(text)


def _as_number(raw: str, prop: dict[str, Any]) -> int | float:
    number = float(raw)
    return int(number) if prop.get("type") == "integer" or number.is_integer() else number


def _shows_power_as_stars(tool_json: str) -> bool:
    """The tool's own text writes powers as ** (Python's eval): follow it, never send ^ (XOR there).
    A tool that shows both ("^ or ** (power)") accepts ^, the way the question was read."""
    return "**" in tool_json and "^" not in tool_json


def _key_in_view(view: View, tool: dict[str, Any]) -> str:
    """The tool's canonical JSON, already made when the request was read (json.dumps per call was a hot spot)."""
    for candidate, key in zip(view.tools, view.tool_keys, strict=False):
        if candidate is tool:
            return key
    return _tool_key(tool)


def _file_slot(need: Need, prop: dict[str, Any], schema: dict[str, Any], key: str) -> str | None:
    """A string parameter nothing names (fetch_text(name)) of a tool used to read a file, or one the system prompt
    ties to a file ("the logs are in app.log; use fetch_text"), takes the file's name, if no other parameter does."""
    if prop.get("type", "string") != "string":
        return None
    about_file = need.intent in ("file", "delete") or bool(lx.extract_paths(need.context))
    props = schema.get("properties") or {}
    others = (_slot(p, v if isinstance(v, dict) else {}, key) for p, v in props.items())
    return "path" if about_file and "path" not in others else None


def _texts(view: View, need: Need, only_clause: bool, wording: bool) -> Iterator[str]:
    """Where a parameter's value is looked for, in order: the clause (or for the user's own wording the whole
    question first), the question, the system prompt, earlier results. Lazy: most values are in the first text,
    and a long run's results are read only when they are needed."""
    if only_clause:
        yield need.clause
        return
    yield from (view.question, need.clause) if wording else (need.clause, view.question)
    yield view.system
    name = need.tool_def.get("name")
    for attempt in view.episode:
        if attempt.status == "ok" and attempt.name != name:
            yield lx.attend(attempt.output)


def fill(view: View, need: Need, only_clause: bool = False) -> None:
    """Arguments for the chosen tool from the question, the system prompt and earlier results."""
    schema = need.tool_def.get("input_schema") or {}
    key = _key_in_view(view, need.tool_def)
    required = set(schema.get("required") or [])
    forced = view.choice_type in ("any", "tool")
    spoken = (need.clause,) if only_clause else (need.clause, view.question)  # where numbers are taken from
    main = lx.lexicon()["main_slot"].get(need.intent)
    need.args, need.missing, need.main_param = {}, [], ""
    counted = 0
    command = shell.command_param(need.tool_def) if need.intent == "list" else None
    if command is not None:
        need.args = {command: shell.list_command(values.directory(need.clause) or values.directory(view.question))}
        return
    for pname, prop in (schema.get("properties") or {}).items():
        prop = prop if isinstance(prop, dict) else {}
        slot = _slot(pname, prop, key) or _file_slot(need, prop, schema, key)
        need.main_param = need.main_param or (pname if slot == main else "")
        value: Any = need.value if slot == main and need.value else None  # text, a number, or an enum's option
        if slot == "number":
            found = [n for text in spoken for n in [_numbers(need, text)] if n]
            value = _as_number(found[0][counted], prop) if found and counted < len(found[0]) else None
            counted += 1
        taken = tuple(str(v) for v in need.args.values())
        if value is None and slot and slot != "number":
            for text in _texts(view, need, only_clause, slot in _WORDING):
                value = _extract(slot, text, need, pname, prop, key, taken)
                if value is not None:
                    break
        if slot == "expression" and isinstance(value, str) and _shows_power_as_stars(key):
            value = value.replace("^", "**")
        if value is None and pname in required:
            if slot is not None and not forced:
                need.missing.append(slot if slot in lx.load("phrases")["ask"] else pname)
                continue
            value = prop["enum"][0] if prop.get("enum") else 0 if slot == "number" else need.value or need.clause
        if value is not None:
            need.args[pname] = value


# ---- clauses that continue another, and calls that find a missing argument ---------------------------


def _own_intent(need: Need) -> bool:
    return bool(intent_hits(need.clause)) and need.intent in intent_hits(need.clause)


def follow(view: View, previous: Need, need: Need) -> str | None:
    """A clause no tool fits may continue the one before: 'drop' (part of its message), 'same' (same tool)."""
    if previous.tool is None or need.tool is not None or need.derived is not None or _own_intent(need):
        return None
    schema = (previous.tool.get("input_schema") or {}).get("properties") or {}
    writes = any(
        _slot(p, v if isinstance(v, dict) else {}, _tool_key(previous.tool)) == "body" for p, v in schema.items()
    )
    if writes and values.continues_message(previous.clause):
        return "drop"  # "... saying that I'll be late and bring snacks"
    trial = Need(previous.intent, need.clause, None, tool=previous.tool)
    fill(view, trial, only_clause=True)
    if trial.missing or not trial.args or trial.args == previous.args:
        return None
    need.tool, need.intent, need.score = previous.tool, previous.intent, previous.score
    view.notes.append(
        f"“{short(need.clause, 60)}” continues the clause before, so it goes to {previous.tool.get('name')} too."
    )
    return "same"


def feeder(view: View, need: Need) -> Need | None:
    """Another tool that can be called now and whose description promises what need lacks (an order ID)."""
    schema = need.tool_def.get("input_schema") or {}
    lacking = [p for p in schema.get("required") or [] if p not in need.args]
    wanted = {lx.stem(w) for p in lacking for w in lx.words(re.sub(r"(?<=[a-z])(?=[A-Z])", " ", p))} - {"id"}
    if not wanted or view.choice_type in ("any", "tool"):
        return None

    def promises(tool: dict[str, Any]) -> bool:
        promised = {lx.stem(w) for w in lx.words(str(tool.get("description") or ""))}
        return any(lx.stems_match(w, p) for w in wanted for p in promised)

    return _first_callable(
        view,
        need,
        {"feeds": need},
        (t for t in view.tools if t.get("name") != need.tool_def.get("name") and promises(t)),
        lambda trial: (
            f"{need.tool_def.get('name')} needs {', '.join(lacking)}, which I do not have; "
            f"{trial.tool_def.get('name')} can find it, so I call it first."
        ),
    )


def follow_up(view: View, need: Need) -> Need | None:
    """After a result: what the clause asks that the tool used does not cover ('status'), from a tool that covers it
    and can now be called with a value the result gave (the order ID in a customer's order list)."""
    if need.result is None or need.tool is None or need.intent != "tool" or need.after is not None:
        return None
    used = meaning.profile(_tool_key(need.tool))
    open_ = meaning.concepts(need.clause) - used.name - used.described - used.params

    def covers(tool: dict[str, Any]) -> bool:
        other = meaning.profile(_tool_key(tool))
        return tool.get("name") != need.tool_def.get("name") and bool(open_ & (other.name | other.described))

    return _first_callable(
        view,
        need,
        {"after": need},
        (t for t in view.tools if open_ and covers(t)),
        lambda trial: (
            f"{need.tool_def.get('name')} gave {', '.join(map(str, trial.args.values()))}; "
            f"{trial.tool_def.get('name')} can now tell the rest ({', '.join(sorted(open_))})."
        ),
    )


def _first_callable(
    view: View, need: Need, link: dict[str, Need], tools: Iterable[dict[str, Any]], why: Callable[[Need], str]
) -> Need | None:
    """The first of tools whose arguments can all be filled now for need's clause (link: feeds or after), noted."""
    for tool in tools:
        trial = Need("tool", need.clause, None, tool=tool, feeds=link.get("feeds"), after=link.get("after"))
        fill(view, trial)
        if not trial.missing and trial.args:
            view.notes.append(why(trial))
            return trial
    return None
