"""The loop's code in Python and TypeScript: the same phases lit on matching lines, and the TypeScript parses."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from lab_ui.playground import loop_code

NODE_DIR = Path(__file__).resolve().parent / "node"
# What each phase's lines must say in both languages (the SDK call, the stop check, the result blocks...).
PHASE_WORDS = {
    "build_request": ["MAX_STEPS", "max_tokens", "tools", "messages"],
    "call_model": ["messages.create"],
    "read_stop_reason": ["stop_reason", '"assistant"'],
    "run_tools": ["tool_use", "runTool|run_tool"],
    "append_results": ["tool_result", "tool_use_id", "is_error", '"user"'],
    "done": ["break"],
}


def phase_text(language: str, phase: str) -> str:
    return "\n".join(text for text, tags in loop_code.lines(language) if phase in tags)


@pytest.mark.parametrize("language", list(loop_code.SOURCES))
def test_each_phase_lights_the_lines_that_do_it(language):
    for phase, words in PHASE_WORDS.items():
        text = phase_text(language, phase)
        for word in words:
            assert any(w in text for w in word.split("|")), f"{language} {phase}: no {word!r} in\n{text}"


def test_both_languages_light_the_same_phases_in_the_same_order():
    def first_lines(language):
        order = []
        for _, tags in loop_code.lines(language):
            order += sorted(tag for tag in tags if tag not in order)
        return order

    assert first_lines("typescript") == first_lines("python")
    assert set(first_lines("python")) == set(PHASE_WORDS)


def test_tags_never_show_and_the_package_name_survives():
    code = loop_code.plain_code("typescript")
    assert 'from "@anthropic-ai/sdk"' in code
    assert "@build_request" not in code and "@done" not in code
    assert "@" not in loop_code.plain_code("python")


def test_the_highlight_and_arrow_follow_the_chosen_language():
    html = loop_code.render_html("call_model", "read_stop_reason", "typescript")
    assert "client.messages.create({" in html and "lab-done" in html and "➜" in html


def test_the_typescript_loop_parses():
    """esbuild (installed with the Node test client) strips the types; node --check then parses the module."""
    esbuild = NODE_DIR / "node_modules" / ".bin" / "esbuild"
    if not shutil.which("node") or not esbuild.exists():
        pytest.skip("node or tests/node/node_modules missing: run `npm ci --prefix tests/node`")
    js = subprocess.run(
        [str(esbuild), "--loader=ts", "--format=esm"],
        input=loop_code.plain_code("typescript"),
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout
    checked = subprocess.run(
        ["node", "--check", "--input-type=module"], input=js, capture_output=True, text=True, timeout=60
    )
    assert checked.returncode == 0, checked.stderr
