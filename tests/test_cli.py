"""The command line: a two-tool task through the loop, printed turn by turn, with the whole record in --json."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_cli_run_prints_turns_and_writes_every_exchange(tmp_path):
    out = tmp_path / "run.json"
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "agent_core",
            "run",
            "What's the weather in Oslo, and what is 2 to the power of 16?",
            "--json",
            str(out),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    text = proc.stdout
    assert "Turn 1: stop_reason=tool_use" in text and "Turn 2: stop_reason=end_turn" in text
    assert 'get_weather({"city": "Oslo"})' in text and 'calculate({"expression": "2^16"}) -> 65536' in text
    final = text.split("Final answer:", 1)[1]
    assert "Oslo" in final and "65536" in final  # the answer quotes both results
    record = json.loads(out.read_text(encoding="utf-8"))
    turns = record["run"]["turns"]
    assert len(turns) == 2 and all(t["exchanges"] for t in turns)
    sent = json.loads(turns[1]["exchanges"][0]["request_body"]["text"])
    assert [b["type"] for b in sent["messages"][2]["content"]] == ["tool_result", "tool_result"]


def test_cli_reports_a_missing_key_plainly():
    env = {k: v for k, v in os.environ.items() if k != "ANTHROPIC_API_KEY"}
    proc = subprocess.run(
        [sys.executable, "-m", "agent_core", "run", "hi", "--provider", "anthropic"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert proc.returncode == 1
    assert "No API key" in proc.stdout and "Traceback" not in proc.stderr
