"""What every catalog tool function receives besides its input, and how it reports an expected failure."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from agent_core.tools.sandbox import Sandbox


class ToolFailure(Exception):
    """An expected failure; its message is sent to the model verbatim as an is_error tool_result."""


@dataclass
class ToolContext:
    """The run's sandbox, which call of this tool this is (1-based, per run), a stop signal set on timeout, and the
    learner's language (en, ru, pl), in which the built-in tools answer."""

    sandbox: Sandbox
    call_number: int = 1
    cancelled: threading.Event = field(default_factory=threading.Event)
    language: str = "en"
