"""The loop's code in Python and TypeScript: the same phases lit on matching lines, and the TypeScript parses."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from lab_ui.playground import loop_code
from lab_ui.playground.stage import FINAL_KINDS

NODE_DIR = Path(__file__).resolve().parent / "node"
# What each phase's lines must say in both languages (the SDK call, the stop check, the result blocks...).
PHASE_WORDS = {
    "build_request": ["MAX_STEPS", "max_tokens", "tools", "messages"],
    "call_model": ["messages.create"],
    "read_stop_reason": ["stop_reason", '"assistant"'],
    "run_tools": ["tool_use", "runTool|run_tool"],
    "append_results": ["tool_result", "tool_use_id", "is_error", '"user"'],
    "done": ["break", "print|console.log"],
    "unknown_stop": ["unexpected stop_reason"],
    "out_of_steps": ["print|console.log"],
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


@pytest.mark.parametrize("language", list(loop_code.SOURCES))
@pytest.mark.parametrize(
    ("kind", "lit", "dark"),
    [
        ("end_turn", ["break", "print|console.log"], ["unexpected stop_reason"]),
        (None, ["break", "print|console.log"], ["unexpected stop_reason"]),
        ("unknown_stop_reason", ["unexpected stop_reason"], ["break", "print|console.log"]),
        ("step_limit", ["print|console.log"], ["break", "unexpected stop_reason"]),
    ],
)
def test_a_stopped_run_lights_the_exit_it_took_not_every_exit(language, kind, lit, dark):
    """At end_turn the raise line was lit with break and print, as if the code had done all three."""
    html = loop_code.render_html(loop_code.exit_tag(kind, FINAL_KINDS), None, language)
    shown = "\n".join(line for line in html.split("</div>") if "lab-done" in line)
    for words in lit:
        assert any(w in shown for w in words.split("|")), f"{kind}: {words} not lit in\n{shown}"
    for words in dark:
        assert not any(w in shown for w in words.split("|")), f"{kind}: {words} lit in\n{shown}"


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


@pytest.mark.parametrize("lang", ["ru", "pl"])
@pytest.mark.parametrize("language", list(loop_code.SOURCES))
def test_the_comments_are_in_the_learners_language_and_the_code_is_not(language, lang):
    """The panel's comments ("the WHOLE history", "one API call") were English on a Russian or Polish page."""
    html = loop_code.render_html("build_request", "call_model", language, lang)
    english = [comment for comment in loop_code.comments() if comment in html and "," not in comment]
    assert not english, f"{lang}: English comments left: {english}"
    assert {"ru": "ВСЯ история", "pl": "CAŁA historia"}[lang] in html
    assert "messages.create" in html and "stop_reason" in html  # the SDK's names stay
    assert len(loop_code.comments()) >= 8  # the collector found the comments at all
