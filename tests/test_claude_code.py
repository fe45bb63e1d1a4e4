"""Claude Code against the offline server: its headless task "list the files in this folder and tell me how many".

Claude Code 2.1 gives the model no list tool, only a shell (Bash) among Read, Edit, Write, Agent, Skill...; it
sends mid-conversation system messages and <system-reminder> context, and probes HEAD /api/hello first. The first
test sends that shape (tools paraphrased here, same names and parameters); the last runs the real CLI, which
`make test` installs from npm with tests/node's package.json, recording it; it is skipped with the reason only where
node is absent."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import anthropic
import pytest

from agent_core.model import SimSettings
from agent_core.recorder import start_recorder
from agent_core.sim import SimHandler, start_server
from agent_core.storage.store import RunStore

ROOT = Path(__file__).resolve().parent.parent
TASK = "list the files in this folder and tell me how many"


def _tool(name: str, text: str, **props: dict) -> dict:
    return {"name": name, "description": text, "input_schema": {"type": "object", "properties": props}}


TOOLS = [
    _tool(
        "Agent",
        "Launch a new agent to handle complex, multi-step tasks. Use it to search code and files across many "
        "folders, list files matching a naming convention, and research questions.",
        description={"type": "string"},
        prompt={"type": "string"},
    ),
    _tool(
        "Bash",
        "Executes a given bash command and returns its output. Use it for terminal operations like git, npm and "
        "listing folders.",
        command={"type": "string", "description": "The command to execute"},
        timeout={"type": "number"},
        description={"type": "string", "description": "What the command does, e.g. 'List files in current directory'"},
    ),
    _tool("Read", "Reads a file from the local filesystem.", file_path={"type": "string"}),
    _tool("Write", "Writes a file to the local filesystem.", file_path={"type": "string"}, content={"type": "string"}),
    _tool(
        "Skill",
        "Run a skill. Available skills help with files, lists of files, memory files and folders; use a skill "
        "whenever the task matches one.",
        skill={"type": "string"},
    ),
]
REMINDER = "<system-reminder>\nToday's date is 2026-12-01. Skills are listed below; use them for file tasks.\n</system-reminder>"


@pytest.fixture(scope="module")
def client():
    handler = SimHandler(SimSettings())
    server, url = start_server(handler.settings, handler=handler)
    yield anthropic.Anthropic(api_key="k", base_url=url, max_retries=0)
    server.shutdown()


def test_the_listing_goes_to_bash_as_ls_and_the_answer_counts(client):
    messages: list = [
        {"role": "user", "content": [{"type": "text", "text": REMINDER}, {"type": "text", "text": TASK}]},
        {"role": "system", "content": "Available agent types for the Agent tool: Explore (searches files)."},
    ]
    kwargs = dict(
        model="claude-opus-5-5",
        max_tokens=4000,
        system=[{"type": "text", "text": "You are Claude Code. Use the Skill tool when a skill matches."}],
        tools=TOOLS,
        thinking={"type": "adaptive", "display": "omitted"},
    )
    first = client.messages.create(messages=messages, **kwargs)
    calls = [b for b in first.content if b.type == "tool_use"]
    assert [(c.name, c.input) for c in calls] == [("Bash", {"command": "ls -p"})]
    messages += [
        {"role": "assistant", "content": first.content},
        {
            "role": "user",
            "content": [{"type": "tool_result", "tool_use_id": calls[0].id, "content": "a.txt\nb.txt\nc.md\nsub/"}],
        },
    ]
    final = client.messages.create(messages=messages, **kwargs)
    text = "".join(b.text for b in final.content if b.type == "text")
    assert final.stop_reason == "end_turn"
    assert "a.txt, b.txt, c.md, sub/" in text and "In all: 4 (files: 3, folders: 1)" in text


def test_a_dedicated_list_tool_still_wins_over_the_shell(client):
    listing = _tool("list_directory", "Lists the files in a directory.", path={"type": "string"})
    reply = client.messages.create(
        model="claude-sonnet-5-5",
        max_tokens=1000,
        tools=[TOOLS[1], listing],
        messages=[{"role": "user", "content": TASK}],
    )
    assert [b.name for b in reply.content if b.type == "tool_use"] == ["list_directory"]


def claude_binary() -> str | None:
    """The real CLI: $CLAUDE_CODE_BIN, tests/node's install (npm ci), or `claude` on PATH."""
    candidates = [
        os.environ.get("CLAUDE_CODE_BIN", ""),
        *map(str, (ROOT / "tests" / "node" / "node_modules" / "@anthropic-ai").glob("claude-code-*/claude")),
        shutil.which("claude") or "",
    ]
    return next((c for c in candidates if c and os.access(c, os.X_OK)), None)


def test_the_real_claude_code_cli_lists_and_counts(tmp_path):
    if shutil.which("node") is None or shutil.which("npm") is None:
        pytest.skip("node/npm is not installed here, so Claude Code's CLI cannot be installed from npm")
    binary = claude_binary()
    # With node here, `make test` has run `npm ci --prefix tests/node`, which installs the CLI: a missing one is a
    # broken setup, not a reason to pass quietly.
    assert binary is not None, "Claude Code's CLI is missing: run `npm ci --prefix tests/node` (make test does)"
    folder = tmp_path / "work"
    (folder / "sub").mkdir(parents=True)
    for name in ("a.txt", "b.txt", "c.md"):
        (folder / name).write_text("x")
    with RunStore(tmp_path / "runs.db") as store:
        server, url, recorder = start_recorder(save=store.save_turn)
        try:
            env = {
                "PATH": os.environ.get("PATH", ""),
                "HOME": str(tmp_path / "home"),
                "ANTHROPIC_BASE_URL": url,
                "ANTHROPIC_API_KEY": "offline-key",
                "DISABLE_AUTOUPDATER": "1",
            }
            done = subprocess.run(
                [binary, "-p", TASK], cwd=folder, env=env, capture_output=True, text=True, timeout=240
            )
        finally:
            server.shutdown()
            recorder.close()
        assert done.returncode == 0, (done.stdout + done.stderr)[-1500:]
        assert "In all: 4 (files: 3, folders: 1)" in done.stdout, done.stdout[-1500:]
        runs = [store.load(s.id) for s in store.list_runs() if s.recorded]
        main = next(r for r in runs if r.config.task == TASK and len(r.turns) >= 2)
        assert main.origin["client"].startswith("Claude Code")
        assert [(t.name, t.input.get("command")) for t in main.turns[0].tools] == [("Bash", "ls -p")]
        assert json.loads(main.turns[0].exchanges[0].request_body)["messages"][0]["role"] == "user"
        # Its reachability probe (2.1.197: HEAD /, 2.1.332: HEAD /api/hello) was answered, not a 501.
        assert any(c.method == "HEAD" and c.status == 200 for c in recorder.calls)
