"""The words for agent_core.teaching.learn's structured facts, in the learner's language (codes -> catalogue sentences)."""

from __future__ import annotations

from agent_core.model import ApiError
from agent_core.teaching.learn.facts import Fact
from lab_ui.frame.untrusted import md
from lab_ui.words.catalogue import error_markdown
from lab_ui.words.i18n import mark, t

TEXTS = {
    # predict, then reveal
    "call_failed": mark("The call failed, so there is nothing to score: {message}"),
    "stop_tool_use": mark("The reply ended with tool_use block(s) asking for {tools}, so stop_reason is tool_use."),
    "stop_end_turn": mark("The model answered in text and asked for no tool, so stop_reason is end_turn."),
    "stop_max_tokens": mark(
        "The reply reached max_tokens ({max_tokens}) and was cut off, so stop_reason is max_tokens."
    ),
    "stop_other": mark("stop_reason was {reason}; see the stop reasons table in the lessons."),
    "tool_called": mark("The model called {tools}: the tool whose description fits the question best."),
    "tool_none": mark("No tool was called: the model had everything it needed to answer."),
    "appended_reply_and_results": mark(
        "The loop appended the reply (role assistant), then ONE user message with {n} tool_result block(s)."
    ),
    "appended_reply_only": mark(
        "The loop appended only the reply: with stop_reason {reason} there were no tools to run."
    ),
    "appended_nothing": mark("Nothing was appended: this loop forgets the reply, so the model never sees it."),
    "appended_something_else": mark("The history changed in another way (a context policy rewrote it)."),
    # you are the model
    "input_not_json": mark("Tool call {n}: the input is not valid JSON ({error})."),
    "reply_not_json": mark("The reply is not valid JSON: {error}"),
    "bad_stop_reason": mark("stop_reason {got} is not one a reply can have here; use one of: {allowed}."),
    "reply_empty": mark("A reply needs at least one content block."),
    "block_type": mark("Block {n} has type {got}; a reply holds blocks of type {allowed}."),
    "text_missing": mark("Block {n} is a text block without a text string."),
    "name_missing": mark("Block {n} is a tool_use without a tool name."),
    "input_not_object": mark("Block {n}: a tool_use input must be a JSON object."),
    # you are the loop
    "result_swapped": mark(
        "The API accepted it, but the result under {id} (a {tool} call) is the output of {other}: "
        "the model now believes the wrong thing."
    ),
    "result_changed": mark("The API accepted it, but the result under {id} is not what {tool} returned."),
    "is_error_wrong": mark("is_error for {id} ({tool}) should be {expected}: the model reads it to decide what to do."),
    # order the loop's lines
    "order_incomplete": mark("Put all {n} lines in order, each once."),
    "order_init": mark("The history starts with the task before the loop begins."),
    "order_loop": mark("Everything after the first line repeats: the loop comes second."),
    "order_call": mark("Each turn starts by sending the whole history to the model."),
    "order_keep": mark("The reply goes into the history right after the call, so the next request carries it."),
    "order_stop": mark("Check stop_reason before running tools: without tool_use there is nothing to run."),
    "order_run": mark("Run every tool the reply asked for before sending anything back."),
    "order_send": mark("All the results go back in ONE user message, after the assistant's reply."),
    # write a tool
    "tool_name_ok": mark("The name {name} uses only letters, digits, _ and - (at most 64)."),
    "tool_picked": mark("Asked the target question, the simulated model called {picked} (wanted: {name})."),
    "schema_not_json": mark("The schema is not valid JSON: {error}"),
    "schema_invalid": mark("The schema is not a valid JSON Schema: {error}"),
    "schema_object": mark('The schema\'s "type" is "object".'),
    "schema_has_params": mark("The schema names at least one parameter under properties."),
    "schema_required_known": mark("Every required parameter is defined."),
    "schema_required_known_missing": mark("Every required parameter is defined (missing: {missing})."),
    "schema_params_described": mark("Every parameter has a description."),
    "schema_params_described_missing": mark("Every parameter has a description (missing: {missing})."),
    "desc_long_enough": mark("The description has at least {n} words (it has {words})."),
    "desc_says_when": mark("The description says when to use the tool."),
    "desc_names_params": mark("The description names each parameter."),
    "desc_names_params_missing": mark("The description names each parameter (missing: {missing})."),
    # fill a tool_result
    "fill_not_json": mark("That is not valid JSON: {error}"),
    "fill_no_result": mark("The message holds no tool_result block."),
    "fill_id_ok": mark("tool_use_id is {id}, the id of the tool_use it answers."),
    "fill_content_ok": mark("content is exactly what the tool returned."),
    "fill_is_error_ok": mark("is_error is true: the tool failed, and the model should know."),
    "fill_id_wrong": mark("tool_use_id must be {id}, the id of the tool_use it answers."),
    "fill_content_wrong": mark("content must be exactly what the tool returned."),
    "fill_is_error_missing": mark('is_error is missing or not true: the tool failed, so set "is_error": true.'),
}


def say(item: Fact) -> str:
    """One fact in the learner's language."""
    # Values quote what the learner typed, tool output and server messages: shown as text, never as markup. A
    # failed call is its facts, worded here in the learner's language.
    return t(
        TEXTS[item.kind], **{k: error_markdown(v) if isinstance(v, ApiError) else md(v) for k, v in item.params.items()}
    )
