"""The node clients of the matrix: the TypeScript SDK's tool loop, the Vercel AI SDK's generateText with tools,
and Claude Code's headless task. Each is skipped with the reason when node or its package is missing."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from python_clients import Skip
from tasks import right

ROOT = Path(__file__).resolve().parent.parent
TESTS_NODE = ROOT / "tests" / "node"
COMPAT_NODE = ROOT / "compat" / "node"
LIST_TASK = "list the files in this folder and tell me how many"


def _node() -> str:
    node = shutil.which("node")
    if not node:
        raise Skip("node is not installed")
    return node


def _run(script: str, folder: Path, url: str, base_suffix: str = "") -> str:
    if not (folder / "node_modules").is_dir():
        raise Skip(f"{folder.relative_to(ROOT)}/node_modules is missing (make compat installs it)")
    env = {**os.environ, "ANTHROPIC_BASE_URL": url + base_suffix, "ANTHROPIC_API_KEY": "k"}
    source = (ROOT / "compat" / script).read_text(encoding="utf-8")
    done = subprocess.run(
        [_node(), "--input-type=module", "-e", source], capture_output=True, text=True, env=env, timeout=180, cwd=folder
    )
    assert done.returncode == 0, done.stderr[-600:]
    answer = done.stdout.strip()
    assert right(answer), answer
    return answer.replace("\n", " ")[-60:]


def typescript_sdk(url: str) -> str:
    if not (TESTS_NODE / "node_modules" / "@anthropic-ai" / "sdk").exists():
        raise Skip("@anthropic-ai/sdk is not installed in tests/node")
    return _run("ts_client.mjs", TESTS_NODE, url)


def vercel_ai_sdk(url: str) -> str:
    if not (COMPAT_NODE / "node_modules" / "@ai-sdk" / "anthropic").exists():
        raise Skip("@ai-sdk/anthropic is not installed in compat/node (make compat)")
    return _run("vercel_client.mjs", COMPAT_NODE, url, "/v1")


def claude_code_binary() -> str | None:
    found = [*map(str, (TESTS_NODE / "node_modules" / "@anthropic-ai").glob("claude-code-*/claude"))]
    found += [os.environ.get("CLAUDE_CODE_BIN", ""), shutil.which("claude") or ""]
    return next((f for f in found if f and os.access(f, os.X_OK)), None)


def claude_code(url: str) -> str:
    binary = claude_code_binary()
    if binary is None:
        raise Skip("Claude Code is not installed (npm ci --prefix tests/node installs it)")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "work"
        (folder / "sub").mkdir(parents=True)
        for name in ("a.txt", "b.txt", "c.md"):
            (folder / name).write_text("x")
        env = {"PATH": os.environ.get("PATH", ""), "HOME": tmp, "ANTHROPIC_BASE_URL": url, "ANTHROPIC_API_KEY": "k"}
        done = subprocess.run(
            [binary, "-p", LIST_TASK], cwd=folder, env=env, capture_output=True, text=True, timeout=240
        )
    assert done.returncode == 0, (done.stdout + done.stderr)[-600:]
    assert "In all: 4 (files: 3, folders: 1)" in done.stdout, done.stdout[-600:]
    return done.stdout.strip().replace("\n", " ")[-60:]
