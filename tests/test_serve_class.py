"""The class recipe: two app processes behind nginx, each browser kept on one process, and the loop works through it."""

import shutil
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from browser import ROOT, button, free_port, needs_chromium, shot, wait_idle
from keys import NEXT_STEP

NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
pytestmark = pytest.mark.skipif(NGINX is None, reason="nginx is not installed (.ci/run installs it)")


def worker_of(url: str, cookie: str | None = None) -> str:
    request = urllib.request.Request(f"{url}/_stcore/health", headers={"Cookie": cookie} if cookie else {})
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.headers["X-Lab-Worker"]


@pytest.fixture
def class_server(tmp_path):
    port, workers = free_port(), [free_port(), free_port()]
    command = [sys.executable, "deploy/serve_class.py", "--host", "127.0.0.1", "--port", str(port),
               "--worker-ports", ",".join(map(str, workers))]  # fmt: skip
    env = {"PATH": "/usr/bin:/bin:/usr/sbin", "HOME": str(tmp_path), "AGENT_LOOP_LAB_DB": str(tmp_path / "runs.db")}
    proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    url = f"http://127.0.0.1:{port}"
    try:
        assert "serving a class" in proc.stdout.readline()  # printed once both workers and nginx are up
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                worker_of(url)
                break
            except OSError:
                time.sleep(0.3)
        yield url, workers
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_new_browsers_spread_over_the_processes_and_each_stays_on_its_own(class_server):
    url, workers = class_server
    seen = {worker_of(url) for _ in range(20)}  # each fresh request gets a new sticky key
    assert seen == {f"127.0.0.1:{p}" for p in workers}
    for cookie in ("lab_worker=learner-a", "lab_worker=learner-b"):
        assert len({worker_of(url, cookie) for _ in range(6)}) == 1


@pytest.mark.browser
@needs_chromium
def test_the_loop_steps_through_the_proxy(class_server, pages):
    url, _ = class_server
    page = pages.new_page(viewport={"width": 1366, "height": 768})
    page.goto(f"{url}/playground")
    button(page, NEXT_STEP).wait_for(timeout=60_000)
    button(page, NEXT_STEP).click()
    wait_idle(page)
    page.get_by_role("heading", name="Turn 1").first.wait_for(timeout=60_000)
    shot(page, "serve-class-playground")
