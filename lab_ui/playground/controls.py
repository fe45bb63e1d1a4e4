"""The Playground's controls: task, provider and model, system prompt, tools and their editor, limits, extras."""

from __future__ import annotations

import copy
import json
import re
from typing import Any

import jsonschema
import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from agent_core.lineup import lineup
from agent_core.model import MAX_STEPS_CEILING, RunConfig, ToolSpec
from agent_core.tools.catalog import CATALOG
from agent_core.tools.own_code import OWN_IMPL
from agent_core.vocab import ContextPolicy, LoopBug, Persona, Provider
from lab_ui.controller.session import LabSession
from lab_ui.playground import mcp as mcp_view
from lab_ui.playground import own_tool
from lab_ui.serving import classroom
from lab_ui.words.catalogue import provider_label
from lab_ui.words.i18n import t

FAULTS: dict[str, dict[str, Any]] = {
    "429 on turn 2": {"status": 429, "turn": 2, "retry_after": 0},
    "529 on turn 1": {"status": 529, "turn": 1},
    "500 on turn 2": {"status": 500, "turn": 2},
    "401 always": {"status": 401, "attempts": 99},
    "dropped connection on turn 1": {"kind": "drop", "turn": 1},
}
# The faults above fire once, so the SDK's own retries get past them; these outlast the retries and stop the run.
FAULTS |= {
    f"{status} on turn 2, every attempt": {
        "status": status,
        "turn": 2,
        "attempts": 99,
        **({"retry_after": 0} if status == 429 else {}),
    }
    for status in (400, 401, 403, 404, 413, 429, 500, 529)
}
FAULTS["dropped connection on turn 2, every attempt"] = {"kind": "drop", "turn": 2, "attempts": 99}
# Deeper schemas overflow the recursive schema checks here, in the tool registry and on the server.
MAX_SCHEMA_DEPTH = 32
_SURROGATE = re.compile("[\ud800-\udfff]")


def tool_from_editor(
    name: str, description: str, schema_text: str, impl: str, needs_approval: bool, code: str = ""
) -> ToolSpec:
    """Build a ToolSpec from the editor's fields; raises ValueError with a plain message, also when the function
    (the learner's own or a built-in one) cannot take what the schema lets the model send."""
    schema = _parse_schema(schema_text)
    if not isinstance(schema, dict) or schema.get("type") != "object":
        raise ValueError(t('input_schema must be a JSON object whose "type" is "object".'))
    if _depth(schema) > MAX_SCHEMA_DEPTH:
        raise ValueError(t("The schema is nested more than {n} levels deep; flatten it.", n=MAX_SCHEMA_DEPTH))
    if _SURROGATE.search(json.dumps(schema, ensure_ascii=False) + description):
        raise ValueError(
            t(
                "The schema or description holds a lone surrogate (half of an emoji, e.g. \\ud83d): "
                "it cannot be sent as UTF-8. Use the whole character."
            )
        )
    try:
        jsonschema.Draft202012Validator.check_schema(schema)
    except jsonschema.SchemaError as exc:
        raise ValueError(t("The schema is not a valid JSON Schema: {error}", error=exc.message)) from None
    if not re.fullmatch(r"[a-zA-Z0-9_-]{1,64}", name or ""):
        raise ValueError(t("A tool name must be 1–64 letters, digits, '_' or '-'."))
    if blocking := [m for m in own_tool.fit(name, schema, impl, code) if m.blocking]:
        raise ValueError(t("The function does not fit the schema:") + "\n\n" + own_tool.words(blocking))
    own = impl == OWN_IMPL
    return ToolSpec(name, description, schema, impl=impl, needs_approval=needs_approval, code=code if own else "")


def _parse_schema(text: str) -> object:
    try:
        return json.loads(text, parse_constant=_not_json, parse_float=_finite)
    except json.JSONDecodeError as exc:
        raise ValueError(
            t(
                "The schema is not valid JSON: {error} at line {line}, column {column}.",
                error=exc.msg,
                line=exc.lineno,
                column=exc.colno,
            )
        ) from None
    except RecursionError:
        raise ValueError(t("The schema is nested more than {n} levels deep; flatten it.", n=MAX_SCHEMA_DEPTH)) from None
    except ValueError as exc:  # NaN, Infinity, or a number too long to convert: the API would reject them too
        raise ValueError(t("The schema is not valid JSON: {error}.", error=exc)) from None


def _not_json(name: str) -> None:
    raise ValueError(f"{name} is not a JSON number")


def _finite(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise ValueError(f"{text[:20]} is too large for a JSON number")
    return value


def _depth(value: object) -> int:
    """Nesting depth of dicts and lists, without recursion (the input may be deep on purpose)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, (dict, list)):
            deepest = max(deepest, level)
            stack.extend((child, level + 1) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


def _keyed(name: str) -> DeltaGenerator:
    """A keyed container for one input, so tests find it by key (`st-key-cfg-NAME`), not by its label. The input
    itself stays keyless: with a key, Streamlit would keep its old value when the code sets a new one (a lesson's
    scenario, Reset, a run opened from the Runs page)."""
    return st.container(key=f"cfg-{name}")


def _model_and_provider(cfg: RunConfig) -> None:
    providers: list[Provider] = list(Provider)
    cfg.provider = st.selectbox(
        t("Provider"),
        providers,
        index=providers.index(cfg.provider),
        format_func={p: provider_label(p) for p in Provider}.__getitem__,  # worked out now, in this run's language
    )
    models = lineup().served_ids  # retired models are gone from the API, so from the picker too
    if cfg.provider == Provider.COMPATIBLE:
        cfg.base_url = st.text_input(t("Base URL"), value=cfg.base_url or "http://localhost:11434")
        cfg.model = st.text_input(t("Model"), value=cfg.model)
    else:
        cfg.base_url = None  # a base URL left from the compatible provider must not redirect Anthropic calls
        # A name typed on Settings (a dated id, a new release) stays chosen: dropping it would run another model.
        options = models if cfg.model in models else [cfg.model, *models]
        cfg.model = st.selectbox(t("Model"), options, index=options.index(cfg.model))


def _tool_picker(cfg: RunConfig) -> None:
    current = [t.name for t in cfg.tools]
    options = list(dict.fromkeys(list(CATALOG) + current))
    chosen = _keyed("tools").multiselect(
        t("Tools"),
        options,
        default=current,
        help=t("What the model sees of a tool: only its name, description and JSON Schema."),
    )
    by_name = {t.name: t for t in cfg.tools}
    cfg.tools = [by_name.get(n) or copy.deepcopy(CATALOG[n].spec) for n in chosen]


def _tool_editor(cfg: RunConfig) -> None:
    if not cfg.tools:
        return
    names = [t.name for t in cfg.tools]
    which = st.selectbox(t("Edit tool"), names)
    spec = cfg.tools[names.index(which)]
    policy = classroom.own_code()
    options = own_tool.impl_options(spec, policy)
    impl = _keyed("tool-impl").selectbox(  # outside the form: picking "my own function" shows its editor at once
        t("Runs the Python function"),
        options,
        index=options.index(spec.impl_key),
        format_func=own_tool.impl_label,
    )
    if impl == OWN_IMPL or OWN_IMPL not in options:
        own_tool.where_it_runs(policy, cfg.limits.tool_timeout_s)
    with st.form(f"tool-editor-{which}"):
        name = _keyed("tool-name").text_input(t("Name"), value=spec.name)
        description = _keyed("tool-description").text_area(t("Description"), value=spec.description, height=110)
        schema = _keyed("tool-schema").text_area(
            "JSON Schema", value=json.dumps(spec.input_schema, indent=2), height=180
        )
        code = own_tool.code_area(spec) if impl == OWN_IMPL else ""
        approval = st.checkbox(t("Ask me before running it"), value=spec.needs_approval)
        if st.form_submit_button(t("Apply tool changes"), key="cfg-tool-apply"):
            try:
                fresh = tool_from_editor(name, description, schema, impl, approval, code)
            except ValueError as exc:
                st.error(str(exc))
            else:
                cfg.tools[names.index(which)] = fresh
                st.success(t("Tool updated. It takes effect on the next run (Reset) or a re-run."))
                if warnings := [m for m in own_tool.fit(fresh.name, fresh.input_schema, impl, code) if not m.blocking]:
                    st.warning(own_tool.words(warnings))


def _limits(cfg: RunConfig) -> None:
    limits = cfg.limits
    no_limit = _keyed("no-step-limit").checkbox(
        t("No step limit"),
        value=limits.max_steps is None,
        help=t("Even with no limit, the app stops at a hard ceiling of {n} steps.", n=MAX_STEPS_CEILING),
    )
    if no_limit:
        limits.max_steps = None
        st.caption(
            ":material/warning: "
            + t("No step limit: only the hard ceiling of {n} steps will stop a runaway loop.", n=MAX_STEPS_CEILING)
        )
    else:
        steps = _keyed("max-steps").number_input(t("Max steps"), 1, MAX_STEPS_CEILING, value=limits.max_steps or 10)
        limits.max_steps = int(steps)
    tokens = st.number_input(t("Token budget (0 = none)"), 0, 10_000_000, value=limits.max_total_tokens or 0, step=1000)
    limits.max_total_tokens = int(tokens) or None
    cost = st.number_input(
        t("Cost budget, USD (0 = none)"), 0.0, 100.0, value=float(limits.max_cost_usd or 0.0), step=0.01, format="%.4f"
    )
    limits.max_cost_usd = float(cost) or None
    repeat = st.number_input(
        t("Stop when the same call repeats N times (0 = off)"), 0, 50, value=limits.stop_on_repeated_call or 0
    )
    limits.stop_on_repeated_call = int(repeat) or None
    errors = st.number_input(
        t("Error budget: stop after N tool errors (0 = off)"), 0, 100, value=limits.max_tool_errors or 0
    )
    limits.max_tool_errors = int(errors) or None


def _tool_choice(cfg: RunConfig) -> None:
    options = {
        "auto": None,
        "any": {"type": "any"},
        "none": {"type": "none"},
        "auto, no parallel calls": {"type": "auto", "disable_parallel_tool_use": True},
    }
    options |= {f"tool: {t.name}": {"type": "tool", "name": t.name} for t in cfg.tools if not t.server_type}
    labels = list(options)
    current = next((k for k, v in options.items() if v == (cfg.tool_choice or None)), "auto")
    cfg.tool_choice = options[_keyed("tool-choice").selectbox("tool_choice", labels, index=labels.index(current))]


def _context(cfg: RunConfig) -> None:
    policies: list[ContextPolicy] = list(ContextPolicy)
    cfg.context_policy = _keyed("context-policy").selectbox(
        t("Context policy"), policies, index=policies.index(cfg.context_policy)
    )
    if cfg.context_policy != ContextPolicy.NONE:
        cfg.keep_last_turns = int(
            _keyed("keep-last").number_input(t("Keep the last N turns as they are"), 0, 50, value=cfg.keep_last_turns)
        )


def workflow_from_text(text: str, tool_names: list[str]) -> list[dict]:
    """Parse the workflow editor: a JSON list of {"tool": name, "input": {...}}; raises ValueError in plain words."""
    if not text.strip():
        return []
    try:
        steps = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(
            t(
                "Workflow steps are not valid JSON: {error} at line {line}, column {column}.",
                error=exc.msg,
                line=exc.lineno,
                column=exc.colno,
            )
        ) from None
    if not isinstance(steps, list) or not all(isinstance(x, dict) and isinstance(x.get("tool"), str) for x in steps):
        raise ValueError(t('Workflow steps must be a list like [{"tool": "get_weather", "input": {"city": "Oslo"}}].'))
    unknown = [x["tool"] for x in steps if x["tool"] not in tool_names]
    if unknown:
        raise ValueError(
            t(
                "Workflow step names a tool that is not picked: {tool}. Picked: {picked}.",
                tool=unknown[0],
                picked=", ".join(tool_names),
            )
        )
    return [{"tool": x["tool"], "input": x.get("input", {})} for x in steps]


def _workflow(cfg: RunConfig) -> None:
    text = _keyed("workflow").text_area(
        t("Workflow steps (JSON; empty = agent mode)"),
        height=100,
        value=json.dumps(cfg.workflow_steps, ensure_ascii=False) if cfg.workflow_steps else "",
        help=t(
            "The program runs these tools itself, then asks the model ONCE, e.g. "
            '[{"tool": "get_weather", "input": {"city": "Oslo"}}]'
        ),
    )
    try:
        cfg.workflow_steps = workflow_from_text(text, [t.name for t in cfg.tools])
    except ValueError as exc:
        st.error(str(exc))


def fault_label(name: str) -> str:
    """A FAULTS entry in the tab's language (the English label is the entry's key)."""
    fault = FAULTS[name]
    what = t("dropped connection") if fault.get("kind") == "drop" else str(fault["status"])
    if "turn" not in fault:
        return t("{fault} always", fault=what)
    if fault.get("attempts", 1) > 1:
        return t("{fault} on turn {n}, every attempt", fault=what, n=fault["turn"])
    return t("{fault} on turn {n}", fault=what, n=fault["turn"])


def _extras(cfg: RunConfig) -> None:
    cfg.max_tokens = int(st.number_input("max_tokens", 1, 128_000, value=cfg.max_tokens))
    _tool_choice(cfg)
    cfg.cache_prompt = st.toggle(t("Prompt caching (cache_control on system and tools)"), value=cfg.cache_prompt)
    _context(cfg)
    stops = st.text_input(t("Stop sequences (comma-separated)"), value=", ".join(cfg.stop_sequences))
    cfg.stop_sequences = [s.strip() for s in stops.split(",") if s.strip()]
    _workflow(cfg)
    cfg.bugs = st.multiselect(t("Deliberate loop bugs"), list(LoopBug), default=cfg.bugs)
    if cfg.provider == Provider.OFFLINE:
        sim = cfg.sim
        personas: list[Persona] = list(Persona)
        sim.persona = st.selectbox(t("Simulated persona"), personas, index=personas.index(sim.persona))
        window = st.number_input(
            t("Simulated context window (0 = the model's)"), 0, 1_000_000, value=sim.context_window or 0, step=500
        )
        sim.context_window = int(window) or None
        picked = _keyed("faults").multiselect(
            t("Inject faults"),
            list(FAULTS),
            format_func={k: fault_label(k) for k in FAULTS}.__getitem__,
            default=[k for k, v in FAULTS.items() if v in sim.faults],
        )
        sim.faults = [copy.deepcopy(FAULTS[k]) for k in picked]  # never share the module's dicts between tabs


def render(lab: LabSession) -> None:
    """Edit the draft config; it applies to the next run (Reset) or a re-run from a turn."""
    cfg = lab.config
    cfg.task = _keyed("task").text_area(t("Task"), value=cfg.task, height=90, max_chars=1_000_000)
    with st.expander(t("Model and provider"), expanded=False):
        _model_and_provider(cfg)
    with st.expander(t("System prompt"), expanded=False):
        cfg.system = st.text_area(t("System prompt"), value=cfg.system, height=120, label_visibility="collapsed")
    with st.expander(t("Tools"), expanded=False, key="cfg-tools-panel"):
        _tool_picker(cfg)
        mcp_view.render(cfg)
        _tool_editor(cfg)
    with st.expander(t("Limits"), expanded=False, key="cfg-limits-panel"):
        _limits(cfg)
    with st.expander(
        t("More: tool_choice, caching, context, workflow, bugs, faults"), expanded=False, key="cfg-more-panel"
    ):
        _extras(cfg)
