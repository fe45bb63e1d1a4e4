"""An MCP server's tools/list result turned into Messages API tool definitions (no live server: the listing is data)."""

from __future__ import annotations

from typing import Any


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
