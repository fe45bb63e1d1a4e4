"""One page drawn at a time per process, first come first served: a class's clicks queue instead of thrashing.

Streamlit runs each browser session's script in its own thread, and they all share one GIL and Streamlit's config
lock. With a class clicking at once, 40-60 runs went on together, each slowed by all the others and by lock
convoys: at 100 learners a click waited 10-20 s with the CPU two-thirds busy. Drawn one after another, each run
ends as soon as its own work is done and the CPU stays busy (benchmarks/bench_class.py prints both).

The queue holds no data of any session, only whose turn it is. A wait for the network (a model call, a model
list) is done outside it (`released`), so a slow server never holds up the class.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Iterator
from contextlib import ContextDecorator, contextmanager


class DrawQueue(ContextDecorator):
    """A re-entrant lock handed to its waiters in the order they came (threading.Lock wakes any of them).

    `with QUEUE:` around a page run; `@QUEUE` under `@st.fragment`, so that a fragment's own reruns queue too."""

    def __init__(self) -> None:
        self._guard = threading.Lock()
        self._waiting: deque[tuple[int, threading.Event]] = deque()
        self._owner: int | None = None
        self._depth = 0

    def acquire(self, first: bool = False) -> None:
        """Wait for this thread's turn; `first` goes ahead of the queue (a run coming back from a wait)."""
        me = threading.get_ident()
        with self._guard:
            if self._owner == me:
                self._depth += 1
                return
            if self._owner is None and not self._waiting:
                self._owner, self._depth = me, 1
                return
            turn = threading.Event()
            (self._waiting.appendleft if first else self._waiting.append)((me, turn))
        turn.wait()  # release() made this thread the owner before setting the event

    def release(self) -> None:
        with self._guard:
            if self._owner != threading.get_ident():
                raise RuntimeError("DrawQueue released by a thread that does not hold it")
            self._depth -= 1
            if self._depth:
                return
            self._owner = None
            if self._waiting:
                self._owner, turn = self._waiting.popleft()
                self._depth = 1
                turn.set()

    def held_here(self) -> int:
        """How deep this thread holds the queue (0: not at all)."""
        with self._guard:
            return self._depth if self._owner == threading.get_ident() else 0

    def __enter__(self) -> DrawQueue:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()

    @contextmanager
    def released(self) -> Iterator[None]:
        """Let the others draw while this thread waits (for the network, a model); then back at the front."""
        depth = self.held_here()
        for _ in range(depth):
            self.release()
        try:
            yield
        finally:
            if depth:
                self.acquire(first=True)
                with self._guard:
                    self._depth = depth


QUEUE = DrawQueue()
