"""A run shared by link is data: viewing it never uses its settings, and "make my copy" takes only the harmless ones.

Where requests go (provider, base URL, model), which folder tools may read (sandbox) and which tools run without
asking (approvals) are the viewer's own; the shared run contributes its conversation, task, tools and limits.
"""

from __future__ import annotations

import copy
import time
import uuid
from dataclasses import replace

from agent_core.model import Run, RunConfig, ToolSpec
from agent_core.tools.catalog import CATALOG

SHARED_VIEW = "shared"  # ?run=ID&view=shared opens the run read-only


def safe_tools(tools: list[ToolSpec]) -> list[ToolSpec]:
    """The shared run's tools, each asking for approval at least when the catalog's own tool does."""
    out = []
    for spec in tools:
        known = CATALOG.get(spec.impl_key)
        asks = spec.needs_approval or known is None or known.spec.needs_approval
        out.append(replace(copy.deepcopy(spec), needs_approval=asks))
    return out


def copy_config(shared: RunConfig, mine: RunConfig) -> RunConfig:
    """The shared run's task, tools and limits with the viewer's provider, base URL, model and sandbox."""
    return replace(
        copy.deepcopy(shared),
        provider=mine.provider,
        base_url=mine.base_url,
        model=mine.model,
        sandbox=mine.sandbox,
        tools=safe_tools(shared.tools),
    )


def own_copy(shared: Run, mine: RunConfig) -> Run:
    """A new run of the viewer's own: the shared run's turns and messages so far, linked to it, on their settings."""
    return replace(
        copy.deepcopy(shared),
        config=copy_config(shared.config, mine),
        id=uuid.uuid4().hex[:12],
        created_at=time.time(),
        parent_id=shared.id,
        parent_turn=len(shared.turns) + 1,  # as a fork: it keeps every turn before this one
    )
