"""Once per server process: import the heavy modules, then move them out of the garbage collector's way."""

from __future__ import annotations

import functools
import gc
import importlib

# Everything a first visit imports anyway; imported up front so that the freeze below covers it.
HEAVY_MODULES = (
    "anthropic",
    "pandas",
    "plotly.graph_objects",
    "agent_core.loop.stepper",
    "agent_core.report.charts",
    "agent_core.cost.accounting",
    "lab_ui.playground.page",
    "lab_ui.lessons.page",
    "lab_ui.runs.page",
    "lab_ui.settings.page",
)


@functools.cache  # once per process; the cache holds only the None this returns, no session's data
def freeze_startup_heap() -> None:
    """A full collection walks every object alive: the ~1 million that the imports above create were most of each
    click's server time while Streamlit collected after every rerun (now off in .streamlit/config.toml, since with
    a class connected it also walked every session's runs), and Python's own full collections still walk them.
    gc.freeze() moves what exists now into a permanent generation that collections skip. Only import-time objects
    are frozen (this runs before the first page builds its state), so memory stays bounded: later garbage is
    collected as before.
    The once-per-process mark is the cache, not gc.get_freeze_count(): that walks the whole frozen generation
    (a million objects, tens of ms), and every rerun calls this twice."""
    if gc.get_freeze_count():  # a process that froze its heap before (tests importing the app twice)
        return
    for name in HEAVY_MODULES:
        importlib.import_module(name)
    gc.collect()
    gc.freeze()
