"""Agent Loop Lab's core: the run model, the loop, tools, providers and the simulated model (no Streamlit here)."""

from agent_core.model import (
    ApiError,
    Decision,
    Exchange,
    Limits,
    Run,
    RunConfig,
    SimSettings,
    StopCause,
    ToolExecution,
    ToolSpec,
    Turn,
    Usage,
)
from agent_core.vocab import Phase

__all__ = [
    "ApiError",
    "Decision",
    "Exchange",
    "Limits",
    "Phase",
    "Run",
    "RunConfig",
    "SimSettings",
    "StopCause",
    "ToolExecution",
    "ToolSpec",
    "Turn",
    "Usage",
]
