"""Once per server process: import the heavy modules, then move them out of the garbage collector's way."""

from __future__ import annotations

import gc
import importlib

# Everything a first visit imports anyway; imported up front so that the freeze below covers it.
HEAVY_MODULES = (
    "anthropic",
    "pandas",
    "plotly.graph_objects",
    "agent_core.loop",
    "agent_core.charts",
    "agent_core.accounting",
    "lab_ui.playground",
    "lab_ui.lessons_view",
    "lab_ui.runs_view",
    "lab_ui.settings_view",
)


def freeze_startup_heap() -> None:
    """Streamlit runs a full gc.collect() after every rerun, and a full collection walks every object alive:
    the ~1 million that the imports above create were most of each click's server time. gc.freeze() moves
    what exists now into a permanent generation that collections skip. Only import-time objects are frozen
    (this runs before the first page builds its state), so memory stays bounded: later garbage is collected as before.
    The freeze count doubles as the once-per-process mark, so no mutable module state is needed."""
    if gc.get_freeze_count():
        return
    for name in HEAVY_MODULES:
        importlib.import_module(name)
    gc.collect()
    gc.freeze()
