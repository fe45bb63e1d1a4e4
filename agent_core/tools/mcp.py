"""An MCP server's tools/list result turned into Messages API tool definitions (no live server: the listing is data)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

# A ToolSpec whose impl is "mcp:<tool>" runs on the live MCP server (agent_core/tools/mcp_live.py).
MCP_PREFIX = "mcp:"


def tools_from_mcp(listing: dict[str, Any]) -> list[dict[str, Any]]:
    """Each MCP tool ({name, description, inputSchema}) as a tool for the `tools` list ({name, description,
    input_schema}); the model sees no difference between these and hand-written tools."""
    tools = listing.get("result", listing).get("tools", [])
    return [
        {
            "name": tool["name"],
            "description": tool.get("description", ""),
            "input_schema": tool.get("inputSchema") or {"type": "object", "properties": {}},
        }
        for tool in tools
    ]


def listed_tool(listing_file: Path, name: str) -> dict[str, Any]:
    """Tool `name` of an MCP server's tools/list answer kept as a file, as a tool definition (KeyError: not listed)."""
    listing = json.loads(listing_file.read_text(encoding="utf-8"))
    for tool in tools_from_mcp(listing):
        if tool["name"] == name:
            return tool
    raise KeyError(f"{listing_file.name} lists no tool {name!r}")
