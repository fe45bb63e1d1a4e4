"""`python -m agent_core.examples [names...]`: record the example runs with the real loop and the offline model."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from agent_core.examples import EXAMPLES_DIR, load_scenarios
from agent_core.files.export import export_json
from agent_core.loop.stepper import run_task
from agent_core.model import Run, config_from_dict
from agent_core.tools.catalog import default_specs
from agent_core.vocab import Provider


def record(name: str, scenario: dict[str, Any]) -> Run:
    """Run one scenario to its end; fail if it did not stop the way the lesson needs."""
    # Scenarios name catalog tools; the catalog supplies their descriptions and schemas.
    config = config_from_dict({**scenario["config"], "tools": []})
    config.tools = default_specs(scenario["config"].get("tools", []))
    if config.provider != Provider.OFFLINE:
        raise SystemExit(f"{name}: examples are recorded offline only (no key, reproducible).")
    run = run_task(config)
    # A stable id keeps regenerated files diffable and saved copies from piling up.
    run.id, run.title = f"example-{name}", scenario.get("title", "")
    expected = scenario.get("expect_stop")
    got = run.stop.kind if run.stop else None
    if expected and got != expected:
        raise SystemExit(f"{name}: expected the run to stop with {expected}, got {got} ({run.stop}).")
    return run


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("names", nargs="*", help="scenarios to record (default: all)")
    args = parser.parse_args(argv)
    scenarios = load_scenarios()
    unknown = set(args.names) - set(scenarios)
    if unknown:
        parser.error(f"unknown scenario(s): {', '.join(sorted(unknown))}; known: {', '.join(scenarios)}")
    for name in args.names or list(scenarios):
        run = record(name, scenarios[name])
        path = EXAMPLES_DIR / f"{name}.json"
        path.write_bytes(export_json(run) + b"\n")
        print(
            f"{path.name}: {len(run.turns)} turn(s), stop {run.stop.kind if run.stop else None}, {run.total_tokens} tokens, "
            f"final: {run.final_text[:70]!r}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
