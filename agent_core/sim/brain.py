"""The simulated model's brain: reads a Messages API request the way a model would and drafts the next reply."""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from agent_core.model import SimSettings
from agent_core.sim import (
    browsing,
    chain,
    compare,
    existing,
    handoff,
    knowledge,
    output,
    relist,
    reply,
    routine,
    spread,
    state,
    structured,
    sums,
    things,
)
from agent_core.sim.args import fill
from agent_core.sim.args import key_in_view as view_key
from agent_core.sim.choice import choose, feeder, follow, premise
from agent_core.sim.draft import Draft
from agent_core.sim.mood import tool_action
from agent_core.sim.output import values_text
from agent_core.sim.retry import retry as retry_call
from agent_core.sim.reword import again, empty, reopens
from agent_core.sim.rules import decline, forbidding
from agent_core.sim.special import after_pause, harm, injection_in, obey, refuse, should_pause
from agent_core.sim.text import language as lx
from agent_core.sim.text.language import say
from agent_core.sim.text.reader import LANG_NAMES, Need, View, read, understand
from agent_core.sim.text.results import Attempt, call_key

WEB_INTENTS = ("search", "weather", "stock")
QUERY_INTENTS = ("memory", "search")


def think(
    body: dict[str, Any],
    settings: SimSettings,
    tool_keys: tuple[str, ...] | None = None,
    input_keys: dict[int, str] | None = None,
) -> Draft:
    """Draft the next assistant reply for a (validated) Messages API request body (tool_keys, input_keys: its tools'
    and tool_use inputs' canonical JSON, when the server has them already: sim/wire.py)."""
    view = read(body, settings, tool_keys, input_keys)
    state.resolve(view)
    category = harm(view.question)
    if category:
        return refuse(view, category)
    rule = forbidding(view)
    if rule:
        return decline(view, rule)  # a change the system prompt rules out: declined, naming the rule
    outs = output.outputs(view)
    named = output.named(view, outs) if outs else None
    forced_choice = view.choice
    if outs:
        _keep_tools(view, [t for t in view.tools if t not in outs])  # the goals are served by the real tools
        view.choice = {"type": "auto", **{k: v for k, v in view.choice.items() if k == "disable_parallel_tool_use"}}
        output.lower_bar(view, forced_choice)
    needs = [] if named else routine.needs(view, understand(view), bool(outs))
    if view.continuing and view.server_tools:
        return after_pause(view, needs)
    extras = plan(view, needs)
    if should_pause(view, needs):
        view.notes.append("No client tool covers this; the server tool searches, which pauses the turn.")
        return Draft([_text(say("pause", view.lang))], "pause_turn", reasoning=" ".join(view.notes))
    view.injection = injection_in(view)
    if view.injection and view.persona == "gullible":
        draft = obey(view, view.injection)
        if draft:
            return draft
    calls = _calls(view, needs, forced=not outs)
    view.choice = forced_choice
    if calls and not (named and view.choice_type == "tool"):
        return _tool_draft(view, calls)
    if outs:
        draft = _output_draft(view, needs, extras, outs, named)
        if draft is not None:
            return draft
    text = reply.final_text(view, needs, extras)
    schema = structured.output_schema(body) or output.prompted_schema(view)
    if schema is not None and schema.get("type", "object") == "object":
        # output_config.format: the values read by meaning (a full name, the e-mail, a flag), as JSON.
        text = json.dumps(output.values_for(view, schema, text), ensure_ascii=False)
    return Draft([_text(text)], "end_turn", reasoning=_reasoning(view, "answer"), note=view.note)


def _keep_tools(view: View, tools: list[dict[str, Any]]) -> None:
    keys = dict(zip((id(t) for t in view.tools), view.tool_keys, strict=False))
    view.tools, view.tool_keys = tools, [keys[id(t)] for t in tools]


def _output_draft(
    view: View, needs: list[Need], extras: list[Attempt], outs: list[dict[str, Any]], named: dict[str, Any] | None
) -> Draft | None:
    """Nothing more to call: the answer goes into the output tool (final_result, print_entities, send_text)."""
    tool = named or output.pick(view, outs)
    answer = reply.final_text(view, needs, extras) if needs else ""
    if not answer:
        answer = reply.chat_text(view)
    values, missing = output.fill(view, tool, answer)
    if missing and view.choice_type not in ("any", "tool") and not named:
        view.notes.append(f"{tool.get('name')} needs {', '.join(missing)}, which I cannot find; I ask.")
        return Draft([_text(output.ask(view, tool, missing))], "end_turn", reasoning=" ".join(view.notes))
    if output.given(view, tool, values):  # it took the result and the run went on: the answer ends the turn
        return Draft([_text(values_text(values) or answer)], "end_turn", reasoning=" ".join(view.notes))
    view.notes.append(f"Everything is gathered; I give the result to {tool.get('name')}, which ends the run.")
    block = {"type": "tool_use", "id": None, "name": tool.get("name"), "input": values}
    return Draft([block], "tool_use", reasoning=" ".join(view.notes))


def _text(text: str) -> dict[str, Any]:
    return {"type": "text", "text": text}


__all__ = ["Draft", "think"]


def _reasoning(view: View, end: str) -> str:
    closing = {
        "answer": f"Everything I can do is done; I answer in {LANG_NAMES[view.lang]} and quote the results.",
        "call": "I call the tools now and wait for the results.",
    }[end]
    return " ".join([*view.notes, closing])


# ---- following the episode: which need each call served, what to do next --------------------------


def plan(view: View, needs: list[Need]) -> list[Attempt]:
    """Choose tools and arguments, match the calls already made, and decide each need's next step."""
    kept: list[Need] = []
    for need in needs:
        choose(view, need)
        browsing.scripted(view, need)  # 'the page title of <url>': a script run on the page tells it
        # '... and the porch light': the same change again, of another thing (no repeat of the call before)
        again = bool(kept) and things.more_of(view, kept[-1], need, choose)
        if need.tool is not None and knowledge.known(need.intent, need.value, need.clause, view.lang):
            view.notes.append(f"I know this without {need.tool.get('name')} (the built-in table), so I answer it.")
            need.tool = None
        if kept and not again and (spread.gives_values(view, kept[-1], need) or follow(view, kept[-1], need) == "drop"):
            continue
        previous = kept[-1] if kept and kept[-1].tool is not None else None
        ordered = chain.in_order(previous, need) or browsing.in_order(previous, need)  # steps on one page
        need.waits_for = previous if spread.after_then(need.clause) or ordered else None
        kept.append(need)
        if need.tool is not None and need.derived is None:
            fill(view, need, results=False)  # what the question itself gives: the chain is planned the same each turn
            kept += spread.siblings(view, need)
    kept = chain.without_options(view, [n for n in kept if not premise(n, kept)])
    kept = browsing.opened_first(view, kept, fill, Need)  # 'take a screenshot of <url>': the page is opened first
    pairs = {id(n): (needs[n.derived[0]], needs[n.derived[1]]) for n in kept if n.derived is not None}
    needs[:] = _with_feeders(view, kept)
    needs[:] = existing.checked(view, needs, fill, tool_action)  # a fact about a stored entity is added to it
    chain.passes_on(view, needs)
    for need in needs:  # the feeders put before the weather needs moved them: the difference follows its needs
        if id(need) in pairs:
            need.derived = (needs.index(pairs[id(need)][0]), needs.index(pairs[id(need)][1]))
    _mark_twins([n for n in needs if n.derived is None])
    leftovers = view.episode
    for layer in _layers([n for n in needs if n.derived is None and n.twin is None]):
        _refill_fed(view, layer, needs)  # a call's input from the results of the calls made for it, then match
        leftovers = _attach(layer, leftovers)
    for need in list(needs):
        earlier = view.history.get(_key(need)) if need.tool is not None and need.result is None else None
        extra = handoff.next_step(view, need, earlier)
        if extra is not None and not any(n.tool is not None and _key(n) == _key(extra) for n in needs):
            needs.insert(needs.index(need) + 1, extra)
            leftovers = _attach([extra], leftovers)
    for need in needs:
        if need.derived is not None:
            _derive(view, need, needs)
    _mark_twins(needs)
    extras = _attach([n for n in needs if n.derived is not None and n.twin is None], leftovers)
    answered = {**view.history, **{a.key: a for a in view.episode if a.status == "ok"}}
    for need in needs:
        if need.twin is None:
            _decide(view, need, needs, answered)
    # 'Check the weather in Paris and email it': the body is in now
    for need in chain.told_onwards(view, needs, reply.need_line):
        _decide(view, need, needs, answered)
    for need in needs:
        if need.twin is not None:
            need.state, need.result = "twin", need.twin.result
    _with_operations(view, needs)
    return extras


def _with_operations(view: View, needs: list[Need]) -> None:
    """An expression worked out with operation tools: the operations that can run now, or the final value."""
    for need in list(needs):
        if need.intent != "arithmetic" or not need.value or need.tool is None or need.derived is not None:
            continue
        steps, final = sums.plan(view, need.value)
        if final is not None:
            need.state, need.final, need.call = "worked_out", final, None
            view.notes.append(f"With one call per operation, {need.value} = {final}.")
        elif steps:
            need.state, need.call = "steps", None
            view.notes.append(f"{need.value} takes one call per operation, the innermost first.")
            for tool, args in steps:
                needs.append(Need("arithmetic", need.clause, None, tool=tool, args=args, state="call", call=args))


def _with_feeders(view: View, needs: list[Need]) -> list[Need]:
    """Put the calls that find a missing argument before the need that lacks it (user -> their orders;
    a place -> its coordinates -> the weather there), several steps deep if need be."""
    out: list[Need] = []
    memory = any(n.intent == "memory" for n in needs)
    for need in needs:
        # Weather's own chain (memory -> city) is planned when the question is read.
        if need.tool is not None and need.missing and not (memory and need.intent == "weather"):
            found = chain.listed_instead(view, need, chain.producers(view, need))
            out.extend(found or ([f] if (f := feeder(view, need)) is not None else []))
        out.append(need)
    return out


def _layers(needs: list[Need]) -> list[list[Need]]:
    """Needs in the order their inputs come: first those no call feeds, then those fed by them, and so on."""
    depth: dict[int, int] = {}

    def level(need: Need) -> int:
        if id(need) not in depth:
            depth[id(need)] = 0
            feeders = [n for n in needs if n.feeds is need]
            depth[id(need)] = 1 + max(map(level, feeders)) if feeders else 0
        return depth[id(need)]

    layers: dict[int, list[Need]] = {}
    for need in needs:
        layers.setdefault(level(need), []).append(need)
    return [layers[k] for k in sorted(layers)]


def _refill_fed(view: View, layer: list[Need], needs: list[Need]) -> None:
    """Each need is filled again with this episode's results, those of the calls made for it first."""
    for need in layer:
        if need.tool is None or need.derived is not None or (not need.missing and not view.episode):
            continue
        # a feeder answered in an earlier turn feeds too: its result is reused, not asked again
        fed = (n.result or view.history.get(_key(n)) for n in needs if n.feeds is need and n.tool is not None)
        view.fed = [r for r in fed if r is not None]
        if view.fed or need.missing:  # else the fill would be the one plan() made, with the same view
            fill(view, need)
        view.fed = []


def _mark_twins(needs: list[Need]) -> None:
    """Two clauses that come down to the same call ('Summarise app.log. Which errors are in the log?') make it once."""
    first: dict[str, Need] = {}
    for need in needs:
        if need.twin is None and need.tool is not None and not need.missing and need.args:
            original = first.setdefault(_key(need), need)
            need.twin = original if original is not need else None


def _attach(needs: list[Need], attempts: list[Attempt]) -> list[Attempt]:
    """Give each past call to the need it served; calls nobody asked for (injected ones) are returned."""
    left, spare = [], {id(n) for n in needs if n.result is not None and empty(n.result.output)}
    for attempt, listing in zip(attempts, relist.listings(attempts), strict=True):
        # listing: it serves the need that looks for the name only
        # A long run's later calls mostly find every need answered: no retry to look for (spare), no need open.
        open_needs = [
            n
            for n in needs
            if (n.result is None or (spare and reopens(n, attempt, spare)))
            and _serves(n, attempt)
            and (n.feeds or not listing)
        ]
        need = _served(open_needs, attempt) if open_needs else None
        if need is None:
            left.append(attempt)
            continue
        need.attempts.append(attempt)
        if attempt.status == "ok":
            need.result = attempt
            spare |= {id(need)} if empty(attempt.output) else set()  # an empty lookup's retry may follow
    return left


def _served(open_needs: list[Need], attempt: Attempt) -> Need | None:
    return (
        next((n for n in open_needs if n.args == attempt.input and n.result is None), None)
        or next((n for n in open_needs if n.attempts and n.attempts[-1].status != "ok"), None)
        or next((n for n in open_needs if not n.attempts), None)
        or next((n for n in open_needs if n.result is not None), None)  # the retry of an empty lookup
    )


def _serves(need: Need, attempt: Attempt) -> bool:
    if need.tool is not None:
        return need.tool.get("name") == attempt.name
    # No tool in this request (workflow mode): data the program gathered still answers the need.
    values = {lx.fold(str(v)) for v in attempt.input.values()}
    if need.value and lx.fold(need.value) in values:
        return True
    # A query is the user's own words ("любимая еда"), the program's is its own ("favourite food"): the tool's
    # name decides. Cities, files and sums must match by value: "Oslo" data does not answer a question on Paris.
    if need.intent in QUERY_INTENTS:
        return _name_intent(attempt.name) == need.intent
    return not need.value and bool(lx.hits(lx.words(attempt.name), lx.lexicon()["intents"].get(need.intent, [])))


@lru_cache(maxsize=256)
def _name_intent(name: str) -> str | None:
    """What a tool's name is mostly about: search_memory is memory (ties go to the earlier intent), lookup is search."""
    tokens, intents = lx.words(name), lx.lexicon()["intents"]
    counts = {intent: len(lx.hits(tokens, kws)) for intent, kws in intents.items()}
    best = max(counts, key=lambda k: (counts[k], -list(intents).index(k)))
    return best if counts[best] else None


def _derive(view: View, need: Need, needs: list[Need]) -> None:
    if need.derived is None:
        return
    first, second = (needs[i] for i in need.derived)
    a, b = compare.figures(view, first, second)
    if a is None or b is None:
        return
    words, comparison = lx.words(view.question), lx.lexicon()["comparison"]
    if not lx.hits(words, comparison["forward"] + comparison["reverse"]) and float(b) > float(a):
        a, b = b, a  # 'Which is warmer, Glasgow or London?': by how much the one is above the other
    need.value = f"{a}-({b})" if b.startswith("-") else f"{a}-{b}"
    need.clause = need.value
    if need.tool is not None:
        need.tool = None  # chosen for the whole question ('right now' found get_time); the sum picks its own tool
        choose(view, need)
    if need.tool is not None:
        fill(view, need)


def _decide(view: View, need: Need, needs: list[Need], answered: dict[str, Attempt]) -> None:
    if need.result is not None:
        retry = again(view, need)  # an empty lookup is tried once more in other words
        need.state, need.call, need.result = ("call", retry, None) if retry else ("done", None, need.result)
    elif need.attempts and need.tool is None:
        need.state = "gave_up"  # data the program gathered failed, and there is no tool to try again with
    elif need.attempts and any(n.feeds is need and n.tool is not None and not n.attempts for n in needs):
        need.state = "wait"  # the name it did not know is looked up first (sim/lookup.py)
    elif need.attempts:
        retry = retry_call(view, need)
        reused = answered.get(call_key(need.tool_def.get("name", ""), retry)) if retry is not None else None
        need.state, need.call = ("call", retry) if retry is not None else ("gave_up", None)
        if reused is not None:
            need.state, need.result, need.call, need.say_before = "done", reused, None, ""
            view.notes.append(f"The corrected call was already answered ({reused.name}); I reuse its result.")
    elif need.derived is not None and need.value is None:
        pending = any(needs[i].state in ("call", "wait", "") for i in need.derived)
        need.state = "wait" if pending else "skip"
    elif need.tool is None:
        need.state = "no_tool"
    elif need.missing:
        feeding = any(
            (n.intent == "memory" or n.feeds is need)
            and n.tool is not None
            and n.result is None
            and n.state != "gave_up"
            for n in needs
            if n is not need
        )
        need.state = "wait" if feeding else "ask"
    elif need.waits_for is not None and need.waits_for.result is None and need.waits_for.state in ("call", "wait"):
        need.state = "wait"  # '..., then ...': this call goes once the one before it has answered
    else:
        reused = answered.get(_key(need))
        need.state, need.result, need.call = ("done", reused, None) if reused else ("call", None, need.args)
        if reused:
            view.notes.append(f"{reused.name} already answered this call earlier; I reuse its result.")
        elif state.needs_confirmation(view, tool_action(view_key(view, need.tool_def)), need.clause):
            need.state, need.call = "confirm", None
            view.notes.append("The system prompt asks me to confirm this first, so I ask before I act.")
    if need.state == "ask":
        view.notes.append(f"I cannot find a value for {', '.join(need.missing)}; I will ask instead of guessing.")


def _key(need: Need) -> str:
    return call_key(need.tool_def.get("name", ""), need.args)


# ---- calling tools --------------------------------------------------------------------------------


def _calls(view: View, needs: list[Need], forced: bool = True) -> list[tuple[Need, dict[str, Any]]]:
    if view.choice_type == "none":
        return []
    calls: list[tuple[Need, dict[str, Any]]] = []
    seen: set[str] = set()
    for need in needs:
        if need.state != "call" or need.call is None:
            continue
        key = call_key(need.tool_def.get("name", ""), need.call)
        if key and key not in seen:
            seen.add(key)
            calls.append((need, need.call))
    if not calls and forced and view.choice_type in ("any", "tool"):
        calls = _forced(view, needs)
    if view.choice.get("disable_parallel_tool_use"):
        calls = calls[:1]
    return calls


def _forced(view: View, needs: list[Need]) -> list[tuple[Need, dict[str, Any]]]:
    """tool_choice any/tool: a tool call is compulsory even when nothing is left to ask for."""
    need = next((n for n in needs if n.tool is not None), None)
    if need is None and not view.tools:
        return []
    if need is None:
        need = needs[0] if needs else Need("tool", view.question, view.question)
        choose(view, need, forced=True)
        fill(view, need)
    sent = need.call or (need.attempts[-1].input if need.attempts else need.args)
    view.notes.append(
        f"tool_choice {view.choice_type} forces a tool call, so I call {need.tool_def.get('name')} again."
    )
    return [(need, sent)]


def _tool_draft(view: View, calls: list[tuple[Need, dict[str, Any]]]) -> Draft:
    done = {a.key for a in view.episode}
    fresh = reply.task_phrases(
        view,
        [
            need
            for need, sent in calls
            if not need.attempts and not need.say_before and call_key(need.tool_def.get("name", ""), sent) not in done
        ],
    )
    texts = [say("preface", view.lang, tasks=lx.join_list(fresh, view.lang))] if fresh else []
    texts += list(dict.fromkeys(need.say_before for need, _ in calls if need.say_before))
    blocks = [
        {"type": "tool_use", "id": None, "name": need.tool_def.get("name"), "input": sent} for need, sent in calls
    ]
    if len(calls) > 1:
        view.notes.append("These calls do not depend on each other, so I make them together in one reply.")
    return Draft([_text(" ".join(texts))] * bool(texts) + blocks, "tool_use", reasoning=_reasoning(view, "call"))
