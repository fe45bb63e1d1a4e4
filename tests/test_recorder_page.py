"""The recorder on the Runs page (AppTest): the switch starts a recording server for this tab, a program's loop
sent to it appears as a run recorded from a program, opens read-only with its origin, and Make my copy goes on
from it in the Lab's own loop."""

from __future__ import annotations

import socket

import anthropic
from lab_app import LAB_KEY, PLAYGROUND, click, ok, open_page, texts, widget

from agent_core.storage.store import RunStore
from lab_ui.runs import recorder as recorder_view

WEATHER = {
    "name": "get_weather",
    "description": "Current weather in a city. Use it for any weather question.",
    "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def program(url: str) -> None:
    """Someone else's program: a plain anthropic-SDK tool loop."""
    client = anthropic.Anthropic(api_key="their-key", base_url=url, max_retries=0)
    messages: list = [{"role": "user", "content": "What's the weather in Oslo?"}]
    while True:
        reply = client.messages.create(model="claude-sonnet-5-5", max_tokens=800, tools=[WEATHER], messages=messages)
        messages.append({"role": "assistant", "content": reply.content})
        if reply.stop_reason != "tool_use":
            return
        calls = [b for b in reply.content if b.type == "tool_use"]
        messages.append(
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": c.id, "content": "4°C"} for c in calls]}
        )


def test_record_a_program_then_open_it_and_make_a_copy(app_env):
    at = open_page("pages/runs.py")
    widget(at, "recorder:port").set_value(free_port()).run()
    click(at, "recorder:start")
    held = at.session_state[recorder_view.RUNNING_KEY]
    try:
        assert held.url in texts(at.success) and f"ANTHROPIC_BASE_URL={held.url}" in texts(at.code)
        program(held.url)
        at.run()
        ok(at)
        table = at.get_by_key("runs:table").value
        assert len(table) == 1 and table["from"][0].startswith("recorded from a program: Anthropic Python SDK")
        assert table["turns"][0] == 2
        assert "recorded from a program" in widget(at, "runs:picked").format_func(table["run"][0])
        click(at, "runs:replay")
        at.switch_page(PLAYGROUND).run()
        ok(at)
        assert "Recorded from a program: **Anthropic Python SDK" in texts(at.info)
        assert at.session_state[LAB_KEY].replay
        at.switch_page("pages/runs.py").run()
        click(at, "runs:copy")
        lab = at.session_state[LAB_KEY]
        assert not lab.replay and lab.run.origin is None and lab.run.parent_id == table["run"][0]
        at.switch_page("pages/runs.py").run()
        click(at, "recorder:stop")
        assert recorder_view.RUNNING_KEY not in at.session_state
    finally:
        held.stop()
    with RunStore(app_env) as store:
        assert sum(s.recorded for s in store.list_runs()) == 1
