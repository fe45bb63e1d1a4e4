"""The tool registry: look a tool up by the name the model used, check its input, run it with a timeout."""

from __future__ import annotations

import json
import logging
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agent_core.files.trust import builtin_needs_approval
from agent_core.model import ToolSpec
from agent_core.serving.mode import is_class_server
from agent_core.tools.base import ToolContext, ToolFailure
from agent_core.tools.catalog import CATALOG
from agent_core.tools.mcp import MCP_PREFIX
from agent_core.tools.own_code import (
    OWN_IMPL,
    CodeProblem,
    OwnCode,
    Signature,
    run_tool,
    signature_of,
    signature_of_builtin,
)
from agent_core.tools.sandbox import Sandbox
from agent_core.tools.texts import message_of, render, said

log = logging.getLogger(__name__)


@dataclass
class ToolOutcome:
    """What one tool call produced: the tool_result text, whether it failed, and how long it took."""

    output: str
    is_error: bool
    duration_ms: float
    mcp: list[dict[str, Any]] = field(default_factory=list)  # a live MCP server's JSON-RPC for this call


class ToolRegistry:
    """The program's side of tool use: the model names a tool, the registry checks and runs it."""

    def __init__(
        self,
        specs: list[ToolSpec],
        sandbox: str | Path | None = None,
        tool_timeout_s: float | None = 5.0,
        prior_calls: dict[str, int] | None = None,
        language: str = "en",
        own_code: OwnCode | None = None,
    ) -> None:
        self.specs = list(specs)
        # A tool's own code runs in personal mode; a class server runs it only when told (its teacher allows it).
        self.own_code = own_code or (OwnCode.OFF if is_class_server() else OwnCode.RUN)
        self._by_name: dict[str, ToolSpec] = {}
        for spec in self.specs:
            self._by_name.setdefault(spec.name, spec)  # the API rejects duplicates; keep the first
        self.sandbox = Sandbox(sandbox)
        self.tool_timeout_s = tool_timeout_s
        self.language = language  # the built-in tools answer in the learner's language
        self._lock = threading.Lock()
        self._mcp: Any = None  # the live MCP server, started at the first call of an "mcp:" tool
        self._calls: dict[str, int] = {}
        for key, count in (prior_calls or {}).items():
            impl = self._by_name[key].impl_key if key in self._by_name else key
            self._calls[impl] = self._calls.get(impl, 0) + int(count)

    def definitions(self) -> list[dict[str, Any]]:
        """The `tools` list of the request: name, description and input_schema of each tool."""
        return [spec.definition() for spec in self.specs]

    def needs_approval(self, name: str) -> bool:
        """Whether the loop must ask a human before running this tool."""
        spec = self._by_name.get(name) if isinstance(name, str) else None
        # The implementation decides: a definition (perhaps from a file) cannot switch off the question.
        return bool(spec and builtin_needs_approval(spec))

    @property
    def calls(self) -> dict[str, int]:
        """How many times each implementation was called in this run (prior_calls included)."""
        with self._lock:
            return dict(self._calls)

    def execute(self, name: str, tool_input: Any) -> ToolOutcome:
        """Run one tool call; every failure becomes an is_error outcome, nothing is raised."""
        started = time.perf_counter()
        rpc: list[dict[str, Any]] = []
        try:
            output, is_error = self._execute(name, tool_input, rpc)
        except Exception as exc:  # the registry's own last line: a broken tool must not crash the loop
            log.warning("tool %s raised %s (returned to the model as an error result)", name, type(exc).__name__)
            output, is_error = f"{type(exc).__name__}: {exc}", True
        return ToolOutcome(output, is_error, (time.perf_counter() - started) * 1000, rpc)

    def close(self) -> None:
        """Remove the private sandbox copy made by a delete, if any; stop a live MCP server it started."""
        self.sandbox.close()
        if self._mcp is not None:
            self._mcp.close()
            self._mcp = None

    def __enter__(self) -> ToolRegistry:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- steps of one call ------------------------------------------------------------------
    def _execute(self, name: Any, tool_input: Any, rpc: list[dict[str, Any]]) -> tuple[str, bool]:
        spec = self._by_name.get(name) if isinstance(name, str) else None
        if spec is None:
            available = ", ".join(self._by_name) or said("registry.none")
            return self._say("registry.unknown_tool", name=repr(name), available=available), True
        # Counted before validation, so a run's call count is simply its ToolExecutions with this name.
        call_number = self._count(spec.impl_key)
        if spec.impl_key.startswith(MCP_PREFIX):
            return self._mcp_call(spec, tool_input, rpc)
        if spec.impl_key == OWN_IMPL:
            return self._own_call(spec, tool_input)
        tool = CATALOG.get(spec.impl_key)
        if tool is None:
            message = self._say(
                "registry.no_impl", name=repr(spec.name), impl=repr(spec.impl_key), impls=", ".join(CATALOG)
            )
            return message, True
        signature = signature_of_builtin(spec.name, tool.function)
        problem = self._validate(spec, tool_input) or self._fits(spec, signature, tool_input)
        if problem:
            return problem, True
        context = ToolContext(self.sandbox, call_number, language=self.language)
        return self._run(spec.name, tool.function, context, tool_input)

    def _mcp_call(self, spec: ToolSpec, tool_input: Any, rpc: list[dict[str, Any]]) -> tuple[str, bool]:
        """tools/call on the live MCP server (the bundled one), started at the run's first MCP call."""
        from agent_core.tools.mcp_live import McpServer

        problem = self._validate(spec, tool_input)
        if problem:
            return problem, True
        with self._lock:
            if self._mcp is None:
                self._mcp = McpServer().start()
                rpc += [vars(m) for m in self._mcp.exchanges]  # initialize and tools/list, shown with the first call
        output, is_error, messages = self._mcp.call(spec.impl_key[len(MCP_PREFIX) :], dict(tool_input))
        rpc += [vars(m) for m in messages]
        return output, is_error

    def _own_call(self, spec: ToolSpec, tool_input: Any) -> tuple[str, bool]:
        """The learner's own function, in a limited child process (agent_core/tools/own_code.py)."""
        if self.own_code == OwnCode.OFF:
            return self._say("registry.own_off", tool=spec.name), True
        try:
            signature = signature_of(spec.code, spec.name)
        except CodeProblem:
            return self._say("registry.own_broken", tool=spec.name), True
        problem = self._validate(spec, tool_input) or self._fits(spec, signature, tool_input)
        if problem:
            return problem, True
        seconds = self.tool_timeout_s if self.tool_timeout_s and self.tool_timeout_s > 0 else 5.0
        result = run_tool(spec.code, spec.name, tool_input, seconds, confined=self.own_code == OwnCode.CONFINED)
        if result.limit == "time":
            return self._say("registry.timeout", tool=spec.name, seconds=float(seconds)), True
        if result.limit:
            return self._say(f"registry.own_{result.limit}", tool=spec.name), True
        if result.error:
            if result.error_line:
                return self._say("registry.own_error", error=result.error, line=result.error_line), True
            return result.error, True
        return str(result.value), False

    def _count(self, impl: str) -> int:
        with self._lock:
            self._calls[impl] = self._calls.get(impl, 0) + 1
            return self._calls[impl]

    def _validate(self, spec: ToolSpec, tool_input: Any) -> str | None:
        """None when the input fits the tool's JSON Schema, else a message the model can act on."""
        # jsonschema and referencing take ~75 ms to import: paid at the first tool call, not by importing the loop.
        from agent_core.tools.input_schema import input_problem

        return input_problem(spec.name, spec.input_schema, tool_input, self.language)

    def _say(self, key: str, **values: Any) -> str:
        """One of the registry's own messages, in the run's language."""
        return render(said(key, **values), self.language)

    def _fits(self, spec: ToolSpec, signature: Signature, tool_input: Any) -> str | None:
        """A schema edited by the learner may no longer match the Python function; say how."""
        if not isinstance(tool_input, dict):
            return self._say("registry.not_object", tool=spec.name, got=type(tool_input).__name__)
        accepted = [p.name for p in signature.params]
        extra = [k for k in tool_input if k not in accepted]
        if extra and not signature.any_keyword:
            return self._say(
                "registry.extra",
                tool=spec.name,
                param=repr(extra[0]),
                params=", ".join(accepted) or said("registry.none"),
            )
        missing = [p.name for p in signature.params if p.required and p.name not in tool_input]
        if missing:
            return self._say("registry.required", tool=spec.name, param=repr(missing[0]))
        return None

    def _run(self, name: str, function: Any, context: ToolContext, tool_input: dict[str, Any]) -> tuple[str, bool]:
        """Call the function in a daemon thread and stop waiting after tool_timeout_s."""
        box: dict[str, Any] = {}

        def target() -> None:
            try:
                box["value"] = function(context, **tool_input)
            except BaseException as exc:  # noqa: BLE001 - reported to the model, never re-raised
                box["error"] = exc

        worker = threading.Thread(target=target, name=f"tool-{name}", daemon=True)
        worker.start()
        limit = self.tool_timeout_s if self.tool_timeout_s and self.tool_timeout_s > 0 else None
        worker.join(limit)
        if worker.is_alive():
            context.cancelled.set()  # a cooperative tool stops now; any other thread is a daemon and is abandoned
            return self._say("registry.timeout", tool=name, seconds=float(limit or 0)), True
        if "error" in box:
            error = box["error"]
            message = message_of(error, context.language)
            return (message if isinstance(error, ToolFailure) else f"{type(error).__name__}: {message}"), True
        value = box.get("value")
        return (value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)), False
