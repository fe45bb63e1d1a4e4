"""Spend status, the controller's logic (no widgets): what the next real-model step may cost against the tab's cap."""

from __future__ import annotations

from dataclasses import dataclass

from agent_core.cost import pricing, tokens
from agent_core.loop import context
from agent_core.model import Phase
from agent_core.vocab import Provider, StopKind
from agent_core.wire.providers import is_priced
from lab_ui.controller.session import LabSession
from lab_ui.words.i18n import mark, t

# Said wherever a $ figure would stand for a server that is not Anthropic's (Ollama, LM Studio, llama.cpp, …).
NO_PRICE = mark("no price (a local or unknown server)")
TOKENS_ONLY = mark("Cost: {no_price}. The figures are tokens, as the server reported them.")


def tokens_only() -> str:
    """What a view of an unpriced (local or unknown server's) run says in place of its cost."""
    return t(TOKENS_ONLY, no_price=t(NO_PRICE))


# A model the price list does not know is counted at $0 (agent_core.cost.pricing.unknown_price): say so, not "$0".
UNLISTED_PRICE = mark("No list price is known for {model}, so this run's cost is unknown here: it is not $0.")


def price_listed(model: str) -> bool:
    """Whether the price list knows this model (or its undated id), so that its $ figures mean something."""
    return pricing.load_pricing().get(model) is not None


SIMULATED_PRICE = mark(
    "Costs here are what this run would cost on the Anthropic API at its list prices; the offline model itself "
    "costs nothing."
)


@dataclass
class SpendStatus:
    """What the next real-model step may cost, against what this tab has spent and its cap."""

    next_cost_usd: float
    spent_usd: float
    cap_usd: float | None
    price_known: bool
    priced: bool = True  # False: a local or unknown server, shown in tokens only
    next_tokens: int = 0  # the next request's input tokens (an estimate)

    @property
    def over_cap(self) -> bool:
        return self.cap_usd is not None and self.spent_usd + self.next_cost_usd > self.cap_usd


def next_request(lab: LabSession) -> dict:
    """The request the next model call would send (or has built and is about to send)."""
    run = lab.run
    if run is None:
        return context.build_request(lab.config, [{"role": "user", "content": lab.config.task}])
    if run.phase == Phase.CALL_MODEL and run.turns and run.turns[-1].request:
        return run.turns[-1].request
    return context.build_request(run.config, run.messages)


def spend_status(lab: LabSession) -> SpendStatus | None:
    """None when nothing real is spent: the offline model, a replay, or a run that has ended."""
    run = lab.run
    cfg = run.config if run else lab.config
    if cfg.provider == Provider.OFFLINE or lab.replay or (run and run.stop and run.stop.kind != StopKind.API_ERROR):
        return None
    request = next_request(lab)
    if not is_priced(cfg.provider):
        return SpendStatus(0.0, 0.0, None, False, priced=False, next_tokens=tokens.count_request(request))
    prices = pricing.load_pricing()
    cost = pricing.estimate_next_cost(request, cfg.model, cfg.max_tokens, prices)
    return SpendStatus(cost, lab.tab.session_spend_usd, lab.tab.spend_cap_usd, prices.get(cfg.model) is not None)


def shows_prices(lab: LabSession) -> bool:
    """Whether this workspace's run is shown with $ figures (the Anthropic API, or the offline model simulating it)."""
    return is_priced((lab.run.config if lab.run else lab.config).provider)
