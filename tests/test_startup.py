"""The server freezes its import-time heap once, so Streamlit's full collection after each rerun skips it."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROBE = """
import gc, sys
from streamlit.testing.v1 import AppTest
at = AppTest.from_file("app.py", default_timeout=120)
at.run()
first = gc.get_freeze_count()
at.switch_page("pages/playground.py").run()
at.run()
print(first, gc.get_freeze_count(), "pandas" in sys.modules)
"""


def test_the_import_time_heap_is_frozen_once_and_not_again(tmp_path):
    env = {"AGENT_LOOP_LAB_DB": str(tmp_path / "runs.db"), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    out = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300, check=True
    )
    first, later, heavy_loaded = out.stdout.split()
    assert int(first) > 100_000  # the imports of the app's pages, frozen on the first run
    # Later reruns freeze nothing more, so session garbage stays collectable (a second gc.freeze() here would add
    # the tens of thousands of objects a Playground render leaves; CPython may move a few frozen objects back).
    assert abs(int(later) - int(first)) < 5_000
    assert heavy_loaded == "True"
