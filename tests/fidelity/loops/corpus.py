"""Loading the corpus (cases/*.json), running it, and the pass figures by kind and language."""

from __future__ import annotations

import copy
import json
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fidelity.loops.checks import check
from fidelity.loops.fakes import FakeTool
from fidelity.loops.runner import Run, client, run_case

HERE = Path(__file__).parent
CASES = HERE / "cases"
RECORD = HERE / "record.json"
KINDS = ("chain", "choice", "rich_schema", "no_tool", "error", "parallel", "follow_up", "structured", "composed")
LANGS = ("en", "ru", "pl")


@dataclass
class Outcome:
    """One case's run and what fell short."""

    case: dict[str, Any]
    run: Run
    problems: list[str]

    @property
    def passed(self) -> bool:
        return not self.problems

    def reason(self) -> str:
        """One line: the case, where it comes from, and its first problems."""
        return f"{self.case['id']} [{self.case['kind']}/{self.case['lang']}]: " + "; ".join(self.problems[:3])


def load_files() -> dict[str, dict[str, Any]]:
    """Every source file of the corpus, by its stem."""
    return {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in sorted(CASES.glob("*.json"))}


def load_cases(files: dict[str, dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """Every case, with its file and source filled in and its user turns as a list."""
    files = files if files is not None else load_files()
    cases = []
    for stem, data in files.items():
        for case in data["cases"]:
            user = case["user"] if isinstance(case["user"], list) else [case["user"]]
            cases.append({"source": data["source"], **case, "user": user, "file": stem})
    return cases


def tools_for(case: dict[str, Any], files: dict[str, dict[str, Any]]) -> dict[str, FakeTool]:
    """Fresh fakes for a case's tools: its file's by name, another file's as 'file:name'; all its file's by default."""
    own = files[case["file"]]["tools"]
    names = case.get("tools", list(own))
    tools: dict[str, FakeTool] = {}
    for ref in names:
        stem, _, name = ref.rpartition(":")
        spec = copy.deepcopy(files[stem]["tools"][name] if stem else own[name])
        data = files[stem or case["file"]].get("data")
        tools[spec["definition"]["name"]] = FakeTool(
            spec["definition"], spec.get("fake"), bool(spec.get("output")), data
        )
    return tools


def run_corpus(only: str | None = None, stem: str | None = None) -> list[Outcome]:
    """Run every case (or those whose id contains `only`, or those of one source file) and check it."""
    files, sdk = load_files(), client()
    outcomes = []
    for case in load_cases(files):
        if (only and only not in case["id"]) or (stem and case["file"] != stem):
            continue
        run = run_case(case, tools_for(case, files), sdk)
        outcomes.append(Outcome(case, run, check(case, run)))
    return outcomes


def percent(passed: list[bool]) -> float:
    return round(100.0 * sum(passed) / len(passed), 1) if passed else 0.0


def breakdown(outcomes: list[Outcome]) -> dict[str, dict[str, float]]:
    """Pass % overall, by kind and by language (with the number of cases in each)."""
    return figures_of([(o.case, o.passed) for o in outcomes])


def figures_of(results: list[tuple[dict[str, Any], bool]]) -> dict[str, dict[str, float]]:
    """breakdown() of (case, passed) pairs: also the figures a record's failing list implies, without a run."""
    groups: dict[str, list[bool]] = defaultdict(list)
    for case, passed in results:
        groups[f"kind:{case['kind']}"].append(passed)
        groups[f"language:{case['lang']}"].append(passed)
    everything = [passed for _, passed in results]
    figures = {"overall": {"percent": percent(everything), "cases": len(everything)}}
    order = [f"kind:{k}" for k in KINDS] + [f"language:{lang}" for lang in LANGS]
    for key in sorted(groups, key=lambda k: order.index(k) if k in order else len(order)):
        figures[key] = {"percent": percent(groups[key]), "cases": len(groups[key])}
    return figures
