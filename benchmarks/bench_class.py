"""A classroom on one server process: N learners each click "Next step" every 10 s in lesson 07's runaway scenario.

The learners are protocol-level Streamlit clients (the same websocket messages a browser sends), so the client side
costs little (its own CPU is printed) and the figures are the server's. Each opens the Lessons page at lesson 07
("Break the loop": a stubborn model and no step limit), so every click runs one more turn with a growing context,
as in class. For N = 10, 40 and 100 it prints p50/p95 from a click to the end of its rerun, the server's CPU share
and its memory. The last line is the capacity: the largest N whose p95 stays <= 1.5 s.
Goal (issue 17): >= 100 learners per process. Prints the figures; asserts nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import statistics
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import websockets
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_click import cpu_seconds  # noqa: E402
from browser import running_streamlit  # noqa: E402

from agent_core.storage.store import RunStore  # noqa: E402

CLASS_SIZES = tuple(int(n) for n in os.environ.get("BENCH_CLASS_SIZES", "10,40,100").split(","))
SECONDS = float(os.environ.get("BENCH_CLASS_SECONDS", "60"))  # how long each class size clicks
PERIOD = 10.0  # one click per learner every 10 s
BUDGET_P95 = 1.5
LESSON = "break-the-loop"  # lessons/07: its scenario runs away, so each click is a real turn
# BENCH_CLASS_MODE=class runs the class server's entry (deploy/class_app.py: identity cookie middleware, per-learner
# run stores and ledger) instead of the personal app.py; BENCH_CLASS_MODE=both runs the two at once, side by side
# (each with its own class of learners), so both see the same machine and the ratio of their p95 is fair.
ENTRIES = {
    "personal": ("personal (app.py)", "app.py", {}),
    "class": ("class server (deploy/class_app.py)", "deploy/class_app.py", {"AGENT_LOOP_LAB_MODE": "class"}),
}
_MODE = os.environ.get("BENCH_CLASS_MODE", "personal")
MODES = tuple(ENTRIES) if _MODE == "both" else (_MODE if _MODE in ENTRIES else "personal",)


class Learner:
    """One browser tab, spoken as Streamlit's websocket protocol: load the Playground, then click Next step."""

    def __init__(self, url: str) -> None:
        self.page_url = f"{url}/lessons?lesson={LESSON}"
        self.ws_url = url.replace("http", "ws", 1) + "/_stcore/stream"
        self.query = f"lesson={LESSON}"
        self.button_id: str | None = None
        self.fragment_id = ""
        self.ws = None
        self.cookies = ""

    async def rerun(self, widget_states: list | None = None, fragment_id: str = "") -> float:
        """Send one rerun request; seconds until the server says the script (or the fragment) finished."""
        msg = BackMsg()
        msg.rerun_script.fragment_id = fragment_id
        msg.rerun_script.query_string = self.query
        msg.rerun_script.page_name = "lessons"
        for state in widget_states or []:
            msg.rerun_script.widget_states.widgets.append(state)
        started = time.perf_counter()
        await self.ws.send(msg.SerializeToString())
        while True:
            fwd = ForwardMsg()
            fwd.ParseFromString(await self.ws.recv())
            kind = fwd.WhichOneof("type")
            if kind == "delta" and fwd.delta.WhichOneof("type") == "new_element":
                element = fwd.delta.new_element
                if element.WhichOneof("type") == "button" and element.button.label == "Next step":
                    # As a browser does: a click on a widget in a fragment names the fragment, so only it reruns.
                    self.button_id, self.fragment_id = element.button.id, fwd.delta.fragment_id
            elif kind == "script_finished" and fwd.script_finished != ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                return time.perf_counter() - started

    async def open(self) -> None:
        # As a browser: the page first (on a class server its answer sets the identity cookie), then the websocket
        # with the cookies the page set. No client pings: a busy server answers them late and the client would
        # hang up (a browser does not ping).
        cookies = self.cookies = await asyncio.to_thread(page_cookies, self.page_url)
        self.ws = await websockets.connect(
            self.ws_url,
            subprotocols=["streamlit"],
            max_size=None,
            ping_interval=None,
            open_timeout=None,
            additional_headers={"Cookie": cookies} if cookies else None,
        )
        await self.rerun()

    async def click(self) -> float:
        state = BackMsg().rerun_script.widget_states.widgets.add()
        state.id, state.trigger_value = self.button_id, True
        return await self.rerun([state], self.fragment_id)


def page_cookies(url: str) -> str:
    """The cookies a page load sets, as a Cookie header (empty when it sets none)."""
    with urllib.request.urlopen(url, timeout=60) as response:
        response.read()
        return "; ".join(v.split(";")[0] for v in response.headers.get_all("Set-Cookie") or [])


async def classroom(url: str, size: int, pid: int) -> tuple[list[float], float]:
    learners = [Learner(url) for _ in range(size)]
    for learner in learners:  # a class arrives over a minute, not in one instant
        await learner.open()
    latencies: list[float] = []
    cpu_before, started = cpu_seconds(pid), time.perf_counter()
    own_before = time.process_time()

    async def keep_clicking(learner: Learner) -> None:
        await asyncio.sleep(random.uniform(0, PERIOD))
        while time.perf_counter() - started < SECONDS:
            latencies.append(await learner.click())
            await asyncio.sleep(PERIOD)

    await asyncio.gather(*(keep_clicking(learner) for learner in learners))
    elapsed = time.perf_counter() - started
    cpu_share = (cpu_seconds(pid) - cpu_before) / elapsed
    own_cpu = (time.process_time() - own_before) / elapsed  # all classes of this benchmark process together
    with_id = sum("lab_learner=" in learner.cookies for learner in learners)
    print(f"  N={len(learners)} at {url}: the learners' own CPU {own_cpu:.2f} cores, {with_id} with an identity cookie")
    for learner in learners:
        await learner.ws.close()
    return latencies, cpu_share


def rss_mb(pid: int) -> float:
    """The server's resident memory (VmRSS)."""
    line = next(x for x in Path(f"/proc/{pid}/status").read_text().splitlines() if x.startswith("VmRSS:"))
    return int(line.split()[1]) / 1024


def p95(latencies: list[float]) -> float:
    return sorted(latencies)[max(0, round(0.95 * len(latencies)) - 1)]


async def side_by_side(urls: list[tuple[str, int]], size: int) -> list[tuple[list[float], float]]:
    return list(await asyncio.gather(*(classroom(url, size, pid) for url, pid in urls)))


def main() -> None:
    random.seed(7)
    results: dict[str, dict[int, tuple[list[float], float, int, float]]] = {mode: {} for mode in MODES}
    with tempfile.TemporaryDirectory() as tmp:
        for size in CLASS_SIZES:
            with contextlib.ExitStack() as servers:
                dbs, urls = {}, []
                for mode in MODES:
                    _, entry, env = ENTRIES[mode]
                    dbs[mode] = Path(tmp) / f"runs-{mode}-{size}.db"
                    args = ("--server.enableXsrfProtection", "false")
                    urls.append(servers.enter_context(running_streamlit(entry, dbs[mode], env, extra_args=args)))
                measured = asyncio.run(side_by_side(urls, size))
                memories = [rss_mb(pid) for _, pid in urls]
            for mode, (latencies, cpu), memory in zip(MODES, measured, memories, strict=True):
                turns = sum(run.turns for run in RunStore(dbs[mode]).list_runs(limit=10_000))  # the clicks ran turns
                results[mode][size] = (latencies, cpu, turns, memory)
    print(f"machine load (1 min) at the end: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    for mode in MODES:
        name = ENTRIES[mode][0]
        together = " (both entries at once)" if len(MODES) > 1 else ""
        print(
            f"learners clicking Next step every {PERIOD:g} s for {SECONDS:g} s in lesson 07, one {name} process{together}:"
        )
        print("     N   clicks   turns saved   p50 (s)   p95 (s)   server CPU (cores)   server memory (MB)")
        fits = 0
        for size, (lat, cpu, turns, memory) in results[mode].items():
            print(
                f"  {size:4d}   {len(lat):6d}   {turns:11d}   {statistics.median(lat):7.2f}   {p95(lat):7.2f}"
                f"   {cpu:18.2f}   {memory:18.0f}"
            )
            if p95(lat) <= BUDGET_P95:
                fits = max(fits, size)
        print(f"learners per process at p95 <= {BUDGET_P95:g} s (of the sizes tried): {fits} (goal: >= 100)")
    if len(MODES) == 2:
        for size in CLASS_SIZES:
            (base, *_), (other, *_) = results["personal"][size], results["class"][size]
            print(f"N={size}: class server p95 / personal p95 = {p95(other) / p95(base):.2f}")


if __name__ == "__main__":
    main()
