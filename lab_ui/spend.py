"""Spend status, the controller's logic (no widgets): what the next real-model step may cost against the tab's cap."""

from __future__ import annotations

from dataclasses import dataclass

from agent_core import context, pricing
from agent_core.model import Phase
from agent_core.vocab import Provider, StopKind
from lab_ui.session import LabSession


@dataclass
class SpendStatus:
    """What the next real-model step may cost, against what this tab has spent and its cap."""

    next_cost_usd: float
    spent_usd: float
    cap_usd: float | None
    price_known: bool

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
    prices = pricing.load_pricing()
    cost = pricing.estimate_next_cost(next_request(lab), cfg.model, cfg.max_tokens, prices)
    return SpendStatus(cost, lab.tab.session_spend_usd, lab.tab.spend_cap_usd, prices.get(cfg.model) is not None)
