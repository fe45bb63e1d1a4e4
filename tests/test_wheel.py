"""An installed wheel is a whole app: the lessons and every data file ship inside it (built and installed offline)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
# What a build needs from the checkout; caches, venvs and test output stay behind.
SKIP = shutil.ignore_patterns(".venv", ".git", "node_modules", "test-artifacts", "__pycache__", "*.egg-info", "build")

PROBE = """
import json, sys
import agent_core, lab_ui
from agent_core.teaching.lessons import LANGUAGES, LESSONS_ROOT, load_lessons
from agent_core.loop.stepper import run_task
from agent_core.model import RunConfig
from agent_core.tools.catalog import default_specs
lessons = load_lessons()
run = run_task(RunConfig(task="What is 2 to the power of 16?", tools=default_specs(["calculate"])))
print(json.dumps({
    "agent_core": agent_core.__file__,
    "lab_ui": lab_ui.__file__,
    "lessons_root": str(LESSONS_ROOT),
    "lessons": [x.id for x in lessons],
    "steps": {x.id: {lang: len(x.steps[lang]) for lang in LANGUAGES} for x in lessons},
    "stop": run.stop.kind if run.stop else None,
}))
"""


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """Build the wheel from a copy of the checkout and install it, without its dependencies, into a fresh venv."""
    tmp = tmp_path_factory.mktemp("wheel")
    source, dist, env = tmp / "src", tmp / "dist", tmp / "venv"
    shutil.copytree(ROOT, source, ignore=SKIP)
    pip = [sys.executable, "-m", "pip", "--no-input", "--disable-pip-version-check"]
    # No build isolation and no index: the build uses this venv's setuptools, so nothing is downloaded.
    build = [*pip, "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-w", str(dist), str(source)]
    subprocess.run(build, check=True, capture_output=True, cwd=tmp)
    wheel = next(dist.glob("agent_loop_lab-*.whl"))
    venv.EnvBuilder(with_pip=False).create(env)
    python = env / "bin" / "python"
    # The dependencies come from this venv: a .pth line appends its site-packages after the fresh one's.
    fresh_site = Path(
        subprocess.check_output(
            [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], text=True
        ).strip()
    )
    (fresh_site / "deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    subprocess.run(
        [*pip, "--python", str(python), "install", "--no-deps", "--no-index", str(wheel)],
        check=True,
        capture_output=True,
    )
    out = subprocess.run([python, "-c", PROBE], check=True, capture_output=True, text=True, cwd=tmp)
    return {"env": env, "wheel": wheel, **json.loads(out.stdout)}


def test_the_wheel_is_imported_from_the_fresh_venv_not_the_checkout(installed):
    env = str(installed["env"])
    assert installed["agent_core"].startswith(env)
    assert installed["lab_ui"].startswith(env)
    assert installed["lessons_root"].startswith(env)


def test_every_lesson_of_the_checkout_loads_from_the_wheel_in_every_language(installed):
    from agent_core.teaching.lessons import load_lessons

    expected = load_lessons()
    assert installed["lessons"] == [x.id for x in expected]
    for lesson in expected:
        assert installed["steps"][lesson.id] == {lang: len(steps) for lang, steps in lesson.steps.items()}
    assert all(n > 0 for counts in installed["steps"].values() for n in counts.values())


def test_the_installed_loop_runs_offline_with_its_shipped_data(installed):
    assert installed["stop"] == "end_turn"
