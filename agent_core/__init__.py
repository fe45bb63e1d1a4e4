"""Agent Loop Lab's core: the run model, the loop, tools, providers and the simulated model (no Streamlit here)."""

from agent_core.model import (
    ApiError,
    Decision,
    Exchange,
    Limits,
    Phase,
    Run,
    RunConfig,
    SimSettings,
    StopCause,
    ToolExecution,
    ToolSpec,
    Turn,
    Usage,
)

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
