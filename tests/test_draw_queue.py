"""The draw queue: a class's page runs go one at a time, in the order they came, and a wait lets the others go."""

import threading
import time

import pytest

from lab_ui.frame.draw_queue import DrawQueue


def _start(target) -> threading.Thread:
    thread = threading.Thread(target=target)
    thread.start()
    return thread


def _until(condition, seconds: float = 5.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.005)


def _queued(queue: DrawQueue) -> int:
    return len(queue._waiting)  # noqa: SLF001 - how many wait is what this test is about


def test_runs_are_served_in_the_order_they_came():
    queue, order = DrawQueue(), []
    queue.acquire()
    threads = []
    for n in range(6):

        def run(n: int = n) -> None:
            with queue:
                order.append(n)

        threads.append(_start(run))
        _until(lambda n=n: _queued(queue) == n + 1)  # each waits before the next one comes
    queue.release()
    for thread in threads:
        thread.join(5)
    assert order == list(range(6))


def test_a_run_may_take_the_queue_again_inside_itself():
    queue = DrawQueue()
    with queue, queue:  # a page run that reruns its fragment in the same thread
        assert queue.held_here() == 2
    assert queue.held_here() == 0


def test_a_wait_lets_the_others_draw_and_comes_back_first():
    queue, order = DrawQueue(), []
    waiting_for_server, answered = threading.Event(), threading.Event()

    def clicker() -> None:
        with queue, queue:
            with queue.released():
                assert queue.held_here() == 0
                waiting_for_server.set()
                answered.wait(5)
            assert queue.held_here() == 2, "the depth comes back with the queue"
            order.append("clicker")

    def other(name: str) -> None:
        with queue:
            order.append(name)
            if name == "first":
                answered.set()  # the server answers while the others are queued
                _until(lambda: _queued(queue) == 2)

    first = _start(clicker)
    waiting_for_server.wait(5)
    threads = [_start(lambda: other("first"))]
    _until(lambda: order == ["first"])
    threads.append(_start(lambda: other("second")))
    for thread in [first, *threads]:
        thread.join(5)
    assert order == ["first", "clicker", "second"], "back from its wait, the click goes ahead of the queue"


def test_only_the_holder_can_release():
    queue = DrawQueue()
    queue.acquire()
    errors = []

    def intruder() -> None:
        try:
            queue.release()
        except RuntimeError as exc:
            errors.append(exc)

    thread = _start(intruder)
    thread.join(5)
    assert errors and queue.held_here() == 1
    queue.release()
    with pytest.raises(RuntimeError):
        queue.release()


def test_a_decorated_function_holds_the_queue_while_it_runs_and_lets_go_when_it_raises():
    queue = DrawQueue()
    seen = []

    @queue
    def fragment(fail: bool) -> None:  # as under @st.fragment, whose rerun is an exception out of the body
        seen.append(queue.held_here())
        if fail:
            raise RuntimeError("a rerun")

    fragment(False)
    with pytest.raises(RuntimeError):
        fragment(True)
    assert seen == [1, 1] and queue.held_here() == 0
    other = _start(lambda: queue.acquire())  # free for another thread after both calls
    other.join(5)
    assert not other.is_alive()
