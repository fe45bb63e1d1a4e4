"""The loop's import path stays light: no pandas, numpy or plotly (the report and the charts load only where drawn),
and no jsonschema (it loads at the first tool input checked). Which modules load, not how long: timings live in
benchmarks/bench_import.py."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parents[1]
HEAVY = ("pandas", "numpy", "plotly", "streamlit", "jsonschema", "referencing")


def _loaded_after(statement: str) -> dict[str, bool]:
    code = f"import json, sys; {statement}; print(json.dumps({{m: m in sys.modules for m in {HEAVY!r}}}))"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def test_the_loop_imports_no_dataframe_or_plotting_library():
    loaded = _loaded_after("import agent_core.loop.stepper")
    assert loaded == dict.fromkeys(HEAVY, False)


def test_a_run_from_the_command_line_stays_light_too():
    # The CLI's `run` path (loop + export of a run) should not pay for the report either.
    loaded = _loaded_after("import agent_core.cli, agent_core.cost.pricing")
    assert not loaded["pandas"] and not loaded["plotly"]


def test_checking_a_tool_input_loads_jsonschema_then():
    # Lazy, not gone: the first tool call checks its input against the schema, and only then is jsonschema loaded.
    loaded = _loaded_after(
        "from agent_core.tools import ToolRegistry, default_specs; "
        "ToolRegistry(default_specs(['calculate'])).execute('calculate', {'expression': '2+2'})"
    )
    assert loaded["jsonschema"]


def test_the_report_still_loads_pandas_where_it_is_used():
    # The split is real: the tabular report is where pandas lives, so importing it brings pandas in.
    assert _loaded_after("import agent_core.cost.accounting")["pandas"]
