"""A case's expectations against its run: each unmet one becomes a short reason a reader can act on."""

from __future__ import annotations

import json
import re
from collections import Counter
from difflib import SequenceMatcher
from typing import Any

from jsonschema import Draft202012Validator

from fidelity.loops.fakes import same
from fidelity.loops.runner import Call, Run
from fidelity.loops.text import claims_no_tool, has_raw_json, language, mentions, untranslated

_SAID = "answered|returned|responded|said|ответил|вернул|сообщил|odpowiedział|zwrócił"
REPEAT_LIMIT = 2
PASTE_LIMIT = 120  # characters copied verbatim from one result: more than a quoted value or a short sentence  # the same call twice may be a deliberate retry; a third time is a loop


def _show(name: str, args: dict[str, Any]) -> str:
    inner = ", ".join(f"{k}={json.dumps(v, ensure_ascii=False)}" for k, v in args.items())
    return f"{name}({inner})"[:160]


def _matches(expected: dict[str, Any], call: Call) -> bool:
    if call.name != expected["tool"] or call.answer.invalid:
        return False
    if expected.get("turn") is not None and call.turn != expected["turn"]:
        return False
    return same(expected.get("args", {}), call.input)


def check(case: dict[str, Any], run: Run) -> list[str]:
    """Every way the run falls short of what a careful model would do on this case. With `alternatives` (each a
    set of expectations that replaces the base's), the run is judged by the alternative it comes closest to."""
    expect = case.get("expect", {})
    if "alternatives" in expect:
        base = {k: v for k, v in expect.items() if k != "alternatives"}
        verdicts = [_check(case, base | alternative, run) for alternative in expect["alternatives"]]
        return min(verdicts, key=len)
    return _check(case, expect, run)


def _check(case: dict[str, Any], expect: dict[str, Any], run: Run) -> list[str]:
    problems: list[str] = []
    if run.ended.startswith(("api_error", "loop", "stop_reason")):
        problems.append(run.ended)
    problems += [f"invalid input to {c.name}: {c.answer.invalid}" for c in run.calls if c.answer.invalid]
    problems += _calls(expect, run)
    problems += _repeats(run)
    if expect.get("max_requests") is not None and run.requests > expect["max_requests"]:
        problems.append(f"took {run.requests} requests (a careful model needs at most {expect['max_requests']})")
    problems += _output(case, expect, run)
    problems += _answer(case, expect, run)
    return problems


def _calls(expect: dict[str, Any], run: Run) -> list[str]:
    problems: list[str] = []
    wanted = expect.get("calls", [])
    if expect.get("no_calls") and run.calls:
        problems.append("called " + ", ".join(_show(c.name, c.input) for c in run.calls[:3]) + " but none was needed")
    matched: list[Call | None] = []
    for item in wanted:
        hits = [c for c in run.calls if _matches(item, c)]
        hit = (hits[-1] if item.get("pick") == "last" else hits[0]) if hits else None
        matched.append(hit)
        if hit is None:
            tried = [c for c in run.calls if c.name == item["tool"]]
            where = f" in turn {item['turn']}" if item.get("turn") else ""
            sent = f"; sent {_show(tried[0].name, tried[0].input)}" if tried else ""
            problems.append(f"no call {_show(item['tool'], item.get('args', {}))}{where}{sent}")
    problems += _steps(wanted, matched)
    allowed = {item["tool"] for item in wanted} | set(expect.get("extra_calls", []))
    if wanted:
        stray = [c for c in run.calls if c.name not in allowed]
        if stray:
            problems.append("called other tools: " + ", ".join(_show(c.name, c.input) for c in stray[:3]))
        # A successful call of an expected tool that serves none of the expected calls: a goal the user never
        # set (a failed attempt that was then corrected is fine, and so are tools the case lets be called freely).
        free = set(expect.get("extra_calls", []))
        extra = [
            c
            for c in run.calls
            if c.name in allowed - free and not c.answer.is_error and not any(_matches(i, c) for i in wanted)
        ]
        if extra and all(matched):  # with a call missing, its "sent …" already shows what went wrong
            problems.append("made calls nobody asked for: " + ", ".join(_show(c.name, c.input) for c in extra[:2]))
    for item in expect.get("forbid", []):
        bad = [c for c in run.calls if c.name == item["tool"] and same(item.get("args", {}), c.input)]
        bad = [c for c in bad if item.get("turn") in (None, c.turn)]
        if bad:
            problems.append(f"must not call {_show(bad[0].name, bad[0].input)}")
    return problems


def _steps(wanted: list[dict[str, Any]], matched: list[Call | None]) -> list[str]:
    """Calls of one step come in one response (parallel); a later step's only after an earlier one's (chains);
    `after` (indexes into the expected calls) orders calls without asking them to share a response."""
    problems: list[str] = []
    for item, call in zip(wanted, matched, strict=True):
        for index in item.get("after", []) if call else []:
            before = matched[index]
            if before is not None and before.request >= call.request:
                problems.append(f"{item['tool']} was called before the {wanted[index]['tool']} result it needs")
                return problems
    placed = [(item, call) for item, call in zip(wanted, matched, strict=True) if call and "step" in item]
    for item, call in placed:
        for other, other_call in placed:
            if other["step"] == item["step"] and other_call.request != call.request and item is not other:
                problems.append(f"{item['tool']} and {other['tool']} were not asked for in one response")
                return problems
            if other["step"] < item["step"] and other_call.request >= call.request:
                problems.append(f"{item['tool']} was called before the {other['tool']} result it needs")
                return problems
    return problems


def _repeats(run: Run) -> list[str]:
    counts = Counter(json.dumps([c.name, c.input], sort_keys=True) for c in run.calls)
    return [f"repeated {_show(*json.loads(key))} {n} times" for key, n in counts.items() if n > REPEAT_LIMIT][:1]


def _output(case: dict[str, Any], expect: dict[str, Any], run: Run) -> list[str]:
    """Structured output: the output tool's input, or the final text as JSON under output_config.format."""
    if "output" not in expect:
        return []
    value = run.output
    fmt = (case.get("output_config") or {}).get("format")
    if value is None and fmt:
        try:
            value = json.loads(run.answer)
        except json.JSONDecodeError:
            return [f"the answer is not JSON: {run.answer[:80]!r}"]
        errors = list(Draft202012Validator(fmt["schema"]).iter_errors(value))
        if errors:
            return [f"the JSON does not fit output_config.format: {errors[0].message}"[:200]]
    if value is None:
        return ["no structured result (the output tool was never called)"]
    if not same(expect["output"], value):
        return [f"structured result {json.dumps(value, ensure_ascii=False)[:160]} lacks {expect['output']}"]
    lacking = next((s for s in _strings(value) if claims_no_tool(s)), None)
    if lacking is not None and not expect.get("may_lack_tool"):
        return [f"a structured field holds the model's own 'no tool' sentence as a value: {lacking[:100]!r}"]
    for key in expect.get("output_lang", []):
        field = value
        for part in key.split("."):  # a dotted path into nested objects: "recipe.name"
            field = field.get(part, "") if isinstance(field, dict) else ""
        said = language(str(field))
        if said not in (case["lang"], "?"):
            return [f"structured field {key} is in {said}, the question in {case['lang']}"]
    return []


def _strings(value: Any) -> list[str]:
    """Every string inside a structured result, nested objects and arrays too."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def _pasted(answer: str, run: Run) -> str:
    """A long stretch of the answer copied word for word from a tool's result: a careful model answers the
    question with the values it needs, it does not hand the result over."""
    said = " ".join(answer.split())
    for call in run.calls:
        result = " ".join(call.answer.text.split())
        if len(result) < PASTE_LIMIT:
            continue
        match = SequenceMatcher(None, said, result, autojunk=False).find_longest_match(0, len(said), 0, len(result))
        if match.size >= PASTE_LIMIT:
            return said[match.a : match.a + match.size]
    return ""


def _schema_words(case: dict[str, Any], run: Run) -> list[str]:
    """Tool names and snake_case property names: words of the schema a user never sees."""
    words = list(run.tool_names)
    for schema in run.schemas:
        words += [name for name in schema.get("properties", {}) if "_" in name]
    return words


def _own(case: dict[str, Any], run: Run) -> list[str]:
    """Words an answer may keep in English: the user's own, the names the case expects, the tools' and schema's,
    and the values the model itself sent (a query it reports having used)."""
    user = case.get("user", [])
    words = [user] if isinstance(user, str) else [json.dumps(user, ensure_ascii=False)]
    words += [str(case.get("system", ""))] + list(case.get("expect", {}).get("answer", []))
    words += [
        json.dumps(alt.get("answer", []), ensure_ascii=False) for alt in case.get("expect", {}).get("alternatives", [])
    ]
    words += [json.dumps(c.input, ensure_ascii=False) for c in run.calls]
    return words + _schema_words(case, run)


def _answer(case: dict[str, Any], expect: dict[str, Any], run: Run) -> list[str]:
    problems: list[str] = []
    if "ask" in expect:
        turn = expect.get("ask_turn", 1)
        asked = run.texts[turn - 1] if len(run.texts) >= turn else ""
        if "?" not in asked:
            problems.append(f"turn {turn} should ask the user a question; it said {asked[:100]!r}")
        fields = _schema_words(case, run)
        named = next((w for w in fields if w in asked), None)
        if named:
            problems.append(f"the question in turn {turn} names the schema's {named!r} instead of what the user knows")
        missing = [m for m in expect["ask"] if not mentions(asked, m)]
        if missing:
            problems.append(f"the question in turn {turn} does not name {missing[0].split('|')[0]!r}: {asked[:100]!r}")
    if run.ended == "output_tool" or ("output" in expect and (case.get("output_config") or {}).get("format")):
        return problems
    answer = run.answer
    if not answer:
        return [*problems, "no final answer"] if not run.ended.startswith(("api_error", "loop")) else problems
    missing = [fragment for fragment in expect.get("answer", []) if not mentions(answer, fragment)]
    if missing:
        problems.append(f"answer lacks {missing[0].split('|')[0]!r}: {answer[:120]!r}")
    for fragment in expect.get("answer_not", []):
        if mentions(answer, fragment):
            problems.append(f"answer should not say {fragment!r}: {answer[:120]!r}")
    echo = next((name for name in run.tool_names if re.search(rf"\b{re.escape(name)}\b\s*(:|{_SAID})", answer)), None)
    if echo:
        problems.append(f"answer relays what {echo} said instead of answering: {answer[:100]!r}")
    pasted = _pasted(answer, run)
    if pasted:
        problems.append(f"answer pastes a tool's result instead of answering: {pasted[:80]!r}")
    if has_raw_json(answer) and not expect.get("json_ok"):
        problems.append(f"answer pastes raw JSON: {answer[:100]!r}")
    said = language(answer)
    if said != case["lang"] and said != "?":
        problems.append(f"answer is in {said}, the question in {case['lang']}: {answer[:80]!r}")
    elif case["lang"] != "en" and (
        left := untranslated(answer, [c.answer.text for c in run.calls], _own(case, run), case["lang"])
    ):
        problems.append(f"answer leaves English words untranslated ({left[0]!r}): {answer[:80]!r}")
    if claims_no_tool(answer) and not expect.get("may_lack_tool"):
        problems.append(f"answer says it lacks a tool, which a careful model would not: {answer[:100]!r}")
    return problems
