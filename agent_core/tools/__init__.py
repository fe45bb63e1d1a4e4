"""Tools the agent can call: the registry that checks and runs them, and the catalog of ready-made tools."""

from agent_core.tools.base import ToolContext, ToolFailure
from agent_core.tools.catalog import CATALOG, CatalogTool, default_specs, sandbox_path
from agent_core.tools.registry import ToolOutcome, ToolRegistry

__all__ = [
    "CATALOG",
    "CatalogTool",
    "ToolContext",
    "ToolFailure",
    "ToolOutcome",
    "ToolRegistry",
    "default_specs",
    "sandbox_path",
]
