"""Which settings the form and the run disagree on: before the first call the form is the run; after it, the stage
says what changed and that it applies from Reset (or a re-run from a turn)."""

from __future__ import annotations

import copy
from dataclasses import dataclass, fields, is_dataclass
from typing import Any

from agent_core.model import Phase, Run, RunConfig
from lab_ui.words.i18n import mark, t

# The settings the learner changes on the form, as the form names them (lower case: they sit inside a sentence).
# `language` is left out: it follows the tab's language, never a choice made on the form.
NAMES: dict[str, str] = {
    "task": mark("task"),
    "system": mark("system prompt"),
    "model": mark("model"),
    "provider": mark("provider"),
    "base_url": mark("base URL"),
    "tools": mark("tools"),
    "tool_choice": mark("tool_choice"),
    "max_tokens": mark("max_tokens"),
    "stop_sequences": mark("stop sequences"),
    "thinking_budget": mark("thinking budget"),
    "cache_prompt": mark("prompt caching"),
    "sandbox": mark("sandbox folder"),
    "context_policy": mark("context policy"),
    "keep_last_turns": mark("turns kept"),
    "workflow_steps": mark("workflow steps"),
    "bugs": mark("deliberate loop bugs"),
    "limits.max_steps": mark("max steps"),
    "limits.max_total_tokens": mark("token budget"),
    "limits.max_cost_usd": mark("cost budget"),
    "limits.timeout_s": mark("timeout"),
    "limits.tool_timeout_s": mark("tool timeout"),
    "limits.stop_on_repeated_call": mark("repeated-call stop"),
    "limits.max_tool_errors": mark("error budget"),
    "sim.persona": mark("simulated persona"),
    "sim.faults": mark("injected faults"),
    "sim.context_window": mark("simulated context window"),
    "sim.latency_ms": mark("simulated latency"),
    "sim.seed": mark("seed"),
    "sim.thinking": mark("simulated thinking"),
    "sim.lenient_headers": mark("lenient headers"),
}
NOT_SET = mark("off")
APPLIES = mark("applies when you press **Reset** (or re-run from a turn)")
MAX_QUOTE = 32  # characters of a changed text quoted on the stage


@dataclass(frozen=True)
class Change:
    """One setting the form has changed since the run started: its path and both values, as short text."""

    path: str
    ran: str
    form: str

    def words(self) -> str:
        return f"{t(NAMES.get(self.path, self.path))} {self.ran} → {self.form}"


def _flat(config: RunConfig) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for f in fields(config):
        value = getattr(config, f.name)
        if f.name == "language":
            continue
        if is_dataclass(value) and not isinstance(value, type):
            out |= {f"{f.name}.{g.name}": getattr(value, g.name) for g in fields(value)}
        elif f.name == "tools":
            out[f.name] = [(s.name, s.description, s.input_schema, s.impl_key, s.needs_approval, s.code) for s in value]
        else:
            out[f.name] = value
    return out


def _quote(path: str, value: Any) -> str:
    if value is None or value == [] or value is False:
        return t(NOT_SET)
    if value is True:
        return t("on")
    if path == "tools":
        return ", ".join(name for name, *_ in value) or t(NOT_SET)
    if path == "sim.faults":
        return str(len(value))
    text = value if isinstance(value, str) else str(value)
    return f"“{text[:MAX_QUOTE]}…”" if len(text) > MAX_QUOTE else (f"“{text}”" if isinstance(value, str) else text)


def changes(form: RunConfig, run: Run | None) -> list[Change]:
    """Every setting the form holds differently from the run that is on the stage (none without a run)."""
    if run is None:
        return []
    ran, now = _flat(run.config), _flat(form)
    return [
        Change(path, _quote(path, ran.get(path)), _quote(path, now[path])) for path in now if now[path] != ran.get(path)
    ]


def unstarted(run: Run | None) -> bool:
    """No call has gone out yet: the run may still take the form as it is (nothing it did would be lost)."""
    return run is not None and not run.turns and run.stop is None


def follow_form(lab: Any) -> bool:
    """Before the first call the form is the run: a run that has not called the model takes the form's settings.
    Keeps the run's id (its saved row and the URL stay the same). Returns whether it changed the run."""
    run = lab.run
    if lab.replay or not unstarted(run) or not changes(lab.config, run):
        return False
    fresh = Run(config=copy.deepcopy(lab.config), id=run.id, created_at=run.created_at, title=run.title)
    fresh.parent_id, fresh.parent_turn = run.parent_id, run.parent_turn
    fresh.phase = Phase.BUILD_REQUEST
    lab.run, lab._stepper, lab.last_phase = fresh, None, None
    return True


def sentence(found: list[Change]) -> str:
    """“Changed: max steps 10 → 5 · applies when you press Reset (or re-run from a turn)”."""
    return t("Changed: {changes} · {applies}", changes="; ".join(c.words() for c in found), applies=t(APPLIES))
