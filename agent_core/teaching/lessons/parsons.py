"""Assemble the loop: a Parsons puzzle of the agent loop's lines, shuffled with a few wrong ones, to put in order and
indent, in Python and TypeScript. The assembled program is then run: a correct order runs the lesson's loop; a known
wrong order (a fault) runs the Stepper with the matching deliberate bug, so the learner meets the API's own 400 or
the runaway their code would get.

A program (lessons/puzzles/<name>.json) holds the lines, the correct orders and the wrong lines; a lesson's
`puzzles` entry names the program and says what each fault does (its patch, the goal its run shows).
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agent_core.teaching.lessons.scenario import LessonError, deep_merge, text_problems

CODE_LANGUAGES = ("python", "typescript")
PUZZLES_DIR = "puzzles"  # beside the lesson folders: lessons/puzzles/<program>.json
_PROGRAM_KEYS = ("prelude", "lines", "solutions", "distractors")
_PUZZLE_KEYS = ("id", "program", "title", "instructions", "hint", "success", "patch", "goal", "faults")
_FAULT_KEYS = ("id", "uses", "omits", "patch", "shows", "explain")


@dataclass(frozen=True)
class Line:
    """One line of the puzzle in one code language: its id, its text and how deep it is indented."""

    id: str
    text: str
    indent: int


@dataclass(frozen=True)
class Fault:
    """A known wrong order: which wrong lines it uses, which right ones it leaves out, and what running it does."""

    id: str
    uses: tuple[str, ...]
    omits: tuple[str, ...]
    patch: dict[str, Any] | None  # None: no deliberate bug of the lab matches it; the fault is explained, not run
    shows: dict[str, Any]
    explain: dict[str, str]


@dataclass
class Program:
    """The lines of one puzzle program, per code language."""

    name: str
    prelude: dict[str, str]
    lines: dict[str, dict[str, Line]]  # code language -> id -> line
    solutions: dict[str, list[list[str]]]  # code language -> every accepted order of ids
    distractors: dict[str, list[str]]


@dataclass
class Puzzle:
    """One "assemble the loop" exercise of a lesson."""

    id: str
    program: Program
    title: dict[str, str]
    instructions: dict[str, str]
    hint: dict[str, str]
    success: dict[str, str]
    patch: dict[str, Any]  # the scenario the assembled program runs (merged into the lesson's)
    goal: dict[str, Any]  # what the correct program's run shows
    faults: list[Fault] = field(default_factory=list)

    def pieces(self, code: str, seed: int = 0) -> list[Line]:
        """Every line of the puzzle (right and wrong), shuffled the same way for the same seed."""
        lines = list(self.program.lines[code].values())
        random.Random(f"{self.id}:{code}:{seed}").shuffle(lines)
        return lines


@dataclass(frozen=True)
class Verdict:
    """What an arrangement is: "correct", a known "fault", or "wrong" (and from which line on)."""

    kind: str
    fault: Fault | None = None
    first_wrong: int | None = None  # 1-based line number where the arrangement leaves every correct order
    placed: int = 0  # how many lines the learner placed


Arrangement = list[tuple[str, int]]  # (line id, indent) from top to bottom


def _shape(program: Program, code: str, ids: list[str]) -> list[tuple[str, int]]:
    lines = program.lines[code]
    return [(lines[i].text.strip(), lines[i].indent) for i in ids]


def _placed(program: Program, code: str, arrangement: Arrangement) -> list[tuple[str, int]]:
    lines = program.lines[code]
    return [(lines[i].text.strip(), indent) for i, indent in arrangement if i in lines]


def judge(puzzle: Puzzle, code: str, arrangement: Arrangement) -> Verdict:
    """Compare an arrangement with every correct order (by text, so two identical "}" lines are interchangeable)."""
    program, got = puzzle.program, _placed(puzzle.program, code, arrangement)
    solutions = [_shape(program, code, s) for s in program.solutions[code]]
    if got in solutions:
        return Verdict("correct", placed=len(got))
    for fault in puzzle.faults:
        if _matches(program, code, got, fault):
            return Verdict("fault", fault=fault, placed=len(got))
    return Verdict("wrong", first_wrong=_first_wrong(got, solutions), placed=len(got))


def _matches(program: Program, code: str, got: list[tuple[str, int]], fault: Fault) -> bool:
    lines = program.lines[code]
    used = {lines[i].text.strip() for i in fault.uses if i in lines}
    if any(lines[i].text.strip() not in {t for t, _ in got} for i in fault.uses if i in lines):
        return False
    rest = [g for g in got if g[0] not in used]
    for solution in program.solutions[code]:
        kept = [i for i in solution if i not in fault.omits]
        if len(kept) != len(solution) - len([i for i in fault.omits if i in solution]):
            continue
        if rest == _shape(program, code, kept) and (fault.omits or fault.uses):
            return True
    return False


def _first_wrong(got: list[tuple[str, int]], solutions: list[list[tuple[str, int]]]) -> int:
    best = 0
    for solution in solutions:
        same = next(
            (n for n, (a, b) in enumerate(zip(got, solution, strict=False)) if a != b), min(len(got), len(solution))
        )
        best = max(best, same)
    return best + 1


def assembled(puzzle: Puzzle, code: str, arrangement: Arrangement) -> str:
    """The program the arrangement makes, prelude first, as the learner would save it."""
    lines = puzzle.program.lines[code]
    step = "    " if code == "python" else "  "
    body = [step * indent + lines[i].text.strip() for i, indent in arrangement if i in lines]
    return puzzle.program.prelude[code].rstrip("\n") + "\n\n" + "\n".join(body) + "\n"


def run_patch(puzzle: Puzzle, verdict: Verdict) -> dict[str, Any] | None:
    """The scenario patch the assembled program runs with: the puzzle's, plus the fault's bug; None when wrong."""
    if verdict.kind == "correct":
        return puzzle.patch
    if verdict.kind == "fault" and verdict.fault is not None and verdict.fault.patch is not None:
        return deep_merge(puzzle.patch, verdict.fault.patch)
    return None


def solution(puzzle: Puzzle, code: str, which: int = 0) -> Arrangement:
    """A correct arrangement (for tests and for the teacher's "show the answer")."""
    lines = puzzle.program.lines[code]
    return [(i, lines[i].indent) for i in puzzle.program.solutions[code][which]]


# ---------------------------------------------------------------- loading


def load_program(roots: tuple[Path, ...], name: str) -> Program:
    """A puzzle program from <root>/puzzles/<name>.json, the first root that has it (a lesson copied elsewhere
    still finds the bundled programs); LessonError names the file and the field."""
    paths = [root / PUZZLES_DIR / f"{name}.json" for root in roots]
    path = next((p for p in paths if p.exists()), paths[0])
    label = f"{PUZZLES_DIR}/{name}.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as err:
        raise LessonError([f"{label}: cannot read the puzzle program ({err})"]) from None
    problems = [f"{label}: unknown key {k!r}" for k in data if k not in _PROGRAM_KEYS]
    lines: dict[str, dict[str, Line]] = {c: {} for c in CODE_LANGUAGES}
    for line_id, per_code in (data.get("lines") or {}).items():
        for code, (text, indent) in per_code.items():
            lines[code][line_id] = Line(line_id, text, int(indent))
    for code in CODE_LANGUAGES:
        for n, order in enumerate(data.get("solutions", {}).get(code, [])):
            problems += [
                f"{label}: solutions.{code}[{n}]: no line {i!r} in {code}" for i in order if i not in lines[code]
            ]
        used = {i for order in data.get("solutions", {}).get(code, []) for i in order}
        extra = set(lines[code]) - used - set(data.get("distractors", {}).get(code, []))
        problems += [f"{label}: lines.{i}: in {code} neither in a solution nor a distractor" for i in sorted(extra)]
        if not data.get("solutions", {}).get(code):
            problems.append(f"{label}: solutions.{code}: at least one correct order")
        if code not in (data.get("prelude") or {}):
            problems.append(f"{label}: prelude.{code}: missing")
    if problems:
        raise LessonError(problems)
    return Program(name, data["prelude"], lines, data["solutions"], data.get("distractors", {}))


def puzzle_from(entry: dict[str, Any], roots: tuple[Path, ...], where: str) -> Puzzle:
    """One lesson `puzzles` entry as a Puzzle (its program loaded)."""
    problems = [f"{where}: unknown key {k!r}" for k in entry if k not in _PUZZLE_KEYS]
    problems += [f"{where}: missing key {k!r}" for k in _PUZZLE_KEYS if k not in entry and k != "faults"]
    problems += text_problems(entry, ("title", "instructions", "hint", "success"), where)
    faults = []
    for n, raw in enumerate(entry.get("faults", [])):
        problems += [f"{where}.faults[{n}]: unknown key {k!r}" for k in raw if k not in _FAULT_KEYS]
        problems += text_problems(raw, ("explain",), f"{where}.faults[{n}]")
        faults.append(
            Fault(
                str(raw.get("id")),
                tuple(raw.get("uses", [])),
                tuple(raw.get("omits", [])),
                raw.get("patch"),
                raw.get("shows", {}),
                raw.get("explain") or {},
            )
        )
    if problems:
        raise LessonError(problems)
    program = load_program(roots, str(entry["program"]))
    for fault in faults:
        for line_id in (*fault.uses, *fault.omits):
            if not any(line_id in program.lines[c] for c in CODE_LANGUAGES):
                problems.append(f"{where}: fault {fault.id!r} names no line {line_id!r}")
    if problems:
        raise LessonError(problems)
    return Puzzle(
        entry["id"],
        program,
        entry["title"],
        entry["instructions"],
        entry["hint"],
        entry["success"],
        entry.get("patch", {}),
        entry.get("goal", {}),
        faults,
    )
