"""What every catalog tool function receives besides its input, and how it reports an expected failure."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from agent_core.tools.sandbox import Sandbox


class ToolFailure(Exception):
    """An expected failure; its message is sent to the model verbatim as an is_error tool_result."""


@dataclass
class ToolContext:
    """The run's sandbox, which call of this tool this is (1-based, per run), and a stop signal set on timeout."""

    sandbox: Sandbox
    call_number: int = 1
    cancelled: threading.Event = field(default_factory=threading.Event)
