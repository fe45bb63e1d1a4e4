"""Browser-test helpers: start the app with `streamlit run` on a free port and drive Debian's Chromium headless."""

from __future__ import annotations

import contextlib
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts"

needs_chromium = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def running_app(
    db_path: Path, extra_env: dict | None = None, log_path: Path | None = None, extra_args: tuple[str, ...] = ()
):
    """`streamlit run app.py` on a free port with its own runs database; yields the base URL.

    The app's output goes to `log_path` (default test-artifacts/app-PORT.log): a file, not a pipe nobody
    reads, so a chatty app never blocks. No ANTHROPIC_API_KEY is inherited unless extra_env sets one."""
    with running_streamlit("app.py", db_path, extra_env, log_path, extra_args) as (url, _pid):
        yield url


@contextlib.contextmanager
def running_streamlit(
    script: str,
    db_path: Path,
    extra_env: dict | None = None,
    log_path: Path | None = None,
    extra_args: tuple[str, ...] = (),
):
    """`streamlit run SCRIPT` (a path from the repository's root) as running_app starts it; yields (url, pid),
    the pid for benchmarks that read the server's CPU time."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "ANTHROPIC_API_KEY"}
    env |= {"AGENT_LOOP_LAB_DB": str(db_path), "STREAMLIT_BROWSER_GATHER_USAGE_STATS": "false", **(extra_env or {})}
    ARTIFACTS.mkdir(exist_ok=True)
    url = f"http://127.0.0.1:{port}"
    with open(log_path or ARTIFACTS / f"app-{port}.log", "wb") as log:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "streamlit",
                "run",
                script,
                "--server.port",
                str(port),
                "--server.headless",
                "true",
                "--server.fileWatcherType",
                "none",
                *extra_args,
            ],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        try:
            _wait_healthy(url)
            yield url, proc.pid
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()


def _wait_healthy(url: str, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"{url}/_stcore/health", timeout=1)
            return
        except OSError:
            time.sleep(0.3)
    raise RuntimeError(f"the app did not start within {seconds:g} s")


@contextlib.contextmanager
def browser():
    """A headless Chromium driven by Playwright (Debian's binary; Playwright downloads nothing)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


def shot(page, name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def wait_idle(page, timeout: float = 60_000) -> None:
    """Wait until Streamlit has finished the rerun a click started (stApp's script state is notRunning)."""
    app = "[data-testid='stApp']"
    try:  # the rerun may start a moment after the click
        page.wait_for_selector(f"{app}[data-test-script-state='running']", timeout=1_000)
    except Exception:  # noqa: BLE001 - it may also have started and finished already
        pass
    page.wait_for_selector(f"{app}[data-test-script-state='notRunning']", timeout=timeout)
    page.wait_for_timeout(100)  # let the last deltas paint


# -- finding controls by key: Streamlit puts the class `st-key-KEY` on a keyed element, never a label's words ------
def key_css(key: str) -> str:
    """The CSS selector of the element keyed `key` (Streamlit turns each character outside [a-zA-Z0-9_-] into -)."""
    return ".st-key-" + re.sub(r"[^a-zA-Z0-9_-]", "-", key.strip())


def by_key(page, key: str):
    """The keyed element itself (a widget's container, or a keyed st.container)."""
    return page.locator(key_css(key))


def by_key_prefix(page, prefix: str):
    """Every element whose key starts with `prefix` (keys that go on with an id, such as check:LESSON:EXERCISE)."""
    return page.locator(f"[class*='{key_css(prefix)[1:]}']")


def button(page, key: str):
    """The button keyed `key` (st.button, a form's submit button, a popover's or a download button)."""
    return page.locator(f"{key_css(key)} button").first


def click_key(page, key: str) -> None:
    """Click the button keyed `key` and wait until the rerun it starts has finished."""
    button(page, key).click()
    wait_idle(page)


def toggle_expander(page, key: str) -> None:
    """Open (or close) the expander keyed `key` by its own header, not those of expanders inside it."""
    by_key(page, key).locator("summary").first.click()


def field(page, key: str):
    """The text box, text area or number box keyed `key` (or in the container keyed `key`)."""
    return page.locator(f"{key_css(key)} :is(input, textarea)").first


def option(page, key: str, index: int):
    """Option `index` (from 0, in the code's order) of the radio group or segmented control keyed `key`."""
    return page.locator(f"{key_css(key)} :is(label:has(input[type=radio]), button)").nth(index)


def tab(page, key: str, index: int):
    """Tab `index` (from 0, in the code's order) of the tabs keyed `key`."""
    return page.locator(f"{key_css(key)} [role=tab]").nth(index)


def open_tab(page, key: str, index: int, timeout: float = 60_000) -> None:
    """Click tab `index` of the tabs keyed `key` and wait for its panel's content: lazy tabs are built by the rerun the
    click starts, which on a busy machine can begin well after wait_idle's first look."""
    handle = tab(page, key, index)
    handle.click()
    panel = (handle.get_attribute("id") or "").replace("-tab-", "-tabpanel-")
    page.locator(f"[id='{panel}'] [data-testid='stElementContainer']").first.wait_for(state="attached", timeout=timeout)
    wait_idle(page)


def nav_link(page, url_path: str):
    """The sidebar's link to the page at `url_path` (st.Page's url_path, never its translated title); "home" is the
    default page, whose link is the app's root: the first one."""
    links = page.get_by_test_id("stSidebarNavItems").locator("a")
    return links.first if url_path == "home" else links.and_(page.locator(f"[href*='/{url_path}']"))
