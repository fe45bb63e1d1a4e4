"""The Playground's live MCP switch: the bundled MCP server's tools, listed live, added to the run's tools."""

from __future__ import annotations

import streamlit as st

from agent_core.model import RunConfig, ToolSpec
from agent_core.tools.mcp import MCP_PREFIX
from agent_core.tools.mcp_live import McpServer
from lab_ui.words.i18n import t


def live_tools() -> list[ToolSpec]:
    """The bundled server's tools as tools/list gives them, each run by tools/call on a live server."""
    server = McpServer().start()
    try:
        return [
            ToolSpec(d["name"], d["description"], d["input_schema"], impl=MCP_PREFIX + d["name"])
            for d in server.tools()
        ]
    finally:
        server.close()


def render(cfg: RunConfig) -> None:
    """A button that starts the bundled MCP server and adds its tools; each call then goes over JSON-RPC."""
    if not st.button(
        t("Add the bundled MCP server's tools (live)"),
        key="cfg-mcp-add",
        help=t(
            "Starts the bundled MCP weather server (stdio, the official MCP SDK), asks it tools/list and adds its "
            "tools. Each call runs tools/call on it; the turn's Tools tab shows the JSON-RPC beside the API calls."
        ),
    ):
        return
    try:
        found = live_tools()
    except RuntimeError as exc:
        st.error(t("The MCP server did not start: {error}", error=exc))
        return
    have = {spec.name for spec in cfg.tools}
    cfg.tools += [spec for spec in found if spec.name not in have]
    st.success(t("Added {tools} from the MCP server's tools/list.", tools=", ".join(s.name for s in found)))
