"""A run shared by link is data: viewing it never uses its settings, and "make my copy" follows agent_core.files.trust.

Where requests go (provider, base URL), which folder tools may read (sandbox), the loop's limits and policies and
which tools run without asking are the viewer's own (trust.LEARNER_FIELDS); the shared run contributes its
conversation, task, model and built-in tools. Its other tool definitions wait for the viewer's review.
"""

from __future__ import annotations

import copy
import time
import uuid
from dataclasses import replace

from agent_core.files.trust import adopt_run
from agent_core.model import Run, RunConfig, ToolSpec

SHARED_VIEW = "shared"  # ?run=ID&view=shared opens the run read-only


def own_copy(shared: Run, mine: RunConfig) -> tuple[Run, list[ToolSpec]]:
    """A new run of the viewer's own (the shared run's turns so far, linked to it, on the viewer's settings), and
    the shared run's non-built-in tool definitions, left out until the viewer reviews them."""
    run = replace(
        copy.deepcopy(shared),
        id=uuid.uuid4().hex[:12],
        created_at=time.time(),
        parent_id=shared.id,
        parent_turn=len(shared.turns) + 1,  # as a fork: it keeps every turn before this one
    )
    adopted = adopt_run(run, mine)
    return run, adopted.unreviewed_tools
