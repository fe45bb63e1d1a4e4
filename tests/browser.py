"""Browser-test helpers: start the app with `streamlit run` on a free port and drive Debian's Chromium headless."""

from __future__ import annotations

import contextlib
import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts"

needs_chromium = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed")
# The environment as the test run began: a shared server started later never inherits what one test monkeypatched.
BASE_ENV = dict(os.environ)


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
    base_env: Mapping[str, str] | None = None,
):
    """`streamlit run SCRIPT` (a path from the repository's root) as running_app starts it; yields (url, pid),
    the pid for benchmarks that read the server's CPU time. The environment is `base_env` (default: this process's)
    without ANTHROPIC_API_KEY, plus the runs database and `extra_env`."""
    env = {k: v for k, v in (os.environ if base_env is None else base_env).items() if k != "ANTHROPIC_API_KEY"}
    env |= {"AGENT_LOOP_LAB_DB": str(db_path), "STREAMLIT_BROWSER_GATHER_USAGE_STATS": "false", **(extra_env or {})}
    ARTIFACTS.mkdir(exist_ok=True)
    for attempt in range(3):  # a port found free can be taken before streamlit binds it (another test process)
        port = free_port()
        url = f"http://127.0.0.1:{port}"
        with open(log_path or ARTIFACTS / f"app-{port}.log", "wb") as log:
            command = [sys.executable, "-m", "streamlit", "run", script, "--server.port", str(port),
                       "--server.headless", "true", "--server.fileWatcherType", "none", *extra_args]  # fmt: skip
            proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
            try:
                if _wait_healthy(url, proc):
                    yield url, proc.pid
                    return
                if attempt == 2:
                    raise RuntimeError(f"the app exited before it answered (its log: {log.name})")
            finally:
                proc.terminate()
                try:
                    proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    proc.kill()


def _wait_healthy(url: str, proc: subprocess.Popen, seconds: float = 60) -> bool:
    """True once the server answers its health check; False if it exited first (its port was taken)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            return False
        try:
            urllib.request.urlopen(f"{url}/_stcore/health", timeout=1)
            return proc.poll() is None  # ours answered, not another process's server on the same port
        except OSError:
            time.sleep(0.05)  # polls a starting process: it says nothing when it is ready
    raise RuntimeError(f"the app did not start within {seconds:g} s")


@dataclass(frozen=True)
class App:
    """One running app server: its base URL and its runs database (seed runs into it, read what a test saved)."""

    url: str
    db: Path


class AppServers:
    """The app servers of one test process, one per profile (extra environment, arguments, script), each started on
    first use with its own runs database and stopped at the end of the session. A browser test gets a fresh browser
    context (its own Streamlit session, learner and cookies) on a shared server; what the server keeps across tests
    is only what the database holds, so a test finds its runs by id, never as "the only run"."""

    def __init__(self, root: Path) -> None:
        self._root, self._stack, self._apps = root, contextlib.ExitStack(), {}

    def get(
        self, extra_env: Mapping[str, str] | None = None, extra_args: tuple[str, ...] = (), script: str = "app.py"
    ) -> App:
        """`script` is the entry `streamlit run` starts: app.py, or deploy/class_app.py for a class server."""
        env = dict(extra_env or {})
        profile = (tuple(sorted(env.items())), tuple(extra_args), script)
        if profile not in self._apps:
            folder = self._root / f"app-{len(self._apps)}"
            folder.mkdir(parents=True)
            db = folder / "runs.db"
            url, _pid = self._stack.enter_context(
                running_streamlit(script, db, env, extra_args=tuple(extra_args), base_env=BASE_ENV)
            )
            self._apps[profile] = App(url, db)
        return self._apps[profile]

    def close(self) -> None:
        self._stack.close()


class Pages:
    """Fresh browser contexts from the one Chromium of this test process, each closed when the test ends (which
    ends its Streamlit sessions: a Teacher page left open would otherwise keep redrawing)."""

    def __init__(self, browser: LabBrowser) -> None:
        self._browser, self.contexts = browser, []

    def new_context(self, **options):
        context = self._browser.new_context(**options)
        self.contexts.append(context)
        return context

    def new_page(self, **options):
        """A page in a new context (as Browser.new_page): its own cookies and Streamlit session."""
        return self.new_context(**options).new_page()

    def close(self) -> None:
        for context in self.contexts:
            with contextlib.suppress(Exception):  # already closed by the test, or the browser went away
                context.close()
        self.contexts.clear()


# Every page a test opens gets this script before the app's own: it watches the app's websocket and numbers, on one
# counter, each rerun the page asks for (BackMsg.rerun_script, field 11), each script run the server starts
# (ForwardMsg.new_session, field 4) and ends (script_finished, field 6, except FINISHED_EARLY_FOR_RERUN = 2: another
# run follows), and each input a person makes. A run's end counts once the page has painted it (two animation
# frames after the message: Streamlit applies it, React commits, the browser lays it out).
RUN_WATCH_JS = """
(() => {
  if (window.__labRuns) return;
  const s = window.__labRuns = {seq: 0, asked: 0, started: 0, ended: 0, runs: 0, input: 0, inputAt: 0, frames: 0};
  const fields = (data) => {  // the top-level fields of one protobuf message: [[number, varint value or null]]
    const b = data instanceof ArrayBuffer ? new Uint8Array(data)
      : ArrayBuffer.isView(data) ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength) : null;
    if (!b) return [];
    const out = [];
    let i = 0;
    const varint = () => { let v = 0, m = 1, x; do { x = b[i++]; v += (x & 127) * m; m *= 128; } while (x & 128 && i < b.length); return v; };
    while (i < b.length) {
      const key = varint(), no = Math.floor(key / 8), type = key % 8;
      if (type === 0) out.push([no, varint()]);
      else if (type === 2) { const n = varint(); i += n; out.push([no, null]); }
      else if (type === 1) i += 8;
      else if (type === 5) i += 4;
      else break;
    }
    return out;
  };
  const Native = window.WebSocket;
  const send = Native.prototype.send;
  Native.prototype.send = function (data) {
    if (fields(data).some(([no]) => no === 11)) s.asked = ++s.seq;
    return send.call(this, data);
  };
  const painted = (seq) => setTimeout(() => requestAnimationFrame(() => requestAnimationFrame(() => {
    if (seq > s.ended) { s.ended = seq; s.runs += 1; }
  })), 0);
  function Watched(...args) {
    const ws = new Native(...args);
    ws.addEventListener("message", (event) => {
      for (const [no, value] of fields(event.data)) {
        if (no === 4) s.started = ++s.seq;
        else if (no === 6 && value !== 2) painted(++s.seq);
      }
    });
    return ws;
  }
  Watched.prototype = Native.prototype;
  for (const name of ["CONNECTING", "OPEN", "CLOSING", "CLOSED"]) Watched[name] = Native[name];
  window.WebSocket = Watched;
  const mark = (event) => {
    // A radio or checkbox fires `input` after the click that already asked for the rerun: the click is the input.
    if (event.type === "input" && ["radio", "checkbox"].includes(event.target && event.target.type)) return;
    s.input = ++s.seq; s.inputAt = performance.now(); s.frames = 0;
    const count = (seq) => requestAnimationFrame(() => { if (s.input === seq && ++s.frames < 3) count(seq); });
    count(s.input);
  };
  for (const type of ["pointerdown", "keydown", "click", "input"]) window.addEventListener(type, mark, true);
})();
"""
# Idle: a run has been painted; no rerun asked for is waiting to start, none started is waiting to end; and the last
# input either asked for a rerun or has not asked for one within three frames and GRACE_MS (a click that reruns
# nothing: a plain expander, a text typed but not yet sent; a widget may ask a few ms after the key, from an effect,
# later on a busy machine). stApp's script state agrees.
GRACE_MS = 150
IDLE_JS = """
([grace, rerun]) => {
  const s = window.__labRuns;
  const app = document.querySelector("[data-testid='stApp']");
  if (!s || !app || app.getAttribute("data-test-script-state") !== "notRunning" || !s.runs) return false;
  if (s.asked > s.started || s.started > s.ended) return false;
  return s.asked > s.input || (!rerun && s.frames >= 3 && performance.now() - s.inputAt >= grace);
}
"""


class LabBrowser:
    """A Playwright Browser whose every page watches the app's runs (RUN_WATCH_JS), for wait_idle."""

    def __init__(self, browser) -> None:
        self._browser = browser

    def __getattr__(self, name: str):
        return getattr(self._browser, name)

    def new_context(self, **options):
        context = self._browser.new_context(**options)
        context.add_init_script(RUN_WATCH_JS)
        return context

    def new_page(self, **options):
        """A page in a context of its own (as Browser.new_page), closed with it."""
        context = self.new_context(**options)
        page = context.new_page()
        page.on("close", lambda _page: _close_quietly(context))
        return page


def _close_quietly(context) -> None:
    """Close a page's context, unless the browser closing is what closed the page (then the context is gone too)."""
    with contextlib.suppress(Exception):
        context.close()


def launch(playwright) -> LabBrowser:
    """Debian's Chromium, headless (Playwright downloads nothing)."""
    return LabBrowser(playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS))


@contextlib.contextmanager
def browser():
    """A headless Chromium driven by Playwright, of its own (tests share one through the `chromium` fixture)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = launch(p)
        try:
            yield b
        finally:
            b.close()


def shot(page, name: str) -> Path:
    """A full-page screenshot in test-artifacts/ (for people to look at; LAB_IDLE_LOG times it)."""
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    started = time.monotonic()
    page.screenshot(path=str(path), full_page=True)
    _log(started, "shot", {"name": name})
    return path


def _log(started: float, kind: str, detail: dict) -> None:
    if log := os.environ.get("LAB_IDLE_LOG"):
        with open(log, "a") as out:
            out.write(f"{time.monotonic() - started:.3f} {kind} {json.dumps(detail)}\n")


def wait_idle(page, timeout: float = 60_000, rerun: bool = False) -> None:
    """Wait until the rerun the last click or key started (if it started one) has ended and been painted; with
    `rerun`, the input surely starts one (a button): wait for it however late it is asked for, no grace.

    With LAB_IDLE_LOG=FILE each wait appends a line: its seconds, "rerun" (it waited for a rerun) or "grace" (the
    input asked for none), and the page's counters; each screenshot a "shot" line (benchmarks/bench_suite.py sums
    them)."""
    started = time.monotonic()
    page.wait_for_function(IDLE_JS, arg=[GRACE_MS, rerun], timeout=timeout, polling="raf")
    if os.environ.get("LAB_IDLE_LOG"):
        runs = page.evaluate("window.__labRuns")
        _log(started, "rerun" if runs["asked"] > runs["input"] else "grace", runs)


LAYOUT_JS = """
() => new Promise((done) => {
  const size = () => {  // the page's extent, the main area's box, and how far each box around it is scrolled
    const root = document.documentElement, out = [root.scrollWidth, root.scrollHeight];
    const main = document.querySelector("[data-testid='stMain']");
    if (main) { const r = main.getBoundingClientRect(); out.push(r.width, r.height); }
    for (let e = main; e; e = e.parentElement) out.push(e.scrollTop, e.scrollLeft);
    return JSON.stringify(out);
  };
  let last = size(), same = 0, frames = 0;
  const frame = () => {
    const now = size();
    same = now === last ? same + 1 : 0;
    last = now;
    if (same >= 2 || ++frames > 600) done(same >= 2); else requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
})
"""


def wait_layout(page, timeout: float = 30_000) -> None:
    """After a resize or a scroll (nothing reruns, CSS reacts): the app is idle and the page's size and scroll have
    held still for two frames."""
    wait_idle(page, timeout)
    assert page.evaluate(LAYOUT_JS), "the layout kept moving for 600 frames"


def wait_painted(page, timeout: float = 60_000) -> None:
    """The app is idle and every element is drawn: Streamlit loads an element's code (st.html, a select box) on first
    use and shows a skeleton until then, so a page's first load can be measured half drawn."""
    wait_idle(page, timeout)
    page.wait_for_function("() => !document.querySelector(\"[data-testid='stSkeleton']\")", timeout=timeout)


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
    wait_idle(page, rerun=True)


def toggle_expander(page, key: str) -> None:
    """Open (or close) the expander keyed `key` by its own header, not those of expanders inside it."""
    by_key(page, key).locator("summary").first.click()


def field(page, key: str):
    """The text box, text area or number box keyed `key` (or in the container keyed `key`)."""
    return page.locator(f"{key_css(key)} :is(input, textarea)").first


def option(page, key: str, index: int):
    """Option `index` (from 0, in the code's order) of the radio group or segmented control keyed `key`."""
    return page.locator(f"{key_css(key)} :is(label:has(input[type=radio]), button)").nth(index)


# "shown" once a list shows, "missed" after MISSED_CLICK_FRAMES animation frames without one (`__labFrames` counts from the
# first poll: each wait starts it afresh).
MISSED_CLICK_FRAMES = 12
LIST_SHOWN_JS = f"""() => {{
  if (document.querySelector("[role=listbox]")) {{ window.__labFrames = undefined; return "shown"; }}
  window.__labFrames = (window.__labFrames ?? 0) + 1;
  if (window.__labFrames < {MISSED_CLICK_FRAMES}) return null;
  window.__labFrames = undefined;
  return "missed";
}}"""


def open_select(page, key: str, tries: int = 3) -> None:
    """Open the dropdown keyed `key` until its list shows: a click that lands while a rerun swaps the widget opens
    nothing, so the list is waited for and the click repeated (a failure still raises on the last try)."""
    listbox = page.get_by_role("listbox")
    for attempt in range(tries):
        by_key(page, key).get_by_role("combobox").click()
        if attempt < tries - 1:
            # A click that opened nothing shows no list at all for a dozen frames; frames stall with a busy main
            # thread, so a slow machine waits longer by itself (a fixed 10 s timeout cost 10 s per missed click).
            if page.wait_for_function(LIST_SHOWN_JS, polling="raf", timeout=30_000).json_value() == "shown":
                return
            wait_idle(page)
            continue
        listbox.first.wait_for(timeout=30_000)  # the last try: a list that never shows fails here


def pick(page, key: str, index: int | None = None, name: str | None = None) -> None:
    """Choose option `index` (from 0, in the code's order) or the option called `name` of the dropdown keyed `key`,
    and wait for the rerun the choice starts."""
    open_select(page, key)
    options = page.get_by_role("option")
    (options.nth(index) if name is None else page.get_by_role("option", name=name, exact=True)).click()
    wait_idle(page)


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
