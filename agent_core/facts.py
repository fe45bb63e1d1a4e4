"""A fact: a kind from a vocabulary and the values that fill it in, the one shape the UI words in the learner's language.

A record never holds a sentence. `Decision` and `StopCause` (agent_core.model) are facts whose parameters are typed
once, here (`Params`): the loop and its guards write them, and lab_ui/words/catalogue.py reads them for the stop
cause, a final stop decision and a "then stop" decision alike, so a key spelt two ways is a type error, not a blank.
A failed call (`ApiError`: what agent_core.wire.errors.explain words), a built-in tool's words (`Said`, rendered in
the run's language by agent_core.tools.texts), a lesson goal's `Miss` and the Practice page's feedback
(agent_core.teaching.learn) are facts too, with free values.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypedDict, TypeVar

K = TypeVar("K", bound=str)
P = TypeVar("P", bound=Mapping[str, Any])


@dataclass
class Fact(Generic[K, P]):
    """One thing to tell: `kind` names a sentence in lab_ui's catalogue, `params` fill it in."""

    kind: K
    params: P


class Params(TypedDict, total=False):
    """Every parameter a decision or a stop cause carries (a run file holds them as they are: JSON values)."""

    # What the loop counted at a phase.
    messages: int  # request_built
    tools: int  # request_built (definitions sent), run_tools (calls to run)
    results: int  # context_cleared
    turns: int  # context_summarised
    blocks: int  # results_appended
    # A stop_reason and what came with it.
    reason: str | None  # the stop_reason
    workflow: bool  # a workflow's one model call was answered
    tool_call_cut_off: bool  # max_tokens cut the last tool call
    sequence: str | None  # the stop sequence that fired
    category: str | None  # a refusal's category
    explanation: str  # a refusal's explanation, the API's own words
    ids: str  # the tool_use ids a reply repeats
    # A guard's figures.
    times: int  # repeated_call
    errors: int  # error_budget
    limit: int  # error_budget, step_limit (steps); request_too_large, run_too_large (bytes)
    ceiling: int  # step_limit when no limit was set
    cap_usd: float  # spend_cap
    spent_usd: float  # spend_cap, cost_budget
    session: bool  # spend_cap: the tab's own cap; run_too_large: the session's runs together
    daily: str  # spend_cap: a class server's daily limit, by scope (learner, class, server)
    no_budget: bool  # spend_cap: a class server whose budget is $0
    budget_usd: float  # cost_budget
    budget: int  # token_budget
    tokens: int  # token_budget
    limit_s: float  # timeout
    spent_s: float  # timeout
    bytes: int  # request_too_large, run_too_large
    # A then_stop decision: the kind of the stop that followed (its parameters beside it).
    kind: str
    # A v1 run file's decision or stop, in the words it was written in.
    text: str
