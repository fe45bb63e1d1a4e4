"""Words for agent_core's structured facts: the English texts its tables hold, which the UI renders through t()."""

from __future__ import annotations

from agent_core.providers import PROVIDER_TABLE
from lab_ui.i18n import t

# Texts agent_core's tables own that reach t() here; tests/test_i18n.py checks them like literal t() keys.
BORROWED_TEXTS = tuple(info.label for info in PROVIDER_TABLE.values())


def provider_label(provider: str) -> str:
    """How a selector names a provider, in the learner's language (an unknown name is shown as it is)."""
    info = PROVIDER_TABLE.get(provider)
    return t(info.label) if info else provider
