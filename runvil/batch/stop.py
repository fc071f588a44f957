"""Ctrl-C for a batch: the first SIGINT asks the engine to cancel the runs
in flight and end once they are back; a second one stops waiting."""
from __future__ import annotations

import contextlib
import signal
import threading


class Stop:
    def __init__(self):
        self.requested = threading.Event()
        self.forced = threading.Event()

    def request(self) -> None:
        (self.forced if self.requested.is_set() else self.requested).set()


@contextlib.contextmanager
def ctrl_c_stops(stop: Stop):
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, lambda signum, frame: stop.request())
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
