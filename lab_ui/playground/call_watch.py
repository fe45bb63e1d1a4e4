"""While a model call is in flight: the seconds so far (or a server-requested wait counting down) and a Cancel.

The SDK call runs in a worker thread; the page's script thread watches it and redraws a line every second. Those
redraws are where Streamlit stops a script run when the learner clicks Cancel: the watch then lets the call go (it
ends at its own timeout, and its result is dropped), so the turn is not recorded and the run stays as it was.
Every object here belongs to one click of one browser session.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import anthropic
import streamlit as st

from agent_core.wire.capture import Wait
from lab_ui.controller.click import Level
from lab_ui.controller.session import LabSession
from lab_ui.words.i18n import t

POLL_S = 0.2  # how often the script thread looks in, and so how soon a Cancel click stops the wait
CANCEL_KEY = "call:cancel"


class CallAbandoned(anthropic.AnthropicError):
    """Raised in an abandoned call's worker thread to end a server-requested wait it is still counting down.

    An AnthropicError that is not an APIConnectionError: the SDK passes it up as it is, and does not retry."""


@dataclass
class InFlight:
    """One model call in its worker thread, as the script thread sees it."""

    done: threading.Event = field(default_factory=threading.Event)
    result: Any = None
    error: BaseException | None = None
    wait: Wait | None = None  # a wait the server asked for before a retry, counting down
    abandoned: bool = False  # the learner cancelled: the worker stops waiting, and its result is dropped
    started: float = field(default_factory=time.monotonic)


class CallWatch:
    """Runs each model call of one click in a worker thread, with a timer line and a Cancel button meanwhile."""

    def __init__(self, lab: LabSession, after_cancel: Callable[[], None] | None = None) -> None:
        self.lab = lab
        self._after_cancel = after_cancel  # e.g. save the turns this click finished before the cancelled call
        self.flight: InFlight | None = None
        self._line, self._button = st.empty(), st.empty()
        self._shown: tuple | None = None
        self._cancel_drawn = False

    def run(self, send: Callable[[], Any]) -> Any:
        """The Stepper's call_runner: send() in a worker thread, watched from here until it ends or is cancelled."""
        flight = self.flight = InFlight()

        def work() -> None:
            try:
                flight.result = send()
            except BaseException as exc:  # noqa: BLE001 - handed back to the script thread as it is
                flight.error = exc
            finally:
                flight.done.set()

        threading.Thread(target=work, name="model-call", daemon=True).start()
        try:
            while not flight.done.wait(POLL_S):
                self._show(flight)  # a Cancel click stops the script run here
        finally:
            flight.abandoned = not flight.done.is_set()
        if flight.error is not None:
            raise flight.error
        return flight.result

    def on_wait(self, wait: Wait) -> None:
        """Called in the worker thread while the server's requested wait runs."""
        flight = self.flight
        if flight is None:
            return
        if flight.abandoned:
            raise CallAbandoned  # ends the wait: no retry is sent for a cancelled call
        flight.wait = wait

    def _show(self, flight: InFlight) -> None:
        elapsed = int(time.monotonic() - flight.started)
        wait = flight.wait
        if wait is not None and wait.left_s > 0:
            shown: tuple = ("wait", math.ceil(wait.left_s), wait.asked_s, wait.capped)
        else:
            shown = ("call", elapsed)
        if shown != self._shown:
            self._shown = shown
            self._draw(shown, wait)
        else:
            st.session_state.get(CANCEL_KEY)  # reading the state is a point where Streamlit can stop the run
        if not self._cancel_drawn:
            self._cancel_drawn = True
            self._button.button(t("Cancel"), key=CANCEL_KEY, on_click=self._cancelled, args=(self.flight,))

    def _draw(self, shown: tuple, wait: Wait | None) -> None:
        if shown[0] == "wait" and wait is not None:
            words = t(
                "The server asked to wait {asked} s before retrying. Retrying in {left} s.",
                asked=f"{wait.asked_s:g}",
                left=shown[1],
            )
            if wait.capped:
                words += " " + t("Waits are capped at {cap} s.", cap=f"{wait.waiting_s:g}")
            self._line.warning(words)
        else:
            self._line.info(t("Calling the model… {seconds} s", seconds=shown[1]), icon=":material/hourglass_top:")

    def _cancelled(self, flight: InFlight | None) -> None:
        """The Cancel click's callback, at the start of the next script run: say what happened."""
        seconds = int(time.monotonic() - flight.started) if flight else 0
        if flight is not None and flight.wait is not None:
            text = t("The wait was cancelled. The run so far is kept; press Next phase to call again.")
        else:
            text = t(
                "The model call was cancelled after {seconds} s and not recorded. The run so far is kept; "
                "press Next phase to call the model again.",
                seconds=seconds,
            )
        self.lab.tell(Level.INFO, text)
        if self._after_cancel is not None:
            self._after_cancel()

    def clear(self) -> None:
        self._line.empty()
        self._button.empty()


@contextmanager
def watched(lab: LabSession, after_cancel: Callable[[], None] | None = None) -> Iterator[CallWatch]:
    """For one click: every model call it makes runs watched, with the timer and Cancel where this is called."""
    watch = CallWatch(lab, after_cancel)
    lab.call_runner, lab.on_wait = watch.run, watch.on_wait
    try:
        yield watch
    finally:
        lab.call_runner, lab.on_wait = None, None  # the next click's stepper() hands the stepper these Nones
        watch.clear()
