"""The loop's import path stays light: no pandas, numpy or plotly (the report and the charts load only where drawn)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parents[1]
HEAVY = ("pandas", "numpy", "plotly", "streamlit")


def _loaded_after(statement: str) -> dict[str, bool]:
    code = f"import json, sys; {statement}; print(json.dumps({{m: m in sys.modules for m in {HEAVY!r}}}))"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def test_the_loop_imports_no_dataframe_or_plotting_library():
    loaded = _loaded_after("import agent_core.loop")
    assert loaded == dict.fromkeys(HEAVY, False)


def test_a_run_from_the_command_line_stays_light_too():
    # The CLI's `run` path (loop + export of a run) should not pay for the report either.
    loaded = _loaded_after("import agent_core.cli, agent_core.pricing")
    assert not loaded["pandas"] and not loaded["plotly"]


def test_the_report_still_loads_pandas_where_it_is_used():
    # The split is real: the tabular report is where pandas lives, so importing it brings pandas in.
    assert _loaded_after("import agent_core.accounting")["pandas"]
