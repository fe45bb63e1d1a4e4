"""An exercise's unmet goal, told in the learner's language: one catalogue sentence per structured miss."""

from __future__ import annotations

from agent_core.teaching.lessons.goals import Miss
from lab_ui.words.i18n import mark, t

# One sentence per Miss code (agent_core.teaching.lessons.goals.MISS_CODES); API names stay as they are.
SENTENCES: dict[str, str] = {
    "stop": mark("The run stopped with {got}; this exercise needs {want}."),
    "stop_reason_unseen": mark("No reply ended with stop_reason {reason}."),
    "turns_too_few": mark("The run made {got} turns; it needs at least {want}."),
    "turns_too_many": mark("The run made {got} turns; it needs at most {want}."),
    "tool_not_called": mark("The tool {tool} was never called."),
    "tool_called": mark("The tool {tool} was called; this exercise needs a run without it."),
    "text_missing": mark("The final answer does not mention {text}."),
    "text_present": mark("The final answer still mentions {text}."),
    "cost_too_high": mark("The run cost ${got}; it must cost at most ${want}."),
    "cost_too_low": mark("The run cost ${got}; it must cost at least ${want}."),
    "tokens_too_many": mark("The run used {got} tokens; it must use at most {want}."),
    "status_unseen": mark("No HTTP attempt was answered with status {status}."),
    "tool_error_missing": mark("No tool result came back with is_error."),
    "tool_error_present": mark("A tool result came back with is_error."),
    "recovery_missing": mark("No failed tool later succeeded in a run that ended with end_turn."),
    "recovery_present": mark("A failed tool later succeeded: the model could correct itself."),
    "parallel_calls_missing": mark("No reply asked for two or more tools at once."),
    "parallel_calls_present": mark("A reply asked for two or more tools at once."),
    "cache_read_missing": mark("No turn read anything from the cache (cache_read_input_tokens stayed 0)."),
    "cache_read_present": mark("A turn read from the cache."),
    "context_drop_missing": mark("The input never got smaller from one turn to the next."),
    "context_drop_present": mark("The input got smaller from one turn to the next."),
    "approval_denied_missing": mark("No tool call was denied."),
    "approval_denied_present": mark("A tool call was denied."),
    "config_set": mark("{path} is not set."),
    "config_set_not": mark("{path} is set ({got}); this exercise needs it off."),
    "config_max": mark("{path} is {got}; this exercise asks for at most {want}."),
    "config_min": mark("{path} is {got}; this exercise asks for at least {want}."),
    "config_range": mark("{path} is {got}; this exercise asks for a number from {low} to {high}."),
    "config_equals": mark("{path} is {got}; this exercise asks for {want}."),
    "config_not_equals": mark("{path} is still {got}."),
    "config_changed": mark("You have not changed {path} yet: it is still the lesson's {got}."),
    "config_changed_not": mark("{path} was changed; this exercise keeps it as the lesson set it."),
    "config_one_of": mark("{path} is {got}; this exercise asks for one of: {want}."),
    "config_contains": mark("{path} does not contain {want} yet."),
    "config_not_contains": mark("{path} still contains {want}."),
    "config_describes_claims": mark("{path} does not say yet that the tool is for {concept}."),
    "config_describes_disclaims": mark("{path} does not say yet that the tool is not for {concept}."),
    "config_describes_not_claims": mark("{path} still says the tool is for {concept}."),
    "config_describes_sentences": mark("{path} has {got} full sentences; write at least {want}."),
    "one_failed_one_worked_missing": mark("No turn had one tool call fail and another succeed."),
    "one_failed_one_worked_present": mark("A turn had one tool call fail and another succeed."),
    "tool_input_missing": mark("No call of {tool} was made with {input}."),
    "argument_not_from": mark("{tool} was called with {field} = {got}, which does not come from {source}."),
}

# What a description is for, as the learner reads it (concepts of agent_core/sim/data/concepts.json).
CONCEPTS: dict[str, str] = {
    "weather": mark("the weather"),
    "user": mark("facts about the user"),
    "search": mark("searching"),
    "calculate": mark("arithmetic"),
    "file": mark("files"),
}

# Names of the settings an exercise checks, as the learner sees them; anything else is shown as its path.
SETTINGS: dict[str, str] = {
    "limits.max_steps": mark("Max steps"),
    "limits.max_cost_usd": mark("Cost budget, USD (0 = none)"),
    "limits.max_total_tokens": mark("Token budget (0 = none)"),
    "limits.timeout_s": mark("Timeout (seconds)"),
    "limits.stop_on_repeated_call": mark("Stop when the same call repeats N times (0 = off)"),
    "limits.max_tool_errors": mark("Error budget: stop after N tool errors (0 = off)"),
    "sim.context_window": mark("Simulated context window (0 = the model's)"),
    "sim.persona": mark("Simulated persona"),
    "sim.faults": mark("Inject faults"),
    "context_policy": mark("Context policy"),
    "tool_names": mark("Tools"),
    "task": mark("Task"),
    "system": mark("System prompt"),
    "stop_sequences": mark("Stop sequences (comma-separated)"),
    "cache_prompt": mark("Prompt caching (cache_control on system and tools)"),
    "bugs": mark("Deliberate loop bugs"),
    "workflow_steps": mark("Workflow steps (JSON; empty = agent mode)"),
}


NOT_SET = mark("not set")


def setting_name(path: str) -> str:
    """A config path as the learner knows it; a tool's field reads 'description of lookup'."""
    if path.startswith("tools.") and path.count(".") == 2:
        _, tool, field = path.split(".")
        return t("the {field} of {tool}", field=field, tool=tool)
    return t(SETTINGS[path]) if path in SETTINGS else path


def sentence(miss: Miss) -> str:
    """One miss as a sentence in the current language."""
    values = {k: (t(NOT_SET) if v is None else v) for k, v in miss.params.items()}  # "Max steps is not set"
    if "path" in values:
        values["path"] = setting_name(str(values["path"]))
    if "source" in values:
        values["source"] = setting_name(str(values["source"]))
    if "concept" in values and values["concept"] in CONCEPTS:
        values["concept"] = t(CONCEPTS[str(values["concept"])])
    template = SENTENCES.get(miss.kind)
    return t(template, **values) if template else miss.kind
