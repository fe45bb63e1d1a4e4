"""Live MCP: the bundled stdio server (official mcp SDK) started by the live client, its JSON-RPC kept; the MCP
quickstart's client loop against the offline model; the Lab's own loop calling MCP tools, with the JSON-RPC of
each call on its ToolExecution; and the Playground's button adding the server's tools."""

from __future__ import annotations

import anthropic
import httpx2
import pytest
from lab_app import LAB_KEY, click, open_page

from agent_core.files.export import export_json, import_json
from agent_core.loop.stepper import run_task
from agent_core.model import RunConfig, SimSettings, ToolSpec
from agent_core.sim import SimTransport
from agent_core.tools.mcp import MCP_PREFIX
from agent_core.tools.mcp_live import McpServer


@pytest.fixture(scope="module")
def server():
    live = McpServer().start()
    yield live
    live.close()


def test_the_bundled_server_lists_its_tools_and_every_message_is_kept(server):
    assert [t["name"] for t in server.tools()] == ["get_alerts", "get_forecast", "weather_current"]
    text, is_error, messages = server.call("get_alerts", {"state": "CA"})
    assert "Wind Advisory" in text and not is_error
    assert [(m.direction, m.method) for m in messages] == [("sent", "tools/call"), ("received", "result")]
    assert [m.method for m in server.exchanges[:4]] == [
        "initialize",
        "result",
        "notifications/initialized",
        "tools/list",
    ]


def test_the_mcp_quickstart_client_loop_against_the_offline_model(server):
    """The quickstart's process_query: one create, each tool_use run with session.call_tool, then the answer."""
    tools = [t for t in server.tools() if t["name"] in ("get_alerts", "get_forecast")]  # the quickstart server's two
    client = anthropic.Anthropic(
        api_key="k", base_url="http://sim.invalid", http_client=httpx2.Client(transport=SimTransport(SimSettings()))
    )
    messages: list = [{"role": "user", "content": "What are the active weather alerts in California?"}]
    response = client.messages.create(model="claude-sonnet-5-5", max_tokens=1000, messages=messages, tools=tools)
    final = []
    for content in response.content:
        if content.type == "text":
            final.append(content.text)
        elif content.type == "tool_use":
            assert (content.name, content.input) == ("get_alerts", {"state": "CA"})
            text, _, _ = server.call(content.name, content.input)
            messages += [
                {"role": "assistant", "content": response.content},
                {"role": "user", "content": [{"type": "tool_result", "tool_use_id": content.id, "content": text}]},
            ]
            answer = client.messages.create(model="claude-sonnet-5-5", max_tokens=1000, messages=messages, tools=tools)
            assert answer.stop_reason == "end_turn"
            final.append("".join(b.text for b in answer.content if b.type == "text"))
    # What the answer says of the alert is the brain's (planner, issue 23); the loop's part is done when it ends.
    assert final and final[-1].strip()


def test_the_labs_loop_runs_mcp_tools_and_keeps_their_json_rpc(server):
    specs = [
        ToolSpec(d["name"], d["description"], d["input_schema"], impl=MCP_PREFIX + d["name"]) for d in server.tools()
    ]
    run = run_task(RunConfig(task="Any weather alerts in NY?", tools=[s for s in specs if s.name != "weather_current"]))
    [call] = run.turns[0].tools
    assert (call.name, call.input, call.is_error) == ("get_alerts", {"state": "NY"}, False)
    assert "Winter Storm Watch" in call.output and run.stop.kind == "end_turn"
    methods = [m["message"].get("method") for m in call.mcp if m["direction"] == "sent"]
    assert methods == ["initialize", "notifications/initialized", "tools/list", "tools/call"]
    assert import_json(export_json(run)).turns[0].tools[0].mcp == call.mcp  # the schema carries it


def test_the_playground_adds_the_live_servers_tools(app_env):
    at = open_page()
    click(at, "cfg-mcp-add")
    tools = at.session_state[LAB_KEY].config.tools
    assert {(s.name, s.impl) for s in tools} >= {("get_alerts", "mcp:get_alerts"), ("get_forecast", "mcp:get_forecast")}
    at.run()
    assert "get_alerts" in at.get_by_key("cfg-tools").children[0].value
