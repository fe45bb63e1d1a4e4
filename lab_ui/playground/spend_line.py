"""The spend line the Playground shows before each real-model step (it only renders lab_ui.controller.spend's status)."""

from __future__ import annotations

import streamlit as st

from lab_ui.controller.session import LabSession
from lab_ui.controller.spend import NO_PRICE, spend_status
from lab_ui.words.i18n import money_md, number, t


def render_spend(lab: LabSession) -> None:
    """One line before each real-model step: its estimated cost, and the tab's spend against the cap."""
    status = spend_status(lab)
    if status is None:
        return
    if not status.priced:
        st.caption(
            t(
                "Next step: sends about {tokens} input tokens · {no_price}",
                tokens=number(status.next_tokens),
                no_price=t(NO_PRICE),
            )
        )
        return
    if not status.price_known:
        # Only the Anthropic API gets here (a local server is unpriced above): its calls are billed all the same,
        # but at $0 in the tab's spend, so the cap cannot stop them.
        st.caption(
            t(
                "Next step: no list price is known for this model, so its cost cannot be estimated and the spend "
                "cap cannot stop it; Anthropic still bills it."
            )
        )
        return
    cap = t("{cap} cap", cap=money_md(status.cap_usd, 2)) if status.cap_usd is not None else t("no cap")
    line = t(
        "Next step: up to **{cost}** (input at its dearest rate plus max_tokens of output) · spent in this tab: "
        "**{spent}** of {cap}",
        cost=money_md(status.next_cost_usd, 4),
        spent=money_md(status.spent_usd, 4),
        cap=cap,
    )
    (st.warning if status.over_cap else st.caption)(
        line + (" · " + t("this step could pass the cap") if status.over_cap else "")
    )
