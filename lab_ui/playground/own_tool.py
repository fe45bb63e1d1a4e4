"""The tool editor's own-code part: a Python function for the tool, held to its schema at Apply (each mismatch
said in the learner's words), and a line that says where it runs, or on a class server why it does not."""

from __future__ import annotations

import streamlit as st

from agent_core.model import ToolSpec
from agent_core.tools.catalog import CATALOG
from agent_core.tools.own_code import (
    OWN_IMPL,
    TOOL_MEMORY_MB,
    Mismatch,
    OwnCode,
    check_source,
    mismatches,
    signature_of_builtin,
    starter,
)
from lab_ui.frame.untrusted import code_span, md
from lab_ui.serving import classroom
from lab_ui.words.i18n import mark, t

OWN_LABEL = mark("my own function (write it below)")
SENTENCES = {
    "syntax": mark("Your code has a syntax error on line {line}: {error}."),
    "no_function": mark("Your code defines no function: write one named {tool}."),
    "which_function": mark("Your code defines several functions ({functions}): name the tool's one {tool}."),
    "async_function": mark("{function} is `async`: write a plain `def`."),
    "positional_only": mark("{function} takes {param} only by position (before `/`): the model's input comes by name."),
    "extra_property": mark(
        "The schema has the property {property}, but {function} has no parameter of that name "
        "(its parameters: {params}): every call with it would fail."
    ),
    "missing_property": mark(
        "{function} needs {param}, which the schema does not have: add it to the schema's properties and "
        "`required`, or give {param} a default."
    ),
    "not_required": mark(
        "{function} needs {param}, but the schema does not list it in `required`: the model may leave it out. "
        "Add it to `required`, or give {param} a default."
    ),
}
WHERE = {
    OwnCode.RUN: mark(
        "Your function runs on this computer in a Python process of its own, stopped after {seconds} s of CPU "
        "(the tool timeout) or {mb} MB of memory; it cannot write files."
    ),
    OwnCode.CONFINED: mark(
        "Your teacher allows your own code in this class. It runs shut in on the server: no network, no files "
        "beyond Python's own, no other programs, stopped after {seconds} s of CPU or {mb} MB of memory."
    ),
}
CLASS_OFF = mark(
    "On a class server the lab runs a learner's own code only when the teacher allows it for the class: code "
    "from one learner must never run unguarded beside another's. Your teacher has not allowed it, so a tool "
    "here runs one of the app's built-in functions."
)
CANNOT_CONFINE = mark(
    "Your teacher allows your own code, but this server cannot shut code in (it needs Linux with Landlock, on "
    "x86_64), so it stays off: a tool here runs one of the app's built-in functions."
)
# Code reads as code: a fixed-width font, lines not wrapped (the editor scrolls sideways instead).
EDITOR_CSS = """<style>
.st-key-own-code-editor textarea {font-family: "Source Code Pro", ui-monospace, monospace;
  white-space: pre; overflow-x: auto; font-size: 0.85rem; tab-size: 4;}
</style>"""


def impl_options(spec: ToolSpec, policy: OwnCode) -> list[str]:
    """The functions a tool may run: the built-in ones, and the learner's own where it may run (or is already set)."""
    own = [OWN_IMPL] if policy != OwnCode.OFF or spec.impl_key == OWN_IMPL else []
    other = [spec.impl_key] if spec.impl_key not in CATALOG and spec.impl_key != OWN_IMPL else []  # an MCP tool's
    return own + list(CATALOG) + other


def impl_label(impl: str) -> str:
    return t(OWN_LABEL) if impl == OWN_IMPL else impl


def where_it_runs(policy: OwnCode, seconds: float | None) -> None:
    """One line under the picker: where the learner's function runs and its limits, or why it cannot run here."""
    if policy in WHERE:
        st.caption(":material/terminal: " + t(WHERE[policy], seconds=f"{seconds or 5:g}", mb=TOOL_MEMORY_MB))
    elif classroom.teacher_allows_own_code():
        st.info(t(CANNOT_CONFINE), icon=":material/lock:")
    else:
        st.info(t(CLASS_OFF), icon=":material/lock:")


def code_area(spec: ToolSpec) -> str:
    """The function's source, in a fixed-width editor (a first function from the schema when there is none)."""
    st.html(EDITOR_CSS)
    first = spec.code or starter(spec.name, spec.input_schema)
    return st.container(key="own-code-editor").text_area(t("Your function (Python)"), value=first, height=220)


def fit(name: str, schema: dict, impl: str, code: str) -> list[Mismatch]:
    """Where the chosen function and the schema disagree (the learner's code, or a built-in's signature)."""
    if impl == OWN_IMPL:
        return check_source(code, name, schema)
    tool = CATALOG.get(impl)
    return mismatches(signature_of_builtin(impl, tool.function), schema) if tool else []


def words(found: list[Mismatch]) -> str:
    """Mismatches as sentences, one per line (names as code, whatever characters a schema gave them)."""
    return "\n".join(f"- {t(SENTENCES[m.code], **_shown(m.values))}" for m in found)


def _shown(values: dict) -> dict[str, str]:
    out = {}
    for key, value in values.items():
        if key in ("params", "functions"):
            out[key] = ", ".join(code_span(v) for v in str(value).split(", "))
        elif key in ("error", "line"):
            out[key] = md(value)
        else:
            out[key] = code_span(value)
    return out
