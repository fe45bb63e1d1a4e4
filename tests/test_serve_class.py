"""The class recipe: two app processes behind nginx, each browser kept on one process, and the loop works through it;
a worker that dies is started again while the other and nginx keep serving; nginx takes the README's 20 MB import."""

import os
import queue
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.error
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
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in proc.stdout], daemon=True).start()
    try:
        assert "serving a class" in lines.get(timeout=120)  # printed once both workers and nginx are up
        pids = dict(pair.split(":") for pair in lines.get(timeout=10).split("(port:pid) ")[1].split(";")[0].split(", "))
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                worker_of(url)
                break
            except OSError:
                time.sleep(0.3)
        yield url, workers, {int(port): int(pid) for port, pid in pids.items()}, lines
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_new_browsers_spread_over_the_processes_and_each_stays_on_its_own(class_server):
    url, workers, _, _ = class_server
    seen = {worker_of(url) for _ in range(20)}  # each fresh request gets a new sticky key
    assert seen == {f"127.0.0.1:{p}" for p in workers}
    for cookie in ("lab_worker=learner-a", "lab_worker=learner-b"):
        assert len({worker_of(url, cookie) for _ in range(6)}) == 1


@pytest.mark.browser
@needs_chromium
def test_the_loop_steps_through_the_proxy(class_server, pages):
    url, _, _, _ = class_server
    page = pages.new_page(viewport={"width": 1366, "height": 768})
    page.goto(f"{url}/playground")
    button(page, NEXT_STEP).wait_for(timeout=60_000)
    button(page, NEXT_STEP).click()
    wait_idle(page)
    page.get_by_role("heading", name="Turn 1").first.wait_for(timeout=60_000)
    shot(page, "serve-class-playground")


def test_a_killed_worker_is_started_again_and_its_browsers_are_served_meanwhile(class_server):
    url, workers, pids, lines = class_server
    victim = workers[0]
    cookie = next(f"lab_worker=k{i}" for i in range(100) if worker_of(url, f"lab_worker=k{i}") == f"127.0.0.1:{victim}")
    os.kill(pids[victim], signal.SIGKILL)
    # Its browsers' requests go to the other worker at once (nginx passes them on): the class is still served.
    # (X-Lab-Worker is nginx's $upstream_addr: every worker it tried, the one that answered last.)
    assert worker_of(url, cookie).split(", ")[-1] == f"127.0.0.1:{workers[1]}"
    assert page_status(url, cookie) == 200, "a learner of the dead worker reloads into a page, not an error"
    line = lines.get(timeout=30)
    assert f"worker on port {victim} stopped" in line and "starting it again" in line
    deadline = time.monotonic() + 90
    while True:  # the new worker answers on the same port (waiting for a process to start: no event to wait on)
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{victim}/_stcore/health", timeout=2)
            break
        except OSError:
            assert time.monotonic() < deadline, "the worker was not started again"
            time.sleep(0.3)
    # nginx tries it again once its fail_timeout passes: its browsers are back on it, the class whole again.
    while worker_of(url, cookie).split(", ")[-1] != f"127.0.0.1:{victim}":
        assert time.monotonic() < deadline, "nginx never sent the restarted worker its browsers again"
        time.sleep(0.3)
    assert page_status(url, cookie) == 200


def page_status(url: str, cookie: str) -> int:
    with urllib.request.urlopen(urllib.request.Request(f"{url}/lessons", headers={"Cookie": cookie}), timeout=10) as r:
        return r.status


def test_nginx_takes_an_upload_of_the_import_size_the_readme_promises(class_server):
    url, _, _, _ = class_server
    body = b"x" * (20 * 1024 * 1024)
    request = urllib.request.Request(f"{url}/_stcore/upload_file/none/none", data=body, method="PUT")
    try:
        urllib.request.urlopen(request, timeout=30)
        status = 200
    except urllib.error.HTTPError as exc:
        status = exc.code
    assert status != 413, "nginx refused a 20 MB body (its default client_max_body_size is 1 MB)"
