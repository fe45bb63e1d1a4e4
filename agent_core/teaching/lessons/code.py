"""Code exercises: the learner writes real Python (seed 003's `search_memory`, logging in a loop), the lab runs it
in a child process with a time and a memory limit (agent_core/tools/user_code.py) and checks it with the tests the
lesson ships; on a class server the same exercise is a download (the script and its check) instead.

A lesson's `code` entry: {"id", "kind", "title", "instructions", "hint", "success", "starter", "cases"}. The kind
names the harness below; `cases` are its tests, data in the lesson.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from agent_core.teaching.lessons.scenario import LessonError, entries, text_problems
from agent_core.tools.user_code import CodeResult, run_python

KINDS = ("search_memory", "loop_logging")
_KEYS = ("id", "kind", "title", "instructions", "hint", "success", "starter", "cases")

# search_memory: every case is {"query": text, "expect": [texts]} (each must be in the answer) or
# {"query": text, "expect_none": true} (a clear "nothing found", none of the stored values). With "agent": true,
# the learner's function then runs as a tool of a real loop on the offline model (personal mode only).
SEARCH_HARNESS = r"""
import json
results = []
values = [str(v) for v in FACTS.values()]
for case in PAYLOAD["cases"]:
    try:
        answer = search_memory(case["query"])
    except Exception as exc:
        results.append({"query": case["query"], "ok": False, "got": f"{type(exc).__name__}: {exc}"})
        continue
    if not isinstance(answer, str):
        results.append({"query": case["query"], "ok": False, "got": f"not a string: {answer!r}"})
        continue
    low = answer.lower()
    if case.get("expect_none"):
        ok = bool(answer.strip()) and not any(v.lower() in low for v in values)
    else:
        ok = all(e.lower() in low for e in case["expect"])
    results.append({"query": case["query"], "ok": ok, "got": answer[:200]})
agent = None
if PAYLOAD.get("agent") and all(r["ok"] for r in results):
    agent = run_with_model(search_memory, PAYLOAD["agent"])
report({"cases": results, "agent": agent})
"""

# The loop with the learner's logging runs on the offline model; the harness counts the model calls itself.
LOOP_HARNESS = r"""
lines = []
calls = []
client, tools, call_tool = offline_client(PAYLOAD["scenario"], calls)
answer = run_agent(client, PAYLOAD["scenario"]["task"], tools, call_tool, lines.append)
report({"lines": [str(x) for x in lines], "calls": calls, "answer": getattr(answer, "stop_reason", None)})
"""

# What the child can use besides the learner's code: the offline model behind the official SDK.
OFFLINE_HELPERS = r'''
def offline_client(scenario, calls):
    """The official SDK on the lab's offline model, recording (stop_reason, tools asked for) of every call."""
    import json as _json
    import anthropic, httpx2
    from agent_core.model import SimSettings
    from agent_core.sim.transport import SimTransport
    from agent_core.tools.registry import ToolRegistry
    from agent_core.teaching.lessons.scenario import resolve_tool

    inner = SimTransport(SimSettings())

    class Counting(httpx2.BaseTransport):
        def handle_request(self, request):
            reply = inner.handle_request(request)
            body = _json.loads(reply.read())
            names = sorted({b.get("name") for b in body.get("content", []) if b.get("type") == "tool_use"})
            calls.append([body.get("stop_reason"), names])
            return httpx2.Response(reply.status_code, headers=reply.headers, content=_json.dumps(body).encode())

    specs = [resolve_tool(t, scenario.get("language", "en")) for t in scenario["tools"]]
    registry = ToolRegistry(specs, language=scenario.get("language", "en"))

    def call_tool(block):
        outcome = registry.execute(block.name, block.input)
        return {"type": "tool_result", "tool_use_id": block.id, "content": outcome.output, "is_error": outcome.is_error}

    client = anthropic.Anthropic(api_key="offline", base_url="http://offline", http_client=httpx2.Client(transport=Counting()))
    return client, registry.definitions(), call_tool


def run_with_model(function, agent):
    """The learner's search_memory as the tool of a real loop; returns the final answer's text."""
    calls = []
    client, tools, call_tool = offline_client({"tools": agent["tools"], "language": agent.get("language", "en")}, calls)
    messages = [{"role": "user", "content": agent["task"]}]
    for _ in range(8):
        response = client.messages.create(model="claude-sonnet-5-5", max_tokens=1024, system=agent["system"],
                                          tools=tools, messages=messages)
        messages.append({"role": "assistant", "content": response.content})
        if response.stop_reason != "tool_use":
            break
        results = []
        for block in response.content:
            if block.type != "tool_use":
                continue
            if block.name == "search_memory":
                out = function(str(block.input.get("query", "")))
                results.append({"type": "tool_result", "tool_use_id": block.id, "content": str(out)})
            else:
                results.append(call_tool(block))
        messages.append({"role": "user", "content": results})
    text = " ".join(b.text for b in response.content if b.type == "text")
    return {"text": text[:400], "calls": len(messages) // 2}
'''


@dataclass
class CodeExercise:
    """One code exercise of a lesson."""

    id: str
    kind: str
    title: dict[str, str]
    instructions: dict[str, str]
    hint: dict[str, str]
    success: dict[str, str]
    starter: str
    cases: dict[str, Any] = field(default_factory=dict)  # the harness's payload (the lesson's tests)

    @property
    def key(self) -> str:
        return f"code:{self.id}"


@dataclass(frozen=True)
class CaseResult:
    """One shipped test: what it tried, whether it passed, and what the code gave."""

    label: str
    ok: bool
    got: str


@dataclass(frozen=True)
class CodeCheck:
    """The verdict on the learner's code: each test, or the error or limit that stopped it."""

    cases: tuple[CaseResult, ...] = ()
    error: str = ""
    error_line: int | None = None
    limit: str | None = None
    printed: str = ""

    @property
    def passed(self) -> bool:
        return bool(self.cases) and all(c.ok for c in self.cases) and not self.error and self.limit is None


def check(exercise: CodeExercise, source: str, lang: str = "en", with_model: bool = True) -> CodeCheck:
    """Run the learner's code against the exercise's tests in a limited child process."""
    payload = json.loads(json.dumps(exercise.cases))
    if exercise.kind == "search_memory":
        if not with_model:
            payload.pop("agent", None)
        elif "agent" in payload:  # in English whatever the page's language: the stored facts' keys are English
            payload["agent"] = {**payload["agent"], "task": _pick(payload["agent"]["task"], "en")}
        result = run_python(source + "\n" + OFFLINE_HELPERS, SEARCH_HARNESS, payload, timeout_s=10.0)
        return _search_verdict(result)
    payload["scenario"] = {**payload["scenario"], "task": _pick(payload["scenario"]["task"], lang), "language": lang}
    result = run_python(source + "\n" + OFFLINE_HELPERS, LOOP_HARNESS, payload, timeout_s=10.0)
    return _loop_verdict(result)


def _pick(value: Any, lang: str) -> Any:
    return value[lang] if isinstance(value, dict) and lang in value else value


def _stopped(result: CodeResult) -> CodeCheck | None:
    if result.ok:
        return None
    return CodeCheck(error=result.error, error_line=result.error_line, limit=result.limit, printed=result.printed)


def _search_verdict(result: CodeResult) -> CodeCheck:
    stopped = _stopped(result)
    if stopped or not isinstance(result.value, dict):
        return stopped or CodeCheck(error="no result", printed=result.printed)
    cases = [CaseResult(f"search_memory({c['query']!r})", bool(c["ok"]), str(c["got"])) for c in result.value["cases"]]
    agent = result.value.get("agent")
    if agent is not None:
        text = str(agent.get("text", ""))
        cases.append(CaseResult("agent", "krak" in text.lower() or "крак" in text.lower(), text))
    return CodeCheck(tuple(cases), printed=result.printed)


def _loop_verdict(result: CodeResult) -> CodeCheck:
    stopped = _stopped(result)
    if stopped or not isinstance(result.value, dict):
        return stopped or CodeCheck(error="no result", printed=result.printed)
    lines, calls = result.value["lines"], result.value["calls"]
    cases = [CaseResult("lines", len(lines) == len(calls), f"{len(lines)} / {len(calls)}")]
    for n, (stop_reason, names) in enumerate(calls, 1):
        line = lines[n - 1] if n <= len(lines) else ""
        said = str(n) in line and str(stop_reason) in line and all(name in line for name in names)
        cases.append(CaseResult(f"{n}", said, line))
    return CodeCheck(tuple(cases), printed=result.printed)


def code_from(raw: Any, where: str) -> list[CodeExercise]:
    """A lesson's `code` list as CodeExercises; LessonError lists every problem."""
    if raw is None:
        return []
    problems: list[str] = []
    out = []
    for at, item, found in entries(raw, where, _KEYS):
        problems += found
        if not item:
            continue
        problems += [f"{at}: missing key {k!r}" for k in _KEYS if k not in item]
        if item.get("kind") not in KINDS:
            problems.append(f"{at}.kind: one of " + ", ".join(KINDS))
        problems += text_problems(item, ("title", "instructions", "hint", "success"), at)
        if not problems:
            out.append(CodeExercise(**{k: item[k] for k in _KEYS}))
    if problems:
        raise LessonError(problems)
    return out


def download(exercise: CodeExercise, lang: str, source: str | None = None) -> str:
    """The exercise as one script to run at home (`python FILE.py`): the code to write, then its check.

    A class server runs no learner's code, so its learners get this instead; the check needs no model (the loop's
    replies are scripted in the file)."""
    code = source if source is not None else exercise.starter
    if exercise.kind == "search_memory":
        cases = json.dumps([c for c in exercise.cases["cases"]], ensure_ascii=False, indent=1)
        check_code = _HOME_SEARCH.replace("CASES_JSON", cases)
    else:
        check_code = _HOME_LOOP
    head = f"# {exercise.title[lang]}\n# " + exercise.instructions[lang].replace("\n", "\n# ") + "\n"
    return head + "\n" + code.rstrip() + "\n\n\n" + check_code


_HOME_SEARCH = '''# ---- the check (run this file: python FILE.py) ----
import json

CASES = json.loads("""CASES_JSON""")
if __name__ == "__main__":
    values = [str(v).lower() for v in FACTS.values()]
    failed = 0
    for case in CASES:
        answer = search_memory(case["query"])
        low = str(answer).lower()
        ok = (bool(low.strip()) and not any(v in low for v in values)) if case.get("expect_none") else all(
            e.lower() in low for e in case["expect"])
        failed += not ok
        print("PASS" if ok else "FAIL", repr(case["query"]), "->", repr(answer))
    print("all passed" if not failed else f"{failed} failed")
    raise SystemExit(1 if failed else 0)
'''

_HOME_LOOP = '''# ---- the check (run this file: python FILE.py); a scripted model, no key and no network ----
from types import SimpleNamespace as _NS


class _ScriptedClient:
    """Answers like the lab's offline model on lesson 15's task: one weather call, then the answer."""

    def __init__(self):
        self.calls = []
        self.messages = self

    def create(self, **request):
        step = len(self.calls) + 1
        if step == 1:
            reply = _NS(stop_reason="tool_use", content=[_NS(type="tool_use", id="toolu_1", name="get_weather",
                                                             input={"city": "Oslo"})])
        else:
            reply = _NS(stop_reason="end_turn", content=[_NS(type="text", text="Oslo: 4 °C, colder than 10 °C.")])
        self.calls.append((reply.stop_reason, sorted(b.name for b in reply.content if b.type == "tool_use")))
        return reply


if __name__ == "__main__":
    client, lines = _ScriptedClient(), []
    def call_tool(block):
        return {"type": "tool_result", "tool_use_id": block.id, "content": "Oslo: 4 °C"}
    run_agent(client, "What's the weather in Oslo, and is it warmer than 10 °C?", [], call_tool, lines.append)
    failed = 0 if len(lines) == len(client.calls) else 1
    print("PASS" if not failed else "FAIL", f"{len(lines)} log lines for {len(client.calls)} model calls")
    for n, (reason, names) in enumerate(client.calls, 1):
        line = lines[n - 1] if n <= len(lines) else ""
        ok = str(n) in line and reason in line and all(x in line for x in names)
        failed += not ok
        print("PASS" if ok else "FAIL", f"iteration {n}:", repr(line))
    print("all passed" if not failed else f"{failed} failed")
    raise SystemExit(1 if failed else 0)
'''
