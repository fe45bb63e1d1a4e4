"""Words for agent_core's structured facts: decisions, stop causes and provider names, in the learner's language.

Records hold kinds and parameters (agent_core.model.Decision, StopCause); the English sentences below are the
catalogue keys, and lab_ui/words/locales/health/{ru,pl}.json translate them. `tr` is t() in the app; the command line
passes an English translate.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from agent_core.examples import load_scenarios
from agent_core.facts import Params
from agent_core.model import ApiError, Decision, Run, StopCause, Turn
from agent_core.vocab import STOP_TABLE, DecisionKind, StopKind
from agent_core.wire import errors
from agent_core.wire.providers import PROVIDER_TABLE
from lab_ui.frame.untrusted import code_span, md
from lab_ui.words.i18n import mark, number, t

Translate = Callable[..., str]

# Texts agent_core's tables own that reach t() here; tests/test_i18n.py checks them like literal t() keys.
BORROWED_TEXTS = (
    *(info.label for info in PROVIDER_TABLE.values()),
    *(info.why for info in STOP_TABLE.values() if info.ends_loop),
    *errors.TEXTS,
    # The shipped example recordings' titles and lessons (the Runs page's "Import & examples").
    *(text for meta in load_scenarios().values() for text in (meta.get("title"), meta.get("lesson")) if text),
)

DUPLICATE_IDS = mark(
    "The reply uses the tool_use id {ids} more than once. The API refuses a history like that "
    "(`tool_use` ids must be unique), so no tool runs and the loop stops."
)
DECISIONS: dict[str, str] = {  # keyed by DecisionKind (a StrEnum, so a plain string finds its entry)
    DecisionKind.REQUEST_BUILT: mark(
        "Request built: {messages} message(s) and {tools} tool definition(s), all sent again."
    ),
    DecisionKind.CONTEXT_CLEARED: mark("Context policy: cleared {results} old tool result(s)."),
    DecisionKind.CONTEXT_SUMMARISED: mark("Context policy: summarised {turns} old turn(s) into the first message."),
    DecisionKind.CALL_FAILED: mark("The call failed: {error} The run so far is kept; retry this step."),
    DecisionKind.WORKFLOW_DONE: mark(
        "Workflow: one model call after the program's own steps (stop_reason {reason}), done."
    ),
    DecisionKind.RUN_TOOLS: mark("stop_reason is tool_use, so run {tools} tool(s) and call again."),
    DecisionKind.PAUSE_TURN: mark("stop_reason is pause_turn, so send the reply back unchanged and call again."),
    DecisionKind.UNKNOWN_CONTINUE: mark("stop_reason is {reason}, which this (buggy) loop treats as 'continue'."),
    DecisionKind.UNKNOWN_STOP: mark(
        "stop_reason is {reason}, which this loop does not know, so stop rather than loop on it."
    ),
    DecisionKind.RESULTS_APPENDED: mark("{blocks} result block(s) appended as ONE user message."),
    DecisionKind.NOTHING_APPENDED: mark("(Bug: neither the reply nor the results were added to the history.)"),
    DecisionKind.DUPLICATE_IDS: DUPLICATE_IDS,
    DecisionKind.THEN_STOP: mark("Then stop: {message}"),
}
FINAL = mark("stop_reason is {reason}: {why}.")
CUT_OFF = mark("Its last tool call was cut off and cannot be run.")
SEQUENCE = mark("(sequence: {sequence})")
REFUSAL = mark("Category: {category}.")
# The refusal categories the docs and the simulated model name, told in the learner's words; the API's own
# explanation is English, so it is quoted as the API's words only where the category is not one of these.
REFUSAL_CATEGORIES = {
    "cyber": mark("Category: {category}, a request for malicious software or for help breaking into computers."),
    "general_harms": mark("Category: {category}, a request for help that could seriously harm people."),
}
REFUSAL_QUOTED = mark("Category: {category}. The API's explanation, in its own words: “{explanation}”")
STOPS: dict[str, str] = {  # keyed by StopKind
    StopKind.REPEATED_CALL: mark(
        "the same tool call returned the same result {times} times in a row, so the loop gave up"
    ),
    StopKind.ERROR_BUDGET: mark("error budget spent: {errors} tool error(s), limit {limit}"),
    StopKind.SPEND_CAP: mark("session spend cap ${cap} reached (spent ${spent})"),
    StopKind.COST_BUDGET: mark("cost budget ${budget} reached (spent ${spent})"),
    StopKind.TOKEN_BUDGET: mark("token budget {budget} reached ({tokens} tokens billed)"),
    StopKind.TIMEOUT: mark("time limit {limit} s reached ({spent} s spent running)"),
    StopKind.STEP_LIMIT: mark("step limit {limit} reached"),
    StopKind.INVALID_REPLY: DUPLICATE_IDS,
    StopKind.REQUEST_TOO_LARGE: mark(
        "the next request would be {size} MB (task, system prompt, tools and history together), more than this "
        "server sends ({limit} MB); nothing was sent. Start a run with a shorter task, or clear old tool results "
        "with a context policy"
    ),
    StopKind.RUN_TOO_LARGE: mark(
        "this run's requests add up to {size} MB, more than this server keeps for one run ({limit} MB); nothing more "
        "was sent. Re-run it from an earlier turn, or start a shorter one"
    ),
}
STEP_CEILING = mark("no step limit was set, so the app's hard ceiling of {ceiling} steps stopped it")
SESSION_CAP = mark(
    "the session spend cap ${cap} is reached: this tab has spent ${spent} on real-model calls. "
    "Raise the cap on the Settings page to go on"
)


DAILY_CAP = {  # a class server's daily limits (agent_core/budgets.py), by the scope that stopped the run
    "learner": mark(
        "your limit for today (${cap}) is reached: you have spent ${spent}. It starts again at midnight UTC"
    ),
    "class": mark("your class's limit for today (${cap}) is reached: it has spent ${spent}. Ask your teacher"),
    "server": mark("this server's limit for today (${cap}) is reached: ${spent} spent. Ask your teacher"),
}
SESSION_TOO_LARGE = mark(
    "the runs open in this browser (the Playground's and each lesson's) hold {size} MB of requests together, more "
    "than this server keeps for one learner ({limit} MB); nothing more was sent. Reset a run you no longer need "
    "(it stays saved on the Runs page), or start a shorter one"
)
NO_BUDGET = mark(
    "this class server gives learners no budget for its own API key ($0 a day, set by the server), so nothing "
    "was sent. The offline model works without a key (pick it on the Settings page), and so does a key of your own"
)


def provider_label(provider: str, tr: Translate = t) -> str:
    """How a selector names a provider, in the learner's language (an unknown name is shown as it is)."""
    info = PROVIDER_TABLE.get(provider)
    return tr(info.label) if info else provider


def _final(p: Params, tr: Translate) -> str:
    """A final stop_reason in words, with what the learner needs to know about it."""
    reason = str(p.get("reason"))
    info = STOP_TABLE.get(reason)
    words = [tr(FINAL, reason=reason, why=tr(info.why) if info else reason)]
    if p.get("tool_call_cut_off"):
        words.append(tr(CUT_OFF))
    if "sequence" in p:
        words.append(tr(SEQUENCE, sequence=repr(p["sequence"])))
    if "category" in p:
        category, explanation = str(p["category"]), p.get("explanation")
        if category in REFUSAL_CATEGORIES:
            words.append(tr(REFUSAL_CATEGORIES[category], category=category))
        elif explanation:
            words.append(tr(REFUSAL_QUOTED, category=category, explanation=explanation))
        else:
            words.append(tr(REFUSAL, category=category))
    return " ".join(words)


def _limit(kind: StopKind, p: Params, tr: Translate) -> str | None:
    """A guard's stop in words, its figures written as the learner's language writes numbers (0,0123 in Polish)."""
    if kind == StopKind.SPEND_CAP and p.get("daily") in DAILY_CAP and p.get("no_budget"):
        return tr(NO_BUDGET)
    if kind == StopKind.SPEND_CAP and p.get("daily") in DAILY_CAP:
        return tr(DAILY_CAP[p["daily"]], cap=number(p["cap_usd"], 2), spent=number(p["spent_usd"], 4))
    if kind == StopKind.SPEND_CAP and p.get("session"):
        return tr(SESSION_CAP, cap=number(p["cap_usd"], 2), spent=number(p["spent_usd"], 4))
    if kind == StopKind.RUN_TOO_LARGE and p.get("session"):
        return tr(SESSION_TOO_LARGE, size=_megabytes(p["bytes"]), limit=_megabytes(p["limit"]))
    if kind == StopKind.STEP_LIMIT and "ceiling" in p:
        return tr(STEP_CEILING, ceiling=p["ceiling"])
    by_kind: dict[str, Callable[[], dict[str, Any]]] = {
        StopKind.REPEATED_CALL: lambda: {"times": p["times"]},
        StopKind.ERROR_BUDGET: lambda: {"errors": p["errors"], "limit": p["limit"]},
        StopKind.SPEND_CAP: lambda: {"cap": number(p["cap_usd"], 4), "spent": number(p["spent_usd"], 4)},
        StopKind.COST_BUDGET: lambda: {"budget": number(p["budget_usd"], 4), "spent": number(p["spent_usd"], 4)},
        StopKind.TOKEN_BUDGET: lambda: {"budget": number(p["budget"]), "tokens": number(p["tokens"])},
        StopKind.TIMEOUT: lambda: {"limit": number(p["limit_s"]), "spent": number(p["spent_s"], 1)},
        StopKind.STEP_LIMIT: lambda: {"limit": p["limit"]},
        StopKind.INVALID_REPLY: lambda: {"ids": p["ids"]},
        StopKind.REQUEST_TOO_LARGE: lambda: {"size": _megabytes(p["bytes"]), "limit": _megabytes(p["limit"])},
        StopKind.RUN_TOO_LARGE: lambda: {"size": _megabytes(p["bytes"]), "limit": _megabytes(p["limit"])},
    }
    values = by_kind.get(kind)  # StrEnum keys: a plain string finds its member
    return tr(STOPS[kind], **values()) if values else None


def _megabytes(size: int) -> str:
    return number(size / 1_000_000, 1)


def stop_words(cause: StopCause, error: str = "", tr: Translate = t) -> str:
    """Why the loop stopped, in words; `error` is the failed call's explanation for an API error."""
    kind, params = cause.kind, cause.params
    try:
        if "text" in params:  # a v1 run file: the sentence as it was written
            return str(params["text"])
        if kind == StopKind.API_ERROR:
            return error
        if params.get("workflow"):
            return tr(DECISIONS[DecisionKind.WORKFLOW_DONE], reason=params.get("reason"))
        if kind == StopKind.UNKNOWN_STOP_REASON:
            return tr(DECISIONS[DecisionKind.UNKNOWN_STOP], reason=repr(params.get("reason")))
        if kind in STOP_TABLE:
            return _final(params, tr)
        return _limit(kind, params, tr) or kind
    except (KeyError, TypeError, ValueError):  # a hand-edited file with odd parameters: say at least the kind
        return kind


QUOTED = mark('"{words}"')  # a quotation: «…» in Russian, „…” in Polish


def error_text(error: ApiError | None, tr: Translate = t) -> str:
    """A failed call's explanation in words (plain text; the server's own words in the language's quotes, which
    mark them as data, not words of the app); '' for none."""
    return errors.explain(error, tr, lambda words: tr(QUOTED, words=words)) if error else ""


def error_markdown(error: ApiError, tr: Translate = t) -> str:
    """A failed call's explanation as safe Markdown: the server's own words, which are data, as inline code."""

    def safe(text: str, **values: Any) -> str:
        return tr(text, **{k: v if k == "detail" else md(v) for k, v in values.items()})

    if set(error.params) == {"text"}:  # an older file's sentence: its words, as data
        return md(str(error.params["text"]))
    return errors.explain(error, safe, code_span)


def last_error(run: Run) -> ApiError | None:
    return next((x.error for x in reversed(run.turns) if x.error), None)


def stop_text(run: Run, tr: Translate = t) -> str:
    """The run's stop cause in words ('' while it runs)."""
    if run.stop is None:
        return ""
    error = last_error(run)
    return stop_words(run.stop, error_text(error, tr) if error else "", tr)


def _decision(d: Decision, turn: Turn, tr: Translate) -> str:
    p = d.params
    if d.kind == DecisionKind.TEXT:
        return str(p.get("text", ""))
    if d.kind == DecisionKind.FINAL_STOP:
        return _final(p, tr)
    if d.kind == DecisionKind.CALL_FAILED:
        return tr(DECISIONS[DecisionKind.CALL_FAILED], error=error_text(turn.error, tr) if turn.error else "")
    if d.kind == DecisionKind.THEN_STOP:
        return tr(DECISIONS[DecisionKind.THEN_STOP], message=stop_words(d.stop_cause(), tr=tr))
    if d.kind in (DecisionKind.UNKNOWN_CONTINUE, DecisionKind.UNKNOWN_STOP):
        return tr(DECISIONS[d.kind], reason=repr(p.get("reason")))
    template = DECISIONS.get(d.kind)
    return tr(template, **p) if template else d.kind


def decision_text(turn: Turn, tr: Translate = t) -> str:
    """What the loop decided at this turn's latest phase, in words ('' before it decided anything)."""
    words = []
    for d in turn.decisions:
        try:
            words.append(_decision(d, turn, tr))
        except (KeyError, TypeError, ValueError):  # odd parameters from a hand-edited file: say the kind
            words.append(d.kind)
    return " ".join(w for w in words if w)
